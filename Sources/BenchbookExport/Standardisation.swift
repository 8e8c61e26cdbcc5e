import BenchbookModels

/// A per-column affine map x ↦ (x − mean) / scale: the spec's standardisation,
/// possibly followed by a conditioning step a classifier asks for. Core ML's
/// scaler writes it as shift −mean and scale 1/scale.
struct Standardisation: Equatable {
  var mean: [Double]
  var scale: [Double]

  init(mean: [Double], scale: [Double]) {
    precondition(mean.count == scale.count, "one mean and one scale per column")
    self.mean = mean
    self.scale = scale
  }

  init(_ scaler: FittedStandardScaler) {
    self.init(mean: scaler.mean, scale: scaler.scale)
  }

  static func identity(width: Int) -> Standardisation {
    Standardisation(mean: Array(repeating: 0, count: width), scale: Array(repeating: 1, count: width))
  }

  /// This map followed by `next`: ((x − m₁)/s₁ − m₂)/s₂ = (x − (m₁ + m₂s₁)) / (s₁s₂).
  func then(_ next: Standardisation) -> Standardisation {
    Standardisation(
      mean: mean.indices.map { mean[$0] + next.mean[$0] * scale[$0] },
      scale: scale.indices.map { scale[$0] * next.scale[$0] })
  }

  var scaler: Scaler {
    Scaler(shiftValue: mean.map { -$0 }, scaleValue: scale.map { 1 / $0 })
  }
}

import BenchbookData
import BenchbookModels
import Foundation

/// scikit-learn's `DummyClassifier(strategy="prior")`: every row gets the training rows' class shares, whatever
/// its features; `strategy: uniform` gives every class 1/K. The floor any model must beat, defined entirely in this
/// test target to show what a new model takes: this type, its descriptor, and one line that registers it.
struct FeaturelessBaseline: Classifier, Hashable {
  /// What it predicts (scikit-learn's `strategy`).
  enum Strategy: String, CaseIterable, Sendable {
    /// The training rows' class shares.
    case prior
    /// 1/K for each of K classes.
    case uniform
  }

  var strategy: Strategy

  init(strategy: Strategy = .prior) {
    self.strategy = strategy
  }

  /// Reads `strategy` (prior | uniform).
  init(settings: inout SettingsReader) throws(SettingError) {
    let word = try settings.choice("strategy", options: Strategy.allCases.map(\.rawValue), default: "prior")
    strategy = Strategy(rawValue: word)!
    try settings.finish(known: Self.settingsSchema.flatMap(\.spellings))
  }

  static let settingsSchema: [SettingDescriptor] = [
    SettingDescriptor(
      "strategy", type: .word(Strategy.allCases.map(\.rawValue)), default: .string("prior"), searchable: true)
  ]

  var parameters: [String: ParameterValue] { ["strategy": .string(strategy.rawValue)] }

  /// Counts the classes; the features are only checked, as every model checks them.
  func fit(_ x: consuming Matrix, labels: [Int], classCount: Int) throws(ModelError) -> FittedFeatureless {
    precondition(labels.count == x.rows, "one label per row")
    guard x.values.allSatisfy(\.isFinite) else {
      throw ModelError("the featureless baseline cannot use missing or infinite feature values")
    }
    guard !labels.isEmpty else { throw ModelError("the featureless baseline needs training rows") }
    switch strategy {
    case .prior:
      var counts = [Int](repeating: 0, count: classCount)
      for label in labels { counts[label] += 1 }
      return FittedFeatureless(shares: counts.map { Double($0) / Double(labels.count) }, featureCount: x.columns)
    case .uniform:
      return FittedFeatureless(
        shares: [Double](repeating: 1 / Double(classCount), count: classCount), featureCount: x.columns)
    }
  }
}

/// The class shares every row gets.
struct FittedFeatureless: FittedClassifier {
  let shares: [Double]
  /// Columns of the design matrix it was fitted on: its exported file still takes every feature.
  let featureCount: Int

  var classCount: Int { shares.count }
  var parameterCount: Int { shares.count }

  func predictProbabilities(_ x: Matrix) -> Matrix {
    Matrix(rows: x.rows, columns: shares.count, values: Array((0..<x.rows).map { _ in shares }.joined()))
  }

  /// What it computes, for every export format: linear scores with no weights and the log shares as intercepts, so
  /// the softmax gives the shares back. A class it never saw has no finite log share: such a fit has no form.
  func exportForm() throws(ExportFormError) -> ExportForm {
    guard shares.allSatisfy({ $0 > 0 }) else {
      throw ExportFormError("the featureless baseline was fitted on rows without every class")
    }
    return .linear(
      LinearForm(
        weights: Matrix(rows: shares.count, columns: featureCount), intercepts: shares.map { log($0) }, link: .softmax,
        minimisesLogLoss: false))
  }
}

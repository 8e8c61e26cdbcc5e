import BenchbookData
import BenchbookExport
import BenchbookModels
import Testing

/// Exports: every fit states the form its descriptor declares, every format that holds that form writes a file
/// that predicts what the fit predicts (read back by Benchbook's reader of the format and evaluated as its runtime
/// computes), and the descriptor's updatable formats are exactly those that can update the form.
extension ClassifierConformance {
  /// Largest probability difference a file may show: Core ML keeps doubles except in float32 samples and network
  /// weights; TensorFlow Lite and ONNX compute in float32 (the runtime check's 1e-4).
  static func exportTolerance(_ format: any ExportFormat) -> Double {
    format.id == "coreml" ? 1e-5 : 1e-4
  }

  static func exportFormIsTheDeclaredOne(_ model: ModelDescriptor) throws {
    for dataset in ConformanceDataset.allCases {
      let data = try dataset.load()
      for configuration in Configuration.allCases {
        let fitted = try classifier(model, configuration.settings(model))
          .fit(data.x, labels: data.labels, classCount: data.classCount)
        let form = try fitted.exportForm()
        #expect(form.kind == model.exportForm, "\(dataset) \(configuration): a \(form.name) form")
        #expect(form.classCount == data.classCount && form.featureCount == data.x.columns, "\(dataset)")
      }
    }
    #expect(!ExportFormats.formats(for: model).isEmpty, "no format holds a \(model.exportForm) form")
  }

  /// Fitted on the even rows, checked on the odd ones, in every format the descriptor's form allows.
  static func exportsAgreeInEveryFormat(_ model: ModelDescriptor) throws {
    for dataset in ConformanceDataset.allCases {
      let data = try dataset.load()
      let train = Array(stride(from: 0, to: data.x.rows, by: 2))
      let test = Array(stride(from: 1, to: data.x.rows, by: 2))
      let x = data.x.selecting(rows: train)
      // In float32, as the graph formats take them: a split within float32 rounding of a value would otherwise
      // part the double from the float32 an app passes (a forest's hundred trees, boosting's bin thresholds).
      let heldOut = float32(data.x.selecting(rows: test))
      for configuration in Configuration.allCases {
        let fitted = try classifier(model, configuration.settings(model))
          .fit(x, labels: train.map { data.labels[$0] }, classCount: data.classCount)
        let expected = fitted.predictProbabilities(heldOut)
        let ties = try neighbourTies(fitted, heldOut)
        let request = exportRequest(fitted, model, columns: data.x.columns, classCount: data.classCount)
        for format in ExportFormats.formats(for: model) {
          let file = try Exporter.export(request, as: format)
          let fromFile = try format.probabilities(
            file.bytes, rows: heldOut, features: request.features, classes: request.classes)
          let comment = "\(dataset) \(configuration) \(format.id)"
          #expect(fromFile.rows == expected.rows && fromFile.columns == expected.columns, "\(comment)")
          guard fromFile.rows == expected.rows && fromFile.columns == expected.columns else { continue }
          var worst = 0.0
          for r in 0..<fromFile.rows where !ties.contains(r) {
            for c in 0..<fromFile.columns { worst = max(worst, abs(fromFile[r, c] - expected[r, c])) }
          }
          // Only a row whose neighbours tie may differ (iris, measured to a millimetre, ties often and exactly).
          #expect(worst <= exportTolerance(format), "\(comment): largest difference \(worst) outside ties")
        }
      }
    }
  }

  static func updatableFormatsAreTheOnesThatCanUpdate(_ model: ModelDescriptor) throws {
    for id in model.traits.updatableFormats {
      #expect(ExportFormats.named(id) != nil, "updatable in '\(id)', which is no format")
    }
    let data = try ConformanceDataset.iris.load()
    let fitted = try model.defaultClassifier().fit(data.x, labels: data.labels, classCount: data.classCount)
    let form = try fitted.exportForm()
    var request = exportRequest(fitted, model, columns: data.x.columns, classCount: data.classCount)
    request.updatable = true
    for format in ExportFormats.all {
      let declared = model.traits.updatableFormats.contains(format.id)
      #expect(declared == format.canUpdate(form), "\(format.id): declared \(declared)")
      #expect((ExportFormats.updatableProblem(model, in: format) == nil) == declared, "\(format.id)")
      if declared && format.canWrite(form.kind) {
        #expect(throws: Never.self, "\(format.id)") { try Exporter.export(request, as: format) }
      }
    }
  }

  /// A request for a fit on `columns` numeric features named `x0`, `x1`, … and classes `0`, `1`, …, unscaled.
  static func exportRequest(_ fitted: any FittedClassifier, _ model: ModelDescriptor, columns: Int, classCount: Int)
    -> ExportRequest
  {
    ExportRequest(
      features: (0..<columns).map {
        FeatureSummary(name: "x\($0)", type: .numeric, columns: $0..<($0 + 1), missingCount: 0)
      },
      classes: (0..<classCount).map(String.init), scalers: [], classifier: fitted,
      metadata: ExportMetadata(
        experiment: "conformance", target: "class", modelLabel: model.defaultLabel, algorithm: model.id,
        algorithmName: model.displayName))
  }

  /// Rows of `queries` whose k-th and (k+1)-th nearest stored rows are equidistant or nearly so (relative 1e-5),
  /// where float32 may swap which one is a neighbour. Empty for a form other than stored neighbours.
  static func neighbourTies(_ fitted: any FittedClassifier, _ queries: Matrix) throws -> Set<Int> {
    guard case .neighbors(let form) = try fitted.exportForm() else { return [] }
    var ties = Set<Int>()
    for q in 0..<queries.rows {
      var distances: [Double] = []
      for s in 0..<form.samples.rows {
        var d2 = 0.0
        for f in 0..<queries.columns {
          let difference = queries[q, f] - form.samples[s, f]
          d2 += difference * difference
        }
        distances.append(d2)
      }
      distances.sort()
      guard form.k < distances.count else { continue }
      if distances[form.k] - distances[form.k - 1] <= 1e-5 * max(distances[form.k], 1e-12) { ties.insert(q) }
    }
    return ties
  }
}

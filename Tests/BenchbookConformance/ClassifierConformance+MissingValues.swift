import BenchbookData
import BenchbookExport
import BenchbookModels
import Testing

/// Exports with missing values in the inputs: the fit sees iris with a text category added, some cells missing
/// (NaN) and imputed as the spec's `impute` does (`SimpleImputer`), with and without missing indicators, then
/// standardised; every format that holds the form writes a file that, fed the held-out rows with their missing
/// values as an app passes them, predicts what the fitted pipeline predicts, the missing indicators included (Core ML
/// computes them in a network of specification version 4).
extension ClassifierConformance {
  /// Iris's four measurements and a category `kind` (a, b, c: its columns 4–6), every seventh row missing a
  /// measurement (each in turn, in the even rows and the odd ones) and every thirteenth its category.
  static func irisWithMissingValues() throws -> (x: Matrix, labels: [Int], classCount: Int) {
    let (iris, labels, classCount) = try ConformanceDataset.iris.load()
    var rows: [[Double]] = []
    for r in 0..<iris.rows {
      var row = (0..<iris.columns).map { iris[r, $0] }
      // A category that follows the class for most rows, so it matters to the fit.
      let kind = (r % 5 == 0) ? (labels[r] + 1) % 3 : labels[r]
      row += (0..<3).map { $0 == kind ? 1 : 0 }
      if r % 7 == 3 { row[(r / 14) % 4] = .nan }
      if r % 13 == 5 { for c in 4..<7 { row[c] = .nan } }
      rows.append(row)
    }
    return (Matrix(rows), labels, classCount)
  }

  static func missingValueFeatures(indicators: Bool) -> [FeatureSummary] {
    let location = SourceLocation(file: "conformance.yaml")
    let numbers = ["sepal_length", "sepal_width", "petal_length", "petal_width"].enumerated().map { i, name in
      FeatureSummary(
        name: name, type: .numeric, columns: i..<(i + 1), missingCount: 0,
        imputation: Imputation(strategy: i % 2 == 0 ? .median : .mean, addIndicator: indicators, location: location))
    }
    return numbers + [
      FeatureSummary(
        name: "kind", type: .categorical, columns: 4..<7, categories: ["a", "b", "c"], missingCount: 0,
        imputation: Imputation(strategy: .mostFrequent, addIndicator: indicators, location: location))
    ]
  }

  /// Fitted on the even rows, checked on the odd ones, with and without indicators, in every format.
  static func exportsImputeMissingValuesInEveryFormat(_ model: ModelDescriptor) throws {
    let data = try irisWithMissingValues()
    let train = Array(stride(from: 0, to: data.x.rows, by: 2))
    let test = Array(stride(from: 1, to: data.x.rows, by: 2))
    let x = data.x.selecting(rows: train)
    // In float32, as an app passes them to the graph formats: a tree may split between two training values one
    // float32 step apart (a mean fill beside a measured 1.7), and the double 1.7 and the float32 1.7 then part.
    let heldOut = float32(data.x.selecting(rows: test))
    let missingRows = (0..<heldOut.rows).filter { r in (0..<heldOut.columns).contains { heldOut[r, $0].isNaN } }
    #expect(missingRows.count >= 10, "held-out rows missing a value: \(missingRows.count)")
    for indicators in [true, false] {
      let features = missingValueFeatures(indicators: indicators)
      let imputer = SimpleImputer(dataset: features).fit(x)
      #expect(imputer.indicated.count == (indicators ? 5 : 0), "every feature misses values in the training rows")
      let imputed = imputer.transform(x)
      let scaler = StandardScaler().fit(imputed)
      let fitted = try classifier(model, [:])
        .fit(scaler.transform(imputed), labels: train.map { data.labels[$0] }, classCount: data.classCount)
      let expected = fitted.predictProbabilities(scaler.transform(imputer.transform(heldOut)))
      let ties = try neighbourTies(fitted, scaler.transform(imputer.transform(heldOut)))
      let request = ExportRequest(
        features: features, classes: (0..<data.classCount).map(String.init), scalers: [scaler], classifier: fitted,
        metadata: ExportMetadata(
          experiment: "conformance", target: "class", modelLabel: model.defaultLabel, algorithm: model.id,
          algorithmName: model.displayName),
        imputer: imputer)
      for format in ExportFormats.formats(for: model) {
        let comment = "\(format.id), indicators \(indicators)"
        let file = try Exporter.export(request, as: format)
        let fromFile = try format.probabilities(
          file.bytes, rows: heldOut, features: request.features, classes: request.classes)
        #expect(fromFile.rows == expected.rows && fromFile.columns == expected.columns, "\(comment)")
        guard fromFile.rows == expected.rows && fromFile.columns == expected.columns else { continue }
        var worst = 0.0
        var worstMissing = 0.0
        for r in 0..<fromFile.rows where !ties.contains(r) {
          for c in 0..<fromFile.columns {
            let difference = abs(fromFile[r, c] - expected[r, c])
            worst = max(worst, difference)
            if missingRows.contains(r) { worstMissing = max(worstMissing, difference) }
          }
        }
        #expect(worst <= exportTolerance(format), "\(comment): largest difference \(worst) outside ties")
        #expect(worstMissing.isFinite && worstMissing <= exportTolerance(format), "\(comment): rows missing values")
      }
    }
  }
}

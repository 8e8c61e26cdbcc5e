import BenchbookData
import BenchbookEvaluation
import BenchbookModels
import BenchbookSpec
import Testing

/// `standardize: {columns: numeric}`: numeric features scaled as `StandardScaler` scales them, one-hot columns
/// passed through bit for bit (mean 0, scale 1, so an exported scaler needs no other form).
@Suite struct NumericStandardizationTests {
  /// x1 numeric, c categorical (two one-hot columns), x2 numeric.
  let dataset: Dataset = {
    let rows: [[Double]] = [[1, 1, 0, 10], [2, 0, 1, 30], [4, 1, 0, 20], [9, 0, 1, 60], [3, 0, 1, 40]]
    return Dataset(
      x: Matrix(rows), columnNames: ["x1", "c=a", "c=b", "x2"],
      features: [
        FeatureSummary(name: "x1", type: .numeric, columns: 0..<1, missingCount: 0),
        FeatureSummary(name: "c", type: .categorical, columns: 1..<3, categories: ["a", "b"], missingCount: 0),
        FeatureSummary(name: "x2", type: .numeric, columns: 3..<4, missingCount: 0),
      ], labels: [0, 1, 0, 1, 1], classes: ["n", "y"], time: nil, lineNumbers: LineNumbers(2..<7),
      provenance: DataProvenance(path: "t.csv", sha256: "", rowsRead: 5, droppedByColumn: [:], droppedRows: 0))
  }()

  @Test func onlyNumericColumnsAreScaled() {
    let numeric = FoldEvaluator(dataset: dataset, preprocessing: [PreprocessingStep(.standardize, columns: .numeric)])
    let every = FoldEvaluator(dataset: dataset, preprocessing: [.standardize])
    let (fitted, prepared) = numeric.fitPreprocessing(GatheredRows(allOf: dataset))
    let (reference, scaledAll) = every.fitPreprocessing(GatheredRows(allOf: dataset))
    let scaler = fitted.scalers[0]
    #expect(scaler.mean[1] == 0 && scaler.mean[2] == 0)
    #expect(scaler.scale[1] == 1 && scaler.scale[2] == 1)
    for column in [0, 3] {
      #expect(scaler.mean[column] == reference.scalers[0].mean[column])
      #expect(scaler.scale[column] == reference.scalers[0].scale[column])
      #expect(prepared.column(column) == scaledAll.column(column))
    }
    for column in [1, 2] {
      #expect(prepared.column(column).map(\.bitPattern) == dataset.x.column(column).map(\.bitPattern))
      #expect(scaledAll.column(column) != dataset.x.column(column), "the default scales one-hot columns")
    }
    // Test rows are transformed by the same fitted map.
    #expect(fitted.transform(dataset.x) == prepared)
  }

  @Test func logisticRegressionSeesTheScaledNumbersAndRawCategories() throws {
    let evaluator = FoldEvaluator(dataset: dataset, preprocessing: [PreprocessingStep(.standardize, columns: .numeric)])
    let model = ModelSpec(label: "LR", classifier: LogisticRegression(), location: SourceLocation(file: "t"))
    let pipeline = try evaluator.fitAllRows(model)
    let (_, prepared) = evaluator.fitPreprocessing(GatheredRows(allOf: dataset))
    let direct = try LogisticRegression().fit(prepared, labels: dataset.labels, classCount: 2)
    #expect(pipeline.predictProbabilities(dataset.x) == direct.predictProbabilities(prepared))
  }
}

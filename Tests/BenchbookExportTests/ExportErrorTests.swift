import BenchbookData
import BenchbookExport
import BenchbookModels
import Testing

/// Models and requests the format cannot express fail with a clear error, before any bytes exist.
@Suite struct ExportErrorTests {
  /// A classifier whose form is not finite: exports refuse it before writing anything.
  struct InfiniteScores: FittedClassifier {
    var classCount: Int { 2 }
    var parameterCount: Int { 0 }
    func predictProbabilities(_ x: Matrix) -> Matrix { Matrix(rows: x.rows, columns: 2, repeating: 0.5) }
    func exportForm() throws(ExportFormError) -> ExportForm {
      .linear(LinearForm(coefficients: Matrix([[.infinity, 0]]), intercepts: [0], minimisesLogLoss: false))
    }
  }

  static let features = [
    FeatureSummary(name: "a", type: .numeric, columns: 0..<1, missingCount: 0),
    FeatureSummary(name: "b", type: .numeric, columns: 1..<2, missingCount: 0),
  ]

  static func request(
    _ classifier: any FittedClassifier, features: [FeatureSummary] = features, updatable: Bool = false
  )
    -> ExportRequest
  {
    ExportRequest(
      features: features, classes: ["0", "1"], scalers: [], classifier: classifier,
      metadata: ExportMetadata(
        experiment: "e", target: "y", modelLabel: "M", algorithm: "test", algorithmName: "test model"),
      updatable: updatable)
  }

  static func fittedNB() throws -> FittedGaussianNaiveBayes {
    try GaussianNaiveBayes().fit(Matrix([[0, 1], [1, 0], [2, 2], [3, 1]]), labels: [0, 0, 1, 1], classCount: 2)
  }

  @Test func nonFiniteForm() {
    #expect {
      try CoreMLExporter.export(Self.request(InfiniteScores()))
    } throws: { error in
      "\(error)" == "the test model has weights that are not finite"
    }
  }

  @Test func modelFittedOnSomeClassesOnly() throws {
    let nb = try Self.fittedNB()
    var request = Self.request(nb)
    request.classes = ["0", "1", "2"]
    #expect {
      try CoreMLExporter.export(request)
    } throws: { error in
      "\(error)".contains("2 classes but the data has 3")
    }
  }

  /// `fitPresentClasses` answers for absent classes with zeros; the format cannot say that.
  @Test func modelWrappedForAbsentClasses() throws {
    let x = Matrix([[0, 1], [1, 0], [2, 2], [3, 1]])
    let wrapped = try GaussianNaiveBayes().fitPresentClasses(x, labels: [0, 0, 2, 2], classCount: 3)
    var request = Self.request(wrapped)
    request.classes = ["0", "1", "2"]
    #expect {
      try CoreMLExporter.export(request)
    } throws: { error in
      "\(error)".contains("fitted on rows holding 2 of the 3 classes")
    }
  }

  @Test func updatableNeedsNearestNeighbours() throws {
    #expect {
      try CoreMLExporter.export(Self.request(try Self.fittedNB(), updatable: true))
    } throws: { error in
      "\(error)".contains("--updatable") && "\(error)".contains("test model")
    }
  }

  @Test func featuresMustCoverTheColumnsInOrder() throws {
    let swapped = [
      FeatureSummary(name: "a", type: .numeric, columns: 1..<2, missingCount: 0),
      FeatureSummary(name: "b", type: .numeric, columns: 0..<1, missingCount: 0),
    ]
    #expect(throws: ExportError.self) {
      try CoreMLExporter.export(Self.request(try Self.fittedNB(), features: swapped))
    }
    let narrow = [FeatureSummary(name: "a", type: .numeric, columns: 0..<1, missingCount: 0)]
    #expect {
      try CoreMLExporter.export(Self.request(try Self.fittedNB(), features: narrow))
    } throws: { error in
      "\(error)".contains("2 features; the inputs give 1 columns")
    }
  }

  @Test func targetText() {
    let location = SourceLocation(file: "spec.yaml")
    let column = ColumnReference(column: "arr_delay", location: location)
    #expect(ExportMetadata.targetText(TargetDefinition(column: column)) == "arr_delay")
    #expect(
      ExportMetadata.targetText(TargetDefinition(column: column, when: Threshold(.greater, 15))) == "arr_delay > 15")
    #expect(
      ExportMetadata.targetText(TargetDefinition(column: column, when: Threshold(.lessOrEqual, 2.5)))
        == "arr_delay <= 2.5")
  }

  @Test func evaluatorRejectsUnknownCategoriesAndMissingInputs() throws {
    let trained = try ExportFixtures.train(.binary, model: "LR")
    let evaluator = try CoreMLEvaluator(model: trained.exported.model)
    var row = RawFeatureRows.rows(trained.testX, features: trained.dataset.features)[0]
    _ = try evaluator.predict(row)
    row["region"] = .string("south-east")
    #expect(throws: EvaluationError.self) { try evaluator.predict(row) }
    row["region"] = .int64(1)
    #expect(throws: EvaluationError.self) { try evaluator.predict(row) }
    row["region"] = nil
    #expect(throws: EvaluationError.self) { try evaluator.predict(row) }
  }
}

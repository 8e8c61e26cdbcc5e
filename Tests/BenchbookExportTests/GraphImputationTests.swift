import BenchbookData
import BenchbookExport
import BenchbookModels
import Testing

/// The imputation the graph formats lower (`GraphLowering+Imputation`): read back from each file, the graph's
/// imputed design matrix (`imputed_with_indicators`) equals `FittedImputer.transform` of the same rows, in
/// float32, for NaN numbers, a NaN category index (TensorFlow Lite) or "" (ONNX), with the indicators appended in
/// feature order; a feature the spec does not impute keeps its NaN; an int64 category to impute is refused in ONNX.
@Suite struct GraphImputationTests {
  static let location = SourceLocation(file: "impute.yaml")

  /// a (median, indicator), b (not imputed), c (text category, most frequent, indicator), d (constant 7).
  static func features(cCategories: [String] = ["x", "y", "z"]) -> [FeatureSummary] {
    [
      FeatureSummary(
        name: "a", type: .numeric, columns: 0..<1, missingCount: 0,
        imputation: Imputation(strategy: .median, addIndicator: true, location: location)),
      FeatureSummary(name: "b", type: .numeric, columns: 1..<2, missingCount: 0),
      FeatureSummary(
        name: "c", type: .categorical, columns: 2..<5, categories: cCategories, missingCount: 0,
        imputation: Imputation(strategy: .mostFrequent, addIndicator: true, location: location)),
      FeatureSummary(
        name: "d", type: .numeric, columns: 5..<6, missingCount: 0,
        imputation: Imputation(strategy: .constant, fillValue: "7", location: location)),
    ]
  }

  static let training = Matrix([
    [1, 0.5, 1, 0, 0, 2],
    [.nan, 1.5, 0, 1, 0, .nan],
    [4, 2.5, .nan, .nan, .nan, 3],
    [2, 0.25, 0, 1, 0, 5],
    [8, 1.25, 0, 0, 1, 1],
    [3, 3.5, 0, 1, 0, 4],
  ])
  static let labels = [0, 1, 0, 1, 0, 1]
  /// Every pattern of missing values the app can send.
  static let queries = Matrix([
    [.nan, 1, 0, 0, 1, .nan],
    [5, 2, .nan, .nan, .nan, 6],
    [.nan, 0, .nan, .nan, .nan, .nan],
    [1, .nan, 1, 0, 0, 2],
  ])

  static func request(features: [FeatureSummary] = features()) throws -> (ExportRequest, FittedImputer) {
    let imputer = SimpleImputer(dataset: features).fit(training)
    #expect(imputer.indicated.map(\.name) == ["a", "c"])
    let filled = imputer.transform(training)
    let scaler = StandardScaler().fit(filled)
    // Logistic regression: six rows leave naive Bayes variances of var_smoothing alone in most columns, whose
    // distances no float32 file resolves (the penguins' test covers naive Bayes).
    let model = try LogisticRegression().fit(scaler.transform(filled), labels: labels, classCount: 2)
    let request = ExportRequest(
      features: features, classes: ["no", "yes"], scalers: [scaler], classifier: model,
      metadata: ExportMetadata(
        experiment: "impute", target: "class", modelLabel: "LR", algorithm: "logistic_regression",
        algorithmName: "logistic regression"),
      imputer: imputer)
    return (request, imputer)
  }

  /// The graph's imputed matrix for `inputs`.
  static func imputedMatrix(_ graph: TensorGraph, _ inputs: [GraphEvaluator.Value]) throws -> [Float] {
    var graph = graph
    let index = try #require(graph.tensors.firstIndex { $0.name == "imputed_with_indicators" })
    graph.outputs = [index]
    let value = try GraphEvaluator(graph).run(inputs)[0]
    #expect(value.shape == [queries.rows, 8])
    guard case .float32(let values) = value.values else { return [] }
    return values
  }

  static func expectSame(_ got: [Float], _ expected: Matrix, _ format: String) {
    #expect(got.count == expected.values.count, "\(format)")
    for (i, (g, e)) in zip(got, expected.values).enumerated() {
      let same = e.isNaN ? g.isNaN : g == Float(e)
      #expect(same, "\(format): row \(i / expected.columns) column \(i % expected.columns): \(g), not \(e)")
    }
  }

  @Test func tensorFlowLiteFillsNaNAndAppendsIndicators() throws {
    let (request, imputer) = try Self.request()
    let file = try TFLiteFile(bytes: try Exporter.export(request, as: TFLiteFormat()).bytes)
    var raw: [Float] = []
    for r in 0..<Self.queries.rows {
      let category: Float =
        Self.queries[r, 2].isNaN ? .nan : Float((2..<5).first { Self.queries[r, $0] == 1 }! - 2)
      raw += [Float(Self.queries[r, 0]), Float(Self.queries[r, 1]), category, Float(Self.queries[r, 5])]
    }
    let got = try Self.imputedMatrix(file.graph, [.init(shape: [Self.queries.rows, 4], values: .float32(raw))])
    Self.expectSame(got, imputer.transform(Self.queries), "TensorFlow Lite")
    // No operator TensorFlow Lite lacks: NaN is found by equal(x, x).
    let names = Set(file.graph.nodes.map(\.operation.name))
    #expect(names.isSuperset(of: ["equal", "select", "gather", "subtract", "concatenate"]), "\(names)")
  }

  @Test func onnxFillsNaNAndEmptyTextAndAppendsIndicators() throws {
    let (request, imputer) = try Self.request()
    let file = try ONNXFile(bytes: try Exporter.export(request, as: ONNXFormat()).bytes)
    let column = { (c: Int) in
      GraphEvaluator.Value(
        shape: [Self.queries.rows, 1], values: .float32((0..<Self.queries.rows).map { Float(Self.queries[$0, c]) }))
    }
    let categories = ["x", "y", "z"]
    let text = (0..<Self.queries.rows).map { r in
      Self.queries[r, 2].isNaN ? "" : categories[(2..<5).first { Self.queries[r, $0] == 1 }! - 2]
    }
    let got = try Self.imputedMatrix(
      file.graph,
      [column(0), column(1), .init(shape: [Self.queries.rows, 1], values: .string(text)), column(5)])
    Self.expectSame(got, imputer.transform(Self.queries), "ONNX")
  }

  /// Both graph formats predict Benchbook's probabilities for the rows without b's NaN.
  @Test func filesPredictAsThePipeline() throws {
    let (request, imputer) = try Self.request()
    let scaler = request.scalers[0]
    let rows = Self.queries.selecting(rows: [0, 1, 2])
    let expected = request.classifier.predictProbabilities(scaler.transform(imputer.transform(rows)))
    for format in [TFLiteFormat(), ONNXFormat()] as [any ExportFormat] {
      let bytes = try Exporter.export(request, as: format).bytes
      let got = try format.probabilities(bytes, rows: rows, features: request.features, classes: request.classes)
      #expect(got.largestDifference(from: expected) <= 1e-5, "\(format.name)")
    }
  }

  /// An imputed int64 category: ONNX writes it (the app passes `Int64.min` for a missing one), unless a category
  /// is that sentinel; TensorFlow Lite takes the category's index, NaN when missing.
  @Test func onnxImputesAnInt64CategoryUnlessASentinelIsOne() throws {
    let (request, _) = try Self.request(features: Self.features(cCategories: ["1", "2", "3"]))
    #expect(throws: Never.self) { try Exporter.export(request, as: ONNXFormat()) }
    #expect(throws: Never.self) { try Exporter.export(request, as: TFLiteFormat()) }
    let (clashing, _) = try Self.request(features: Self.features(cCategories: ["1", "2", String(Int64.min)]))
    #expect {
      _ = try Exporter.export(clashing, as: ONNXFormat())
    } throws: { error in
      "\(error)".contains("feature 'c' is imputed and has -9223372036854775808 as a category")
    }
  }
}

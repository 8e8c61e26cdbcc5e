import BenchbookData
import BenchbookModels

/// TensorFlow Lite (LiteRT; the format ML Kit serves on Android): a FlatBuffer
/// of builtin float32 operators, written by Benchbook's own builder.
///
/// One input, `features`, float32 [batch, features] in spec order, a
/// categorical feature as the index of its category; one output,
/// `probabilities`, float32 [batch, classes] in results.json's class order.
/// The batch dimension is resizable. A spec's imputation is in the file: the
/// app passes NaN for a missing number or category index
/// (`GraphLowering+Imputation`). A tree is written as a matrix form or
/// as a traversal, whichever file is smaller (`benchbook.tree_form` in the
/// metadata says which).
public struct TFLiteFormat: ExportFormat {
  public init() {}

  public var id: String { "tflite" }
  public var name: String { "TensorFlow Lite" }
  public var fileExtension: String { "tflite" }
  /// FlatBuffers address with 32-bit offsets; a buffer must stay under 2 GiB.
  public var sizeLimit: Int { Int(Int32.max) }
  public var takesCategoryIndices: Bool { true }
  public var carriesImputation: Bool { true }

  public func canWrite(_ kind: ExportForm.Kind) -> Bool { true }
  public func canUpdate(_ form: ExportForm) -> Bool { false }

  public func write(_ request: ExportRequest, form: ExportForm, limit: Int) throws(ExportError) -> ExportedFile {
    let layout = try InputLayout(features: request.features)
    try request.checkClasses(width: request.columns(layout))
    func build(_ layout: InputLayout, treeLayout: GraphDialect.TreeLayout) throws(ExportError) -> (
      bytes: [UInt8], graph: TensorGraph
    ) {
      var dialect = GraphDialect.tensorFlowLite
      dialect.treeLayout = treeLayout
      let graph = try GraphLowering.lower(
        form, layout: layout, scalers: request.scalers, imputer: request.imputer, classes: request.classes,
        dialect: dialect, algorithm: request.metadata.algorithmName)
      let facts = request.missingValueFacts(
        request.metadata.graphFacts(scaled: !request.scalers.isEmpty, form: form, treeLayout: treeLayout),
        sentinel: "NaN")
      return (
        try TFLiteWriter.write(graph, metadata: metadata(request, layout: layout, facts: facts), limit: limit), graph
      )
    }
    var chosen = try build(layout, treeLayout: .traversal)
    var treeLayout = GraphDialect.TreeLayout.traversal
    if case .tree(let tree) = form, tree.nodes.count > 1, GraphLowering.matrixBytes(tree) < chosen.bytes.count,
      let matrix = try? build(layout, treeLayout: .matrix), matrix.bytes.count < chosen.bytes.count
    {
      chosen = matrix
      treeLayout = .matrix
    }
    let operators = chosen.graph.nodes.count
    var summary = "TensorFlow Lite schema \(TFLiteSchema.version), \(operators) operators"
    if case .tree(let tree) = form { summary += ", tree as \(treeLayout.rawValue) (depth \(tree.depth))" }
    return ExportedFile(format: id, bytes: chosen.bytes, summary: summary)
  }

  func metadata(_ request: ExportRequest, layout: InputLayout, facts: [String: String]) -> TFLiteMetadata {
    let features = layout.inputs.map { input in
      TFLiteMetadata.Feature(
        name: input.name, categories: input.labelType == nil ? nil : input.summary.categories,
        minimum: input.summary.minimum, maximum: input.summary.maximum)
    }
    return TFLiteMetadata(
      name: "\(request.metadata.experiment) \(request.metadata.modelLabel)",
      description: request.metadata.shortDescription(features: layout.inputs.map(\.name))
        + request.missingValueSentence(numbers: "NaN", categories: "NaN as its index"),
      version: request.metadata.benchbookVersion.map { "Benchbook \($0)" } ?? "", author: "Benchbook",
      features: features, classes: request.classes, target: request.metadata.target, facts: facts)
  }

  public func recognises(_ bytes: [UInt8]) -> Bool { TFLiteFile.recognises(bytes) }

  public func inspect(_ bytes: [UInt8], fileName: String) throws(ModelFileError) -> String {
    GraphInspection.text(try TFLiteFile(bytes: bytes), fileName: fileName, sizeBytes: bytes.count)
  }

  public func probabilities(_ bytes: [UInt8], rows x: Matrix, features: [FeatureSummary], classes: [String]) throws
    -> Matrix
  {
    let file = try TFLiteFile(bytes: bytes)
    let values = RawInputs.values(x, features: features).flatMap { $0.map { Float($0) } }
    let input = GraphEvaluator.Value(shape: [x.rows, features.count], values: .float32(values))
    let output = try GraphEvaluator(file.graph).run([input])[0]
    guard output.shape == [x.rows, classes.count] else {
      throw ModelFileError("the file outputs \(output.shape), not [\(x.rows), \(classes.count)]")
    }
    return Matrix(rows: x.rows, columns: classes.count, values: output.floats.map(Double.init))
  }
}

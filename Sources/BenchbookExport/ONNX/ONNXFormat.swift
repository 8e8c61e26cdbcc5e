import BenchbookData
import BenchbookModels

/// ONNX: a model of ai.onnx operators (operator set 28, the current one) and
/// ai.onnx.ml operators (version 5), IR version 14.
///
/// Inputs: `features`, float32 [batch, features] in spec order when every
/// feature is numeric; otherwise one input per feature, named as the spec
/// names it, [batch, 1], float32 for a number and int64 or string for a
/// category (`OneHotEncoder` inside; an unknown category is an error).
/// Outputs: `label` [batch], the most probable class (int64 or string, as
/// the classes are), and `probabilities`, float32 [batch, classes] in
/// results.json's class order, a plain tensor. Trees use ai.onnx.ml 5's
/// `TreeEnsemble` (its `TreeEnsembleClassifier` is deprecated; `TreeEnsemble`
/// gives per-class sums, here a tree per class, one for two classes). A
/// spec's imputation is in the file: the app passes NaN for a missing number,
/// "" for a missing text category and `Int64.min` for a missing integer one
/// (`MissingSentinel`, `GraphLowering+Imputation`).
public struct ONNXFormat: ExportFormat {
  public init() {}

  public var id: String { "onnx" }
  public var name: String { "ONNX" }
  public var fileExtension: String { "onnx" }
  /// A protocol-buffer message must stay under 2 GiB.
  public var sizeLimit: Int { Int(Int32.max) }
  public var takesCategoryIndices: Bool { false }
  public var carriesImputation: Bool { true }

  public func canWrite(_ kind: ExportForm.Kind) -> Bool { true }
  public func canUpdate(_ form: ExportForm) -> Bool { false }

  public func write(_ request: ExportRequest, form: ExportForm, limit: Int) throws(ExportError) -> ExportedFile {
    let layout = try InputLayout(features: request.features)
    try request.checkClasses(width: request.columns(layout))
    let graph = try GraphLowering.lower(
      form, layout: layout, scalers: request.scalers, imputer: request.imputer, classes: request.classes,
      dialect: .onnx, algorithm: request.metadata.algorithmName)
    guard graph.constantBytes <= limit else {
      throw ExportError.overLimit(format: name, bytes: graph.constantBytes, limit: limit)
    }
    // The integer categories' sentinel is named only where one is imputed.
    let integerImputed = layout.inputs.contains { input in
      input.labelType == .int64 && request.imputer?.fills.contains { $0.name == input.summary.name } == true
    }
    let facts = request.missingValueFacts(
      request.metadata.graphFacts(scaled: !request.scalers.isEmpty, form: form, treeLayout: .ensemble),
      sentinel: "NaN (numbers), \"\" (text categories)"
        + (integerImputed ? ", \(MissingSentinel.integer) (integer categories)" : ""))
    let description =
      request.metadata.shortDescription(features: layout.inputs.map(\.name))
      + request.missingValueSentence(
        numbers: "NaN", categories: integerImputed ? "\"\" (text) or \(MissingSentinel.integer) (integer)" : "\"\"")
      + " Outputs: label, the most probable class of \(request.metadata.target), and probabilities, one per class in "
      + "this order: \(request.classes.joined(separator: ", "))."
    let model = try ONNXWriter.model(
      graph, docString: description, metadata: facts, version: request.metadata.benchbookVersion ?? "")
    let (bytes, size) = ProtobufWriter.serialize(model, limit: limit)
    guard let bytes else { throw ExportError.overLimit(format: name, bytes: size, limit: limit) }
    return ExportedFile(
      format: id, bytes: bytes,
      summary: "ONNX opset \(ONNXWriter.opset), ai.onnx.ml \(ONNXWriter.mlOpset), \(graph.nodes.count) nodes")
  }

  public func recognises(_ bytes: [UInt8]) -> Bool { ONNXFile.recognises(bytes) }

  public func inspect(_ bytes: [UInt8], fileName: String) throws(ModelFileError) -> String {
    GraphInspection.text(try ONNXFile(bytes: bytes), fileName: fileName, sizeBytes: bytes.count)
  }

  public func probabilities(_ bytes: [UInt8], rows x: Matrix, features: [FeatureSummary], classes: [String]) throws
    -> Matrix
  {
    let file = try ONNXFile(bytes: bytes)
    let raw = RawInputs.values(x, features: features)
    var inputs: [GraphEvaluator.Value] = []
    if file.graph.inputs.count == 1 && features.count > 0 && features.allSatisfy({ $0.type == .numeric }) {
      inputs = [
        GraphEvaluator.Value(shape: [x.rows, features.count], values: .float32(raw.flatMap { $0.map { Float($0) } }))
      ]
    } else {
      for (f, feature) in features.enumerated() {
        let column = raw.map { $0[f] }
        switch feature.type {
        case .numeric:
          inputs.append(.init(shape: [x.rows, 1], values: .float32(column.map { Float($0) })))
        case .categorical:
          let categories = feature.categories ?? []
          // A missing category (NaN) as the app passes it (`MissingSentinel`).
          inputs.append(
            .init(
              shape: [x.rows, 1],
              values: LabelType(labels: categories) == .int64
                ? .int64(
                  column.map { $0.isNaN ? MissingSentinel.integer : LabelType.int64(from: categories[Int($0)]) ?? 0 })
                : .string(column.map { $0.isNaN ? MissingSentinel.text : categories[Int($0)] })))
        }
      }
    }
    let output = try GraphEvaluator(file.graph).run(inputs)
    guard
      let probabilities = output.first(where: { $0.shape == [x.rows, classes.count] && $0.values.type == .float32 })
    else { throw ModelFileError("the file outputs no [\(x.rows), \(classes.count)] probabilities") }
    return Matrix(rows: x.rows, columns: classes.count, values: probabilities.floats.map(Double.init))
  }
}

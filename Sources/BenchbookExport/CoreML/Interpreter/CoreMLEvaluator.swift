import BenchbookData

/// Evaluates a decoded Core ML model in Swift, following the semantics the
/// format documents for each model kind, so a test can check that a file
/// predicts what Benchbook measured without a Mac.
///
/// Pipelines run their models in order over a table of named features. The
/// model is checked once, at initialisation; evaluation then only reads.
public struct CoreMLEvaluator: Sendable {
  public let model: CoreMLModel
  private let compiled: any CompiledModel
  private let labelName: String
  private let probabilitiesName: String

  public init(model: CoreMLModel) throws(EvaluationError) {
    self.model = model
    compiled = try ModelCompiler.compile(model)
    labelName = model.description.predictedFeatureName
    probabilitiesName = model.description.predictedProbabilitiesName
    guard !labelName.isEmpty, !probabilitiesName.isEmpty else {
      throw EvaluationError("the model names no predicted class and probability outputs; it is not a classifier")
    }
  }

  /// Decodes and prepares a `.mlmodel` file's bytes.
  public init(serializedBytes bytes: [UInt8]) throws(EvaluationError) {
    let model: CoreMLModel
    do {
      model = try CoreMLModel(serializedBytes: bytes)
    } catch {
      throw EvaluationError("not a readable Core ML model: \(error)")
    }
    try self.init(model: model)
  }

  /// Predicts one row, given as the app would: every input by name.
  public func predict(_ inputs: [String: FeatureValue]) throws(EvaluationError) -> CoreMLPrediction {
    var features = inputs
    for input in model.description.inputs where features[input.name] == nil {
      throw EvaluationError("input '\(input.name)' is missing")
    }
    try compiled.run(&features)
    guard case .dictionary(let probabilities)? = features[probabilitiesName] else {
      throw EvaluationError("the model did not produce '\(probabilitiesName)'")
    }
    let label: String
    switch features[labelName] {
    case .string(let text)?: label = text
    case .int64(let value)?: label = String(value)
    default: throw EvaluationError("the model did not produce '\(labelName)'")
    }
    return CoreMLPrediction(label: label, probabilities: probabilities)
  }

  /// Class probabilities of many rows, one column per entry of `classes`
  /// (a class the model does not output gets probability 0).
  public func probabilities(_ rows: [[String: FeatureValue]], classes: [String]) throws(EvaluationError) -> Matrix {
    var out = Matrix(rows: rows.count, columns: classes.count)
    for (r, row) in rows.enumerated() {
      let prediction = try predict(row)
      for (c, label) in classes.enumerated() { out[r, c] = prediction.probabilities[label] ?? 0 }
    }
    return out
  }
}

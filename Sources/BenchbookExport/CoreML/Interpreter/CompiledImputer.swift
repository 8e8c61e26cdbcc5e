/// Replaces the sentinel in a double, an int64, a string or each element of an array, as Core ML's imputer does.
struct CompiledImputer: CompiledModel {
  let input: String
  let output: String
  let imputer: Imputer

  init(_ imputer: Imputer, description: ModelDescription) throws(EvaluationError) {
    input = try ModelCompiler.onlyInput(description, of: "imputer").name
    output = try ModelCompiler.onlyOutput(description, of: "imputer")
    self.imputer = imputer
  }

  private func isReplaced(_ value: Double) -> Bool {
    guard case .double(let sentinel) = imputer.replaced else { return false }
    return sentinel.isNaN ? value.isNaN : value == sentinel
  }

  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError) {
    switch (features[input], imputer.imputed) {
    case (.array(let values), .doubleArray(let fills)):
      guard fills.count == values.count else {
        throw EvaluationError("the imputer has \(fills.count) values for an input of \(values.count)")
      }
      features[output] = .array(values.indices.map { isReplaced(values[$0]) ? fills[$0] : values[$0] })
    case (.double(let value), .double(let fill)):
      features[output] = .double(isReplaced(value) ? fill : value)
    case (.string(let value), .string(let fill)):
      guard case .string(let sentinel) = imputer.replaced else {
        throw EvaluationError("a string imputer needs a string replace value")
      }
      features[output] = .string(value == sentinel ? fill : value)
    case (.int64(let value), .int64(let fill)):
      guard case .int64(let sentinel) = imputer.replaced else {
        throw EvaluationError("an int64 imputer needs an int64 replace value")
      }
      features[output] = .int64(value == sentinel ? fill : value)
    case (nil, _):
      throw EvaluationError("missing input '\(input)'")
    default:
      throw EvaluationError("the imputer's value does not fit its input '\(input)'")
    }
  }
}

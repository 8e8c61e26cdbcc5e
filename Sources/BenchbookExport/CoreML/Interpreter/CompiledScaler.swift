/// scale · (x + shift), element-wise; one value applies to every element, none means 0 shift or unit scale.
struct CompiledScaler: CompiledModel {
  let input: String
  let output: String
  let shift: [Double]
  let scale: [Double]

  init(_ scaler: Scaler, description: ModelDescription) throws(EvaluationError) {
    input = try ModelCompiler.onlyInput(description, of: "scaler").name
    output = try ModelCompiler.onlyOutput(description, of: "scaler")
    shift = scaler.shiftValue
    scale = scaler.scaleValue
  }

  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError) {
    let values = try ModelCompiler.vector(features[input], named: input)
    for parameters in [shift, scale] where parameters.count > 1 && parameters.count != values.count {
      throw EvaluationError("the scaler has \(parameters.count) values for an input of \(values.count)")
    }
    var out = values
    for i in values.indices {
      let s = shift.isEmpty ? 0 : shift[shift.count == 1 ? 0 : i]
      let m = scale.isEmpty ? 1 : scale[scale.count == 1 ? 0 : i]
      out[i] = m * (values[i] + s)
    }
    if case .array = features[input] {
      features[output] = .array(out)
    } else {
      features[output] = .double(out[0])
    }
  }
}

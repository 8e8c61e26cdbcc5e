/// One-hot encoding: a 1 at the input's category, 0 elsewhere.
struct CompiledOneHotEncoder: CompiledModel {
  let input: String
  let output: String
  let stringIndex: [String: Int]
  let int64Index: [Int64: Int]
  let width: Int
  let ignoreUnknown: Bool

  init(_ encoder: OneHotEncoder, description: ModelDescription) throws(EvaluationError) {
    input = try ModelCompiler.onlyInput(description, of: "one-hot encoder").name
    output = try ModelCompiler.onlyOutput(description, of: "one-hot encoder")
    guard !encoder.outputSparse else { throw EvaluationError("sparse one-hot output is not supported") }
    var strings: [String: Int] = [:]
    var ints: [Int64: Int] = [:]
    switch encoder.categories {
    case .strings(let values): for (i, value) in values.enumerated() where strings[value] == nil { strings[value] = i }
    case .int64s(let values): for (i, value) in values.enumerated() where ints[value] == nil { ints[value] = i }
    }
    stringIndex = strings
    int64Index = ints
    width = encoder.categories.count
    ignoreUnknown = encoder.handleUnknown == .ignoreUnknown
  }

  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError) {
    let position: Int?
    switch features[input] {
    case .string(let value)?: position = stringIndex[value]
    case .int64(let value)?: position = int64Index[value]
    case nil: throw EvaluationError("feature '\(input)' is missing")
    case let other?: throw EvaluationError("feature '\(input)' must be a string or int64 category, not \(other)")
    }
    var encoded = [Double](repeating: 0, count: width)
    if let position {
      encoded[position] = 1
    } else if !ignoreUnknown {
      throw EvaluationError("feature '\(input)' has a category the model does not know: \(features[input]!)")
    }
    features[output] = .array(encoded)
  }
}

/// Concatenates scalars and arrays into one array, in list order.
struct CompiledFeatureVectorizer: CompiledModel {
  let columns: [(name: String, dimensions: Int)]
  let output: String

  init(_ vectorizer: FeatureVectorizer, description: ModelDescription) throws(EvaluationError) {
    output = try ModelCompiler.onlyOutput(description, of: "feature vectorizer")
    guard !vectorizer.inputList.isEmpty else { throw EvaluationError("the feature vectorizer has no inputs") }
    columns = vectorizer.inputList.map { ($0.inputColumn, Int($0.inputDimensions)) }
    for column in columns where column.dimensions <= 0 {
      throw EvaluationError("vectorizer input '\(column.name)' has dimension \(column.dimensions)")
    }
  }

  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError) {
    var out: [Double] = []
    for column in columns {
      let values = try ModelCompiler.vector(features[column.name], named: column.name)
      guard values.count == column.dimensions else {
        throw EvaluationError(
          "vectorizer input '\(column.name)' has \(values.count) values, expected \(column.dimensions)")
      }
      out.append(contentsOf: values)
    }
    features[output] = .array(out)
  }
}

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

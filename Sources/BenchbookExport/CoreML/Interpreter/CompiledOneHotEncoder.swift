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

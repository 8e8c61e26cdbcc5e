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

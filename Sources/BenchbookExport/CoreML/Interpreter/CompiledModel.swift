/// A model prepared for evaluation: reads its inputs from, and writes its
/// outputs to, the table of named features.
protocol CompiledModel: Sendable {
  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError)
}

/// Runs its models in order over the shared feature table.
struct CompiledPipeline: CompiledModel {
  let stages: [any CompiledModel]

  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError) {
    for stage in stages { try stage.run(&features) }
  }
}

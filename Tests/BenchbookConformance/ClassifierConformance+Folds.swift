import BenchbookData
import BenchbookEvaluation
import BenchbookModels
import BenchbookSpec
import Foundation
import Testing

/// The model's fold strategy (rows read in place, shared sorted features, one shared neighbour search) against
/// what it stands for: each fold fitted on its own gathered rows, bit for bit.
extension ClassifierConformance {
  /// The shipped iris data, which every strategy may share work over.
  static let irisData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("experiments/data/iris.csv").path

  static func foldStrategyGivesTheGatheredFit(_ model: ModelDescriptor) throws {
    // Stratified folds train every class on four fifths of the rows, so every strategy applies.
    let spec = try SpecParser.parse(
      yaml: """
        name: conformance
        data: {path: \(irisData)}
        target: species
        features: [sepal_length, sepal_width, petal_length, petal_width]
        resampling: {method: stratified-kfold, folds: 5}
        models: [\(model.id)]
        """, path: "conformance.yaml")
    let plan = try RunPlan(spec)
    let evaluator = plan.evaluator
    let tasks = Array(plan.tasks.indices)
    let shared = try plan.execute(tasks, jobs: 2, sharing: true, progress: nil)
    let unshared = try plan.execute(tasks, jobs: 2, sharing: false, progress: nil)
    for (index, task) in plan.tasks.enumerated() {
      switch (task, shared[index], unshared[index]) {
      case (.fold(_, let f), .fold(let a)?, .fold(let b)?):
        let fold = plan.plan.folds[f]
        let data = evaluator.gather(fold)
        let gathered = try evaluator.fit(spec.models[0], data.training, fold: f)
        let scores = FoldScores(probabilities: gathered.predictProbabilities(data.testX), labels: data.testLabels)
        for outcome in [a, b] {
          #expect(outcome.scores.logLoss.bitPattern == scores.logLoss.bitPattern, "fold \(f) log-loss")
          #expect(outcome.scores.brier.bitPattern == scores.brier.bitPattern, "fold \(f) Brier score")
          #expect(outcome.scores.accuracy == scores.accuracy, "fold \(f) accuracy")
        }
      case (.allRows, .allRows(let a)?, .allRows(let b)?):
        let all = try evaluator.fitAllRows(spec.models[0])
        let x = evaluator.dataset.x
        for pipeline in [a, b] {
          #expect(bitwiseEqual(pipeline.predictProbabilities(x), all.predictProbabilities(x)), "fit on all rows")
        }
      default:
        Issue.record("task \(task) gave no output or another kind of output")
      }
    }
  }
}

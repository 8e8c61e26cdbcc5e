import BenchbookData
import BenchbookSpec

/// The spec's own folds, fitted by the audit when a check needs their scores and no run gave them
/// (`benchbook audit`): each model on each fold, as cross-validation fits it.
struct SpecFoldWork: Sendable {
  let spec: ExperimentSpec
  let plan: FoldPlan
  let scheduler: FoldScheduler

  init(spec: ExperimentSpec, dataset: Dataset, plan: FoldPlan) {
    self.spec = spec
    self.plan = plan
    scheduler = FoldScheduler.unshared(
      models: spec.models, evaluator: FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing))
  }

  /// One fit of each model on each fold, fold by fold.
  func work() -> [AuditWork] {
    let scheduler = scheduler
    return plan.folds.flatMap { fold in
      spec.models.indices.map { m in
        AuditWork(
          cost: scheduler.relativeCost(model: m) * 1_000_000 + fold.train.count,
          heldRows: scheduler.heldRows(model: m, fold: fold)
        ) { () throws(ModelFailure) -> any Sendable in
          let outcome = try scheduler.evaluate(model: m, on: fold)
          return Fitted(logLoss: outcome.scores.logLoss, fittedOn: outcome.preprocessingFittedOn)
        }
      }
    }
  }

  /// What one fit gave.
  struct Fitted: Sendable {
    var logLoss: Double
    var fittedOn: RowSetFingerprint
  }

  /// The folds' scores and fit records, from `work`'s outputs.
  func scores(_ outputs: [any Sendable]) -> AuditScores {
    let models = spec.models
    var logLoss = [[Double]](repeating: [Double](repeating: 0, count: plan.folds.count), count: models.count)
    var records: [PreprocessingFitRecord] = []
    for (index, output) in outputs.enumerated() {
      let (f, m) = index.quotientAndRemainder(dividingBy: models.count)
      let fitted = output as! Fitted
      logLoss[m][f] = fitted.logLoss
      records.append(
        PreprocessingFitRecord(model: models[m].label, fold: plan.folds[f].index, fittedOn: fitted.fittedOn))
    }
    return AuditScores(logLoss: logLoss, fitRecords: records, tuning: [], fromRun: false)
  }
}

import BenchbookData
import BenchbookSpec

/// The inner folds of a run's nested tuning: those of each outer fold's training rows, and those of all rows for
/// the final choice.
///
/// They depend on the tune, the outer folds and the labels, never on the model, so a run makes them once for
/// every tuned model, the sets side by side: made per model, they would delay the first fit once per tuned
/// model, and each model would hold its own copy.
struct TuningFolds: Sendable {
  /// Per outer fold, in plan order, its inner folds.
  let perOuter: [[Fold]]
  /// The inner folds over all rows.
  let final: [Fold]

  /// - Throws: `SpecError` for the first rows that cannot be split, outer folds in order and then all rows: the
  ///   error a model's own inner folds would meet first.
  init(_ tune: TuneSpec, plan: FoldPlan, dataset: Dataset, specPath: String, jobs: Int) throws(SpecError) {
    let outer = plan.folds
    let made = try ParallelExecutor.run(count: outer.count + 1, jobs: jobs) { (i: Int) throws(SpecError) -> [Fold] in
      guard i < outer.count else {
        return try InnerFolds.make(
          tune, rows: RowIndices(all: dataset.x.rows), dataset: dataset, specPath: specPath, outerFold: nil)
      }
      return try InnerFolds.make(
        tune, rows: outer[i].train, dataset: dataset, specPath: specPath, outerFold: outer[i].index)
    }
    perOuter = Array(made.dropLast())
    final = made[outer.count]
  }
}

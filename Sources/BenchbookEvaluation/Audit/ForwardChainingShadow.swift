import BenchbookData
import BenchbookSpec

/// The evaluation a time-ordered problem calls for: train only on the past,
/// test on what follows. The temporal-split check runs it beside the spec's
/// own resampling, with as many splits as the spec has folds up to
/// `maximumSplits` (scikit-learn's `TimeSeriesSplit`, rows sorted by time) and
/// the audit's `gap`, to measure how optimistic the spec's folds are.
///
/// To keep the audit cheap on large data, each split scores at most
/// `audit.forward_test_rows` (default 10,000) of its test rows, evenly spaced in
/// time order; training always uses every row before the test block.
public enum ForwardChainingShadow {
  /// At most five splits, `TimeSeriesSplit`'s default. Forward chaining's k splits train on k/2 datasets' worth of
  /// rows in all, so ten folds' shadow cost as much as half their cross-validation, most of the audit's time;
  /// five splits halve that, and each still tests on a sixth of the rows.
  public static let maximumSplits = 5

  /// The shadow plan, or why it cannot be made.
  ///
  /// A single split (a holdout) becomes one forward split with the same number of test rows (the latest ones);
  /// every other plan becomes `min(k, maximumSplits)` forward-chaining splits.
  public static func plan(_ context: AuditContext) -> Result<Shadow, ShadowUnavailable> {
    guard let time = context.dataset.time else { return .failure(ShadowUnavailable(reason: "no time column")) }
    let n = context.dataset.x.rows
    var resampling = TimeSeriesSplit(folds: min(context.foldsPerRepeat, maximumSplits), gap: context.spec.audit.gap)
    if context.plan.folds.count == 1, let fold = context.plan.folds.first {
      resampling.folds = 1
      resampling.testSize = fold.test.count
    }
    do {
      var plan = try resampling.plan(
        rowCount: n, labels: context.dataset.labels, time: time, specPath: context.spec.path)
      let limit = context.spec.audit.forwardTestRows
      let blockRows = plan.folds.map(\.test.count).max() ?? 0
      for index in plan.folds.indices where plan.folds[index].test.count > limit {
        let test = plan.folds[index].test
        plan.folds[index].test = RowIndices((0..<limit).map { test[$0 * test.count / limit] })
      }
      return .success(Shadow(plan: plan, blockRows: blockRows))
    } catch {
      return .failure(ShadowUnavailable(reason: "forward-chaining splits cannot be made: \(error.message)"))
    }
  }

  /// The forward-chaining splits, their test rows thinned to at most `audit.forward_test_rows`.
  public struct Shadow: Sendable {
    public var plan: FoldPlan
    /// Rows in each split's test block before thinning.
    public var blockRows: Int
  }

  /// The shadow evaluation's scores, for the temporal-split check.
  public struct Scores: Sendable {
    /// Per model (spec order), per split; `nil` where the model could not be fitted.
    public var logLoss: [[Double?]]
    public var folds: Int
    /// Rows in each split's test block, and how many of them were scored.
    public var blockRows: Int
    public var scoredRows: Int

    public init(logLoss: [[Double?]], folds: Int, blockRows: Int, scoredRows: Int) {
      self.logLoss = logLoss
      self.folds = folds
      self.blockRows = blockRows
      self.scoredRows = scoredRows
    }
  }

  public struct ShadowUnavailable: Error, Sendable {
    public var reason: String

    public init(reason: String) { self.reason = reason }
  }
}

import BenchbookEvaluation

/// Each model against the best, fold by fold, with the corrected resampled t-test.
struct WinnerComparison {
  static let alpha = 0.05

  struct Row {
    var model: ModelResult
    /// Mean over folds of (this model's log-loss − the winner's); positive is worse.
    var meanDifference: Double
    var test: CorrectedResampledTTest?
  }

  let winner: ModelResult?
  /// Every other model, in rank order.
  let rows: [Row]

  init(_ context: ReportContext) {
    winner = context.winner
    guard let winner else {
      rows = []
      return
    }
    let splits = context.results.resampling.splits
    let ratios = splits.map { Double($0.testRows) / Double(max(1, $0.trainRows)) }
    let ratio = ratios.reduce(0, +) / Double(max(1, ratios.count))
    rows = context.ranked.dropFirst().map { model in
      let differences = zip(model.folds, winner.folds).map { $0.logLoss - $1.logLoss }
      let mean = differences.reduce(0, +) / Double(max(1, differences.count))
      return Row(
        model: model, meanDifference: mean,
        test: CorrectedResampledTTest(differences: differences, testTrainRatio: ratio))
    }
  }

  /// Models whose difference from the winner is not significant at α.
  var indistinguishable: [ModelResult] {
    rows.filter { ($0.test?.pValue ?? 1) >= Self.alpha && $0.test != nil }.map(\.model)
  }
}

import BenchbookData

/// scikit-learn's `KFold`: contiguous blocks of rows, optionally after one shuffle.
public struct KFold: InnerResampling, ShuffledFoldCount, Hashable {
  public static let id = "kfold"

  public var folds: Int
  public var shuffle: Bool
  public var seed: UInt64
  /// Where `folds` was written, for errors found once the data is known (more folds than rows).
  public var foldsLocation: SourceLocation?

  public init(folds: Int = 5, shuffle: Bool = false, seed: UInt64 = 0, foldsLocation: SourceLocation? = nil) {
    self.folds = folds
    self.shuffle = shuffle
    self.seed = seed
    self.foldsLocation = foldsLocation
  }

  public func plan(rowCount n: Int, labels: [Int], time: [Double]?, groups: [Int]?, specPath: String) throws(SpecError)
    -> FoldPlan
  {
    guard folds <= n else {
      throw FoldPlan.foldsError(
        "\(folds) folds need at least \(folds) rows; the data has \(n)", at: foldsLocation, specPath: specPath)
    }
    var order = Array(0..<n)
    if shuffle {
      var generator = SeededGenerator(seed: seed)
      generator.shuffle(&order)
    }
    return FoldPlan(folds: FoldPlan.contiguousFolds(order: order, k: folds, firstIndex: 0, repeatIndex: 0))
  }

  public static func describe(_ r: ResamplingSummary) -> String {
    r.shuffle
      ? "\(r.folds)-fold k-fold after one shuffle of the rows (seed \(r.seed ?? 0), Benchbook's own generator)."
      : "\(r.folds)-fold k-fold without shuffling: each test fold is a contiguous block of rows in file order."
  }

  /// Contiguous blocks in the training rows' own order.
  public static func innerFolds(
    _ k: Int, of rows: RowIndices, labels: [Int], classCount: Int, time: [Double]?, groups: [Int]?, place: String,
    fail: (String) -> SpecError
  ) throws(SpecError) -> [Fold] {
    FoldPlan.contiguousFolds(order: Array(rows.indices), k: k, firstIndex: 0, repeatIndex: 0, of: rows)
  }

  public static func describeInner(folds: Int) -> String { "\(folds)-fold k-fold in row order" }
}

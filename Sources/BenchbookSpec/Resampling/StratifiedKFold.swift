import BenchbookData

/// scikit-learn's `StratifiedKFold`: folds keep the class proportions, optionally shuffled within classes.
public struct StratifiedKFold: InnerResampling, ShuffledFoldCount, Hashable {
  public static let id = "stratified-kfold"

  public var folds: Int
  public var shuffle: Bool
  public var seed: UInt64
  /// Where `folds` was written, for errors found once the data is known.
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
    func fail(_ message: String) -> SpecError { FoldPlan.foldsError(message, at: foldsLocation, specPath: specPath) }
    guard folds <= n else { throw fail("\(folds) folds need at least \(folds) rows; the data has \(n)") }
    // scikit-learn refuses when every class has fewer rows than folds: no fold could hold them all.
    var counts: [Int: Int] = [:]
    for label in labels { counts[label, default: 0] += 1 }
    if let largest = counts.values.max(), largest < folds {
      throw fail("\(folds) stratified folds need a class with at least \(folds) rows; the largest has \(largest)")
    }
    var generator = shuffle ? SeededGenerator(seed: seed) : nil
    let assignment = FoldPlan.stratifiedAssignment(labels: labels, k: folds, generator: &generator)
    var plan = FoldPlan(folds: FoldPlan.foldsFromAssignment(assignment, k: folds))
    // scikit-learn warns, and runs, when some class has fewer rows than folds: some test folds then hold none of
    // it, and their scores say nothing about that class.
    if let smallest = counts.values.min(), smallest < folds {
      plan.warnings.append(
        fail(
          "the least populated class has only \(smallest) row\(smallest == 1 ? "" : "s"), fewer than the \(folds) "
            + "folds: \(folds - smallest) test fold\(folds - smallest == 1 ? "" : "s") hold none of it (scikit-learn "
            + "warns alike); fewer folds keep it in every one"
        ).description)
    }
    return plan
  }

  public static func describe(_ r: ResamplingSummary) -> String {
    "\(r.folds)-fold stratified k-fold"
      + (r.shuffle
        ? " after shuffling within classes (seed \(r.seed ?? 0))." : ", keeping class proportions in every fold.")
  }

  /// scikit-learn's `cv=k` for a classifier: stratified, unshuffled, in the training rows' order.
  public static func innerFolds(
    _ k: Int, of rows: RowIndices, labels: [Int], classCount: Int, time: [Double]?, groups: [Int]?, place: String,
    fail: (String) -> SpecError
  ) throws(SpecError) -> [Fold] {
    let labels = rows.gathering(labels)
    var counts = [Int](repeating: 0, count: classCount)
    for label in labels { counts[label] += 1 }
    if let largest = counts.max(), largest < k {
      throw fail("\(k) stratified inner folds need a class with \(k) rows; in \(place) the largest has \(largest)")
    }
    var generator: SeededGenerator? = nil
    return FoldPlan.foldsFromAssignment(
      FoldPlan.stratifiedAssignment(labels: labels, k: k, generator: &generator), k: k, of: rows)
  }

  public static func describeInner(folds: Int) -> String { "\(folds)-fold stratified k-fold" }
}

import BenchbookData

/// `repeats` independently shuffled k-folds, each shuffle seeded from the spec's seed.
public struct RepeatedKFold: ResamplingMethod, Hashable {
  public static let id = "repeated-kfold"
  public static let keys = ["folds", "repeats"]
  public static let ordersByTime = false

  public var folds: Int
  public var repeats: Int
  public var seed: UInt64
  /// Where `folds` was written, for errors found once the data is known.
  public var foldsLocation: SourceLocation?

  public init(folds: Int = 5, repeats: Int = 10, seed: UInt64 = 0, foldsLocation: SourceLocation? = nil) {
    self.folds = folds
    self.repeats = repeats
    self.seed = seed
    self.foldsLocation = foldsLocation
  }

  public init(settings: ResamplingSettings) throws(SpecError) {
    self.init(
      folds: try settings.int("folds", atLeast: 2) ?? 5, repeats: try settings.int("repeats", atLeast: 1) ?? 10,
      seed: try settings.seed(), foldsLocation: settings.location(of: "folds"))
  }

  public var splitCount: Int { FoldPlan.saturatingProduct(folds, repeats) }

  public func plan(rowCount n: Int, labels: [Int], time: [Double]?, groups: [Int]?, specPath: String) throws(SpecError)
    -> FoldPlan
  {
    guard folds <= n else {
      throw FoldPlan.foldsError(
        "\(folds) folds need at least \(folds) rows; the data has \(n)", at: foldsLocation, specPath: specPath)
    }
    var plan: [Fold] = []
    for r in 0..<repeats {
      var order = Array(0..<n)
      var generator = SeededGenerator(seed: SeededGenerator.derivedSeed(seed, stream: r))
      generator.shuffle(&order)
      plan += FoldPlan.contiguousFolds(order: order, k: folds, firstIndex: r * folds, repeatIndex: r)
    }
    return FoldPlan(folds: plan, repeats: repeats)
  }

  public var definitionText: String {
    ResamplingSettingsText.line(folds: folds, shuffle: true, seed: seed, repeats: repeats)
  }

  public func record(foldsPerRepeat: Int) -> ResamplingSummary {
    ResamplingSummary(method: Self.id, folds: foldsPerRepeat, shuffle: true, seed: seed, repeats: repeats)
  }

  public static func describe(_ r: ResamplingSummary) -> String {
    "\(r.repeats ?? 1) repeats of \(r.folds)-fold k-fold, each after its own shuffle (seeds derived from \(r.seed ?? 0))."
  }
}

import BenchbookData
import Foundation

/// One split: the last `testSize` share of the rows (after an optional shuffle) is the test set.
public struct Holdout: ResamplingMethod, Hashable {
  public static let id = "holdout"
  public static let keys = ["shuffle", "test_size"]
  public static let ordersByTime = false

  /// Share of the rows tested, in (0, 1).
  public var testSize: Double
  public var shuffle: Bool
  public var seed: UInt64
  /// Where `test_size` was written or, when it was left to its default, where `method` was.
  public var testSizeLocation: SourceLocation?

  public init(testSize: Double = 0.25, shuffle: Bool = false, seed: UInt64 = 0, testSizeLocation: SourceLocation? = nil)
  {
    self.testSize = testSize
    self.shuffle = shuffle
    self.seed = seed
    self.testSizeLocation = testSizeLocation
  }

  public init(settings: ResamplingSettings) throws(SpecError) {
    var share = 0.25
    if let given = try settings.double("test_size") {
      guard given > 0, given < 1 else {
        throw settings.error("test_size", "test_size is a share of rows, between 0 and 1")
      }
      share = given
    }
    self.init(
      testSize: share, shuffle: try settings.bool("shuffle") ?? false, seed: try settings.seed(),
      testSizeLocation: settings.location(of: "test_size") ?? settings.methodLocation)
  }

  public var splitCount: Int { 1 }

  public func plan(rowCount n: Int, labels: [Int], time: [Double]?, groups: [Int]?, specPath: String) throws(SpecError)
    -> FoldPlan
  {
    let testCount = Int((testSize * Double(n)).rounded(.up))
    guard testCount >= 1, testCount < n else {
      throw FoldPlan.testSizeError(
        "a \(testSize) holdout of \(n) rows leaves no training or no test rows", at: testSizeLocation,
        specPath: specPath)
    }
    let test: [Int32]
    if shuffle {
      var order = Array(0..<n)
      var generator = SeededGenerator(seed: seed)
      generator.shuffle(&order)
      test = order[..<testCount].sorted().map { Int32($0) }
    } else {
      test = ((n - testCount)..<n).map { Int32($0) }
    }
    return FoldPlan(
      folds: [Fold(index: 0, train: RowIndices(RowIndices(all: n), except: test), test: RowIndices(list: test[...]))])
  }

  public var definitionText: String { ResamplingSettingsText.line(shuffle: shuffle, seed: seed, testSize: testSize) }

  public func record(foldsPerRepeat: Int) -> ResamplingSummary {
    ResamplingSummary(
      method: Self.id, folds: foldsPerRepeat, shuffle: shuffle, seed: shuffle ? seed : nil, testSize: testSize)
  }

  public static func describe(_ r: ResamplingSummary) -> String {
    "A single holdout of \(String(format: "%.1f%%", (r.testSize ?? 0.25) * 100)) of the rows"
      + (r.shuffle ? ", chosen at random (seed \(r.seed ?? 0))." : ", the last rows in file order.")
  }
}

import BenchbookData

/// A method set by a fold count and one optional seeded shuffle (k-fold, stratified k-fold): how the spec's keys
/// are read, written into the fingerprint and recorded is the same for each, so it lives here once.
public protocol ShuffledFoldCount: ResamplingMethod {
  var folds: Int { get }
  var shuffle: Bool { get }
  var seed: UInt64 { get }
  init(folds: Int, shuffle: Bool, seed: UInt64, foldsLocation: SourceLocation?)
}

extension ShuffledFoldCount {
  public static var keys: [String] { ["folds", "shuffle"] }
  public static var ordersByTime: Bool { false }

  /// `folds` (at least 2; default 5), `shuffle` (default false) and the seed.
  public init(settings: ResamplingSettings) throws(SpecError) {
    self.init(
      folds: try settings.int("folds", atLeast: 2) ?? 5, shuffle: try settings.bool("shuffle") ?? false,
      seed: try settings.seed(), foldsLocation: settings.location(of: "folds"))
  }

  public var splitCount: Int { folds }

  public var definitionText: String { ResamplingSettingsText.line(folds: folds, shuffle: shuffle, seed: seed) }

  /// The seed is recorded only when the folds depend on it.
  public func record(foldsPerRepeat: Int) -> ResamplingSummary {
    ResamplingSummary(method: Self.id, folds: foldsPerRepeat, shuffle: shuffle, seed: shuffle ? seed : nil)
  }
}

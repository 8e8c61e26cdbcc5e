/// One train/test split a tuned model is scored on, for every configuration at once.
public enum TuningSplit: Sendable, Hashable, Codable {
  /// Outer fold `fold`: the flat score of every configuration (and the nested one of the chosen).
  case outer(fold: Int)
  /// Inner fold `inner` of outer fold `outer`'s training rows, or of all rows when `outer` is `nil`.
  case inner(outer: Int?, inner: Int)
}

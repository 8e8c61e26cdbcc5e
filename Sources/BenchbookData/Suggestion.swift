/// "Did you mean …?" for misspelt names: the candidate nearest by edit distance.
public enum Suggestion {
  /// The candidate closest to `name` (case-insensitive Levenshtein distance,
  /// ties going to the closer spelling with case), if it is close enough to be
  /// a plausible typo.
  public static func closest(to name: String, among candidates: [String]) -> String? {
    let target = Array(name.lowercased())
    var best: (candidate: String, distance: Int, exactDistance: Int)?
    for candidate in candidates {
      let distance = editDistance(target, Array(candidate.lowercased()))
      let exactDistance = editDistance(Array(name), Array(candidate))
      if let current = best, (current.distance, current.exactDistance) <= (distance, exactDistance) { continue }
      best = (candidate, distance, exactDistance)
    }
    guard let best else { return nil }
    // One edit in three characters, at least two: `arr_dela` → `arr_delay`, but not `x` → `year`.
    let limit = max(2, target.count / 3)
    return best.distance <= limit && best.distance < target.count ? best.candidate : nil
  }

  /// Levenshtein distance with one rolling row.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }

  /// `; did you mean 'x'?`, or nothing.
  public static func phrase(for name: String, among candidates: [String]) -> String {
    guard let match = closest(to: name, among: candidates) else { return "" }
    return "; did you mean '\(match)'?"
  }
}

/// "Did you mean" for misspelt column names: the header name with the
/// smallest edit distance, if it is close enough to be a plausible typo.
enum ColumnSuggestion {
  static func closest(to name: String, in candidates: [String]) -> String? {
    if let sameLetters = candidates.first(where: { $0.lowercased() == name.lowercased() }) { return sameLetters }
    let target = Array(name.unicodeScalars)
    var best: (name: String, distance: Int)?
    for candidate in candidates {
      let distance = editDistance(target, Array(candidate.unicodeScalars))
      if best == nil || distance < best!.distance { best = (candidate, distance) }
    }
    guard let best else { return nil }
    // Allow one edit in three characters, at least two: `arr_dela` → `arr_delay`,
    // but not `x` → `year`.
    let allowed = max(2, target.count / 3)
    return best.distance <= allowed && best.distance < target.count ? best.name : nil
  }

  /// Levenshtein distance: insertions, deletions and substitutions cost 1.
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}

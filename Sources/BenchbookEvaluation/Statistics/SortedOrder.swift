/// The order that sorts an array of doubles, ties kept in index order (a stable sort's), by an LSD radix sort
/// on the values' bit patterns (short lists by a comparison sort on key and index, which gives the same order).
///
/// Ranks (Spearman's ρ, the Mann–Whitney form of ROC AUC) and the duplicate screen's hash groups need only this
/// order, on up to a million values, where a comparison sort is a noticeable share of cross-validation's CPU
/// time. The radix sort passes over the values once per 11-bit digit that differs
/// between them (at most six), moving each value's key and index together.
public enum SortedOrder {
  static let digitBits = 11

  /// Below this many keys per radix pass, a comparison sort is faster: each pass clears and sums 2,048 buckets
  /// whatever the count, so on short lists, such as an inner fold's test probabilities, the passes' fixed cost
  /// outweighs the sort, and the audit ranks many of them (one per class, feature, scorer and inner fold).
  static let comparisonSortRows = 256

  /// Indices of `values` in ascending order of value; equal values (−0 and +0 included) in ascending index order.
  /// NaN, which compares with nothing, goes after +∞.
  public static func ascending(_ values: [Double]) -> [Int32] {
    ascending(keys: values.map(orderedKey))
  }

  /// Indices of `keys` in ascending order, equal keys in ascending index order. Narrower keys take less memory
  /// and fewer passes (the duplicate screen sorts 32-bit hashes: on large data, 64-bit ones would add to the
  /// memory held beside the audit's fits).
  public static func ascending<Key: FixedWidthInteger & UnsignedInteger>(keys: consuming [Key]) -> [Int32] {
    precondition(keys.count <= Int(Int32.max), "at most 2³¹ − 1 keys")
    let n = keys.count
    var keys = keys
    var order = (0..<n).map { Int32(truncatingIfNeeded: $0) }
    guard n > 1 else { return order }
    // Digits where no two keys differ leave the order as it is, so they are not passed over.
    var varying: Key = 0
    for key in keys { varying |= key ^ keys[0] }
    guard varying != 0 else { return order }
    let mask: Key = (1 << Key(digitBits)) - 1
    let shifts = stride(from: 0, to: Key.bitWidth, by: digitBits).filter { (varying >> Key($0)) & mask != 0 }
    if n < comparisonSortRows * shifts.count {
      // The same order: ascending keys, equal keys by index, which makes every pair's order unique.
      keys.withUnsafeBufferPointer { keys in
        order.sort { a, b in
          let (keyA, keyB) = (keys[Int(a)], keys[Int(b)])
          return keyA != keyB ? keyA < keyB : a < b
        }
      }
      return order
    }
    var spareKeys = [Key](repeating: 0, count: n)
    var spareOrder = [Int32](repeating: 0, count: n)
    var positions = [Int](repeating: 0, count: 1 << digitBits)
    for shift in shifts {
      for b in positions.indices { positions[b] = 0 }
      for key in keys { positions[Int((key >> Key(shift)) & mask)] += 1 }
      var total = 0
      for b in positions.indices {
        let count = positions[b]
        positions[b] = total
        total += count
      }
      for i in 0..<n {
        let b = Int((keys[i] >> Key(shift)) & mask)
        spareKeys[positions[b]] = keys[i]
        spareOrder[positions[b]] = order[i]
        positions[b] += 1
      }
      swap(&keys, &spareKeys)
      swap(&order, &spareOrder)
    }
    return order
  }

  /// 1-based ranks, ties given the mean of the ranks they span (mid-ranks): what Spearman's ρ correlates and the
  /// Mann–Whitney form of ROC AUC sums.
  public static func averageRanks(_ values: [Double]) -> [Double] {
    let order = ascending(values)
    var ranks = [Double](repeating: 0, count: values.count)
    var start = 0
    while start < order.count {
      let value = values[Int(order[start])]
      var end = start
      while end + 1 < order.count && values[Int(order[end + 1])] == value { end += 1 }
      let rank = Double(start + end) / 2 + 1
      for position in start...end { ranks[Int(order[position])] = rank }
      start = end + 1
    }
    return ranks
  }

  /// A key whose unsigned order is the values' order: the sign bit flipped for positives, every bit for
  /// negatives; −0 is read as +0 first, so the two tie as they compare.
  static func orderedKey(_ value: Double) -> UInt64 {
    let bits = (value + 0).bitPattern
    let sign: UInt64 = 1 << 63
    return bits & sign != 0 ? ~bits : bits | sign
  }
}

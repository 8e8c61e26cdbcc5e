/// The order in which a tree node looks at its features, as scikit-learn's
/// seeded best splitter draws it; the first feature visited wins equal-gain splits.
///
/// scikit-learn keeps one permutation of the feature indices for the whole fit
/// and, at each node it tries to split, draws features from it without
/// replacement (a Fisher–Yates shuffle run from the back) until every feature
/// not known to be constant has been seen. Features found constant at a node
/// are parked at the front, after those its ancestors found, and its
/// descendants never evaluate them again. With `max_features` below the feature
/// count (a forest's trees), a node stops drawing once it has drawn that many,
/// unless every draw so far was a constant. Because the permutation is shared, a
/// node's order depends on every node split before it, so the builder must
/// call `visit` once per node it tries to split, in growth order, and never for
/// a node that becomes a leaf beforehand.
///
/// Reconstructed by experiment: it reproduces scikit-learn 1.9.1's trees node
/// for node (see `tree-seed-goldens.py`).
struct FeatureVisitOrder {
  /// The shared permutation: known constants first, the rest in drawing order.
  private var features: [Int]
  /// Known constants in the order they were found, so a node can restore the
  /// front of `features` after drawing from it.
  private var constants: [Int]
  /// The small xorshift generator (`rand_r` in scikit-learn's tree utilities); `nil` draws nothing.
  private var state: UInt32?

  /// `randomState` as scikit-learn's `random_state`; `nil` visits features in column order.
  init(featureCount: Int, randomState: Int?) {
    features = Array(0..<featureCount)
    constants = Array(repeating: 0, count: featureCount)
    state = randomState.map { seed in
      var twister = MersenneTwister(seed: UInt32(seed))
      return UInt32(twister.integer(below: UInt64(Int32.max)))
    }
  }

  /// One node's visit: writes the features to evaluate into `order` (in the
  /// order drawn) and returns how many, plus the number of features known to be
  /// constant for the node's children.
  /// - Parameters:
  ///   - knownConstants: the constants count the node's parent returned (0 at the root).
  ///   - isConstant: whether a feature takes one value on the node's rows.
  ///   - maxFeatures: scikit-learn's `max_features` as a count (the feature count draws them all).
  mutating func visit(
    knownConstants: Int, isConstant: (Int) -> Bool, order: UnsafeMutablePointer<Int>, maxFeatures: Int = .max
  ) -> (count: Int, constants: Int) {
    guard var state else {
      var count = 0
      for f in 0..<features.count where !isConstant(f) {
        order[count] = f
        count += 1
      }
      return (count, 0)
    }
    var count = 0
    var constantsEnd = knownConstants  // known plus found
    features.withUnsafeMutableBufferPointer { features in
      var drawnKnown = 0  // known constants drawn so far, moved to the front
      var found = 0  // constants newly found at this node
      var unvisited = features.count  // features[unvisited...] have been evaluated
      var drawn = 0  // draws of any kind, against max_features
      while unvisited > constantsEnd && (drawn < maxFeatures || drawn <= found + drawnKnown) {
        drawn += 1
        // Known constants not yet drawn sit in drawnKnown..<knownConstants, new
        // constants right after them; the draw skips the latter.
        var j = drawnKnown + Int(Self.draw(&state) % UInt32(unvisited - found - drawnKnown))
        if j < knownConstants {
          features.swapAt(drawnKnown, j)
          drawnKnown += 1
          continue
        }
        j += found
        let feature = features[j]
        if isConstant(feature) {
          features.swapAt(j, constantsEnd)
          found += 1
          constantsEnd += 1
          continue
        }
        unvisited -= 1
        features.swapAt(j, unvisited)
        order[count] = feature
        count += 1
      }
    }
    self.state = state
    // Restore the known constants' order for siblings and descendants, and record the new ones after them.
    for i in 0..<knownConstants { features[i] = constants[i] }
    for i in knownConstants..<constantsEnd { constants[i] = features[i] }
    return (count, constantsEnd)
  }

  /// The next output of the xorshift generator, in `0...Int32.max` (a zero state restarts at 1).
  @inline(__always)
  private static func draw(_ state: inout UInt32) -> UInt32 {
    var s = state == 0 ? 1 : state
    s ^= s << 13
    s ^= s >> 17
    s ^= s << 5
    state = s
    return s & 0x7fff_ffff
  }
}

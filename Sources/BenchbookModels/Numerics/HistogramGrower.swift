/// One regression tree of histogram gradient boosting, grown on binned features from float32 gradients and
/// hessians as scikit-learn 1.9.1's `TreeGrower` grows it.
///
/// Equally good splits are common (a tree's gains differ in their last bits), so the growth follows
/// scikit-learn step for step wherever the order of arithmetic or of choices could tell two splits apart:
/// histogram sums in float64 over the node's rows in partition order (the root over every row in order; of two
/// children, the smaller one's histogram is summed and the larger one's is the parent's minus it); each
/// feature's bins scanned left to right, then, when the feature had missing values in training, right to left
/// with the missing values on the left; the first feature with the strictly largest gain; best-first growth
/// from a heap that is Python's `heapq`, operation for operation, so that nodes of equal gain are split in the
/// same order; and a stable partition of the rows.
struct HistogramGrower {
  /// A node of the grown tree, numbered as scikit-learn's predictor numbers them (preorder, left first).
  struct Node: Sendable, Hashable {
    /// A leaf's value, already multiplied by the learning rate.
    var value: Double
    var feature: Int
    /// scikit-learn's `num_threshold`: a row goes left when `x <= threshold` (infinite when the split separates
    /// the missing values from all others).
    var threshold: Double
    /// The same split on bins: left when `bin <= binThreshold`.
    var binThreshold: Int
    /// Where a missing value goes.
    var missingGoesLeft: Bool
    var left: Int
    var right: Int
    /// Training rows that reached the node.
    var sampleCount: Int

    var isLeaf: Bool { left < 0 }
  }

  /// What a split search found (scikit-learn's `split_info_struct`).
  struct Split {
    var gain: Double = -1
    var feature = 0
    var bin = 0
    var missingGoesLeft = false
    var sumGradientLeft = 0.0
    var sumHessianLeft = 0.0
    var sumGradientRight = 0.0
    var sumHessianRight = 0.0
    var countLeft = 0
    var countRight = 0
    var valueLeft = 0.0
    var valueRight = 0.0
  }

  /// Per feature and bin: sums of gradients and hessians, and row counts.
  struct Histograms {
    var gradients: [Double]
    var hessians: [Double]
    var counts: [Int]
  }

  /// A node while the tree grows.
  final class GrowingNode {
    let depth: Int
    /// Its rows are `partition[start..<stop]`.
    let start: Int
    let stop: Int
    let sumGradients: Double
    let sumHessians: Double
    var value: Double
    var split: Split?
    var histograms: Histograms?
    var left: GrowingNode?
    var right: GrowingNode?
    var isLeaf = false

    init(depth: Int, start: Int, stop: Int, sumGradients: Double, sumHessians: Double, value: Double) {
      self.depth = depth
      self.start = start
      self.stop = stop
      self.sumGradients = sumGradients
      self.sumHessians = sumHessians
      self.value = value
    }

    var count: Int { stop - start }
    /// Python's `TreeNode.__lt__`, which orders the heap: the larger gain first.
    func precedes(_ other: GrowingNode) -> Bool { split!.gain > other.split!.gain }
  }

  /// The binned training rows, column-major.
  let binned: [UInt8]
  let rowCount: Int
  let featureCount: Int
  /// Bins per feature in a histogram: `maxBins + 1`, the last for missing values.
  let binCount: Int
  let nonMissingBinCounts: [Int]
  let hasMissingValues: [Bool]
  let thresholds: [[Double]]
  let maxLeafNodes: Int?
  let maxDepth: Int?
  let minSamplesLeaf: Int
  let l2Regularization: Double
  let shrinkage: Double
  /// The share of features each split search considers (scikit-learn's `max_features`).
  let maxFeatures: Double
  /// scikit-learn's `min_hessian_to_split`.
  let minHessianToSplit = 1e-3

  /// Grows one tree on `gradients` and `hessians` (one per training row) and adds each leaf's value to its
  /// rows' `rawPredictions`, as scikit-learn's `_update_raw_predictions` does. With `maxFeatures` below 1, each
  /// split search draws its features from `featureDraws`, which the trees of a fit share in turn.
  func grow(
    gradients: UnsafeBufferPointer<Float>, hessians: UnsafeBufferPointer<Float>,
    rawPredictions: UnsafeMutableBufferPointer<Double>, featureDraws: inout PCG64
  ) -> [Node] {
    var state = GrowthState(grower: self, gradients: gradients, hessians: hessians, featureDraws: featureDraws)
    let root = state.growRoot()
    while !state.heap.isEmpty { state.splitNext() }
    featureDraws = state.featureDraws
    for leaf in state.finalizedLeaves {
      leaf.value *= shrinkage
      for i in leaf.start..<leaf.stop { rawPredictions[Int(state.partition[i])] += leaf.value }
    }
    var nodes: [Node] = []
    appendPreorder(root, to: &nodes)
    return nodes
  }

  /// `_fill_predictor_arrays`.
  private func appendPreorder(_ node: GrowingNode, to nodes: inout [Node]) {
    let index = nodes.count
    nodes.append(
      Node(
        value: node.value, feature: -1, threshold: 0, binThreshold: 0, missingGoesLeft: false, left: -1, right: -1,
        sampleCount: node.count))
    guard !node.isLeaf, let split = node.split, let left = node.left, let right = node.right else { return }
    nodes[index].feature = split.feature
    nodes[index].binThreshold = split.bin
    nodes[index].missingGoesLeft = split.missingGoesLeft
    nodes[index].threshold =
      split.bin == nonMissingBinCounts[split.feature] - 1 ? .infinity : thresholds[split.feature][split.bin]
    nodes[index].left = nodes.count
    appendPreorder(left, to: &nodes)
    nodes[index].right = nodes.count
    appendPreorder(right, to: &nodes)
  }

  /// scikit-learn's `compute_node_value` without monotonic bounds.
  @inline(__always)
  static func nodeValue(_ sumGradient: Double, _ sumHessian: Double, l2: Double) -> Double {
    -sumGradient / (sumHessian + l2 + 1e-15)
  }

  /// The mutable part of one growth.
  private struct GrowthState {
    let grower: HistogramGrower
    let gradients: UnsafeBufferPointer<Float>
    let hessians: UnsafeBufferPointer<Float>
    /// Row indices; each node owns a contiguous range.
    var partition: [UInt32]
    var buffer: [UInt32]
    var heap: [GrowingNode] = []
    var finalizedLeaves: [GrowingNode] = []
    var featureDraws: PCG64

    init(
      grower: HistogramGrower, gradients: UnsafeBufferPointer<Float>, hessians: UnsafeBufferPointer<Float>,
      featureDraws: PCG64
    ) {
      self.grower = grower
      self.gradients = gradients
      self.hessians = hessians
      self.featureDraws = featureDraws
      partition = (0..<grower.rowCount).map { UInt32($0) }
      buffer = partition
    }

    mutating func growRoot() -> GrowingNode {
      let histograms = buildHistograms(start: 0, stop: grower.rowCount)
      let binCount = grower.binCount
      let sumGradients = histograms.gradients.withUnsafeBufferPointer {
        PairwiseSum.sum(UnsafeBufferPointer(rebasing: $0[0..<binCount]))
      }
      let sumHessians = histograms.hessians.withUnsafeBufferPointer {
        PairwiseSum.sum(UnsafeBufferPointer(rebasing: $0[0..<binCount]))
      }
      let root = GrowingNode(
        depth: 0, start: 0, stop: grower.rowCount, sumGradients: sumGradients, sumHessians: sumHessians, value: 0)
      if root.count < 2 * grower.minSamplesLeaf || sumHessians < grower.minHessianToSplit {
        finalize(root)
        return root
      }
      root.histograms = histograms
      computeBestSplitAndPush(root)
      return root
    }

    mutating func finalize(_ node: GrowingNode) {
      node.isLeaf = true
      finalizedLeaves.append(node)
    }

    mutating func computeBestSplitAndPush(_ node: GrowingNode) {
      node.split = findSplit(node)
      if node.split!.gain <= 0 {
        finalize(node)
      } else {
        heapPush(node)
      }
    }

    /// `TreeGrower.split_next`.
    mutating func splitNext() {
      let node = heapPop()
      let split = node.split!
      let rightStart = partitionRows(node, split)
      let depth = node.depth + 1
      let leafCount = finalizedLeaves.count + heap.count + 2
      let left = GrowingNode(
        depth: depth, start: node.start, stop: rightStart, sumGradients: split.sumGradientLeft,
        sumHessians: split.sumHessianLeft, value: split.valueLeft)
      let right = GrowingNode(
        depth: depth, start: rightStart, stop: node.stop, sumGradients: split.sumGradientRight,
        sumHessians: split.sumHessianRight, value: split.valueRight)
      node.left = left
      node.right = right
      if !grower.hasMissingValues[split.feature] {
        node.split!.missingGoesLeft = left.count > right.count
      }
      if let maxLeafNodes = grower.maxLeafNodes, leafCount == maxLeafNodes {
        finalize(left)
        finalize(right)
        while let last = heap.popLast() { finalize(last) }
        node.histograms = nil
        return
      }
      if let maxDepth = grower.maxDepth, depth == maxDepth {
        finalize(left)
        finalize(right)
        node.histograms = nil
        return
      }
      if left.count < grower.minSamplesLeaf * 2 { finalize(left) }
      if right.count < grower.minSamplesLeaf * 2 { finalize(right) }
      if !left.isLeaf || !right.isLeaf {
        let (smallest, largest) = left.count < right.count ? (left, right) : (right, left)
        let small = buildHistograms(start: smallest.start, stop: smallest.stop)
        var parent = node.histograms!
        node.histograms = nil
        for i in parent.gradients.indices {
          parent.gradients[i] -= small.gradients[i]
          parent.hessians[i] -= small.hessians[i]
          parent.counts[i] -= small.counts[i]
        }
        smallest.histograms = small
        largest.histograms = parent
        if !left.isLeaf { computeBestSplitAndPush(left) }
        if !right.isLeaf { computeBestSplitAndPush(right) }
        left.histograms = left.isLeaf ? nil : left.histograms
        right.histograms = right.isLeaf ? nil : right.histograms
      }
      node.histograms = nil
    }

    /// `Splitter.split_indices`: a stable partition of the node's rows, left rows first.
    mutating func partitionRows(_ node: GrowingNode, _ split: Split) -> Int {
      let column = split.feature * grower.rowCount
      let missingBin = UInt8(grower.binCount - 1)
      let bin = UInt8(split.bin)
      let missingLeft = split.missingGoesLeft
      var leftCount = 0
      var rightCount = 0
      grower.binned.withUnsafeBufferPointer { binned in
        partition.withUnsafeMutableBufferPointer { partition in
          buffer.withUnsafeMutableBufferPointer { buffer in
            for i in node.start..<node.stop {
              let sample = partition[i]
              let value = binned[column + Int(sample)]
              if (missingLeft && value == missingBin) || value <= bin {
                partition[node.start + leftCount] = sample
                leftCount += 1
              } else {
                buffer[rightCount] = sample
                rightCount += 1
              }
            }
            for j in 0..<rightCount { partition[node.start + leftCount + j] = buffer[j] }
          }
        }
      }
      return node.start + leftCount
    }

    /// `compute_histograms_brute` over `partition[start..<stop]`, each bin summed in that order.
    func buildHistograms(start: Int, stop: Int) -> Histograms {
      let (features, bins, rows) = (grower.featureCount, grower.binCount, grower.rowCount)
      var g = [Double](repeating: 0, count: features * bins)
      var h = [Double](repeating: 0, count: features * bins)
      var c = [Int](repeating: 0, count: features * bins)
      let count = stop - start
      // The node's gradients gathered in partition order (scikit-learn's `ordered_gradients`).
      var orderedG = [Double](repeating: 0, count: count)
      var orderedH = [Double](repeating: 0, count: count)
      partition.withUnsafeBufferPointer { partition in
        for i in 0..<count {
          let sample = Int(partition[start + i])
          orderedG[i] = Double(gradients[sample])
          orderedH[i] = Double(hessians[sample])
        }
        grower.binned.withUnsafeBufferPointer { binned in
          g.withUnsafeMutableBufferPointer { g in
            h.withUnsafeMutableBufferPointer { h in
              c.withUnsafeMutableBufferPointer { c in
                for feature in 0..<features {
                  let column = binned.baseAddress! + feature * rows
                  let base = feature * bins
                  for i in 0..<count {
                    let bin = base + Int(column[Int(partition[start + i])])
                    g[bin] += orderedG[i]
                    h[bin] += orderedH[i]
                    c[bin] += 1
                  }
                }
              }
            }
          }
        }
      }
      return Histograms(gradients: g, hessians: h, counts: c)
    }

    /// `Splitter.find_node_split`: the best split over every feature (or, with `maxFeatures` below 1, over the
    /// features a shuffled mask keeps), the first feature winning ties.
    mutating func findSplit(_ node: GrowingNode) -> Split {
      let features = grower.featureCount
      var kept = [Bool](repeating: true, count: features)
      if grower.maxFeatures < 1 {
        let count = max(1, Int((grower.maxFeatures * Double(features)).rounded(.up)))
        kept = (0..<features).map { $0 < count }
        featureDraws.shuffle(&kept)
      }
      var best = Split()
      for feature in 0..<features {
        var split = Split()
        split.feature = feature
        if kept[feature] {
          scanLeftToRight(node, feature: feature, into: &split)
          if grower.hasMissingValues[feature] { scanRightToLeft(node, feature: feature, into: &split) }
        }
        if feature == 0 || split.gain > best.gain { best = split }
      }
      return best
    }

    /// `_find_best_bin_to_split_left_to_right`: missing values (if any) go right.
    func scanLeftToRight(_ node: GrowingNode, feature: Int, into split: inout Split) {
      let histograms = node.histograms!
      let base = feature * grower.binCount
      let end = grower.nonMissingBinCounts[feature] - 1 + (grower.hasMissingValues[feature] ? 1 : 0)
      let l2 = grower.l2Regularization
      let minLeaf = grower.minSamplesLeaf
      let minHessian = grower.minHessianToSplit
      let lossCurrent = node.sumGradients * node.value
      var sumGradientLeft = 0.0
      var sumHessianLeft = 0.0
      var countLeft = 0
      var bestGain = -1.0
      var found = false
      var bestBin = 0
      var bestGradientLeft = 0.0
      var bestHessianLeft = 0.0
      var bestCountLeft = 0
      for bin in 0..<max(end, 0) {
        countLeft += histograms.counts[base + bin]
        let countRight = node.count - countLeft
        sumHessianLeft += histograms.hessians[base + bin]
        let sumHessianRight = node.sumHessians - sumHessianLeft
        sumGradientLeft += histograms.gradients[base + bin]
        let sumGradientRight = node.sumGradients - sumGradientLeft
        if countLeft < minLeaf { continue }
        if countRight < minLeaf { break }
        if sumHessianLeft < minHessian { continue }
        if sumHessianRight < minHessian { break }
        let gain = Self.gain(
          sumGradientLeft, sumHessianLeft, sumGradientRight, sumHessianRight, lossCurrent: lossCurrent, l2: l2)
        if gain > bestGain && gain > 0 {
          found = true
          bestGain = gain
          bestBin = bin
          bestGradientLeft = sumGradientLeft
          bestHessianLeft = sumHessianLeft
          bestCountLeft = countLeft
        }
      }
      if found {
        record(
          &split, node, gain: bestGain, bin: bestBin, missingGoesLeft: false, gradientLeft: bestGradientLeft,
          hessianLeft: bestHessianLeft, countLeft: bestCountLeft)
      }
    }

    /// `_find_best_bin_to_split_right_to_left`: missing values go left; only better gains than the left-to-right
    /// scan's replace it.
    func scanRightToLeft(_ node: GrowingNode, feature: Int, into split: inout Split) {
      let histograms = node.histograms!
      let base = feature * grower.binCount
      let start = grower.nonMissingBinCounts[feature] - 2
      guard start >= 0 else { return }
      let l2 = grower.l2Regularization
      let minLeaf = grower.minSamplesLeaf
      let minHessian = grower.minHessianToSplit
      let lossCurrent = node.sumGradients * node.value
      var sumGradientRight = 0.0
      var sumHessianRight = 0.0
      var countRight = 0
      var bestGain = split.gain
      var found = false
      var bestBin = 0
      var bestGradientLeft = 0.0
      var bestHessianLeft = 0.0
      var bestCountLeft = 0
      for bin in stride(from: start, through: 0, by: -1) {
        countRight += histograms.counts[base + bin + 1]
        let countLeft = node.count - countRight
        sumHessianRight += histograms.hessians[base + bin + 1]
        let sumHessianLeft = node.sumHessians - sumHessianRight
        sumGradientRight += histograms.gradients[base + bin + 1]
        let sumGradientLeft = node.sumGradients - sumGradientRight
        if countRight < minLeaf { continue }
        if countLeft < minLeaf { break }
        if sumHessianRight < minHessian { continue }
        if sumHessianLeft < minHessian { break }
        let gain = Self.gain(
          sumGradientLeft, sumHessianLeft, sumGradientRight, sumHessianRight, lossCurrent: lossCurrent, l2: l2)
        if gain > bestGain && gain > 0 {
          found = true
          bestGain = gain
          bestBin = bin
          bestGradientLeft = sumGradientLeft
          bestHessianLeft = sumHessianLeft
          bestCountLeft = countLeft
        }
      }
      if found {
        record(
          &split, node, gain: bestGain, bin: bestBin, missingGoesLeft: true, gradientLeft: bestGradientLeft,
          hessianLeft: bestHessianLeft, countLeft: bestCountLeft)
      }
    }

    private func record(
      _ split: inout Split, _ node: GrowingNode, gain: Double, bin: Int, missingGoesLeft: Bool,
      gradientLeft: Double, hessianLeft: Double, countLeft: Int
    ) {
      let l2 = grower.l2Regularization
      split.gain = gain
      split.bin = bin
      split.missingGoesLeft = missingGoesLeft
      split.sumGradientLeft = gradientLeft
      split.sumGradientRight = node.sumGradients - gradientLeft
      split.sumHessianLeft = hessianLeft
      split.sumHessianRight = node.sumHessians - hessianLeft
      split.countLeft = countLeft
      split.countRight = node.count - countLeft
      split.valueLeft = HistogramGrower.nodeValue(split.sumGradientLeft, split.sumHessianLeft, l2: l2)
      split.valueRight = HistogramGrower.nodeValue(split.sumGradientRight, split.sumHessianRight, l2: l2)
    }

    /// `_split_gain` without monotonic constraints: the parent's loss minus the children's.
    @inline(__always)
    static func gain(
      _ gradientLeft: Double, _ hessianLeft: Double, _ gradientRight: Double, _ hessianRight: Double,
      lossCurrent: Double, l2: Double
    ) -> Double {
      let valueLeft = HistogramGrower.nodeValue(gradientLeft, hessianLeft, l2: l2)
      let valueRight = HistogramGrower.nodeValue(gradientRight, hessianRight, l2: l2)
      var gain = lossCurrent
      gain -= gradientLeft * valueLeft
      gain -= gradientRight * valueRight
      return gain
    }

    // MARK: Python's heapq, with `precedes` as `<`

    mutating func heapPush(_ node: GrowingNode) {
      heap.append(node)
      siftDown(0, heap.count - 1)
    }

    mutating func heapPop() -> GrowingNode {
      let last = heap.removeLast()
      guard !heap.isEmpty else { return last }
      let top = heap[0]
      heap[0] = last
      siftUp(0)
      return top
    }

    private mutating func siftDown(_ startPosition: Int, _ position: Int) {
      var position = position
      let item = heap[position]
      while position > startPosition {
        let parentPosition = (position - 1) >> 1
        let parent = heap[parentPosition]
        if item.precedes(parent) {
          heap[position] = parent
          position = parentPosition
          continue
        }
        break
      }
      heap[position] = item
    }

    private mutating func siftUp(_ position: Int) {
      var position = position
      let endPosition = heap.count
      let startPosition = position
      let item = heap[position]
      var child = 2 * position + 1
      while child < endPosition {
        let right = child + 1
        if right < endPosition && !heap[child].precedes(heap[right]) { child = right }
        heap[position] = heap[child]
        position = child
        child = 2 * position + 1
      }
      heap[position] = item
      siftDown(startPosition, position)
    }
  }
}

import BenchbookData
import BenchbookModels
import BenchbookSpec
import Foundation

/// Scores k-nearest-neighbours configurations (`SharedNeighborSearch`) on many splits at once: one neighbour
/// index over every row and one neighbour search per row, instead of an index and a search per split. The index
/// is the kind the splits' own fits would build (`SharedNeighborSearch.neighborIndexKind`, at the largest k and
/// the fewest training rows): a kd-tree in few dense dimensions, brute force with BLAS distances otherwise.
///
/// A kNN model stores its training rows. When no preprocessing is fitted on them, distances do not depend on
/// the split, and a row's k nearest training rows in a split are the first k of its neighbours over all rows
/// that the split trains on: training rows keep dataset order, so a distance tie still goes to the lower
/// row. Tuning over 10 outer × 5 inner folds makes every row a test row of eleven splits, so this searches
/// once where separate fits search eleven times. The scores are bit-identical to `FoldEvaluator.evaluate`:
/// the same class shares, added up in the same row order.
struct NeighborGraphPass: Sendable {
  /// One split to score.
  struct Split: Sendable {
    var train: RowIndices
    var test: RowIndices
    /// Every measure (outer folds), or log-loss alone (inner folds).
    var full: Bool
    /// The outer fold, named in errors.
    var fold: Int?
    /// How many of the configurations, from the first, this split scores (inner folds score the grid only).
    var configurationCount: Int
  }

  let evaluator: FoldEvaluator
  let model: ModelSpec
  let configurations: [any SharedNeighborSearch]
  let splits: [Split]
  /// The largest k: every configuration's neighbours are a prefix of this many.
  let largestK: Int
  /// Writes every configuration's class shares of a query from one walk over its neighbours.
  let shares: any NeighborShareWriting

  /// Queries answered together; a block's neighbour lists and class shares stay a few MB. A batch of `4 × jobs`
  /// blocks' rows is answered in the index's search order and its shares merged back in row order.
  static let blockRows = 1024

  /// The pass, or `nil` when some split needs what only a split's own fit gives: fitted preprocessing, training
  /// rows out of dataset order, a class missing from a split's training rows, too few rows for k, or data whose
  /// arithmetic a fit would reject; or when the model cannot share one search across splits (its descriptor's
  /// `SharedWork.neighborSearchAcrossSplits`). `FoldEvaluator.evaluate` then scores each split, errors included.
  init?(evaluator: FoldEvaluator, model: ModelSpec, configurations: [any Classifier], splits: [Split]) {
    let dataset = evaluator.dataset
    guard model.descriptor.traits.sharedWork.contains(.neighborSearchAcrossSplits),
      let first = configurations.first as? any SharedNeighborSearch,
      let shares = Self.shareWriter(first, configurations, classCount: dataset.classes.count)
    else { return nil }
    let neighbours = configurations.compactMap { $0 as? any SharedNeighborSearch }
    guard !splits.isEmpty, let largestK = neighbours.map(\.k).max(), evaluator.fitsRowsAsTheyAre else { return nil }
    let classCount = dataset.classes.count
    for split in splits {
      guard split.train.count >= largestK, split.train.isAscending, split.test.isAscending,
        Self.holdsEveryClass(split.train, labels: dataset.labels, classCount: classCount)
      else { return nil }
    }
    self.evaluator = evaluator
    self.model = model
    self.configurations = neighbours
    self.splits = splits
    self.largestK = largestK
    self.shares = shares
  }

  /// The share writer of `configurations`, all of `first`'s type; `nil` when they are not.
  private static func shareWriter<C: SharedNeighborSearch>(
    _ first: C, _ configurations: [any Classifier], classCount: Int
  ) -> (any NeighborShareWriting)? {
    let typed = configurations.compactMap { $0 as? C }
    guard typed.count == configurations.count else { return nil }
    return C.shareWriter(typed, classCount: classCount)
  }

  /// Whether `rows` hold a row of every class: read a run at a time until the last missing class is met, a few rows
  /// for most data. Read row by row and whole, with the order checked the same way, a tuning run's many splits
  /// would delay the start of its pass noticeably.
  static func holdsEveryClass(_ rows: RowIndices, labels: [Int], classCount: Int) -> Bool {
    var present = [Bool](repeating: false, count: classCount)
    var missing = classCount
    labels.withUnsafeBufferPointer { labels in
      rows.forEachRun { run in
        guard missing > 0 else { return }
        for row in run where !present[labels[row]] {
          present[labels[row]] = true
          missing -= 1
          if missing == 0 { return }
        }
      }
    }
    return missing == 0
  }

  /// Scores every split, or `nil` if a probability came out non-finite (the per-split path then reports it
  /// with its row).
  /// - Parameter size: the Core ML size of a configuration fitted on an outer split, when a budget needs it.
  func run(jobs: Int, size: (@Sendable (Int, FittedPipeline) -> Int?)?) throws(ModelFailure) -> [ConfigurationScores]? {
    let start = DispatchTime.now().uptimeNanoseconds
    let dataset = evaluator.dataset
    let n = dataset.x.rows
    let classCount = dataset.classes.count
    let widest = configurations.max { $0.k < $1.k }!
    let fewestRows = splits.map(\.train.count).min()!
    let kind = widest.neighborIndexKind(
      rows: fewestRows, features: dataset.x.columns, sparse: NeighborIndexKind.isSparse(dataset.x))
    let tree = kind.build(dataset.x, leafSize: widest.leafSize)
    let membership = SplitMembership(splits, rowCount: n)
    let width = configurations.count * classCount

    // Per split: outer probabilities per configuration in test order; inner log-loss totals.
    var probabilities = splits.map { split in
      split.full
        ? (0..<split.configurationCount).map { _ in [Double](repeating: 0, count: split.test.count * classCount) }
        : []
    }
    // Per outer split, how many of its test rows the merge has written.
    var outerRowsWritten = [Int](repeating: 0, count: splits.count)
    var lossTotals = splits.map { [Double](repeating: 0, count: $0.configurationCount) }

    // Each batch of rows is answered in the index's search order (`SubsetNeighborIndex.searchOrder`), not in row
    // order: a kd-tree's queries then come a short way apart, so each one's search is bounded from the start by
    // the one before it (`KBest.seed`), and they read the same leaves while these are in cache.
    var rank = [Int32](repeating: 0, count: n)
    for (position, row) in tree.searchOrder().enumerated() { rank[row] = Int32(truncatingIfNeeded: position) }
    let batchRows = max(1, jobs) * 4 * Self.blockRows
    for batchStart in stride(from: 0, to: n, by: batchRows) {
      let batch = batchStart..<min(batchStart + batchRows, n)
      let ordered = batch.sorted { rank[$0] < rank[$1] }
      let blocks = stride(from: 0, to: ordered.count, by: Self.blockRows).map {
        Array(ordered[$0..<min($0 + Self.blockRows, ordered.count)])
      }
      let shares = ParallelExecutor.run(count: blocks.count, jobs: jobs) { (b: Int) -> [Double]? in
        classShares(of: blocks[b], tree: tree, membership: membership)
      }
      // Where each row's shares are: its block, and its first entry there.
      var blockOfRow = [Int32](repeating: 0, count: batch.count)
      var entryOfRow = [Int](repeating: 0, count: batch.count)
      for (b, block) in blocks.enumerated() {
        guard shares[b] != nil else { return nil }
        var entry = 0
        for row in block {
          blockOfRow[row - batch.lowerBound] = Int32(b)
          entryOfRow[row - batch.lowerBound] = entry
          entry += membership.entryCount(of: row)
        }
      }
      // Merged in row order, so totals add up exactly as `LogLoss.evaluate` adds a split's test rows, and each
      // outer split's rows land in its test order (both ascending). One thread merges while the other workers
      // wait, so the logarithms were taken by the blocks (`classShares`): only copies and sums are left here.
      for row in batch {
        let label = dataset.labels[row]
        let blockShares = shares[Int(blockOfRow[row - batch.lowerBound])]!
        var entry = entryOfRow[row - batch.lowerBound]
        for s in membership.splits(testing: row) {
          let base = entry * width
          if splits[s].full {
            let position = outerRowsWritten[s] * classCount
            for c in 0..<splits[s].configurationCount {
              for k in 0..<classCount { probabilities[s][c][position + k] = blockShares[base + c * classCount + k] }
            }
            outerRowsWritten[s] += 1
          } else {
            for c in 0..<splits[s].configurationCount {
              lossTotals[s][c] += blockShares[base + c * classCount + label]
            }
          }
          entry += 1
        }
      }
    }

    // Each split's measures on both threads (an outer split's, with its sorts for the ROC AUC, take tens of
    // milliseconds); the first split in order that fails or is not finite decides, as a loop over them would.
    let (outerProbabilities, innerTotals, splits, model) = (probabilities, lossTotals, splits, model)
    let recorded = ParallelExecutor.run(count: splits.count, jobs: jobs) {
      (s: Int) -> Result<ConfigurationScores?, ModelFailure> in
      let split = splits[s]
      var result = ConfigurationScores(
        logLoss: [], scores: split.full ? [] : nil, calibration: split.full ? [] : nil, sizeBytes: [],
        fitSeconds: 0, predictSeconds: 0)
      if split.full {
        let labels = split.test.gathering(dataset.labels)
        for values in outerProbabilities[s] {
          let matrix = Matrix(rows: split.test.count, columns: classCount, values: values)
          do throws(ModelFailure) {
            try evaluator.checkProbabilities(matrix, testRows: split.test, model: model, fold: split.fold)
          } catch {
            return .failure(error)
          }
          FoldEvaluator.record(matrix, labels: labels, full: true, into: &result)
        }
      } else {
        result.logLoss = innerTotals[s].map { $0 / Double(split.test.count) }
        guard result.logLoss.allSatisfy(\.isFinite) else { return .success(nil) }
      }
      result.sizeBytes = [Int?](repeating: nil, count: split.configurationCount)
      return .success(result)
    }
    var results: [ConfigurationScores] = []
    for (s, outcome) in recorded.enumerated() {
      precondition(
        !splits[s].full || outerRowsWritten[s] == splits[s].test.count, "every test row of an outer split merged")
      guard let result = try outcome.get() else { return nil }
      results.append(result)
    }
    if let size {
      try measureSizes(&results, size: size, jobs: jobs)
    }
    // One pass served every split: its time is shared out by test rows, the work each split stands for.
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let testRows = Double(splits.reduce(0) { $0 + $1.test.count })
    for s in splits.indices { results[s].fitSeconds = seconds * Double(splits[s].test.count) / testRows }
    return results
  }

  /// Class shares of every (row, split it tests, configuration) for the rows of `block`, in the order of `block`
  /// and then of splits and configurations; `nil` if one is not finite. An inner split's entry holds, in place
  /// of the row's own class share, its log-loss (`LogLoss.loss`), which is all the merge needs of it.
  private func classShares(
    of block: [Int], tree: any SubsetNeighborIndex, membership: SplitMembership
  ) -> [Double]? {
    let dataset = evaluator.dataset
    let n = dataset.x.rows
    let classCount = dataset.classes.count
    let width = configurations.count * classCount
    var firstEntry = [Int](repeating: 0, count: block.count + 1)
    for (q, row) in block.enumerated() { firstEntry[q + 1] = firstEntry[q] + membership.entryCount(of: row) }
    var out = [Double](repeating: 0, count: firstEntry[block.count] * width)
    // A split's kept neighbours, rewritten for every (row, split): plain buffers, so a copy is one store, with
    // no array's uniqueness check.
    let labels = UnsafeMutablePointer<Int>.allocate(capacity: largestK)
    let distances = UnsafeMutablePointer<Double>.allocate(capacity: largestK)
    let weights = UnsafeMutablePointer<Double>.allocate(capacity: largestK)
    // Splits exclude a tenth to a third of the rows, often the rows nearest a query (a block of
    // unshuffled folds shares its dates): twice k neighbours usually hold k of every split's training rows
    // (a longer list is no faster, as it costs more than the rare searches it saves), four times
    // k nearly always, and the rare split left short is searched on its own.
    let listed = min(n, 2 * largestK + 8)
    let longer = min(n, 2 * listed)
    // The training words of a query's listed neighbours, read once for all the splits testing it.
    let gathered = UnsafeMutablePointer<UInt64>.allocate(capacity: longer * membership.wordsPerRow)
    defer {
      labels.deallocate()
      distances.deallocate()
      weights.deallocate()
      gathered.deallocate()
    }
    var sums = [Double](repeating: 0, count: classCount)
    let sharedShares = shares
    var finite = true

    /// Each neighbour's class and weight (`NeighborShareWriting.weights`) in `list`, aligned with its rows: looked
    /// up once per list, not once per split that keeps the neighbour.
    func described(_ list: NeighborList) -> Described {
      var weights = [Double](repeating: 0, count: list.squaredDistances.count)
      list.squaredDistances.withUnsafeBufferPointer { distances in
        weights.withUnsafeMutableBufferPointer { sharedShares.weights(squaredDistances: distances, into: $0) }
      }
      return Described(list: list, labels: list.rows.map { dataset.labels[$0] }, weights: weights)
    }

    /// Writes the shares of query `q` for every split testing it, taking each split's first `largestK`
    /// training rows from `listed` (query `position` of it). Returns `false`, leaving the query for a longer
    /// list, when a split has too few there and `searchAlone` is false; else searches that split alone.
    func answer(_ q: Int, from listed: Described, position: Int, searchAlone: Bool) -> Bool {
      let list = listed.list
      let row = block[q]
      var entry = firstEntry[q]
      let first = position * list.k
      membership.gatherRows(list.rows[first..<(first + list.k)], into: gathered)
      for s in membership.splits(testing: row) {
        let kept = listed.keep(
          query: position, split: s, gathered: gathered, membership: membership, into: (labels, distances, weights),
          limit: largestK)
        if kept < largestK {
          guard searchAlone else { return false }
          let own = tree.nearest(toStored: [row], k: largestK) { membership.trains(s, $0) }
          let ownListed = described(own)
          for i in 0..<largestK {
            labels[i] = ownListed.labels[i]
            distances[i] = own.squaredDistances[i]
            weights[i] = ownListed.weights[i]
          }
        }
        sums.withUnsafeMutableBufferPointer { sums in
          out.withUnsafeMutableBufferPointer { out in
            let shares = UnsafeMutableBufferPointer(rebasing: out[(entry * width)..<((entry + 1) * width)])
            sharedShares.write(labels: labels, squaredDistances: distances, weights: weights, sums: sums, into: shares)
            if !shares.allSatisfy(\.isFinite) { finite = false }
            if !splits[s].full {
              let label = dataset.labels[row]
              for c in 0..<splits[s].configurationCount {
                shares[c * classCount + label] = LogLoss.loss(shares[c * classCount + label])
              }
            }
          }
        }
        entry += 1
      }
      return true
    }

    let found = tree.nearest(toStored: block, k: listed) { _ in true }
    let foundListed = described(found)
    var deferred: [Int] = []
    for q in 0..<block.count where !answer(q, from: foundListed, position: q, searchAlone: listed == n) {
      deferred.append(q)
    }
    if !deferred.isEmpty {
      let again = tree.nearest(toStored: deferred.map { block[$0] }, k: longer) { _ in true }
      let againListed = described(again)
      for (position, q) in deferred.enumerated() {
        _ = answer(q, from: againListed, position: position, searchAlone: true)
      }
    }
    return finite ? out : nil
  }

  /// A neighbour list with each neighbour's class and weight beside it.
  private struct Described {
    var list: NeighborList
    var labels: [Int]
    var weights: [Double]

    /// Copies the neighbours of query `query` that `split` trains on, in list order, until `limit` are kept;
    /// returns how many were. Each one is written and the count advanced by its training bit, with no branch on
    /// the bit: a split leaves out a tenth to a third of a query's neighbours in no order a branch could learn.
    /// - Precondition: `kept` has room for `limit` neighbours; `gathered` holds this query's training words.
    @inline(__always)
    func keep(
      query: Int, split: Int, gathered: UnsafePointer<UInt64>, membership: SplitMembership,
      into kept: (
        labels: UnsafeMutablePointer<Int>, distances: UnsafeMutablePointer<Double>,
        weights: UnsafeMutablePointer<Double>
      ),
      limit: Int
    ) -> Int {
      let first = query * list.k
      return labels.withUnsafeBufferPointer { labels in
        list.squaredDistances.withUnsafeBufferPointer { distances in
          weights.withUnsafeBufferPointer { weights in
            var keptCount = 0
            for j in 0..<list.k {
              kept.labels[keptCount] = labels[first &+ j]
              kept.distances[keptCount] = distances[first &+ j]
              kept.weights[keptCount] = weights[first &+ j]
              keptCount &+= membership.trainingBit(split, gathered: gathered, at: j)
              if keptCount == limit { break }
            }
            return keptCount
          }
        }
      }
    }
  }

  /// The Core ML size of each configuration fitted on each outer split's training rows, measured as
  /// `FoldEvaluator.evaluate` measures it.
  private func measureSizes(
    _ results: inout [ConfigurationScores], size: @Sendable (Int, FittedPipeline) -> Int?, jobs: Int
  ) throws(ModelFailure) {
    let (evaluator, splits, configurations, model) = (evaluator, splits, configurations, model)
    let outer = splits.indices.filter { splits[$0].full }
    let sizes = try ParallelExecutor.run(count: outer.count, jobs: jobs) { (i: Int) throws(ModelFailure) -> [Int?] in
      let split = splits[outer[i]]
      let training = GatheredRows(evaluator.dataset, rows: split.train)
      let labels = training.labels
      let (preprocessing, prepared) = evaluator.fitPreprocessing(consume training)
      return try evaluator.sizes(
        of: Array(configurations[..<split.configurationCount]), fittedOn: prepared, labels: labels,
        preprocessing: preprocessing, size: size, model: model, fold: split.fold)
    }
    for (i, s) in outer.enumerated() { results[s].sizeBytes = sizes[i] }
  }
}

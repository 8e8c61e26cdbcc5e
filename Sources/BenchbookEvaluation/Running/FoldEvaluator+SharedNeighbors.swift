import BenchbookData
import BenchbookModels
import BenchbookSpec
import Dispatch

/// Folds of a k-nearest-neighbours model (`SharedNeighborSearch`) scored against one index over every row
/// (`SharedNeighborTree`).
///
/// Without fitted preprocessing a fold's model stores its training rows unchanged, so its k nearest rows are
/// the k nearest *training* rows in an index over all rows. When the fold's training rows keep the index's stored
/// order, a distance tie still goes to the lower training row, and the shares are added by the same code
/// (the model's `probabilities(_:labels:classCount:)`), so the scores are bit-identical to `evaluate(_:on:)`, which
/// tests check.
extension FoldEvaluator {
  /// `model`'s classifier when its folds may search one tree over every row: an untuned model whose descriptor's
  /// fold strategy is `sharedNeighborTree`, no planted slowdown (tests time a repeated fit), and rows that any
  /// fold's fit takes as they are (`fitsRowsAsTheyAre`); `nil` otherwise.
  func neighborSearcher(_ model: ModelSpec) -> (any SharedNeighborSearch)? {
    guard model.descriptor.foldStrategy == .sharedNeighborTree, model.search == nil,
      !FitRepeat.isPlanted(for: model.label), fitsRowsAsTheyAre
    else { return nil }
    return model.classifier as? any SharedNeighborSearch
  }

  /// `evaluate(model, on: fold)`, searching `shared` instead of fitting the fold's own index. A fold the shared
  /// search cannot stand for (too few training rows for k, training rows out of order, a class missing from
  /// them) is evaluated on its own, errors included.
  func evaluate(_ model: ModelSpec, on fold: Fold, sharing shared: SharedNeighborTree) throws(ModelFailure)
    -> Outcome
  {
    guard let neighbors = neighborSearcher(model), let (admitted, kind, excluded) = admitted(neighbors, fold, shared)
    else {
      shared.done()
      return try evaluate(model, on: fold)
    }
    // The test rows are stored points of the index: searched as such (a kd-tree reads them in its own order).
    var testPositions: [Int] = []
    testPositions.reserveCapacity(fold.test.count)
    fold.test.forEachRow { testPositions.append(shared.position(of: $0)) }
    let testLabels = fold.test.gathering(dataset.labels)
    let classCount = dataset.classes.count
    return try shared.use(dataset, kind: kind) { (built) throws(ModelFailure) -> Outcome in
      let stored = built.value
      let start = DispatchTime.now().uptimeNanoseconds
      var values: [Double] = []
      values.reserveCapacity(testPositions.count * classCount)
      admitted.withContains { admits in
        // In blocks of up to 4 Mi neighbours (64 MB of lists): a tenth of a million-row dataset at k = 5 is
        // one block, and the search takes a block's queries in tree order, so larger blocks reuse the cache.
        let chunk = max(type(of: neighbors).queryChunk, (1 << 22) / neighbors.k)
        for first in stride(from: 0, to: testPositions.count, by: chunk) {
          let queries =
            testPositions.count <= chunk
            ? testPositions : Array(testPositions[first..<min(first + chunk, testPositions.count)])
          let found = stored.index.nearest(toStored: queries, k: neighbors.k, excluding: excluded, admitting: admits)
          values += neighbors.probabilities(found, labels: stored.labels, classCount: classCount).values
        }
      }
      let probabilities = Matrix(rows: testPositions.count, columns: classCount, values: values)
      let predictSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      try checkProbabilities(probabilities, testRows: fold.test, model: model, fold: fold.index)
      return Outcome(
        scores: FoldScores(probabilities: probabilities, labels: testLabels),
        fitSeconds: built.buildSeconds / Double(shared.folds),
        predictSeconds: predictSeconds,
        preprocessingFittedOn: RowSetFingerprint(fold.train),
        calibration: FoldCalibration(probabilities: probabilities, labels: testLabels))
    }
  }

  /// The stored positions of the fold's training rows as a bit set, the index the fold's fit would build, and
  /// the longest run of positions outside the fold's training rows (its test block, or a forward split's
  /// future), which a kd-tree search skips; or `nil` when the shared index cannot stand for the fold's own: too few
  /// training rows for k, training rows out of the stored order, or a class missing from them.
  private func admitted(
    _ neighbors: any SharedNeighborSearch, _ fold: Fold, _ shared: SharedNeighborTree
  ) -> (positions: RowBitSet, kind: NeighborIndexKind, excluded: Range<Int>)? {
    guard neighbors.k <= fold.train.count else { return nil }
    let kind = shared.kind(neighbors, rows: fold.train.count, of: dataset)
    var positions = RowBitSet(count: dataset.x.rows)
    var present = [Bool](repeating: false, count: dataset.classes.count)
    var previous = -1
    var ordered = true
    fold.train.forEachRun { run in
      for row in run where ordered {
        let position = shared.position(of: row)
        ordered = position > previous
        previous = position
        positions.insert(position)
        present[dataset.labels[row]] = true
      }
    }
    guard ordered && present.allSatisfy({ $0 }) else { return nil }
    return (positions, kind, positions.longestClearRun())
  }
}

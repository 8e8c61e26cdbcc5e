import BenchbookData

/// A classifier that predicts from the k nearest training rows, so that one neighbour search over every row can
/// stand for its fits: the folds' (the `sharedNeighborTree` fold strategy) and a tuning's splits and
/// configurations (`SharedWork.neighborSearchAcrossSplits`). The model's own code turns the neighbours found into
/// probabilities, so a shared search predicts bit for bit what the model's own fit would.
public protocol SharedNeighborSearch: Classifier {
  /// The kind of value that writes many configurations' class shares from one walk over a query's neighbours.
  associatedtype ShareWriter: NeighborShareWriting

  /// Neighbours consulted per prediction.
  var k: Int { get }
  /// The kd-tree leaf size its own fit would build with.
  var leafSize: Int { get }

  /// The index its own fit on `rows` rows of `features` features builds (`sparse`: the rows are mostly zero,
  /// `NeighborIndexKind.isSparse`); a shared index of that kind stands for it. Every kind finds the same
  /// neighbours, so the choice is one of speed.
  func neighborIndexKind(rows: Int, features: Int, sparse: Bool) -> NeighborIndexKind

  /// Class shares from the first `k` neighbours of each query in `found`, as its fitted model computes them.
  /// - Parameter labels: the class of every stored row `found` can name.
  func probabilities(_ found: NeighborList, labels: [Int], classCount: Int) -> Matrix

  /// Queries a fitted model answers per search, so a shared search keeps its neighbour lists as small.
  static var queryChunk: Int { get }

  /// The writer of every configuration's class shares, configuration c's at `c·classCount` of its output.
  static func shareWriter(_ configurations: [Self], classCount: Int) -> ShareWriter
}

/// Writes many configurations' class shares of one query from one walk over its neighbours (nearest first).
public protocol NeighborShareWriting: Sendable {
  /// What each neighbour of a query's shared list weighs, whatever split keeps it (a distance weight): worked out
  /// once per list rather than once per split that walks it, about ten times over in nested tuning.
  func weights(squaredDistances: UnsafeBufferPointer<Double>, into weights: UnsafeMutableBufferPointer<Double>)

  /// - Parameters:
  ///   - labels: each neighbour's class, nearest first.
  ///   - weights: `weights(squaredDistances:into:)` of these neighbours, aligned with `labels`.
  ///   - sums: scratch space for `classCount` values.
  func write(
    labels: UnsafePointer<Int>, squaredDistances: UnsafePointer<Double>, weights: UnsafePointer<Double>,
    sums: UnsafeMutableBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>)
}

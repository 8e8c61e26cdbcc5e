import BenchbookData

/// Stored training rows; a row's class probabilities are the votes of its k
/// nearest stored rows (Euclidean distance), divided by their total.
///
/// Equally distant rows are taken in stored order (the earlier row first).
/// With inverse-distance weighting a neighbour votes 1/distance, and if any
/// of the k lies at distance zero, those at zero vote 1 and the rest 0.
public struct NeighborsForm: Sendable, Equatable {
  public enum Weighting: String, Sendable, Equatable {
    case uniform
    case inverseDistance
  }

  /// How the model searches its rows; formats that store an index may record it.
  public enum Index: Sendable, Equatable {
    case linear
    case kdTree(leafSize: Int)
  }

  /// The stored rows in training order, in design-matrix columns.
  public let samples: Matrix
  /// Class of each stored row.
  public let labels: [Int]
  public let classCount: Int
  public let k: Int
  public let weighting: Weighting
  public let index: Index

  public init(samples: Matrix, labels: [Int], classCount: Int, k: Int, weighting: Weighting, index: Index) {
    precondition(labels.count == samples.rows, "one label per stored row")
    precondition(k >= 1 && k <= samples.rows, "k within the stored rows")
    self.samples = samples
    self.labels = labels
    self.classCount = classCount
    self.k = k
    self.weighting = weighting
    self.index = index
  }

  public var featureCount: Int { samples.columns }
  public var sampleCount: Int { samples.rows }
}

/// One train/test split, as row indices into the dataset (never copies of data).
public struct Fold: Sendable, Hashable, Codable {
  /// Position in the plan, counting across repeats.
  public var index: Int
  /// Which repeat of a repeated k-fold this fold belongs to (0 otherwise).
  public var repeatIndex: Int
  /// Training rows, in the order models see them (ascending, or time order for time-series).
  public var train: RowIndices
  public var test: RowIndices

  public init(index: Int, repeatIndex: Int = 0, train: RowIndices, test: RowIndices) {
    self.index = index
    self.repeatIndex = repeatIndex
    self.train = train
    self.test = test
  }

  public init(index: Int, repeatIndex: Int = 0, train: [Int], test: [Int]) {
    self.init(index: index, repeatIndex: repeatIndex, train: RowIndices(train), test: RowIndices(test))
  }
}

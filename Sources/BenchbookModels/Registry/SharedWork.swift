/// Work a model's fits can share across configurations and splits, besides its fold strategy (which shares work
/// across folds). Each kind is reached through a protocol the model adopts.
public struct SharedWork: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Configurations fitted on the same rows share work (`Classifier.sharedFits`, `FittedClassifier.predictTogether`:
  /// one tree cut back for every depth, one pass of statistics for every smoothing): tuning fits them together.
  public static let configurations = SharedWork(rawValue: 1 << 0)
  /// One neighbour search over every row serves every split and configuration of a tuning
  /// (`SharedNeighborSearch`): tuning scores all its splits in one pass.
  public static let neighborSearchAcrossSplits = SharedWork(rawValue: 1 << 1)
  /// A fit may start from another fit's weights (`WarmStartFitting`): the audit's drop-column refits do.
  public static let warmStart = SharedWork(rawValue: 1 << 2)

  /// The kinds of shared work in this set that `type` does not adopt the protocol for, by name.
  func unserved(by type: any Classifier.Type) -> [String] {
    var missing: [String] = []
    if contains(.neighborSearchAcrossSplits) && !(type is any SharedNeighborSearch.Type) {
      missing.append("neighborSearchAcrossSplits")
    }
    if contains(.warmStart) && !(type is any WarmStartFitting.Type) { missing.append("warmStart") }
    return missing
  }
}

extension ExportForm {
  /// Which of the five shapes a form takes, without its numbers: what a model's descriptor declares
  /// (`ModelDescriptor.exportForm`) and what a file format says it can hold, so the formats a model exports to are
  /// known before anything is fitted.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case linear, gaussian, tree, treeEnsemble, neighbors
  }

  /// The shape of this form.
  public var kind: Kind {
    switch self {
    case .linear: .linear
    case .gaussian: .gaussian
    case .tree: .tree
    case .treeEnsemble: .treeEnsemble
    case .neighbors: .neighbors
    }
  }
}

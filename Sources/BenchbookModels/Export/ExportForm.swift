import BenchbookData

/// What a fitted classifier computes, stated without any file format: the
/// common ground every exporter lowers into its own operators.
///
/// Every `FittedClassifier` states its form (`FittedClassifier.exportForm()`,
/// a requirement with no default), so a new model, even one a test target
/// defines, exports to every format by declaring which of these five shapes
/// its predictions take. All forms read the design matrix the classifier was
/// fitted on (one-hot columns and standardisation already applied; the
/// exporters put those steps in the file) and give one probability per class,
/// in the classifier's column order.
public enum ExportForm: Sendable, Equatable {
  /// Linear class scores, then a softmax over them (or a sigmoid of one score for two classes).
  case linear(LinearForm)
  /// Gaussian class densities with independent features, weighted by class priors (naive Bayes).
  case gaussian(GaussianForm)
  /// One binary decision tree whose leaves hold class shares.
  case tree(TreeForm)
  /// Many trees whose leaves add into scores, then a transform (a forest's average, boosting's sigmoid or softmax).
  case treeEnsemble(TreeEnsembleForm)
  /// Stored training rows voting by their class among the k nearest.
  case neighbors(NeighborsForm)

  /// Columns of the design matrix the form reads.
  public var featureCount: Int {
    switch self {
    case .linear(let form): form.featureCount
    case .gaussian(let form): form.featureCount
    case .tree(let form): form.featureCount
    case .treeEnsemble(let form): form.featureCount
    case .neighbors(let form): form.featureCount
    }
  }

  /// Probabilities the form gives per row.
  public var classCount: Int {
    switch self {
    case .linear(let form): form.classCount
    case .gaussian(let form): form.classCount
    case .tree(let form): form.classCount
    case .treeEnsemble(let form): form.classCount
    case .neighbors(let form): form.classCount
    }
  }

  /// The form's name in files and messages: `linear`, `gaussian`, `tree`, `treeEnsemble`, `neighbors`.
  public var name: String { kind.rawValue }
}

/// Why a fitted classifier has no export form.
public struct ExportFormError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

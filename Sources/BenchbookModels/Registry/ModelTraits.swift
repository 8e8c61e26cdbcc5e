/// How an algorithm behaves when fitted: what the scheduler, shared work and the conformance suite rely on.
///
/// Every trait is declared by the model's descriptor; none has a default, so a new model cannot inherit a silent
/// assumption (that it does not write its rows in place, say) by forgetting to state it.
public struct ModelTraits: Sendable, Hashable {
  /// Whether, and how far, the order of the training rows changes the fitted model.
  public let rowOrder: RowOrderDependence
  /// Whether the fit rewrites the rows it is handed (logistic regression scales and whitens them in place), so
  /// rows it shares with the dataset are copied first (by value semantics) and the scheduler counts that copy.
  public let rewritesItsRows: Bool
  /// Copies of its training rows a fit holds at its largest, the gathered rows it is handed included. Scheduling
  /// only: the memory budget weighs fits by it.
  public let workingCopies: Int
  /// A rough order of fitting cost (1 cheapest), so the longest tasks start first. Scheduling only.
  public let relativeCost: Int
  /// Columns the fit may append to the rows it is handed (logistic regression's Newton solver adds one of ones for
  /// the intercept): a fold gathers its rows with room for them, so that the fit widens its only copy in place
  /// instead of holding a wider second one beside it.
  public let appendedColumns: Int
  /// The export formats, by id (`coreml`), in which its file can learn from an app's examples on device (Core ML's
  /// updatable models: `benchbook export --updatable`); empty when none can. The conformance suite checks that each
  /// of these formats can update the model's fitted form and that no other format claims to.
  public let updatableFormats: [String]
  /// Work its fits can share across configurations and splits, beyond its fold strategy.
  public let sharedWork: SharedWork
  /// How far fits that share work (`Classifier.sharedFits`) may move predictions from separate fits: 0 means bit
  /// for bit; a solver that warm-starts reaches each optimum to its tolerance only.
  public let sharedFitTolerance: Double

  public init(
    rowOrder: RowOrderDependence, rewritesItsRows: Bool, workingCopies: Int, relativeCost: Int,
    appendedColumns: Int, updatableFormats: [String],
    sharedWork: SharedWork, sharedFitTolerance: Double
  ) {
    self.rowOrder = rowOrder
    self.rewritesItsRows = rewritesItsRows
    self.workingCopies = workingCopies
    self.relativeCost = relativeCost
    self.appendedColumns = appendedColumns
    self.updatableFormats = updatableFormats
    self.sharedWork = sharedWork
    self.sharedFitTolerance = sharedFitTolerance
  }

  /// Whether the fitted model depends on the order of its training rows beyond the rounding of sums (k-nearest
  /// neighbours gives a distance tie to the earlier row): such rows must be handed over in their own order.
  public var fitDependsOnRowOrder: Bool {
    if case .dependsOnOrder = rowOrder { return true }
    return false
  }

  /// Whether its export can learn on device in some format.
  public var updatable: Bool { !updatableFormats.isEmpty }

  /// Rows a fit on `trainingRows` gathered rows holds at its largest (`workingCopies` of them). Scheduling only.
  public func heldRows(training trainingRows: Int) -> Int { trainingRows * workingCopies }
}

/// How the order of the training rows affects a fit.
public enum RowOrderDependence: Sendable, Hashable {
  /// The fitted model depends on the order (a tie goes to the earlier row): rows keep their order.
  case dependsOnOrder
  /// Only the rounding of sums over rows depends on the order: predictions move by at most `tolerance`
  /// (0: not at all, a tree's splits depend on values alone), so rows may come in whichever order is cheaper.
  case independent(tolerance: Double)
}

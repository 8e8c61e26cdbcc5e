extension LogisticRegression {
  /// Logistic regression: scaled and whitened in place, warm-started along a C path and by the audit's refits.
  /// Core ML can update it on device (SGD on an app's examples).
  public static let descriptor = ModelDescriptor(
    id: "logistic_regression", abbreviations: ["LR"], scikitLearnName: "LogisticRegression",
    displayName: "logistic regression", defaultLabel: "LR", inDefaultSet: true, classifierType: Self.self,
    traits: ModelTraits(
      // The sums' rounding moves each gradient a little, and L-BFGS stops within its tolerance of the optimum:
      // unpenalised on breast cancer, whose optimum is flat, two row orders differ by 6e-9.
      rowOrder: .independent(tolerance: 1e-7), rewritesItsRows: true, workingCopies: 1, relativeCost: 3,
      appendedColumns: 1,
      updatableFormats: ["coreml"], sharedWork: [.configurations, .warmStart],
      // Warm starts along the C path reach each C's own optimum to the solver's tolerance, not to the bit.
      sharedFitTolerance: 1e-9),
    foldStrategy: .gathered, storedSize: .fixed, exportForm: .linear)
}

extension LogisticRegression: WarmStartFitting {
  public func warmStart(from start: any FittedClassifier, keepingColumns columns: [Int], classCount: Int)
    -> FittedLogisticRegression?
  {
    guard let start = start as? FittedLogisticRegression, start.classCount == classCount else { return nil }
    return start.keepingColumns(columns)
  }
}

extension LogisticRegression: ToleranceLoosening {
  public func loosened(to tolerance: Double) -> LogisticRegression {
    var loosened = self
    loosened.tol = max(tol, tolerance)
    return loosened
  }
}

import BenchbookModels

/// A fitted model Core ML can hold: it converts itself into the pipeline's classifier stage.
///
/// Every algorithm's conversion is a conformance.
protocol CoreMLConvertible: FittedClassifier {
  /// - Parameters:
  ///   - width: columns of the design matrix the model was fitted on.
  ///   - classes: the class labels, in the model's column order; `labels` the same, typed for Core ML.
  func classifierStage(width: Int, classes: [String], labels: ClassLabels, updatable: Bool) throws(ExportError)
    -> ClassifierStage
}

/// A configuration whose fitted models Core ML can hold.
protocol ExportableClassifier: Classifier where Fitted: CoreMLConvertible {}

extension LogisticRegression: ExportableClassifier {}
extension LinearDiscriminantAnalysis: ExportableClassifier {}
extension KNearestNeighbors: ExportableClassifier {}
extension DecisionTree: ExportableClassifier {}
extension GaussianNaiveBayes: ExportableClassifier {}

extension FittedLogisticRegression: CoreMLConvertible {
  func classifierStage(width: Int, classes: [String], labels: ClassLabels, updatable: Bool) throws(ExportError)
    -> ClassifierStage
  {
    try LinearModelConversion.convert(
      coefficients: coefficients, intercepts: intercepts, width: width, labels: labels,
      algorithm: LogisticRegression.descriptor)
  }
}

extension FittedLinearDiscriminantAnalysis: CoreMLConvertible {
  func classifierStage(width: Int, classes: [String], labels: ClassLabels, updatable: Bool) throws(ExportError)
    -> ClassifierStage
  {
    try LinearModelConversion.convert(
      coefficients: coefficients, intercepts: intercepts, width: width, labels: labels,
      algorithm: LinearDiscriminantAnalysis.descriptor)
  }
}

extension FittedDecisionTree: CoreMLConvertible {
  func classifierStage(width: Int, classes: [String], labels: ClassLabels, updatable: Bool) throws(ExportError)
    -> ClassifierStage
  {
    try TreeConversion.convert(self, width: width, labels: labels)
  }
}

extension FittedKNearestNeighbors: CoreMLConvertible {
  func classifierStage(width: Int, classes: [String], labels: ClassLabels, updatable: Bool) throws(ExportError)
    -> ClassifierStage
  {
    try NeighborsConversion.convert(self, width: width, classes: classes, updatable: updatable)
  }
}

extension FittedGaussianNaiveBayes: CoreMLConvertible {
  func classifierStage(width: Int, classes: [String], labels: ClassLabels, updatable: Bool) throws(ExportError)
    -> ClassifierStage
  {
    try NaiveBayesConversion.convert(self, width: width, labels: labels)
  }
}

import BenchbookData

extension Classifier {
  /// Fits on a training fold that may lack some of the dataset's classes.
  ///
  /// The class set is fixed from the whole dataset before splitting, so a fold
  /// missing a class still predicts a column for it, with probability zero
  /// (scikit-learn crashes here; see its issue #11777). The model itself only
  /// ever sees the classes present, re-numbered densely (`PresentClasses`).
  /// - Parameters:
  ///   - labels: class indices in `0..<classCount`, one per row of `x`.
  ///   - classCount: the size of the dataset's class set.
  public func fitPresentClasses(_ x: consuming Matrix, labels: [Int], classCount: Int) throws(ModelError)
    -> any FittedClassifier
  {
    precondition(labels.count == x.rows, "one label per row")
    guard x.rows > 0 else { throw ModelError("the training fold has no rows") }
    let present = PresentClasses(labels: labels, classCount: classCount)
    if let single = present.singleClassModel { return single }
    return present.widened(try fit(consume x, labels: present.dense(labels), classCount: present.count))
  }
}

/// The classes a training fold holds, out of the dataset's: how a model fitted on the fold's classes alone,
/// re-numbered densely, answers in the dataset's class set.
public struct PresentClasses: Sendable {
  /// The dataset's indices of the classes present, ascending.
  public let classes: [Int]
  /// The size of the dataset's class set.
  public let classCount: Int

  public init(labels: [Int], classCount: Int) {
    var present = [Bool](repeating: false, count: classCount)
    for label in labels { present[label] = true }
    self.init(present: present)
  }

  /// - Parameter present: for each of the dataset's classes, whether the fold holds it.
  public init(present: [Bool]) {
    classes = present.indices.filter { present[$0] }
    classCount = present.count
  }

  /// How many classes are present.
  public var count: Int { classes.count }

  /// With a single class present, the model any fit would give: that class, surely.
  public var singleClassModel: (any FittedClassifier)? {
    classes.count == 1 ? SingleClassModel(classIndex: classes[0], classCount: classCount) : nil
  }

  /// The labels re-numbered densely over the classes present (unchanged when all are).
  public func dense(_ labels: [Int]) -> [Int] {
    guard classes.count < classCount else { return labels }
    var dense = [Int](repeating: -1, count: classCount)
    for (newIndex, oldIndex) in classes.enumerated() { dense[oldIndex] = newIndex }
    return labels.map { dense[$0] }
  }

  /// A model fitted on the dense labels, answering in the dataset's class set.
  public func widened(_ inner: some FittedClassifier) -> any FittedClassifier {
    guard classes.count < classCount else { return inner }
    return ExpandedClassModel(inner: inner, presentClasses: classes, classCount: classCount)
  }
}

/// A model fitted on a subset of the classes, answering in the full class set.
struct ExpandedClassModel<Inner: FittedClassifier>: FittedClassifier {
  let inner: Inner
  let presentClasses: [Int]
  let classCount: Int

  var parameterCount: Int { inner.parameterCount }

  /// A model that answers zero for the classes its rows lacked has no form a file can hold (a linear or
  /// Gaussian form would need a score of minus infinity); a model fitted on all rows holds every class.
  func exportForm() throws(ExportFormError) -> ExportForm {
    throw ExportFormError(
      "the model was fitted on rows holding \(presentClasses.count) of the \(classCount) classes; "
        + "only a model fitted on rows holding every class can be exported")
  }

  func predictProbabilities(_ x: Matrix) -> Matrix {
    let narrow = inner.predictProbabilities(x)
    var wide = Matrix(rows: x.rows, columns: classCount)
    for r in 0..<x.rows {
      for (c, target) in presentClasses.enumerated() { wide[r, target] = narrow[r, c] }
    }
    return wide
  }
}

/// What any model learns from a fold holding a single class: that class, surely.
struct SingleClassModel: FittedClassifier {
  let classIndex: Int
  let classCount: Int

  var parameterCount: Int { 0 }

  /// Fitted on a fold of one class, it never ships: exports fit on all rows, which hold every class.
  func exportForm() throws(ExportFormError) -> ExportForm {
    throw ExportFormError(
      "the model was fitted on rows of a single class; only a model fitted on rows holding every class can be "
        + "exported")
  }

  func predictProbabilities(_ x: Matrix) -> Matrix {
    var out = Matrix(rows: x.rows, columns: classCount)
    for r in 0..<x.rows { out[r, classIndex] = 1 }
    return out
  }
}

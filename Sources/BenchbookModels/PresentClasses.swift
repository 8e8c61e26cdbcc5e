import BenchbookData

extension Classifier {
  /// Fits on a training fold that may lack some of the dataset's classes.
  ///
  /// The class set is fixed from the whole dataset before splitting, so a fold
  /// missing a class still predicts a column for it, with probability zero
  /// (scikit-learn crashes here; see its issue #11777). The model itself only
  /// ever sees the classes present, re-numbered densely.
  /// - Parameters:
  ///   - labels: class indices in `0..<classCount`, one per row of `x`.
  ///   - classCount: the size of the dataset's class set.
  public func fitPresentClasses(_ x: consuming Matrix, labels: [Int], classCount: Int) throws(ModelError)
    -> any FittedClassifier
  {
    precondition(labels.count == x.rows, "one label per row")
    guard x.rows > 0 else { throw ModelError("the training fold has no rows") }
    var present = [Bool](repeating: false, count: classCount)
    for label in labels { present[label] = true }
    let presentClasses = (0..<classCount).filter { present[$0] }
    if presentClasses.count == classCount {
      return try fit(consume x, labels: labels, classCount: classCount)
    }
    if presentClasses.count == 1 {
      return SingleClassModel(classIndex: presentClasses[0], classCount: classCount)
    }
    var dense = [Int](repeating: -1, count: classCount)
    for (newIndex, oldIndex) in presentClasses.enumerated() { dense[oldIndex] = newIndex }
    let inner = try fit(consume x, labels: labels.map { dense[$0] }, classCount: presentClasses.count)
    return ExpandedClassModel(inner: inner, presentClasses: presentClasses, classCount: classCount)
  }
}

/// A model fitted on a subset of the classes, answering in the full class set.
struct ExpandedClassModel<Inner: FittedClassifier>: FittedClassifier {
  let inner: Inner
  let presentClasses: [Int]
  let classCount: Int

  var parameterCount: Int { inner.parameterCount }

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

  func predictProbabilities(_ x: Matrix) -> Matrix {
    var out = Matrix(rows: x.rows, columns: classCount)
    for r in 0..<x.rows { out[r, classIndex] = 1 }
    return out
  }
}

import BenchbookModels

/// Logistic regression and LDA as Core ML GLM classifiers.
///
/// Both predict from linear scores: one score and a sigmoid for two classes,
/// a softmax over K scores otherwise. A softmax is unchanged by subtracting
/// class 0's score from every score, which turns it into Core ML's
/// reference-class form: rows wₖ − w₀ and offsets bₖ − b₀ for k = 1…K−1, with
/// class 0's score fixed at zero. Two classes keep their single row as it is.
enum LinearModelConversion {
  static func convert(_ form: LinearForm, width: Int, labels: ClassLabels, algorithm: String)
    throws(ExportError) -> ClassifierStage
  {
    let coefficients = form.weights
    let intercepts = form.intercepts
    guard coefficients.columns == width else {
      throw ExportError(
        "the \(algorithm) has \(coefficients.columns) weights per class; the inputs give \(width) columns")
    }
    guard coefficients.values.allSatisfy(\.isFinite), intercepts.allSatisfy(\.isFinite) else {
      throw ExportError("the \(algorithm) has weights that are not finite")
    }
    let classCount = labels.count
    var weights: [[Double]] = []
    var offsets: [Double] = []
    if classCount == 2 && form.link == .sigmoid {
      weights = [coefficients.row(0)]
      offsets = [intercepts[0]]
    } else if form.link == .softmax && coefficients.rows == classCount {
      let reference = coefficients.row(0)
      for k in 1..<classCount {
        let row = coefficients.row(k)
        weights.append(row.indices.map { row[$0] - reference[$0] })
        offsets.append(intercepts[k] - intercepts[0])
      }
    } else {
      throw ExportError(
        "the \(algorithm) has \(coefficients.rows) weight rows for \(classCount) classes")
    }
    let model = GLMClassifier(
      weights: weights, offsets: offsets, postEvaluationTransform: .logit, classEncoding: .referenceClass,
      classLabels: labels)
    return ClassifierStage(
      kind: .glmClassifier(model), name: "glmClassifier", specificationVersion: .iOS11, conditioning: nil,
      isUpdatable: false)
  }
}

import Foundation

/// Core ML's GLM classifier: scores zᵣ = wᵣ·x + bᵣ, then
/// - reference class, logit: class 0 scores 0, probabilities are the softmax
///   of (0, z₁, …); two classes: P(class 1) = σ(z), P(class 0) = 1 − σ(z);
/// - one-vs-rest, logit: σ(zₖ) per class, normalised to sum to 1; two
///   classes with one row as above;
/// - probit (two classes only): P(class 1) = Φ(z).
struct CompiledGLMClassifier: CompiledModel {
  let input: String
  let glm: GLMClassifier
  let output: ClassifierOutput

  init(_ glm: GLMClassifier, description: ModelDescription) throws(EvaluationError) {
    input = try ModelCompiler.onlyInput(description, of: "GLM classifier").name
    output = try ClassifierOutput(labels: glm.classLabels, description: description)
    let k = output.labels.count
    let rows = glm.weights.count
    guard rows > 0, rows == glm.offsets.count else {
      throw EvaluationError("the GLM classifier has \(rows) weight rows and \(glm.offsets.count) offsets")
    }
    let expected =
      switch glm.classEncoding {
      case .referenceClass: k - 1
      case .oneVsRest: k == 2 ? 1 : k
      }
    guard rows == expected else {
      throw EvaluationError("the GLM classifier has \(rows) weight rows for \(k) classes; expected \(expected)")
    }
    guard glm.postEvaluationTransform == .logit || k == 2 else {
      throw EvaluationError("probit is defined for two classes only")
    }
    guard Set(glm.weights.map(\.count)).count == 1 else { throw EvaluationError("GLM weight rows differ in length") }
    self.glm = glm
  }

  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError) {
    let x = try ModelCompiler.vector(features[input], named: input)
    guard x.count == glm.weights[0].count else {
      throw EvaluationError("the GLM classifier takes \(glm.weights[0].count) values, given \(x.count)")
    }
    let scores = glm.weights.indices.map { r in
      var sum = 0.0
      for c in x.indices { sum += x[c] * glm.weights[r][c] }
      return sum + glm.offsets[r]
    }
    let k = output.labels.count
    var probabilities: [Double]
    if scores.count == 1 && k == 2 {
      let positive =
        glm.postEvaluationTransform == .logit ? 1 / (1 + exp(-scores[0])) : 0.5 * erfc(-scores[0] / 2.0.squareRoot())
      probabilities = [1 - positive, positive]
    } else if glm.classEncoding == .referenceClass {
      let all = [0] + scores
      let largest = all.max() ?? 0
      let exponentials = all.map { exp($0 - largest) }
      let total = exponentials.reduce(0, +)
      probabilities = exponentials.map { $0 / total }
    } else {
      let each = scores.map { 1 / (1 + exp(-$0)) }
      let total = each.reduce(0, +)
      probabilities = each.map { $0 / total }
    }
    output.write(probabilities, to: &features)
  }
}

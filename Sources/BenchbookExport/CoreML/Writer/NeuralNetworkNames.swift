/// Blob names inside the naive Bayes network. The network's input blob is
/// the pipeline feature it reads, renamed by the exporter when it assembles
/// the pipeline.
enum NeuralNetworkNames {
  static let input = "input"
  static let replicated = "inputPerClass"
  static let distances = "scaledDistances"
  static let squares = "squares"
  static let squaresPerClass = "squaresPerClass"
  static let sums = "sumsOfSquares"
  static let logits = "jointLogLikelihood"
  static let probabilities = "probabilities"
}

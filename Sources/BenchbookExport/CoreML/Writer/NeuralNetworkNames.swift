/// Blob names inside the naive Bayes network. The network's input blob is
/// the pipeline feature it reads, renamed by the exporter when it assembles
/// the pipeline.
enum NeuralNetworkNames {
  static let input = "input"
  static let squares = "squares"
  static let expanded = "inputAndSquares"
  static let logits = "jointLogLikelihood"
  static let probabilities = "probabilities"
}

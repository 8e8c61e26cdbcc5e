/// A model whose fit stops at a tolerance that a screen may loosen. The leak audit fits the spec's models on its
/// screen sample to rank features, and compares shares and AUCs to two or three digits, which the last digits of an
/// optimum do not move: logistic regression stopped at a gradient of 1e-6 instead of 1e-12 saves Newton's last
/// iterations, the costliest, on every inner fold and every refit.
public protocol ToleranceLoosening: Classifier {
  /// This configuration, stopping at `tolerance` where that is looser than its own.
  func loosened(to tolerance: Double) -> Self
}

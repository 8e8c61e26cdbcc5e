/// How an updatable file's model learns from an app's examples: stochastic
/// gradient descent on the log-loss, as Core ML 3's personalisation runs it.
/// The values are the file's defaults; the app may override them within the
/// ranges the file allows (learning rate 0…1 or up to the default, epochs
/// and mini-batch size 1…1000 or up to the default).
public struct UpdateSettings: Sendable, Equatable {
  /// SGD's step size.
  public var learningRate: Double
  /// Passes over the app's examples per update.
  public var epochs: Int
  /// Examples per SGD step.
  public var miniBatchSize: Int

  public init(learningRate: Double = 0.01, epochs: Int = 10, miniBatchSize: Int = 8) {
    self.learningRate = learningRate
    self.epochs = epochs
    self.miniBatchSize = miniBatchSize
  }
}

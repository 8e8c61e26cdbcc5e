import BenchbookData

/// A model's configuration: plain settings with scikit-learn's names and defaults.
///
/// Configuration and learned state are different types, so predicting with an
/// unfitted model cannot compile (scikit-learn's `fit` convention, made static).
public protocol Classifier: Sendable {
  associatedtype Fitted: FittedClassifier

  /// The algorithm this configures: its names, traits and fold strategy (`ModelRegistry` lists them).
  static var descriptor: ModelDescriptor { get }

  /// Every setting under its scikit-learn name, for results files and hashes.
  var parameters: [String: ParameterValue] { get }

  /// The settings a spec may give, once: names, types, defaults, and which a search space may vary.
  static var settingsSchema: [SettingDescriptor] { get }

  /// Reads spec settings (scikit-learn names or the schema's aliases).
  ///
  /// - Throws: `SettingError` naming the key of an unknown or invalid setting.
  init(settings: inout SettingsReader) throws(SettingError)

  /// Each configuration fitted on `x`, exactly as its own `fit` would fit it.
  ///
  /// Tuning fits many configurations on the same rows; an algorithm whose
  /// configurations can share work (one tree for every depth, one pass of
  /// statistics for every smoothing) overrides this, keeping the result exact.
  /// Callers guarantee what `fit` needs, and that every class occurs in `labels`.
  static func sharedFits(_ configurations: [Self], _ x: Matrix, labels: [Int], classCount: Int)
    throws(ModelError) -> [Fitted]

  /// `sharedFits` for models whose only use is their exported file (a size budget measures every outer fold's
  /// configurations): a fit may leave out what only speeds its predictions (a kNN model's search tree), and its
  /// models still predict, and export, exactly as `sharedFits`'s. Called where `sharedFits` would be: for a model
  /// whose descriptor shares work across configurations (`SharedWork.configurations`); others fit one by one.
  static func exportFits(_ configurations: [Self], _ x: Matrix, labels: [Int], classCount: Int)
    throws(ModelError) -> [Fitted]

  /// Learns from `x` (one row per sample) and `labels` in `0..<classCount`.
  ///
  /// Callers guarantee `classCount >= 2` and that every class occurs in
  /// `labels`; `fitPresentClasses` arranges that for arbitrary folds.
  /// `x` is consumed: a caller that hands over its last reference lets a model
  /// that needs the rows only briefly (a tree, after its sort) free them mid-fit.
  func fit(_ x: consuming Matrix, labels: [Int], classCount: Int) throws(ModelError) -> Fitted
}

extension Classifier {
  /// The algorithm this configures.
  public var descriptor: ModelDescriptor { Self.descriptor }

  /// Fits each configuration on its own unless an earlier fit is what it would build (`reconfigured`).
  public static func sharedFits(_ configurations: [Self], _ x: Matrix, labels: [Int], classCount: Int)
    throws(ModelError) -> [Fitted]
  {
    try reusingFits(configurations) { configuration throws(ModelError) in
      try configuration.fit(x, labels: labels, classCount: classCount)
    }
  }

  /// Each configuration fitted by `fit` unless an earlier fit is what it would build (`reconfigured`).
  public static func reusingFits(_ configurations: [Self], fit: (Self) throws(ModelError) -> Fitted)
    throws(ModelError) -> [Fitted]
  {
    var fits: [Fitted] = []
    for configuration in configurations {
      if let reused = fits.lazy.compactMap({ $0.reconfigured(as: configuration) as? Fitted }).first {
        fits.append(reused)
      } else {
        fits.append(try fit(configuration))
      }
    }
    return fits
  }

  /// Most fits build nothing an export does not need: `sharedFits`.
  public static func exportFits(_ configurations: [Self], _ x: Matrix, labels: [Int], classCount: Int)
    throws(ModelError) -> [Fitted]
  {
    try sharedFits(configurations, x, labels: labels, classCount: classCount)
  }

  /// Probabilities for `test` from each configuration fitted on `x`, as separate fits would give them.
  public static func sharedPredictions(
    _ configurations: [Self], _ x: Matrix, labels: [Int], classCount: Int, test: Matrix
  ) throws(ModelError) -> [Matrix] {
    Fitted.predictTogether(try sharedFits(configurations, x, labels: labels, classCount: classCount), test)
  }
}

/// What a classifier learned; it predicts class probabilities.
public protocol FittedClassifier: Sendable {
  /// Number of columns `predictProbabilities` returns.
  var classCount: Int { get }

  /// How many numbers the model stores: weights, thresholds, stored samples × features.
  var parameterCount: Int { get }

  /// One row per input row, one column per class; each row sums to 1.
  func predictProbabilities(_ x: Matrix) -> Matrix

  /// What the model computes, stated for the exporters (`ExportForm`). There is no default: a model that
  /// states its form is written by every export format, and the compiler lists every model that does not.
  /// - Throws: `ExportFormError` when this fit has no form a file can hold.
  func exportForm() throws(ExportFormError) -> ExportForm

  /// Each model's `predictProbabilities(x)`, for models fitted on the same rows (`Classifier.sharedFits`):
  /// an algorithm whose models can share the work of predicting (one neighbour query for every k) overrides it.
  static func predictTogether(_ models: [Self], _ x: Matrix) -> [Matrix]

  /// `configuration` fitted on the same rows without fitting again, when what this model stores is exactly
  /// what that fit would build (a kNN model's rows and index serve every k); `nil` otherwise.
  func reconfigured(as configuration: any Classifier) -> (any FittedClassifier)?
}

extension FittedClassifier {
  public static func predictTogether(_ models: [Self], _ x: Matrix) -> [Matrix] {
    models.map { $0.predictProbabilities(x) }
  }

  /// Most fits depend on every setting: nothing to reuse.
  public func reconfigured(as configuration: any Classifier) -> (any FittedClassifier)? { nil }
}

/// Why a model could not be fitted on the rows it was given.
public struct ModelError: Error, Sendable, Equatable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

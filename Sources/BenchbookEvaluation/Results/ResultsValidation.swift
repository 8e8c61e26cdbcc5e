/// The promises results.json makes to its readers, checked before a report is drawn from it and before a
/// run writes it: at least one model, unique labels, finite non-negative scores, the same number of
/// folds for every model, and counts, durations and indices in range (`boundsProblem`).
public enum ResultsValidation {
  /// One broken promise, at its key path (`models[2].log_loss.mean`).
  public struct Problem: Sendable, Equatable, CustomStringConvertible {
    public var key: String
    public var message: String
    public var description: String { "\(key): \(message)" }
  }

  /// The first problem, or nil when the results keep every promise.
  public static func firstProblem(_ results: ExperimentResults) -> Problem? {
    guard !results.models.isEmpty else { return Problem(key: "models", message: "is empty; results need a model") }
    var seen: [String: Int] = [:]
    for (index, model) in results.models.enumerated() {
      let key = "models[\(index)]"
      if let earlier = seen[model.label] {
        return Problem(key: "\(key).label", message: "'\(model.label)' is also the label of models[\(earlier)]")
      }
      seen[model.label] = index
      if let problem = summary(model.logLoss, "\(key).log_loss", required: true, atMost: nil)
        ?? summary(model.accuracy, "\(key).accuracy", required: false, atMost: 1)
        ?? summary(model.brier, "\(key).brier", required: false, atMost: 2)
        ?? summary(model.rocAUC, "\(key).roc_auc", required: false, atMost: 1)
      {
        return problem
      }
      guard !model.folds.isEmpty else { return Problem(key: "\(key).folds", message: "is empty") }
      let expected = results.models[0].folds.count
      guard model.folds.count == expected else {
        return Problem(
          key: "\(key).folds", message: "has \(model.folds.count) folds where models[0] has \(expected)")
      }
      for (position, fold) in model.folds.enumerated() {
        let foldKey = "\(key).folds[\(position)]"
        if let problem = score(fold.logLoss, "\(foldKey).log_loss", atMost: nil)
          ?? score(fold.accuracy, "\(foldKey).accuracy", atMost: 1)
          ?? score(fold.brier, "\(foldKey).brier", atMost: 2)
          ?? fold.rocAUC.flatMap({ score($0, "\(foldKey).roc_auc", atMost: 1) })
          ?? score(fold.fitSeconds, "\(foldKey).fit_seconds", atMost: nil)
          ?? score(fold.predictSeconds, "\(foldKey).predict_seconds", atMost: nil)
        {
          return problem
        }
      }
    }
    return boundsProblem(results)
  }

  private static func summary(_ value: Summary, _ key: String, required: Bool, atMost limit: Double?) -> Problem? {
    if required && value.mean == nil { return Problem(key: "\(key).mean", message: "is missing") }
    if let mean = value.mean, let problem = score(mean, "\(key).mean", atMost: limit) { return problem }
    if let std = value.std, let problem = score(std, "\(key).std", atMost: nil) { return problem }
    return nil
  }

  private static func score(_ value: Double, _ key: String, atMost limit: Double?) -> Problem? {
    guard value.isFinite else { return Problem(key: key, message: "is \(value), not a finite number") }
    guard value >= 0 else { return Problem(key: key, message: "is \(value), below 0") }
    if let limit, value > limit { return Problem(key: key, message: "is \(value), above \(limit)") }
    return nil
  }
}

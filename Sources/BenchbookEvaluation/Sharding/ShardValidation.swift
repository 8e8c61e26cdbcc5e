import BenchbookData

/// What a shard file must hold before `merge` uses any of it: a shard count within `Limits.shards`, its own index
/// among them, and for every task figures in range and per-configuration lists of one length, so nothing later
/// converts 1e308 to an integer, sums counts past `Int`, or indexes past a list cut short. Each problem names its
/// key path (`tasks[3].tuning.logLoss`).
public enum ShardValidation {
  /// The first problem in `file` on its own, or nil.
  public static func firstProblem(_ file: ShardFile) -> ResultsValidation.Problem? {
    let shards = file.identity.shards
    guard (1...Limits.shards).contains(shards) else {
      return .init(key: "identity.shards", message: "is \(shards), not a shard count from 1 to \(Limits.shards)")
    }
    guard (0..<shards).contains(file.shard) else {
      return .init(key: "shard", message: "is \(file.shard), not a shard of 0 to \(shards - 1)")
    }
    for (index, record) in file.tasks.enumerated() {
      let key = "tasks[\(index)]"
      if let fold = record.fold {
        if let problem = scores(fold.scores, "\(key).fold.scores")
          ?? seconds(fold.fitSeconds, "\(key).fold.fitSeconds")
          ?? seconds(fold.predictSeconds, "\(key).fold.predictSeconds")
          ?? count(fold.preprocessingFittedOn.count, "\(key).fold.preprocessingFittedOn.count")
        {
          return problem
        }
      }
      if let tuning = record.tuning, let problem = tuningProblem(tuning, "\(key).tuning") { return problem }
    }
    return nil
  }

  /// Checks a task's output against the plan's task: the kind of output it needs and, for tuning, one entry per
  /// configuration of the model's grid (and every measure on an outer split, which the report draws on).
  public static func problem(
    _ record: ShardFile.TaskRecord, at key: String, configurations: Int
  ) -> ResultsValidation.Problem? {
    switch record.task {
    case .fold, .allRows:
      guard record.fold != nil else { return .init(key: "\(key).fold", message: "is missing for \(record.task)") }
    case .tuning(_, let split):
      guard let tuning = record.tuning else {
        return .init(key: "\(key).tuning", message: "is missing for \(record.task)")
      }
      guard tuning.logLoss.count == configurations else {
        return .init(
          key: "\(key).tuning.logLoss",
          message: "has \(tuning.logLoss.count) scores for the model's \(configurations) configurations")
      }
      if case .outer = split, tuning.scores == nil || tuning.calibration == nil {
        return .init(key: "\(key).tuning.scores", message: "is missing on an outer split")
      }
    }
    return nil
  }

  /// Checks a task's calibration points against the fold it tested: one per test row, which pooling reads by
  /// position (`CalibrationPoints.pooled`).
  public static func calibrationProblem(
    _ record: ShardFile.TaskRecord, at key: String, folds: [Fold]
  ) -> ResultsValidation.Problem? {
    func mismatch(_ points: CalibrationPoints, fold: Int, _ path: String) -> ResultsValidation.Problem? {
      guard folds.indices.contains(fold), points.count != folds[fold].test.count else { return nil }
      return .init(key: path, message: "has \(points.count) points for the fold's \(folds[fold].test.count) test rows")
    }
    switch record.task {
    case .fold(_, let fold):
      return record.fold.flatMap { mismatch($0.calibration.points, fold: fold, "\(key).fold.calibration.points") }
    case .tuning(_, .outer(let fold)):
      for (c, part) in (record.tuning?.calibration ?? []).enumerated() {
        if let problem = mismatch(part.points, fold: fold, "\(key).tuning.calibration[\(c)].points") { return problem }
      }
      return nil
    default:
      return nil
    }
  }

  static func tuningProblem(_ tuning: ConfigurationScores, _ key: String) -> ResultsValidation.Problem? {
    let configurations = tuning.logLoss.count
    guard configurations > 0 else {
      return .init(key: "\(key).logLoss", message: "is empty; a grid has at least one configuration")
    }
    let lengths: [(String, Int?)] = [
      ("scores", tuning.scores?.count), ("calibration", tuning.calibration?.count),
      ("sizeBytes", tuning.sizeBytes.count),
    ]
    for (name, length) in lengths {
      if let length, length != configurations {
        return .init(key: "\(key).\(name)", message: "has \(length) entries for \(configurations) configurations")
      }
    }
    for (position, value) in tuning.logLoss.enumerated() {
      if let problem = bounded(value, "\(key).logLoss[\(position)]", atMost: Limits.recordedLogLoss) { return problem }
    }
    for (position, value) in (tuning.scores ?? []).enumerated() {
      if let problem = scores(value, "\(key).scores[\(position)]") { return problem }
    }
    for (position, value) in tuning.sizeBytes.enumerated() {
      if let value, let problem = count(value, "\(key).sizeBytes[\(position)]") { return problem }
    }
    return seconds(tuning.fitSeconds, "\(key).fitSeconds") ?? seconds(tuning.predictSeconds, "\(key).predictSeconds")
  }

  static func scores(_ scores: FoldScores, _ key: String) -> ResultsValidation.Problem? {
    bounded(scores.logLoss, "\(key).logLoss", atMost: Limits.recordedLogLoss)
      ?? bounded(scores.accuracy, "\(key).accuracy", atMost: 1)
      ?? bounded(scores.brier, "\(key).brier", atMost: 2)
      ?? scores.rocAUC.flatMap { bounded($0, "\(key).rocAUC", atMost: 1) }
      ?? count(scores.clippedRows, "\(key).clippedRows")
      ?? bounded(scores.clippedShare, "\(key).clippedShare", atMost: 1)
  }

  static func seconds(_ value: Double, _ key: String) -> ResultsValidation.Problem? {
    bounded(value, key, atMost: Limits.recordedSeconds)
  }

  static func count(_ value: Int, _ key: String) -> ResultsValidation.Problem? {
    guard value < 0 || value > Limits.recordedCount else { return nil }
    return .init(key: key, message: "is \(value), not a count from 0 to \(Limits.recordedCount)")
  }

  static func bounded(_ value: Double, _ key: String, atMost limit: Double) -> ResultsValidation.Problem? {
    guard value.isFinite, value >= 0, value <= limit else {
      return .init(key: key, message: "is \(value), not a number from 0 to \(limit)")
    }
    return nil
  }
}

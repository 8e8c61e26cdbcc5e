import BenchbookData
import Foundation

/// What the file says about itself: where the model came from and how well it
/// did, in words an app developer reads in Xcode. Nothing here depends on the
/// clock or the machine, so equal fits give equal files.
public struct ExportMetadata: Sendable, Equatable {
  /// The experiment's name (`flights-delay`).
  public var experiment: String
  /// The question the spec asks, in the user's words.
  public var question: String?
  /// What is predicted, e.g. `arr_delay > 15` or `species`.
  public var target: String
  /// The model's label in the spec (`LR`, `KNN-15`).
  public var modelLabel: String
  /// The algorithm's id, as results files write it (`logistic_regression`).
  public var algorithm: String
  /// The algorithm's name in prose (`logistic regression`).
  public var algorithmName: String
  /// Rows the model was fitted on.
  public var trainingRows: Int?
  /// Mean cross-validated log-loss, when a run measured it.
  public var crossValidatedLogLoss: Double?
  /// Benchbook's version, written as the file's `versionString`.
  public var benchbookVersion: String?

  public init(
    experiment: String, question: String? = nil, target: String, modelLabel: String, algorithm: String,
    algorithmName: String, trainingRows: Int? = nil, crossValidatedLogLoss: Double? = nil,
    benchbookVersion: String? = nil
  ) {
    self.experiment = experiment
    self.question = question
    self.target = target
    self.modelLabel = modelLabel
    self.algorithm = algorithm
    self.algorithmName = algorithmName
    self.trainingRows = trainingRows
    self.crossValidatedLogLoss = crossValidatedLogLoss
    self.benchbookVersion = benchbookVersion
  }

  /// The file's short description: the question, what predicts what from which
  /// features, where it was fitted, and the cross-validated log-loss when known.
  func shortDescription(features: [String]) -> String {
    var sentences: [String] = []
    if let question, !question.isEmpty { sentences.append(question) }
    let name = algorithmName.prefix(1).uppercased() + algorithmName.dropFirst()
    sentences.append("\(name) (\(modelLabel)) predicting \(target) from \(Self.list(features)).")
    var fitted = "Fitted by Benchbook on "
    fitted += trainingRows.map { "all \(Self.grouped($0)) rows" } ?? "all rows"
    fitted += " of the \(experiment) experiment."
    sentences.append(fitted)
    if let crossValidatedLogLoss {
      sentences.append("Cross-validated log-loss: \(String(format: "%.4f", crossValidatedLogLoss)).")
    }
    return sentences.joined(separator: " ")
  }

  /// Machine-readable facts for tools that inspect a file (Core ML's user-defined metadata, TensorFlow Lite's
  /// `benchbook` buffer, ONNX's metadata properties); written sorted by key.
  func facts(scaled: Bool) -> [String: String] {
    var values = [
      "benchbook.experiment": experiment,
      "benchbook.model": modelLabel,
      "benchbook.algorithm": algorithm,
      "benchbook.target": target,
      "benchbook.preprocess": scaled ? "standardize" : "none",
    ]
    if let trainingRows { values["benchbook.training_rows"] = String(trainingRows) }
    if let crossValidatedLogLoss { values["benchbook.cv_log_loss"] = "\(crossValidatedLogLoss)" }
    return values
  }

  /// What a spec's target predicts, for `target`: `arr_delay > 15`, or the column's name.
  public static func targetText(_ target: TargetDefinition) -> String {
    guard let when = target.when else { return target.column.column }
    return "\(target.column.column) \(when.comparison.rawValue) \(NumberText.short(when.value))"
  }

  /// `a`, `a and b`, `a, b and c`.
  static func list(_ items: [String]) -> String {
    guard items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
  }

  /// `327,346`.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (i, digit) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return value < 0 ? "-" + out : out
  }
}

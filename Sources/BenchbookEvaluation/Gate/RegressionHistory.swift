import BenchbookData
import Foundation

/// `history.jsonl`: one line per check, so a trend shows before a limit is crossed.
public enum RegressionHistory {
  public static let fileName = "history.jsonl"

  public struct Entry: Codable, Sendable, Hashable {
    /// When the check ran (UTC, ISO-8601).
    public var date: String
    public var commit: String
    public var passed: Int
    public var failed: Int
    public var warnings: Int
    public var models: [Model]

    public struct Model: Codable, Sendable, Hashable {
      public var label: String
      public var logLoss: Double?
      public var baselineLogLoss: Double?
      /// Median time ratio now ÷ the baseline's; side by side, the median of head ÷ base per round.
      public var fitTimeFactor: Double?
      public var predictTimeFactor: Double?
      public var modelSizeBytes: Int?
    }
  }

  public static func entry(_ outcome: RegressionCheck.Outcome, commit: String, date: Date = Date()) -> Entry {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    let models = (outcome.current?.models ?? []).map { model -> Entry.Model in
      let old = outcome.baseline?.model(model.label)
      func factor(_ metric: RegressionRow.Metric, _ new: [Double], _ old: [Double]?) -> Double? {
        // Side by side, the judged factor (median of paired ratios) is the one to follow.
        if let judged = outcome.rows.first(where: { $0.model == model.label && $0.metric == metric })?.factor {
          return judged
        }
        guard let old, !old.isEmpty, !new.isEmpty else { return nil }
        return new.median / old.median
      }
      return Entry.Model(
        label: model.label, logLoss: model.logLoss.mean, baselineLogLoss: old?.logLoss.mean,
        fitTimeFactor: factor(.fitTime, model.timing.fitRatios, old?.timing.fitRatios),
        predictTimeFactor: factor(.predictTime, model.timing.predictRatios, old?.timing.predictRatios),
        modelSizeBytes: model.modelSizeBytes)
    }
    return Entry(
      date: formatter.string(from: date), commit: commit, passed: outcome.passed, failed: outcome.failed,
      warnings: outcome.warnings, models: models)
  }

  public static func read(_ path: String) -> [Entry] {
    guard let bytes = try? RegularFile.read(path, atMost: Limits.jsonFileBytes, what: "a history file") else {
      return []
    }
    let text = String(decoding: bytes, as: UTF8.self)
    let decoder = JSONCoding.decoder()
    return text.split(separator: "\n").compactMap { try? decoder.decode(Entry.self, from: Data($0.utf8)) }
  }

  /// Appends `entry` by rewriting the file atomically, so a crash never leaves half a line.
  public static func append(_ entry: Entry, to path: String) throws {
    let encoder = JSONCoding.encoder([.sortedKeys, .withoutEscapingSlashes])
    try AtomicFile.checkReplaceable(path)
    var text =
      (try? RegularFile.read(path, atMost: Limits.jsonFileBytes, what: "a history file")).map {
        String(decoding: $0, as: UTF8.self)
      } ?? ""
    if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
    text += String(decoding: try encoder.encode(entry), as: UTF8.self) + "\n"
    try AtomicFile.write(text, to: path)
  }
}

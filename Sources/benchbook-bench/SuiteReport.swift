import BenchbookModels
import Foundation

/// The bench suite's table as Markdown (`suite.md`) and everything behind it as JSON (`suite.json`).
/// A figure that misses a target of issue 32 is marked ✗; the targets follow the table.
struct SuiteReport {
  /// Where and how the suite was measured.
  struct Context: Codable, Equatable {
    var date: String
    var machine: String
    var cores: Int
    var benchbookCommit: String
    var sklearnVersion: String
    var repetitions: Int
  }

  var context: Context
  var table: SuiteTable
  var measurements: [SuiteMeasurement]

  var markdown: String {
    var lines = [
      "# Bench suite: Benchbook against scikit-learn on real public data",
      "",
      "Measured \(context.date) on \(context.machine) (\(context.cores) cores), Benchbook at "
        + "\(context.benchbookCommit), scikit-learn \(context.sklearnVersion). Each dataset ran in "
        + "\(context.repetitions) alternating pairs (Benchbook, then scikit-learn); each figure is the median over "
        + "its pairs. The last column is the 1-minute load average before → after each pair: above "
        + "\(context.cores), other work shared the machine and the times are rough.",
      "",
      "Benchbook: the whole `benchbook run` (report and plots included). scikit-learn: the whole script "
        + "(interpreter, imports, pandas' CSV read, one-hot encoding, `cross_validate` of the five models on the "
        + "same folds). kNN: Benchbook's fit and predict seconds summed over folds (folds run on parallel threads) "
        + "against `cross_validate`'s wall. LR (more than two classes): the same for logistic regression against "
        + "`LogisticRegression(solver=\"newton-cg\", tol=1e-14)`, the optimum Benchbook solves to. The audit's "
        + "share is of the run's wall time (CPU share in brackets).",
      "",
      row([
        "dataset", "why", "rows × columns × classes", "Benchbook", "scikit-learn", "speed-up", "audit share",
        "kNN folds", "LR folds vs newton-cg", "peak memory", "load before → after",
      ]),
      row(Array(repeating: "---", count: 11)),
    ]
    for entry in table.rows {
      lines.append(
        row([
          entry.name + (entry.foldsMatch ? "" : " (folds differ)"), entry.kind,
          "\(grouped(entry.rows)) × \(entry.columns) × \(entry.classes)",
          seconds(entry.benchbookWallSeconds), seconds(entry.sklearnWallSeconds),
          times(entry.speedup) + mark(entry.speedup > 1),
          percent(entry.auditWallShare) + " (\(percent(entry.auditCPUShare)))"
            + mark(entry.auditWallShare <= SuiteTable.auditShareLimit),
          versus(entry.knnSeconds, entry.sklearnKNNSeconds),
          versus(entry.lrSeconds, entry.newtonCGSeconds),
          "\(megabytes(entry.benchbookPeakBytes)) / \(megabytes(entry.sklearnPeakBytes)) "
            + "(\(String(format: "%.2f", entry.memoryRatio)))",
          entry.loads.map { String(format: "%.1f → %.1f", $0[0], $0[1]) }.joined(separator: ", "),
        ]))
    }
    lines.append("")
    lines.append(
      "Median speed-up: "
        + (table.medianSpeedup.map { times($0) + mark($0 >= SuiteTable.medianSpeedupTarget) } ?? "–")
        + " (target: at least 3×).")
    lines += ["", "## Targets of issue 32", "", row(["target", "", "missed by"]), row(["---", "---", "---"])]
    for target in table.targets {
      let status = target.met.map { $0 ? "met" : "MISSED" } ?? "not measured"
      lines.append(row([target.name, status, target.missedBy.joined(separator: ", ")]))
    }
    lines += [
      "", "## Benchbook's CPU seconds by phase (wall seconds in brackets)", "",
      "From `BENCHBOOK_PHASE_TIMES` in the timed runs themselves (CPU of every thread and of the plot processes); "
        + "`other` is what no phase mark covers (start-up before the first mark is in `load`, the exit after "
        + "writing in `other`).", "",
      row(["dataset"] + PhaseTimes.names + ["run"]),
      row(Array(repeating: "---", count: PhaseTimes.names.count + 2)),
    ]
    for entry in table.rows {
      let cpu = entry.phaseCPUSeconds.values.reduce(0, +)
      lines.append(
        row(
          [entry.name]
            + PhaseTimes.names.map {
              "\(seconds(entry.phaseCPUSeconds[$0] ?? 0)) (\(seconds(entry.phaseWallSeconds[$0] ?? 0)))"
            } + ["\(seconds(cpu)) (\(seconds(entry.benchbookWallSeconds)))"]))
    }
    // Every model either side timed, in the order of the registry's default labels, any other label after them.
    let timed = Set(table.rows.flatMap { Array($0.benchbookFoldSeconds.keys) + Array($0.sklearnFoldSeconds.keys) })
    let known = ModelRegistry.builtIn.map(\.defaultLabel)
    let labels = known.filter(timed.contains) + timed.subtracting(known).sorted()
    lines += [
      "", "## Fold seconds by model, Benchbook / scikit-learn", "",
      "Benchbook: fit and predict seconds summed over folds (results.json). scikit-learn: `cross_validate`'s wall.",
      "", row(["dataset"] + labels), row(Array(repeating: "---", count: labels.count + 1)),
    ]
    for entry in table.rows {
      lines.append(
        row(
          [entry.name]
            + labels.map { label in
              versus(entry.benchbookFoldSeconds[label], entry.sklearnFoldSeconds[label], marked: false)
            }))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  func json() throws -> Data {
    struct Document: Encodable {
      var context: Context
      var table: SuiteTable
      var measurements: [SuiteMeasurement]
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.keyEncodingStrategy = .convertToSnakeCase
    return try encoder.encode(Document(context: context, table: table, measurements: measurements))
  }

  /// Writes `suite.md` and `suite.json` into `directory`, each whole or not at all.
  func write(to directory: URL) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    try Data(markdown.utf8).write(to: directory.appendingPathComponent("suite.md"), options: .atomic)
    try json().write(to: directory.appendingPathComponent("suite.json"), options: .atomic)
  }

  // MARK: Cells

  func row(_ cells: [String]) -> String { "| " + cells.joined(separator: " | ") + " |" }

  /// " ✗" when a target is missed.
  func mark(_ met: Bool) -> String { met ? "" : " ✗" }

  func seconds(_ value: Double) -> String {
    String(format: value < 10 ? "%.2f s" : "%.1f s", value)
  }

  func times(_ value: Double) -> String { String(format: value < 10 ? "%.2f×" : "%.1f×", value) }

  func percent(_ share: Double) -> String { String(format: "%.0f%%", share * 100) }

  func megabytes(_ bytes: Int) -> String { String(format: "%.0f MB", Double(bytes) / 1e6) }

  func grouped(_ value: Int) -> String {
    let digits = Array(String(value))
    return String(
      digits.enumerated().flatMap { index, digit in
        (index > 0 && (digits.count - index) % 3 == 0) ? [",", digit] : [digit]
      })
  }

  /// "ours / theirs", marked ✗ when ours is the slower; "–" when either side did not measure it.
  func versus(_ ours: Double?, _ theirs: Double?, marked: Bool = true) -> String {
    guard let ours, let theirs else { return "–" }
    return "\(seconds(ours)) / \(seconds(theirs))" + (marked ? mark(ours <= theirs) : "")
  }
}

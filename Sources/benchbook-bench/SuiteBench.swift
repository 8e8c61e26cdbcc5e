import Foundation

/// `make bench-suite`: every dataset of the suite list run by Benchbook and by scikit-learn in
/// alternating pairs (Benchbook, scikit-learn, Benchbook, …), the load average recorded around each
/// pair, then the table of `SuiteTable` printed and written as `suite.md` and `suite.json`.
///
/// scikit-learn's side (`sklearn_suite.py`) is told the rows, columns and folds by a job file made from
/// Benchbook's own results.json of the first pair, so both do the same work; the script checks that its
/// folds hold the same test class counts.
enum SuiteBench {
  struct Options {
    var benchbook: String
    var python: String
    var list: String
    var only: String?
    var repetitions = 2
    var out: URL
    var scratch: URL
  }

  /// - Returns: whether every target of issue 32 the suite measures is met.
  static func run(_ options: Options) throws -> Bool {
    let entries = try SuiteList(file: options.list).selecting(options.only)
    guard options.repetitions >= 1 else { throw BenchFailure("--repetitions must be at least 1") }
    var measurements: [SuiteMeasurement] = []
    var commit = "?"
    var version = "?"
    print("\nbench suite: \(entries.count) datasets, \(options.repetitions) alternating pairs each")
    for (index, entry) in entries.enumerated() {
      let folder = options.scratch.appendingPathComponent("suite-\(entry.name)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      var measurement: SuiteMeasurement?
      for repetition in 0..<options.repetitions {
        let loadBefore = LoadAverage.oneMinute()
        let (ours, results) = try benchbook(entry, options, folder: folder, repetition: repetition)
        if measurement == nil {
          let data = results["data"] as? [String: Any] ?? [:]
          measurement = SuiteMeasurement(
            name: entry.name, spec: entry.spec, kind: entry.kind, rows: data["rows"] as? Int ?? 0,
            columns: (data["columns"] as? [Any])?.count ?? 0, classes: (data["classes"] as? [Any])?.count ?? 0,
            pairs: [])
          try SklearnJob.write(entry, results: results, to: folder.appendingPathComponent("job.json"))
          commit = ((results["environment"] as? [String: Any])?["git_commit"] as? String) ?? commit
        }
        let theirs = try sklearn(
          folder: folder, options: options, manyClasses: measurement!.classes > 2, repetition: repetition)
        version = theirs.version
        let loadAfter = LoadAverage.oneMinute()
        measurement!.pairs.append(
          SuiteMeasurement.Pair(loadBefore: loadBefore, loadAfter: loadAfter, benchbook: ours, sklearn: theirs))
        print(
          "[\(index + 1)/\(entries.count)] \(entry.name), pair \(repetition + 1): Benchbook "
            + String(
              format: "%.2f s, scikit-learn %.2f s (load %.1f → %.1f)", ours.wallSeconds, theirs.wallSeconds,
              loadBefore, loadAfter) + (theirs.foldsMatch ? "" : "; scikit-learn's folds differ from Benchbook's"))
      }
      measurements.append(measurement!)
    }
    let report = SuiteReport(
      context: SuiteReport.Context(
        date: ISO8601DateFormatter().string(from: Date()), machine: machine(),
        cores: ProcessInfo.processInfo.activeProcessorCount, benchbookCommit: commit, sklearnVersion: version,
        repetitions: options.repetitions),
      table: SuiteTable(measurements), measurements: measurements)
    try report.write(to: options.out)
    print("")
    print(report.markdown)
    print("bench suite: written to \(options.out.appendingPathComponent("suite.md").path) and suite.json")
    return report.table.allMet
  }

  /// One `benchbook run`, timed, with its phases and its results.json.
  static func benchbook(_ entry: SuiteList.Entry, _ options: Options, folder: URL, repetition: Int) throws -> (
    SuiteMeasurement.BenchbookRun, [String: Any]
  ) {
    let out = folder.appendingPathComponent("run-\(repetition)")
    let phaseLog = folder.appendingPathComponent("phases-\(repetition).jsonl")
    try? FileManager.default.removeItem(at: phaseLog)
    // Exit status 3 (a leak the spec does not accept) still writes results; the time is what is measured.
    let child = try ChildProcess.succeeding(
      [options.benchbook, "run", entry.spec, "--quiet", "--out", out.path], "benchbook on \(entry.spec)",
      environment: ["BENCHBOOK_PHASE_TIMES": phaseLog.path], accepting: [0, 3])
    let marks = try PhaseTimes.parse(
      (try? String(contentsOf: phaseLog, encoding: .utf8)) ?? "")
    let results = try ChildProcess.json(out.appendingPathComponent("results.json").path)
    var foldSeconds: [String: Double] = [:]
    var logLoss: [String: Double] = [:]
    for model in results["models"] as? [[String: Any]] ?? [] {
      guard let label = model["label"] as? String, let folds = model["folds"] as? [[String: Any]] else { continue }
      foldSeconds[label] = folds.reduce(0.0) {
        $0 + ($1["fit_seconds"] as? Double ?? 0) + ($1["predict_seconds"] as? Double ?? 0)
      }
      logLoss[label] = (model["log_loss"] as? [String: Any])?["mean"] as? Double
    }
    let run = SuiteMeasurement.BenchbookRun(
      wallSeconds: child.wallSeconds, cpuSeconds: child.cpuSeconds, peakResidentBytes: child.peakResidentBytes,
      phases: PhaseTimes(
        marks: marks, startedAt: child.startedAt, wallSeconds: child.wallSeconds, cpuSeconds: child.cpuSeconds),
      foldSeconds: foldSeconds, logLoss: logLoss)
    return (run, results)
  }

  /// scikit-learn's script on the job, timed; then, with more than two classes, newton-cg in a process of its own.
  static func sklearn(folder: URL, options: Options, manyClasses: Bool, repetition: Int) throws
    -> SuiteMeasurement.SklearnRun
  {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "sklearn_suite.py"
    ).path
    let job = folder.appendingPathComponent("job.json").path
    let figures = folder.appendingPathComponent("sklearn-\(repetition).json").path
    let child = try ChildProcess.succeeding(
      [options.python, script, "--job", job, "--json", figures], "sklearn_suite.py on \(job)")
    let reference = try ChildProcess.json(figures)
    let models = reference["models"] as? [String: [String: Any]] ?? [:]
    var newtonCG: Double?
    if manyClasses {
      let newtonFigures = folder.appendingPathComponent("sklearn-newton-cg-\(repetition).json").path
      _ = try ChildProcess.succeeding(
        [options.python, script, "--job", job, "--json", newtonFigures, "--part", "newton-cg"],
        "sklearn_suite.py --part newton-cg on \(job)")
      let newton = try ChildProcess.json(newtonFigures)["models"] as? [String: [String: Any]]
      newtonCG = newton?["LR newton-cg"]?["seconds"] as? Double
    }
    return SuiteMeasurement.SklearnRun(
      wallSeconds: child.wallSeconds, cpuSeconds: child.cpuSeconds, peakResidentBytes: child.peakResidentBytes,
      foldSeconds: models.compactMapValues { $0["seconds"] as? Double },
      foldCPUSeconds: models.compactMapValues { $0["cpu_seconds"] as? Double },
      logLoss: models.compactMapValues { $0["log_loss"] as? Double }, newtonCGSeconds: newtonCG,
      foldsMatch: reference["folds_match"] as? Bool ?? false, version: reference["sklearn"] as? String ?? "?")
  }

  /// The CPU's model name, from `/proc/cpuinfo`.
  static func machine() -> String {
    let text = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
    return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map {
      $0.trimmingCharacters(in: .whitespaces)
    } ?? "an unknown CPU"
  }
}

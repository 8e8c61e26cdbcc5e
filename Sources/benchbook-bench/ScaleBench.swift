import Foundation

/// Memory per row as the data grows: the flagship's work on the flights data replicated 1×, 3× and
/// 10× (`replicate_flights.py`, written under `.build/bench-data/`, never into git), with
/// scikit-learn doing the same work at 3×; the tuned flagship at 3× and 10× too (its 1× is `TunedBench`'s),
/// each peak beside `benchbook plan`'s estimate (`BENCH_TUNED_SCALE=0` skips the tuned runs, an hour at 10×).
enum ScaleBench {
  static let factors = [3, 10]

  /// - Parameter plain: the flagship run at 1×, already measured by the caller.
  static func run(
    benchbook: String, spec: String, tunedSpec: String?, csv: String, python: String, scratch: URL,
    plain: ChildProcess, plainRows: Int
  ) throws -> Bool {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let data = URL(fileURLWithPath: ".build/bench-data", isDirectory: true)
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let flagship = try String(contentsOfFile: spec, encoding: .utf8)

    // The predicted peak beside each measured one (issue 32: within ±25%), once `benchbook plan` gives one.
    var predictions: [(predicted: Int?, measured: Int)] = []
    func predicted(_ spec: String, _ run: ChildProcess) -> String {
      let bytes = MemoryEstimate.predictedPeakBytes(benchbook: benchbook, spec: spec, scratch: scratch)
      predictions.append((bytes, run.peakResidentBytes))
      return MemoryEstimate.cell(predicted: bytes, measured: run.peakResidentBytes)
    }
    var table: [[String]] = [
      ["replicated", "rows", "Benchbook wall", "peak resident", "bytes per row", "predicted peak"]
    ]
    table.append([
      "1×", "\(plainRows)", BenchMain.seconds(plain.wallSeconds), megabytes(plain), perRow(plain, plainRows),
      predicted(spec, plain),
    ])
    var measured: [Int: (run: ChildProcess, rows: Int, csv: String)] = [:]
    for factor in factors {
      let replicated = data.appendingPathComponent("flights-\(factor)x.csv.gz").path
      if !FileManager.default.fileExists(atPath: replicated) {
        print("writing \(replicated)")
        _ = try ChildProcess.succeeding(
          [python, here.appendingPathComponent("replicate_flights.py").path, csv, replicated, "\(factor)"],
          "replicate_flights.py")
      }
      let scaledSpec = data.appendingPathComponent("flights-\(factor)x.yaml")
      try scaled(flagship, data: replicated, factor: factor).write(to: scaledSpec, atomically: true, encoding: .utf8)
      let out = scratch.appendingPathComponent("scale-\(factor)")
      print("benchbook: \(benchbook) run \(scaledSpec.path)")
      let ours = try ChildProcess.succeeding(
        [benchbook, "run", scaledSpec.path, "--quiet", "--out", out.path], "benchbook at \(factor)×")
      let results = try ChildProcess.json(out.appendingPathComponent("results.json").path)
      let rows = (results["data"] as! [String: Any])["rows_read"] as! Int
      measured[factor] = (ours, rows, replicated)
      table.append([
        "\(factor)×", "\(rows)", BenchMain.seconds(ours.wallSeconds), megabytes(ours), perRow(ours, rows),
        predicted(scaledSpec.path, ours),
      ])
    }
    if let tunedSpec, ProcessInfo.processInfo.environment["BENCH_TUNED_SCALE"] != "0" {
      let tuned = try String(contentsOfFile: tunedSpec, encoding: .utf8)
      for factor in factors {
        let scaledSpec = data.appendingPathComponent("flights-delay-tuned-\(factor)x.yaml")
        try scaled(tuned, data: measured[factor]!.csv, factor: factor).write(
          to: scaledSpec, atomically: true, encoding: .utf8)
        let out = scratch.appendingPathComponent("scale-tuned-\(factor)")
        print("benchbook: \(benchbook) run \(scaledSpec.path)")
        let ours = try ChildProcess.succeeding(
          [benchbook, "run", scaledSpec.path, "--quiet", "--out", out.path], "the tuned flagship at \(factor)×")
        let rows = measured[factor]!.rows
        table.append([
          "tuned \(factor)×", "\(rows)", BenchMain.seconds(ours.wallSeconds), megabytes(ours), perRow(ours, rows),
          predicted(scaledSpec.path, ours),
        ])
      }
    }
    print("")
    print(BenchMain.layout(table))

    // scikit-learn at 3×, the size the targets are set at.
    let three = measured[3]!
    let script = here.appendingPathComponent("sklearn_flights.py").path
    print("\nscikit-learn at 3×: \(python) \(script) --csv \(three.csv)")
    let theirs = try ChildProcess.succeeding(
      [python, script, "--csv", three.csv, "--json", scratch.appendingPathComponent("sklearn-3x.json").path],
      "the scikit-learn script at 3×")

    var targets: [[String]] = [["at scale", "Benchbook", "scikit-learn", "ratio", "target", ""]]
    var allMet = true
    func row(_ name: String, _ a: String, _ b: String, _ ratio: String, _ target: String, _ met: Bool) {
      targets.append([name, a, b, ratio, target, met ? "met" : "MISSED"])
      allMet = allMet && met
    }
    let speedup = theirs.wallSeconds / three.run.wallSeconds
    row(
      "3× wall", BenchMain.seconds(three.run.wallSeconds), BenchMain.seconds(theirs.wallSeconds),
      String(format: "%.1f×", speedup), "≥ 10× faster", speedup >= 10)
    let memoryRatio = Double(three.run.peakResidentBytes) / Double(theirs.peakResidentBytes)
    row(
      "3× peak resident", megabytes(three.run), megabytes(theirs), String(format: "%.2f", memoryRatio), "≤ 0.5",
      memoryRatio <= 0.5)
    let ten = measured[10]!
    let tenPerRow = ten.run.peakResidentBytes / ten.rows
    // Issue 32 retired 120 B a row (it needs one fit at a time); memory must not regress past 188 B.
    row("10× bytes per row", "\(tenPerRow) B", "–", "–", "≤ 188 B", tenPerRow <= 188)
    let errors = predictions.compactMap { MemoryEstimate.error(predicted: $0.predicted, measured: $0.measured) }
    if errors.isEmpty {
      targets.append(["predicted peak, scaled runs", "no estimate", "–", "–", "within ±25%", "not measured"])
    } else {
      let worst = errors.map { abs($0.relative) }.max()!
      row(
        "predicted peak, scaled runs", "\(errors.count) of \(predictions.count) estimated", "–",
        String(format: "worst %.0f%%", worst * 100), "within ±25%",
        errors.count == predictions.count && errors.allSatisfy(\.met))
    }
    print("")
    print(BenchMain.layout(targets))
    return allMet
  }

  /// A flagship spec (plain or tuned) on replicated data: the data path, the name, and the audit told that the
  /// replicated rows are near-twins by construction (so the run measures the work, not a refusal).
  static func scaled(_ flagship: String, data: String, factor: Int) -> String {
    var text = flagship.replacingOccurrences(of: "path: data/flights.csv.gz", with: "path: \(data)")
    for name in ["flights-delay", "flights-delay-tuned"] {
      text = text.replacingOccurrences(of: "name: \(name)\n", with: "name: \(name)-\(factor)x\n")
    }
    text += """
          - check: cross-fold-duplicates
            subject: rows
            reason: the bench replicates every flight with a jittered distance, so near-twins are by construction

      """
    return text
  }

  static func megabytes(_ run: ChildProcess) -> String { BenchMain.megabytes(run.peakResidentBytes) }

  static func perRow(_ run: ChildProcess, _ rows: Int) -> String { "\(run.peakResidentBytes / max(rows, 1)) B" }
}

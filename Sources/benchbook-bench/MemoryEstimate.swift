import Foundation

/// The peak memory Benchbook predicts for a run, checked against the peak measured (issue 32: within
/// ±25% at 1×, 3× and 10×, on the flagship and the tuned flagship).
///
/// The estimate comes from `benchbook plan SPEC --shards 1 --json` (docs/memory.md): a JSON object on
/// standard output with `estimated_peak_bytes` (the whole run in one process), or failing that
/// `shards: [{estimated_peak_bytes: …}, …]` (the largest is taken). A binary without it (an older
/// revision) gives "no estimate" and nothing is judged.
enum MemoryEstimate {
  static let tolerance = 0.25

  static func predictedPeakBytes(benchbook: String, spec: String, scratch: URL) -> Int? {
    let output = scratch.appendingPathComponent("plan-\(UUID().uuidString).json").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    guard
      let child = try? ChildProcess.run(
        [benchbook, "plan", spec, "--shards", "1", "--json"], standardOutput: output, standardError: "/dev/null"),
      child.status == 0, let object = try? ChildProcess.json(output)
    else { return nil }
    return peakBytes(in: object)
  }

  /// The estimate a plan's JSON holds, by the contract above.
  static func peakBytes(in object: [String: Any]) -> Int? {
    if let bytes = object["estimated_peak_bytes"] as? Int { return bytes }
    let shards = (object["shards"] as? [[String: Any]])?.compactMap { $0["estimated_peak_bytes"] as? Int }
    return shards?.max()
  }

  /// The estimate beside the measured peak: its error and whether it is within ±25%; nil without an estimate.
  static func error(predicted: Int?, measured: Int) -> (relative: Double, met: Bool)? {
    guard let predicted, measured > 0 else { return nil }
    let relative = Double(predicted - measured) / Double(measured)
    return (relative, abs(relative) <= tolerance)
  }

  /// The table cell: "no estimate", or the estimate and its error.
  static func cell(predicted: Int?, measured: Int) -> String {
    guard let predicted, let error = error(predicted: predicted, measured: measured) else { return "no estimate" }
    return "\(BenchMain.megabytes(predicted)) (" + String(format: "%+.0f%%", error.relative * 100) + ")"
  }
}

import BenchbookModels
import Foundation

/// Counts each model's instructions for a fit (the mean of `InstructionProbe.fits`) and a
/// predict batch (the mean of `InstructionProbe.predicts`) on the timing fold, after one of
/// each uncounted, under valgrind's callgrind: reproducible to a fraction of a percent on any
/// x86-64 machine, where times on a shared runner move by tens of percent.
///
/// The binary runs `timing-worker SPEC --probe` under callgrind, which collects only
/// inside `InstructionProbe` and writes one profile part per probe call, in order.
public enum InstructionCount {
  /// This process's own executable, for counting its models.
  public static var thisBinary: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
  }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// - Parameters:
  ///   - binary: the `benchbook` whose models are counted.
  ///   - environment: the worker's environment (a planted slowdown travels in it).
  /// - Returns: counts by model label; a tuned model is not counted (its final configuration
  ///   is known only after the tuning run, which would take hours under valgrind).
  public static func measure(binary: String, spec: String, environment: [String: String]) throws -> [String:
    Baseline.Model.InstructionCounts]
  {
    guard let valgrind = ChildProcess.which("valgrind", environment: environment) else {
      throw Failure(
        description:
          "\(spec): regression.instructions: true needs valgrind, which is not installed (Debian: apt-get install valgrind)"
      )
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("benchbook-callgrind-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let profile = directory.appendingPathComponent("callgrind.out").path
    // Valgrind 3.19 cannot read the DWARF 5 Swift writes ("ensure_valid failed"): count a copy
    // without debug information; the symbol table, which names the probe, stays.
    var counted = binary
    if let strip = ChildProcess.which("strip", environment: environment) {
      let copy = directory.appendingPathComponent("benchbook").path
      if (try? ChildProcess.run(strip, ["--strip-debug", binary, "-o", copy]))?.status == 0 { counted = copy }
    }
    var childEnvironment = environment
    // One thread: OpenBLAS's workers would otherwise make the count depend on scheduling.
    childEnvironment["OPENBLAS_NUM_THREADS"] = "1"
    // OpenBLAS's kernels for every x86-64 processor: the kernels this process chose may need what valgrind's
    // emulated processor lacks (AVX-512), and a count should not depend on which processor it ran on.
    childEnvironment["OPENBLAS_CORETYPE"] = OpenBLASSettings.baselineCoreType
    // Swift seeds its hash tables randomly per process; a fixed seed keeps the count the same.
    childEnvironment["SWIFT_DETERMINISTIC_HASHING"] = "1"
    let output = try ChildProcess.run(
      valgrind,
      [
        "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=\(InstructionProbe.symbol)",
        "--dump-after=\(InstructionProbe.symbol)", "--callgrind-out-file=\(profile)", counted, "timing-worker", spec,
        "--probe",
      ], environment: childEnvironment)
    guard output.status == 0 else {
      throw Failure(description: "counting instructions of \(binary) under valgrind failed:\n\(output.stderrTail)")
    }
    let labels = output.stdout.split(separator: "\n").map(String.init)
    var counts: [String: Baseline.Model.InstructionCounts] = [:]
    for (index, label) in labels.enumerated() {
      let fit = try total(inPart: 2 * index + 1, of: profile) / InstructionProbe.fits
      let predict = try total(inPart: 2 * index + 2, of: profile) / InstructionProbe.predicts
      counts[label] = .init(fit: fit, predict: predict)
    }
    return counts
  }

  /// The instruction total of one dumped part (`totals:` or `summary:` line).
  static func total(inPart part: Int, of profile: String) throws -> Int {
    let path = "\(profile).\(part)"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw Failure(description: "valgrind wrote no profile part \(path)")
    }
    for line in text.split(separator: "\n") where line.hasPrefix("totals:") || line.hasPrefix("summary:") {
      if let value = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) { return value }
    }
    throw Failure(description: "no instruction total in \(path)")
  }
}

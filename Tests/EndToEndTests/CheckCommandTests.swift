import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The regression gate, end to end: a fresh baseline, then checks against it and against tampered copies.
///
/// Tests run in parallel, so timings here are noisy by design. Except where a test is about
/// time, the spec gets time limits no noise reaches, and only deterministic scores are judged.
@Suite struct CheckCommandTests {
  static let untimed = "regression: {time_ratio: {warn: 1000, fail: 1000, fail_regardless: 1000}}\n"

  /// The shipped iris spec, copied into `scratch` with its data path made absolute.
  func irisSpec(_ scratch: Scratch, models: String = "[LR, LDA, KNN, DT, NB]", extra: String = untimed) throws -> String
  {
    let original = try String(
      contentsOfFile: "\(BenchbookBinary.packageRoot.path)/experiments/iris.yaml", encoding: .utf8)
    let text = original.replacingOccurrences(of: "models: [LR, LDA, KNN, DT, NB, RF, HGB]", with: "models: \(models)")
      .replacingOccurrences(of: "path: data/iris.csv", with: "path: \(Scratch.shippedData("iris.csv"))")
    return try scratch.write("iris-\(abs(models.hashValue)).yaml", text + extra)
  }

  /// A baseline of iris in a scratch folder, to tamper with.
  func makeBaseline(_ scratch: Scratch, spec: String) throws -> String {
    let path = scratch.path("iris-baseline.json")
    let output = try BenchbookBinary.run(["baseline", spec, "--out", path])
    #expect(output.status == 0, "\(output.stderr)")
    return path
  }

  /// Edits one model's entry in a baseline file.
  func tamper(_ path: String, model label: String, _ edit: (inout [String: Any]) -> Void) throws {
    var baseline =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    var models = baseline["models"] as! [[String: Any]]
    let index = models.firstIndex { $0["label"] as? String == label }!
    edit(&models[index])
    baseline["models"] = models
    try JSONSerialization.data(withJSONObject: baseline, options: [.prettyPrinted]).write(
      to: URL(fileURLWithPath: path))
  }

  /// Runs `check`, outside CI unless `environment` says otherwise.
  func check(
    _ scratch: Scratch, baseline: String, spec: String, extra: [String] = [], environment: [String: String] = [:]
  )
    throws -> (BenchbookBinary.Output, String)
  {
    let output = try BenchbookBinary.run(
      ["check", spec, "--baseline", baseline, "--out", scratch.path("out")] + extra,
      environment: ["CI": ""].merging(environment) { $1 })
    let report = (try? String(contentsOfFile: scratch.path("out/regression.md"), encoding: .utf8)) ?? ""
    return (output, report)
  }

  @Test func aFreshBaselinePassesAndTheBaselineIsReadable() throws {
    let scratch = try Scratch()
    let spec = try irisSpec(scratch)
    let baseline = try makeBaseline(scratch, spec: spec)
    let text = try String(contentsOfFile: baseline, encoding: .utf8)
    for key in ["\"hashes\"", "\"settings_sha256\"", "\"fit_seconds\"", "\"reference_seconds\"", "\"machine\""] {
      #expect(text.contains(key))
    }
    let (output, report) = try check(scratch, baseline: baseline, spec: spec)
    #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    #expect(report.hasPrefix("Regression check: 35 passed, 0 failed\n"), "five models × seven figures")
    #expect(FileManager.default.fileExists(atPath: scratch.path("out/history.jsonl")))
  }

  @Test func aBaselineWithBetterLogLossFails() throws {
    let scratch = try Scratch()
    let spec = try irisSpec(scratch)
    let baseline = try makeBaseline(scratch, spec: spec)
    try tamper(baseline, model: "LR") { model in
      var logLoss = model["log_loss"] as! [String: Any]
      logLoss["mean"] = (logLoss["mean"] as! Double) - 0.01
      model["log_loss"] = logLoss
    }
    let (output, report) = try check(scratch, baseline: baseline, spec: spec)
    #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
    #expect(report.hasPrefix("Regression check: 34 passed, 1 failed"))
    #expect(report.contains("| ❌ fail | LR | log-loss |"))
  }

  @Test func aBaselineWithASmallerModelFails() throws {
    let scratch = try Scratch()
    let spec = try irisSpec(scratch)
    let baseline = try makeBaseline(scratch, spec: spec)
    try tamper(baseline, model: "KNN") { model in
      model["model_size_bytes"] = Int(Double(model["model_size_bytes"] as! Int) * 0.8)
    }
    let (output, report) = try check(scratch, baseline: baseline, spec: spec)
    #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
    #expect(report.contains("| ❌ fail | KNN | model size |"))
    #expect(report.contains("+25.0%"))
  }

  /// A real time judgement under default limits: 3× is beyond "2× regardless", whatever the noise.
  @Test func aBaselineWithThreeTimesFasterFitsFails() throws {
    let scratch = try Scratch()
    let spec = try irisSpec(scratch, extra: "")
    let baseline = try makeBaseline(scratch, spec: spec)
    try tamper(baseline, model: "NB") { model in
      var timing = model["timing"] as! [String: Any]
      timing["fit_seconds"] = (timing["fit_seconds"] as! [Double]).map { $0 / 3 }
      model["timing"] = timing
    }
    let (output, report) = try check(scratch, baseline: baseline, spec: spec)
    #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
    #expect(report.contains("| ❌ fail | NB | fit time ratio |"))
    // Other tests share the machine, so another model may fail on noise too; NB must be among the re-measured.
    let remeasured = report.split(separator: "\n").first { $0.hasPrefix("Failing times of") } ?? ""
    #expect(remeasured.contains("NB") && remeasured.contains("were measured a second time"), "\(remeasured)")
  }

  /// Times from another processor are notices, not failures, while scores are still judged.
  @Test func timesFromAnotherProcessorAreNotJudged() throws {
    let scratch = try Scratch()
    let spec = try irisSpec(scratch, extra: "")
    let baseline = try makeBaseline(scratch, spec: spec)
    try tamper(baseline, model: "NB") { model in
      var timing = model["timing"] as! [String: Any]
      timing["fit_seconds"] = (timing["fit_seconds"] as! [Double]).map { $0 / 3 }
      model["timing"] = timing
    }
    var file =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline))) as! [String: Any]
    var machine = file["machine"] as! [String: Any]
    machine["cpu_signature"] = "SomeVendor family 1 model 2 stepping 3"
    file["machine"] = machine
    try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: baseline))
    let (output, report) = try check(scratch, baseline: baseline, spec: spec, extra: ["--require-baseline"])
    #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    #expect(
      report.hasPrefix("Regression check: 25 passed, 0 failed, 10 not comparable\n"), "five models × five figures")
    #expect(report.contains("| ➖ not comparable | NB | fit time ratio |"))
    #expect(report.contains("Times are not judged: timed on another processor (baseline: "))
    #expect(report.contains("SomeVendor family 1 model 2 stepping 3"))
  }

  @Test func aChangedSettingIsNotComparableRatherThanFailed() throws {
    let scratch = try Scratch()
    let baseline = try makeBaseline(scratch, spec: try irisSpec(scratch))
    let changed = try irisSpec(scratch, models: "[LR, LDA, {KNN: {k: 9}}, DT, NB]")
    let (output, report) = try check(scratch, baseline: baseline, spec: changed)
    #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
    #expect(report.contains("| ➖ not comparable | KNN | model |"))
    #expect(report.contains("settings changed: n_neighbors 5 → 9"))
  }

  @Test func aMissingBaselineIsANoticeUnlessRequired() throws {
    let scratch = try Scratch()
    let missing = scratch.path("nowhere.json")
    let spec = try irisSpec(scratch)
    let (relaxed, report) = try check(scratch, baseline: missing, spec: spec)
    #expect(relaxed.status == 0)
    #expect(report.hasPrefix("Regression check: not run: no baseline at \(missing)"))
    let (strict, _) = try check(scratch, baseline: missing, spec: spec, extra: ["--require-baseline"])
    #expect(strict.status == 4)
  }

  @Test func aMissingBaselineFailsInCI() throws {
    let scratch = try Scratch()
    let spec = try irisSpec(scratch)
    let (output, report) = try check(
      scratch, baseline: scratch.path("nowhere.json"), spec: spec, environment: ["CI": "true"])
    #expect(output.status == 4, "\(output.stdout)\(output.stderr)")
    #expect(report.hasPrefix("Regression check: not run"))
    #expect(output.stderr.contains("$CI is set"))
  }

  /// A baseline that exists but is not JSON, is cut short, or is of another experiment fails the gate with exit 1
  /// and names the file (and the key where there is one), with or without `--require-baseline`, before measuring.
  @Test(arguments: ["not json", "truncated", "another experiment", "no model in common", "a directory"])
  func anUnreadableBaselineFailsClosed(_ fault: String) throws {
    let scratch = try Scratch()
    let spec = try irisSpec(scratch)
    let shipped = try String(
      contentsOfFile: "\(BenchbookBinary.packageRoot.path)/experiments/baselines/iris.json", encoding: .utf8)
    let baseline = scratch.path("b.json")
    var expected = baseline
    switch fault {
    case "not json":
      try scratch.write("b.json", "this is not a baseline\n")
      expected += ":1:"
    case "truncated":
      try scratch.write("b.json", String(shipped.prefix(shipped.count / 2)))
      expected += ":"
    case "another experiment":
      try scratch.write(
        "b.json", shipped.replacingOccurrences(of: "\"experiment\" : \"iris\"", with: "\"experiment\" : \"wine\""))
      expected += ": experiment: the baseline is of \"wine\""
    case "no model in common":
      try scratch.write("b.json", shipped.replacingOccurrences(of: "\"label\" : \"", with: "\"label\" : \"old-"))
      expected += ": models: none of the baseline's models"
    default:
      try FileManager.default.createDirectory(atPath: baseline, withIntermediateDirectories: true)
      expected += ": is a directory"
    }
    for extra in [[], ["--require-baseline"]] {
      let (output, _) = try check(scratch, baseline: baseline, spec: spec, extra: extra)
      #expect(output.status == 1, "\(fault) \(extra): \(output.stdout)\(output.stderr)")
      #expect(output.stderr.contains(expected), "\(fault): \(output.stderr)")
      #expect(!output.stdout.contains("not run"), "\(fault): \(output.stdout)")
    }
  }

  /// A FIFO or a device as the step summary is refused before the check measures anything, and never hangs.
  @Test(arguments: ["fifo", "/dev/full"])
  func aStepSummaryThatIsNotAFileIsRefused(_ kind: String) throws {
    let scratch = try Scratch()
    var summary = kind
    if kind == "fifo" {
      summary = scratch.path("summary")
      #expect(mkfifo(summary, 0o600) == 0)
    }
    let output = try BenchbookBinary.run(
      ["check", "experiments/iris.yaml", "--baseline", scratch.path("none.json"), "--out", scratch.path("out")],
      environment: ["GITHUB_STEP_SUMMARY": summary, "CI": ""], timeout: 300)
    #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
    #expect(output.stderr.contains("\(summary): cannot write: it is a"), "\(output.stderr)")
    #expect(!FileManager.default.fileExists(atPath: scratch.path("out/regression.md")))
  }

  @Test func theSummaryGoesToGitHubWhenAsked() throws {
    let scratch = try Scratch()
    let summary = scratch.path("summary.md")
    try "earlier step\n".write(toFile: summary, atomically: true, encoding: .utf8)
    let output = try BenchbookBinary.run(
      ["check", "experiments/iris.yaml", "--baseline", scratch.path("none.json"), "--out", scratch.path("out")],
      environment: ["GITHUB_STEP_SUMMARY": summary, "CI": ""])
    #expect(output.status == 0)
    let text = try String(contentsOfFile: summary, encoding: .utf8)
    #expect(text.hasPrefix("earlier step\nRegression check: not run"))
  }
}

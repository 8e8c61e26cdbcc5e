import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Bad results files, located resampling errors, `.gz` by content, overflowing numbers, blocked outputs
/// and interrupted runs: each ends in exit 1 with a located message (or the signal's own status), and
/// the earlier outputs stay as they were.
@Suite struct HardeningTests {
  /// A small iris experiment: two models, three folds; `extra` is appended (e.g. to vary the spec).
  static func spec(description: String = "A small run", models: String = "[NB, LR]", resampling: String? = nil)
    -> String
  {
    """
    name: small
    description: \(description)
    data: {path: \(Scratch.shippedData("iris.csv"))}
    target: species
    features: [sepal_length, sepal_width, petal_length, petal_width]
    preprocess: [standardize]
    resampling: \(resampling ?? "{method: stratified-kfold, folds: 3}")
    models: \(models)

    """
  }

  /// Runs the small spec into `scratch/out` and returns the path of its results.json.
  static func runSmall(_ scratch: Scratch, description: String = "A small run") throws -> String {
    let specPath = try scratch.write("small.yaml", spec(description: description))
    let run = try BenchbookBinary.run(["run", specPath, "--quiet", "--out", scratch.path("out")], in: scratch.url)
    #expect(run.status == 0, "\(run.stderr)")
    return scratch.path("out/results.json")
  }

  func expectError(_ output: BenchbookBinary.Output, _ fragments: [String]) {
    #expect(output.status == 1, "exit status: \(output.stderr)")
    for fragment in fragments { #expect(output.stderr.contains(fragment), "\(fragment) in: \(output.stderr)") }
    #expect(output.stderr.split(separator: "\n").count == 1, "one line: \(output.stderr)")
  }

  func leftovers(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".benchbook-") }
  }

  // MARK: report

  @Test func reportOnInvalidJSONNamesLineAndColumn() throws {
    let scratch = try Scratch()
    for (text, place) in [
      ("{\n  \"models\": [1,\n  ]\n}\n", "bad.json:3:3: not valid JSON: unexpected ']', expected a value"),
      ("{\"models\": [\n", "bad.json:2:1: not valid JSON: unexpected end of the file"),
      ("{\"a\": tru}", "bad.json:1:7: not valid JSON"),
      ("{\"a\": 1} x", "bad.json:1:10: not valid JSON: unexpected 'x' after the end of the JSON value"),
      (String(repeating: "[", count: 1_000_000), "bad.json:1:513: not valid JSON: nested more than 512 levels deep"),
    ] {
      let path = try scratch.write("bad.json", text)
      expectError(try BenchbookBinary.run(["report", path, "--out", scratch.path("r")], in: scratch.url), [place])
      #expect(!scratch.exists("r/report.md"))
    }
  }

  /// Impossible results are refused with their key path; nothing is rendered, the earlier report stays.
  @Test func reportValidatesTheResultsContract() throws {
    let scratch = try Scratch()
    let original = try Data(contentsOf: URL(fileURLWithPath: try Self.runSmall(scratch)))
    try scratch.write("rendered/report.md", "earlier report\n")
    let cases: [(String, ([String: Any]) -> [String: Any])] = [
      (
        "models: is empty",
        {
          var r = $0; r["models"] = [Any](); return r
        }
      ),
      ("models[1].label: 'NB' is also the label of models[0]", { Self.editModel($0, 1) { $0["label"] = "NB" } }),
      ("models[1].log_loss.mean: is missing", { Self.editModel($0, 1) { $0["log_loss"] = ["mean": NSNull()] } }),
      (
        "models[0].log_loss.mean: is -0.5, below 0",
        { Self.editModel($0, 0) { $0["log_loss"] = ["mean": -0.5, "std": 0.1] } }
      ),
      (
        "models[1].folds: has 2 folds where models[0] has 3",
        { Self.editModel($0, 1) { $0["folds"] = Array(($0["folds"] as! [Any]).prefix(2)) } }
      ),
      (
        "models[0].folds[1].log_loss: is -1.0, below 0",
        {
          Self.editModel($0, 0) {
            var folds = $0["folds"] as! [[String: Any]]
            folds[1]["log_loss"] = -1.0
            $0["folds"] = folds
          }
        }
      ),
      ("models[0].folds: is empty", { Self.editModel($0, 0) { $0["folds"] = [Any]() } }),
    ]
    for (message, edit) in cases {
      let json = try JSONSerialization.jsonObject(with: original) as! [String: Any]
      let path = scratch.path("edited.json")
      try JSONSerialization.data(withJSONObject: edit(json)).write(to: URL(fileURLWithPath: path))
      let output = try BenchbookBinary.run(["report", path, "--out", scratch.path("rendered")], in: scratch.url)
      expectError(output, ["edited.json: \(message)"])
      #expect(try String(contentsOfFile: scratch.path("rendered/report.md"), encoding: .utf8) == "earlier report\n")
    }
  }

  static func editModel(_ results: [String: Any], _ index: Int, _ edit: (inout [String: Any]) -> Void) -> [String: Any]
  {
    var results = results
    var models = results["models"] as! [[String: Any]]
    edit(&models[index])
    results["models"] = models
    return results
  }

  /// A re-render removes the plots Benchbook drew before and does not draw now, and nothing else.
  @Test func reportRemovesStalePlotsOnly() throws {
    let scratch = try Scratch()
    let results = try Self.runSmall(scratch)
    // Iris has no time column, so the time plots do not apply; a user's own file is not Benchbook's.
    try scratch.write("out/audit-fold-times.svg", "<svg/>")
    try scratch.write("out/notes.svg", "<svg/>")
    let output = try BenchbookBinary.run(["report", results], in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(!scratch.exists("out/audit-fold-times.svg"))
    #expect(scratch.exists("out/notes.svg"))
    #expect(scratch.exists("out/log-loss-box.svg"))
    #expect(leftovers(scratch.url.path).isEmpty)
  }

  // MARK: export --results

  @Test func exportResultsMissingInvalidOrForeignIsAnError() throws {
    let scratch = try Scratch()
    let foreign = try Self.runSmall(scratch, description: "Another version of the spec")
    let specPath = try scratch.write("small.yaml", Self.spec())
    let bad = try scratch.write("bad.json", "{\"models\": \n")
    for (results, message) in [
      (scratch.path("absent.json"), "absent.json: no such file"),
      (bad, "bad.json:2:1: not valid JSON"),
      (foreign, "results.json: spec.sha256: written for another version of the spec"),
    ] {
      let output = try BenchbookBinary.run(
        ["export", specPath, "--model", "NB", "--results", results, "--out", scratch.path("NB.mlmodel")],
        in: scratch.url)
      expectError(output, [message])
      #expect(!scratch.exists("NB.mlmodel"))
    }
  }

  // MARK: resampling

  @Test func testSizeErrorsNameTheirLine() throws {
    let scratch = try Scratch()
    let holdout = try scratch.write(
      "holdout.yaml", Self.spec(resampling: "\n  method: holdout\n  test_size: 0.999"))
    expectError(
      try BenchbookBinary.run(["run", holdout, "--quiet", "--out", scratch.path("out")], in: scratch.url),
      ["holdout.yaml:9:14: resampling.test_size: a 0.999 holdout of 150 rows leaves no training"])
    var csv = "t,a,y\n"
    for row in 0..<12 { csv += "\(row),\(row % 5),\(row % 2 == 0 ? "x" : "z")\n" }
    try scratch.write("series.csv", csv)
    let series = try scratch.write(
      "series.yaml",
      "name: series\ndata: {path: series.csv}\ntarget: y\ntime: t\nfeatures: [a]\nmodels: [NB]\n"
        + "resampling:\n  method: time-series\n  folds: 2\n  test_size: 6\n")
    expectError(
      try BenchbookBinary.run(["run", series, "--quiet", "--out", scratch.path("out")], in: scratch.url),
      ["series.yaml:10:14: resampling.test_size: 2 time-series splits of 6 test rows"])
  }

  // MARK: data

  @Test func gzipIsKnownByItsMagicBytes() throws {
    let scratch = try Scratch()
    let plain = try String(contentsOfFile: Scratch.shippedData("iris.csv"), encoding: .utf8)
    try scratch.write("plain.csv.gz", plain)
    let named = Self.spec().replacingOccurrences(of: Scratch.shippedData("iris.csv"), with: "plain.csv.gz")
    let specPath = try scratch.write("named.yaml", named)
    expectError(
      try BenchbookBinary.run(["run", specPath, "--quiet", "--out", scratch.path("out")], in: scratch.url),
      ["named.yaml:3:", "data file 'plain.csv.gz' is named .gz but is not gzip data: it starts with 73 65"])
    // gzip content under a plain name is read by its content.
    let gzip = Process()
    gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
    gzip.arguments = ["-c", "gzip -c '\(Scratch.shippedData("iris.csv"))' > '\(scratch.path("packed.csv"))'"]
    try gzip.run()
    gzip.waitUntilExit()
    let packed = try scratch.write(
      "packed.yaml",
      Self.spec(models: "[NB]").replacingOccurrences(of: Scratch.shippedData("iris.csv"), with: "packed.csv"))
    let output = try BenchbookBinary.run(["run", packed, "--quiet", "--out", scratch.path("out")], in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
  }

  /// A value too large to square is an error naming the model, fold, column and data line, with or without
  /// standardisation: never an encoder message, a LAPACK crash or NaN in the results.
  @Test(arguments: ["preprocess: [standardize]", ""])
  func overflowingArithmeticIsALocatedError(preprocess: String) throws {
    let scratch = try Scratch()
    var csv = "a,b,y\n"
    for row in 0..<12 { csv += "\(row == 4 || row == 8 ? "1e308" : "\(row)"),\(row % 3),\(row % 2 == 0 ? "x" : "z")\n" }
    try scratch.write("big.csv", csv)
    let text =
      "name: big\ndata: {path: big.csv}\ntarget: y\nfeatures: [a, b]\n\(preprocess)\n"
      + "resampling: {folds: 2}\nmodels: [LR]\n"
    let specPath = try scratch.write("big.yaml", text)
    let output = try BenchbookBinary.run(["run", specPath, "--quiet", "--out", scratch.path("out")], in: scratch.url)
    let cause =
      preprocess.isEmpty ? "column 'a' is too large for the model's arithmetic" : "standardize overflows on column 'a'"
    expectError(
      output,
      ["big.yaml:7:", "model LR could not be fitted (fold ", "\(cause): a value as large as 1e+308 (data line "])
    #expect(!output.stderr.contains("EncodingError"))
    #expect(!scratch.exists("out"))
  }

  /// A test row far outside its training fold's range makes naive Bayes' likelihoods underflow to 0/0: the
  /// NaN probability is an error at that row's data line, not a NaN in the results.
  @Test func aNaNProbabilityIsALocatedError() throws {
    let scratch = try Scratch()
    var csv = "a,b,y\n"
    for row in 0..<12 { csv += "\(row == 4 ? "1e308" : "\(row)"),\(row % 3),\(row % 2 == 0 ? "x" : "z")\n" }
    try scratch.write("far.csv", csv)
    let text =
      "name: far\ndata: {path: far.csv}\ntarget: y\nfeatures: [a, b]\npreprocess: [standardize]\n"
      + "resampling: {folds: 2}\nmodels: [NB]\n"
    let specPath = try scratch.write("far.yaml", text)
    let output = try BenchbookBinary.run(
      ["run", specPath, "--quiet", "--jobs", "1", "--out", scratch.path("out")], in: scratch.url)
    expectError(
      output, ["far.yaml:7:", "model NB could not be fitted (fold 1): its prediction failed: it gave the probability "])
    #expect(output.stderr.contains("of the row at data line 6"), "\(output.stderr)")
    #expect(!scratch.exists("out"))
  }

  // MARK: gnuplot

  /// A stand-in gnuplot: it writes a stub SVG where the script says (unless `fails`) and `message` on stderr.
  func fakeGnuplot(_ scratch: Scratch, message: String, fails: Bool) throws -> String {
    let draw = fails ? "" : "[ -n \"$out\" ] && echo '<svg/>' > \"$out\"\n"
    let script = "#!/bin/sh\nout=$(sed -n 's/^set output \"\\(.*\\)\"$/\\1/p')\n\(draw)echo '\(message)' >&2\n"
    let path = try scratch.write("bin/gnuplot", script)
    chmod(path, 0o755)
    return scratch.path("bin") + ":/usr/bin:/bin"
  }

  /// gnuplot's warnings are notes that --quiet keeps back; a plot it fails on is told even under --quiet.
  @Test func gnuplotWarningsAreQuietFailuresAreNot() throws {
    let scratch = try Scratch()
    let specPath = try scratch.write("small.yaml", Self.spec(models: "[NB]"))
    let arguments = ["run", specPath, "--out", scratch.path("out")]
    let warning = try fakeGnuplot(
      scratch, message: "Warning: empty y range [1:1], adjusting to [0.99:1.01]", fails: false)
    let quiet = try BenchbookBinary.run(arguments + ["--quiet"], in: scratch.url, environment: ["PATH": warning])
    #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    #expect(scratch.exists("out/log-loss-box.svg"))
    let chatty = try BenchbookBinary.run(arguments, in: scratch.url, environment: ["PATH": warning])
    #expect(chatty.stderr.contains("benchbook: note: plot log-loss-box.svg: gnuplot: Warning: empty y range"))

    let failure = try fakeGnuplot(scratch, message: "\"-\", line 3: undefined variable: nonsense", fails: true)
    let failed = try BenchbookBinary.run(arguments + ["--quiet"], in: scratch.url, environment: ["PATH": failure])
    #expect(failed.status == 0)
    #expect(
      failed.stderr.contains(
        "benchbook: warning: plot log-loss-box.svg not drawn: gnuplot reported: \"-\", line 3: undefined variable"),
      "\(failed.stderr)")
    let report = try String(contentsOfFile: scratch.path("out/report.md"), encoding: .utf8)
    #expect(report.contains("Plots not drawn:"))
    #expect(!scratch.exists("out/log-loss-box.svg"), "the earlier figure is not left beside a report without it")
  }

  // MARK: writing

  /// An output blocked by a directory is an error at its path; results.json and report.md stay as they were.
  @Test func blockedOutputLeavesTheEarlierOutputs() throws {
    let scratch = try Scratch()
    _ = try Self.runSmall(scratch)
    let before = try ["results.json", "report.md"].map {
      try Data(contentsOf: scratch.url.appendingPathComponent("out/\($0)"))
    }
    try FileManager.default.removeItem(atPath: scratch.path("out/log-loss-box.svg"))
    try FileManager.default.createDirectory(
      atPath: scratch.path("out/log-loss-box.svg"), withIntermediateDirectories: false)
    let specPath = try scratch.write("small.yaml", Self.spec(description: "A second run"))
    expectError(
      try BenchbookBinary.run(["run", specPath, "--quiet", "--out", scratch.path("out")], in: scratch.url),
      ["out/log-loss-box.svg: cannot write: it is a directory, not a regular file"])
    let after = try ["results.json", "report.md"].map {
      try Data(contentsOf: scratch.url.appendingPathComponent("out/\($0)"))
    }
    #expect(before == after)
    #expect(leftovers(scratch.url.path).isEmpty)
  }

  /// SIGINT and SIGTERM remove the staging folder and end the process by the same signal.
  @Test(arguments: [SIGINT, SIGTERM])
  func interruptedRunRemovesItsTemporaryFolder(signal: Int32) throws {
    let scratch = try Scratch()
    let specPath = try scratch.write("small.yaml", Self.spec(models: "[NB]"))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BenchbookBinary.path)
    process.arguments = ["run", specPath, "--quiet", "--out", scratch.path("out")]
    process.currentDirectoryURL = scratch.url
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["BENCHBOOK_TEST_PAUSE_BEFORE_COMMIT": "60"]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    // Everything staged: the run sleeps before its first move.
    func staged() -> Bool {
      leftovers(scratch.url.path).contains {
        FileManager.default.fileExists(atPath: scratch.path("\($0)/results.json"))
      }
    }
    while !staged() && Date() < deadline && process.isRunning { Thread.sleep(forTimeInterval: 0.02) }
    #expect(staged(), "the run reached its write phase")
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == signal)
    #expect(leftovers(scratch.url.path).isEmpty)
    #expect(!scratch.exists("out/results.json"))
  }
}

import Foundation
import Testing

@Suite struct RunCommandTests {
  @Test func writesResultsAndPrintsARankedTable() throws {
    let scratch = try Scratch()
    let output = try BenchbookBinary.run(["run", "experiments/iris.yaml", "--out", scratch.path("iris")])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.contains("rank"))
    #expect(output.stdout.contains("results: \(scratch.path("iris"))/results.json"))
    // Progress goes to standard error: a bar of 77 fits (7 models × 10 folds, then each on all rows).
    #expect(output.stderr.contains("iris [####################] 77/77 fits"), "\(output.stderr)")
    #expect(output.stderr.contains("left"), "an estimate of the time left: \(output.stderr)")
    let results = try ResultsJSON(path: scratch.path("iris/results.json"))
    #expect(results.object["experiment"] as? String == "iris")
    #expect(results.models.map { $0["label"] as! String } == ["LR", "LDA", "KNN", "DT", "NB", "RF", "HGB"])
    let data = try #require(results.object["data"] as? [String: Any])
    #expect(data["rows"] as? Int == 150)
    #expect(data["classes"] as? [String] == ["setosa", "versicolor", "virginica"])
    let resampling = try #require(results.object["resampling"] as? [String: Any])
    #expect(resampling["method"] as? String == "stratified-kfold")
    for model in results.models {
      #expect((model["folds"] as! [Any]).count == 10)
      #expect((model["parameter_count"] as! Int) > 0)
      let logLoss = model["log_loss"] as! [String: Double]
      #expect(logLoss["mean"]! > 0 && logLoss["std"]! >= 0)
    }
    let environment = try #require(results.object["environment"] as? [String: Any])
    for key in ["swift", "os", "cpu", "cores", "jobs", "git_commit"] { #expect(environment[key] != nil, "\(key)") }
  }

  /// More folds than the smallest class has rows: a warning in the run's output (even with --quiet), and the run
  /// goes on, as scikit-learn's does.
  @Test func foldsBeyondTheSmallestClassWarn() throws {
    let scratch = try Scratch()
    // Three rows of a rare class among 30; features that say little of the class.
    let rows = (0..<30).map { i in
      "\((i * 7) % 11),\((i * 5) % 13),\(i % 10 == 4 ? "rare" : (i % 2 == 0 ? "even" : "odd"))"
    }
    try scratch.write("data.csv", "a,b,y\n" + rows.joined(separator: "\n") + "\n")
    let spec = try scratch.write(
      "few.yaml",
      "name: few\ndata: {path: data.csv}\ntarget: y\nfeatures: [a, b]\nresampling:\n  method: stratified-kfold\n"
        + "  folds: 5\nmodels: [NB]\n")
    let output = try BenchbookBinary.run(["run", spec, "--quiet", "--out", scratch.path("out")], in: scratch.url)
    #expect(output.status != 1, "\(output.stderr)")
    #expect(output.stderr.contains("benchbook: warning: \(spec):7:"), "\(output.stderr)")
    #expect(
      output.stderr.contains("resampling.folds: the least populated class has only 3 rows, fewer than the 5 folds"),
      "\(output.stderr)")
    #expect(scratch.exists("out/results.json"))
  }

  @Test func resultsDoNotDependOnTheNumberOfJobs() throws {
    let scratch = try Scratch()
    var texts: [String] = []
    for jobs in ["1", "2", "3"] {
      let output = try BenchbookBinary.run(
        ["run", "experiments/breast-cancer.yaml", "--jobs", jobs, "--quiet", "--out", scratch.path("out")])
      #expect(output.status == 0, "\(output.stderr)")
      texts.append(try String(contentsOfFile: scratch.path("out/results.json"), encoding: .utf8))
    }
    let stripped = try texts.map(ResultsJSON.withoutTimings)
    #expect(stripped[0] == stripped[1])
    #expect(stripped[0] == stripped[2])
    #expect(texts[0] != texts[1], "timings do differ, so the comparison above is not vacuous")
  }

  /// OpenBLAS's kernels are chosen by instruction set (`OpenBLASSettings`), recorded in the results, and a user's own
  /// `OPENBLAS_CORETYPE` stands.
  @Test func blasKernelsAreChosenByInstructionSetAndRecorded() throws {
    let scratch = try Scratch()
    func kernels(_ environment: [String: String]) throws -> String? {
      let output = try BenchbookBinary.run(
        ["run", "experiments/iris.yaml", "--quiet", "--out", scratch.path("iris")], environment: environment)
      #expect(output.status == 0, "\(output.stderr)")
      let results = try ResultsJSON(path: scratch.path("iris/results.json"))
      return (results.object["environment"] as? [String: Any])?["blas"] as? String
    }
    let flags = Self.processorFlags()
    let chosen = try #require(try kernels([:]))
    #expect(chosen.hasPrefix("OpenBLAS "), "\(chosen)")
    if ProcessInfo.processInfo.environment["OPENBLAS_CORETYPE"] == nil {
      if ["avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl"].allSatisfy(flags.contains) {
        #expect(chosen.hasSuffix(", SkylakeX kernels"), "\(chosen)")
      } else if flags.contains("avx2") && flags.contains("fma") {
        #expect(chosen.hasSuffix(", Haswell kernels"), "\(chosen)")
      }
    }
    #if arch(x86_64)
      // Every x86-64 processor runs OpenBLAS's oldest kernels.
      let prescott = chosen.replacingOccurrences(
        of: #", \w+ kernels$"#, with: ", Prescott kernels", options: .regularExpression)
      #expect(try kernels(["OPENBLAS_CORETYPE": "Prescott"]) == prescott)
    #endif
  }

  /// The processor's flags as /proc/cpuinfo lists them (empty where it does not).
  static func processorFlags() -> Set<String> {
    guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
      let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }),
      let colon = line.firstIndex(of: ":")
    else { return [] }
    return Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
  }

  @Test func defaultOutputIsReportsSlashName() throws {
    let scratch = try Scratch()
    try scratch.write("data.csv", "a,y\n1,p\n2,q\n3,p\n4,q\n")
    let spec = try scratch.write(
      "tiny.yaml",
      "name: tiny\ndata: {path: data.csv}\ntarget: y\nfeatures: [a]\nresampling: {folds: 2}\nmodels: [NB]\n")
    let output = try BenchbookBinary.run(["run", spec, "--quiet"], in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(scratch.exists("reports/tiny/results.json"))
  }
}

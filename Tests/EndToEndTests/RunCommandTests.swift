import Foundation
import Testing

@Suite struct RunCommandTests {
  @Test func writesResultsAndPrintsARankedTable() throws {
    let scratch = try Scratch()
    let output = try BenchbookBinary.run(["run", "experiments/iris.yaml", "--out", scratch.path("iris")])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.contains("rank"))
    #expect(output.stdout.contains("results: \(scratch.path("iris"))/results.json"))
    // Progress goes to standard error: a bar of 55 fits (5 models × 10 folds, then each on all rows).
    #expect(output.stderr.contains("iris [####################] 55/55 fits"), "\(output.stderr)")
    #expect(output.stderr.contains("left"), "an estimate of the time left: \(output.stderr)")
    let results = try ResultsJSON(path: scratch.path("iris/results.json"))
    #expect(results.object["experiment"] as? String == "iris")
    #expect(results.models.map { $0["label"] as! String } == ["LR", "LDA", "KNN", "DT", "NB"])
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

import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `benchbook export` and `benchbook inspect`, run as a user runs them.
@Suite struct ExportCommandTests {
  static let irisSpec = BenchbookBinary.packageRoot.appendingPathComponent("experiments/iris.yaml").path

  func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

  @Test(arguments: ["LR", "LDA", "KNN", "DT", "NB"])
  func exportsEveryModelAndInspectsIt(label: String) throws {
    let scratch = try Scratch()
    let file = scratch.path("Iris\(label).mlmodel")
    let output = try BenchbookBinary.run(["export", Self.irisSpec, "--model", label, "--out", file], in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
    let size = try bytes(file).count
    #expect(output.stdout.hasPrefix("\(file): \(size) bytes"))
    #expect(output.stdout.contains(label == "KNN" ? "specification 4 (iOS 13)" : "specification 1 (iOS 11)"))

    let inspect = try BenchbookBinary.run(["inspect", file], in: scratch.url)
    #expect(inspect.status == 0, "\(inspect.stderr)")
    for expected in [
      "type: pipelineClassifier", "inputs:", "  sepal_length", "  petal_width", "outputs:", "  classLabel",
      "dictionary(string → double)", "pipeline stages:", "featureVectorizer", "scaler",
      label == "KNN"
        ? "specification version: 4 (iOS 13, macOS 10.15)" : "specification version: 1 (iOS 11, macOS 10.13)",
    ] {
      #expect(inspect.stdout.contains(expected), "inspect should show \(expected)")
    }
    #expect(
      inspect.stdout.contains(
        "\(file): \(size.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))) bytes"))
  }

  /// A killed export's temporary files (`.NAME.tmp-PID` of a process that is gone, Foundation's `.dat.nosync*`
  /// from an hour ago) are removed by the next export into the same folder; a live process's are kept.
  @Test func theNextExportRemovesAKilledExportsLeftovers() throws {
    let scratch = try Scratch()
    let gone = Process()
    gone.executableURL = URL(fileURLWithPath: "/bin/true")
    try gone.run()
    gone.waitUntilExit()
    let leftovers = [".m.mlmodel.tmp-\(gone.processIdentifier)", ".dat.nosyncA1b2C3"]
    let live = ".other.mlmodel.tmp-\(getpid())"
    for name in leftovers + [live] { try scratch.write(name, "partial") }
    let hourAgo = Date().addingTimeInterval(-7200)
    try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: scratch.path(leftovers[1]))
    let output = try BenchbookBinary.run(
      ["export", Self.irisSpec, "--model", "NB", "--out", scratch.path("m.mlmodel")], in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
    for name in leftovers { #expect(!FileManager.default.fileExists(atPath: scratch.path(name)), "\(name)") }
    #expect(FileManager.default.fileExists(atPath: scratch.path(live)))
    let hidden = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix(".") }
    #expect(hidden == [live], "\(hidden)")
  }

  @Test func sameFitSameBytesAndDefaultFileName() throws {
    let scratch = try Scratch()
    let first = try BenchbookBinary.run(["export", Self.irisSpec, "--model", "DT"], in: scratch.url)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(scratch.exists("IrisDT.mlmodel"))
    let again = try BenchbookBinary.run(
      ["export", Self.irisSpec, "--model", "DT", "--out", scratch.path("again.mlmodel")], in: scratch.url)
    #expect(again.status == 0)
    #expect(try bytes(scratch.path("IrisDT.mlmodel")) == bytes(scratch.path("again.mlmodel")))
  }

  /// After `benchbook run`, the file's description cites the model's cross-validated log-loss.
  @Test func descriptionCitesTheRunsLogLoss() throws {
    let scratch = try Scratch()
    let before = try BenchbookBinary.run(["export", Self.irisSpec, "--model", "LDA"], in: scratch.url)
    #expect(before.status == 0, "\(before.stderr)")
    let run = try BenchbookBinary.run(["run", Self.irisSpec, "--quiet", "--out", "reports/iris"], in: scratch.url)
    #expect(run.status == 0, "\(run.stderr)")
    let results = try ResultsJSON(path: scratch.path("reports/iris/results.json"))
    let lda = try #require(results.models.first { $0["label"] as? String == "LDA" })
    let mean = try #require((lda["log_loss"] as? [String: Double])?["mean"])
    let after = try BenchbookBinary.run(
      ["export", Self.irisSpec, "--model", "LDA", "--out", scratch.path("after.mlmodel")], in: scratch.url)
    #expect(after.status == 0, "\(after.stderr)")
    let described = try BenchbookBinary.run(["inspect", scratch.path("after.mlmodel")], in: scratch.url).stdout
    #expect(described.contains("Cross-validated log-loss: \(String(format: "%.4f", mean))."))
    #expect(described.contains("benchbook.cv_log_loss: "))
    let plain = try BenchbookBinary.run(["inspect", scratch.path("IrisLDA.mlmodel")], in: scratch.url).stdout
    #expect(!plain.contains("Cross-validated"))
  }

  @Test func updatableNearestNeighbours() throws {
    let scratch = try Scratch()
    let file = scratch.path("k.mlmodel")
    let output = try BenchbookBinary.run(
      ["export", Self.irisSpec, "--model", "KNN", "--updatable", "--out", file], in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
    let inspect = try BenchbookBinary.run(["inspect", file], in: scratch.url)
    #expect(inspect.stdout.contains("updatable: yes"))
    #expect(inspect.stdout.contains("training inputs:"))
    #expect(inspect.stdout.contains("app may choose 1…1000"))
  }

  @Test func measureReportsLatencyAndThroughput() throws {
    let scratch = try Scratch()
    let output = try BenchbookBinary.run(
      ["export", Self.irisSpec, "--model", "NB", "--out", scratch.path("nb.mlmodel"), "--measure"], in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.contains("single-row latency: p50 "))
    #expect(output.stdout.contains("(1000 predictions); batch throughput: "))
  }

  /// One clear line, exit status 1, and no file.
  func expectFailure(_ arguments: [String], mentions fragments: [String], in scratch: Scratch) throws {
    let output = try BenchbookBinary.run(arguments, in: scratch.url)
    #expect(output.status == 1, "exit status")
    for fragment in fragments {
      #expect(output.stderr.contains(fragment), "stderr should mention \(fragment): \(output.stderr)")
    }
    #expect(output.stderr.split(separator: "\n").count == 1, "one line: \(output.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
    #expect(
      left.allSatisfy { name in
        ![".mlmodel", ".tflite", ".onnx", ".json"].contains { name.hasSuffix($0) } && !name.contains(".tmp")
      },
      "left behind: \(left)")
  }

  @Test func unknownModelLabelListsTheLabels() throws {
    let scratch = try Scratch()
    try expectFailure(
      ["export", Self.irisSpec, "--model", "KNNN", "--out", scratch.path("x.mlmodel")],
      mentions: ["model 'KNNN' is not in", "LR, LDA, KNN, DT, NB", "did you mean 'KNN'?"], in: scratch)
  }

  @Test func updatableNeedsNearestNeighboursOrLogisticRegression() throws {
    let scratch = try Scratch()
    try expectFailure(
      ["export", Self.irisSpec, "--model", "NB", "--updatable", "--out", scratch.path("x.mlmodel")],
      mentions: [
        "\(Self.irisSpec): model NB: --updatable: a Gaussian naive Bayes cannot learn",
        "only logistic regression and k-nearest neighbours can, in Core ML",
      ], in: scratch)
  }

  @Test func inspectRejectsWhatIsNotAModel() throws {
    let scratch = try Scratch()
    let text = try scratch.write("notes.txt", "this is not a protobuf message\n")
    let output = try BenchbookBinary.run(["inspect", text], in: scratch.url)
    #expect(output.status == 1)
    #expect(output.stderr.contains("not a Core ML model file"))
    let missing = try BenchbookBinary.run(["inspect", scratch.path("nowhere.mlmodel")], in: scratch.url)
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("nowhere.mlmodel: no such file"))
  }
}

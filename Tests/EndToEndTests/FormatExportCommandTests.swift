import Foundation
import Testing

/// `benchbook export --format tflite|onnx`, `inspect` of those files, the errors of the new options, and a run
/// that measures several formats, as a user runs them.
@Suite struct FormatExportCommandTests {
  static let irisSpec = BenchbookBinary.packageRoot.appendingPathComponent("experiments/iris.yaml").path

  func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

  @Test(arguments: ["tflite", "onnx"])
  func defaultFileNameAndInspect(format: String) throws {
    let scratch = try Scratch()
    let output = try BenchbookBinary.run(
      ["export", Self.irisSpec, "--model", "DT", "--format", format], in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
    let file = "IrisDT.\(format)"
    #expect(scratch.exists(file))
    let size = try bytes(scratch.path(file)).count
    #expect(
      output.stdout.hasPrefix(
        "\(file): \(size) bytes, \(format == "tflite" ? "TensorFlow Lite schema 3" : "ONNX opset 28, ai.onnx.ml 5")"))
    let inspect = try BenchbookBinary.run(["inspect", file], in: scratch.url)
    #expect(inspect.status == 0, "\(inspect.stderr)")
    let expected =
      format == "tflite"
      ? [
        "format: TensorFlow Lite, schema version 3", "  features  float32 [batch, 4]",
        "  probabilities  float32 [batch, 3]", "0: sepal_length", "classes (labels.txt): setosa, versicolor, virginica",
        "benchbook.tree_form: matrix",
      ]
      : [
        "format: ONNX, IR version 14, operator sets ai.onnx 28, ai.onnx.ml 5", "  features  float32 [batch, 4]",
        "  label          string [batch]", "classes: setosa, versicolor, virginica", "ai.onnx.ml.TreeEnsemble × 1",
        "tree ensemble: 3 trees",
      ]
    for line in expected { #expect(inspect.stdout.contains(line), "inspect should show \(line):\n\(inspect.stdout)") }
    // The same fit gives the same bytes.
    let again = try BenchbookBinary.run(
      ["export", Self.irisSpec, "--model", "DT", "--format", format, "--out", "again.\(format)"], in: scratch.url)
    #expect(again.status == 0)
    #expect(try bytes(scratch.path(file)) == bytes(scratch.path("again.\(format)")))
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
    #expect(left.isEmpty, "left behind: \(left)")
  }

  @Test func unknownFormat() throws {
    let scratch = try Scratch()
    try expectFailure(
      ["export", Self.irisSpec, "--model", "LR", "--format", "tflit"],
      mentions: ["--format: unknown format 'tflit'", "coreml, tflite, onnx", "did you mean 'tflite'?"], in: scratch)
  }

  /// Without `--format`, `--out`'s extension names the format: `--out m.onnx` writes ONNX, not Core ML under an
  /// ONNX name; an extension that names no format leaves the default, Core ML.
  @Test(arguments: [("m.onnx", "ONNX opset 28"), ("m.TFLITE", "TensorFlow Lite schema 3"), ("m.bin", "Core ML")])
  func theOutExtensionNamesTheFormat(out: String, summary: String) throws {
    let scratch = try Scratch()
    let output = try BenchbookBinary.run(["export", Self.irisSpec, "--model", "DT", "--out", out], in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.contains("\(out): "), "\(output.stdout)")
    #expect(output.stdout.contains(summary), "\(output.stdout)")
  }

  /// A `--format` that contradicts `--out`'s extension is a usage error (64), and nothing is written.
  @Test func aFormatThatContradictsTheExtensionIsAUsageError() throws {
    let scratch = try Scratch()
    let output = try BenchbookBinary.run(
      ["export", Self.irisSpec, "--model", "DT", "--format", "coreml", "--out", "m.onnx"], in: scratch.url)
    #expect(output.status == 64, "\(output.stderr)")
    #expect(
      output.stderr.contains("--format coreml contradicts --out m.onnx, whose extension .onnx names ONNX"),
      "\(output.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    // The same format in another case agrees.
    let agreeing = try BenchbookBinary.run(
      ["export", Self.irisSpec, "--model", "DT", "--format", "onnx", "--out", "m.ONNX"], in: scratch.url)
    #expect(agreeing.status == 0, "\(agreeing.stderr)")
  }

  @Test func graphFormatsAreNotUpdatable() throws {
    let scratch = try Scratch()
    try expectFailure(
      ["export", Self.irisSpec, "--model", "KNN", "--format", "tflite", "--updatable"],
      mentions: ["model KNN: --updatable", "in TensorFlow Lite; it can in Core ML"], in: scratch)
  }

  @Test func updateSettingsNeedUpdatable() throws {
    let scratch = try Scratch()
    try expectFailure(
      ["export", Self.irisSpec, "--model", "LR", "--epochs", "3"], mentions: ["add --updatable"], in: scratch)
    try expectFailure(
      ["export", Self.irisSpec, "--model", "LR", "--updatable", "--learning-rate", "0"],
      mentions: ["--learning-rate: 0.0 is not a positive step size"], in: scratch)
  }

  @Test(arguments: ["coreml", "tflite", "onnx"])
  func overTheSizeLimit(format: String) throws {
    let scratch = try Scratch()
    try expectFailure(
      [
        "export", Self.irisSpec, "--model", "KNN", "--format", format, "--max-bytes", "2000", "--predictions", "p.json",
      ],
      mentions: ["\(Self.irisSpec): model KNN: the ", "file would take", "over the limit of 2,000 bytes"], in: scratch)
  }

  @Test func updatableLogisticRegression() throws {
    let scratch = try Scratch()
    let output = try BenchbookBinary.run(
      ["export", Self.irisSpec, "--model", "LR", "--updatable", "--learning-rate", "0.05", "--epochs", "7"],
      in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.contains("neuralNetworkClassifier, Core ML specification 4 (iOS 13)"))
    let inspect = try BenchbookBinary.run(["inspect", "IrisLR.mlmodel"], in: scratch.url)
    #expect(inspect.stdout.contains("updatable: yes"))
    #expect(inspect.stdout.contains("learning rate 0.05 (0…1), epochs 7 (1…1000)"))
  }

  /// `--predictions`: the model's own probabilities for rows spread over the data, the inputs as the format
  /// takes them, and every row's design matrix and class.
  @Test func predictionsFile() throws {
    let scratch = try Scratch()
    let output = try BenchbookBinary.run(
      ["export", Self.irisSpec, "--model", "NB", "--format", "tflite", "--predictions", "p.json"], in: scratch.url)
    #expect(output.status == 0, "\(output.stderr)")
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path("p.json"))))
        as? [String: Any])
    #expect(json["algorithm"] as? String == "gaussian_nb" && json["format"] as? String == "tflite")
    #expect(json["classes"] as? [String] == ["setosa", "versicolor", "virginica"])
    let rows = try #require(json["rows"] as? [Int])
    let probabilities = try #require(json["probabilities"] as? [[Double]])
    let inputs = try #require(json["inputs"] as? [[Double]])
    #expect(rows == Array(0..<150) && probabilities.count == 150 && inputs.count == 150)
    #expect(probabilities.allSatisfy { abs($0.reduce(0, +) - 1) < 1e-12 })
    #expect(inputs[0] == [5.1, 3.5, 1.4, 0.2])
    #expect((json["design"] as? [[Double]])?.count == 150 && (json["labels"] as? [Int])?.count == 150)
  }

  /// A spec that lists formats gets `model_sizes` per model and the sizes side by side in its report; a budget
  /// may name a format.
  @Test func runMeasuresListedFormats() throws {
    let scratch = try Scratch()
    let spec = try scratch.write(
      "iris-formats.yaml",
      """
      name: iris-formats
      data: {path: \(Scratch.shippedData("iris.csv"))}
      target: species
      features: [sepal_length, sepal_width, petal_length, petal_width]
      preprocess: [standardize]
      resampling: {method: stratified-kfold, folds: 5}
      models: [LR, DT]
      export: {formats: [onnx, tflite]}
      budget: {model_size_bytes: 2500, format: onnx}

      """)
    let run = try BenchbookBinary.run(["run", spec, "--quiet", "--out", "report"], in: scratch.url)
    #expect(run.status == 0, "\(run.stderr)")
    let results = try ResultsJSON(path: scratch.path("report/results.json"))
    for model in results.models {
      let sizes = try #require(model["model_sizes"] as? [String: Int])
      #expect(Set(sizes.keys) == ["coreml", "tflite", "onnx"])
      #expect(sizes["coreml"] == model["model_size_bytes"] as? Int)
      #expect((model["within_budget"] as? Bool) == (sizes["onnx"]! <= 2500))
    }
    let report = try String(contentsOfFile: scratch.path("report/report.md"), encoding: .utf8)
    #expect(report.contains("| Model | Core ML (.mlmodel) | TensorFlow Lite (.tflite) | ONNX (.onnx) |"))
    #expect(report.contains("an ONNX file of at most 2.5 kB"))
  }
}

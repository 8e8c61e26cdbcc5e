import ArgumentParser
import BenchbookData
import BenchbookEvaluation
import BenchbookExport
import BenchbookModels
import BenchbookSpec
import Foundation

struct ExportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "export",
    abstract:
      "Fit one model on all rows and write it as a file an app can ship: Core ML (.mlmodel), TensorFlow Lite "
      + "(.tflite) or ONNX (.onnx).",
    discussion: """
      Every file holds the fitted preprocessing (one-hot encoding, the spec's standardisation), so the app feeds \
      raw feature values.

      The format is --format's, else the one --out's extension names (.mlmodel, .tflite, .onnx), else Core ML; \
      a --format that contradicts --out's extension is a usage error (exit status 64).

      --format coreml (the default): a pipeline classifier; the app passes each spec feature by name (double for \
      numeric features, int64 or string for categorical ones) and gets back classLabel and classProbability.

      --format tflite: one input, features, float32 [batch, features] in spec order, a categorical feature as \
      the index of its category; one output, probabilities, float32 [batch, classes] in results.json's class \
      order. The batch dimension is resizable. Feature names, category lists and class labels are in the file's \
      metadata (TFLITE_METADATA, with packed label files).

      --format onnx: operator set 28 and ai.onnx.ml 5. Input features, float32 [batch, features], when every \
      feature is numeric; otherwise one [batch, 1] input per feature, named as the spec names it, float32 or \
      int64/string for a category. Outputs label [batch] and probabilities, float32 [batch, classes].

      A spec that imputes (impute) exports its fitted imputer in every format: the app passes NaN for a missing \
      number, and "" for a missing category (Core ML, ONNX text categories) or NaN as its index (TensorFlow \
      Lite). Missing indicators (add_indicator) are computed by every file (Core ML: a neural network stage, \
      specification 4); Core ML and ONNX refuse an imputed category whose values are numbers (int64).

      The file is written to --out, or to <Experiment><Label>.<extension> in the current directory \
      (flights-delay and LR give FlightsDelayLR.mlmodel). The same fit gives the same bytes.

      The description cites the cross-validated log-loss when --results (default: reports/<name>/results.json) \
      was written for this spec and data. A --results file that is missing, not valid, or from another spec, \
      data or model set is an error; the default file is passed over in those cases.

      --updatable writes a Core ML model an app can update with its user's examples: k-nearest neighbours (adds \
      them) or logistic regression (SGD on them, --learning-rate and --epochs).

      --predictions also writes, for checking the file in its runtime (make runtime-check), a JSON file of the \
      model's own class probabilities for up to 2,000 rows spread over the data, with each row's inputs as this \
      format takes them, and every row's design matrix and class.

      --measure also times Benchbook's own fitted pipeline on this machine: single-row latency (p50 and p99 over \
      1,000 one-row predictions of rows spread over the data, after 100 warm-up ones) and batch throughput (up \
      to 10,000 rows per call).

      Exit status: 0 on success, 64 on a usage error (such as a --format that contradicts --out), 1 on any other \
      error; nothing is written when it fails.
      """
  )

  @Argument(help: "The experiment spec (YAML).")
  var spec: String

  @Option(name: .long, help: "The label of the model to export, as the spec names it (e.g. LR, KNN-15).")
  var model: String

  @Option(
    name: .long,
    help: "The file format: coreml, tflite or onnx (default: the one --out's extension names, else coreml).")
  var format: String?

  @Option(name: .long, help: "Output file (default: <Experiment><Label>.mlmodel, .tflite or .onnx).")
  var out: String?

  @Flag(
    name: .long,
    help:
      "Write a Core ML model an app can update with its user's examples (k-nearest neighbours, logistic regression).")
  var updatable = false

  @Option(name: .long, help: "With --updatable, a logistic regression's SGD learning rate (default 0.01).")
  var learningRate: Double?

  @Option(name: .long, help: "With --updatable, a logistic regression's SGD epochs per update (default 10).")
  var epochs: Int?

  @Option(
    name: .long, help: "The largest file to write, in bytes (default: the format's limit, 2 GiB); larger is an error.")
  var maxBytes: Int?

  @Option(
    name: .long,
    help: "A results.json to take the cross-validated log-loss from (default: reports/<name>/results.json).")
  var results: String?

  @Option(
    name: .long, help: "Also write the model's own probabilities and inputs to this JSON file, for runtime checks.")
  var predictions: String?

  @Flag(name: .long, help: "Also time single-row latency and batch throughput of the fitted pipeline.")
  var measure = false

  /// A `--format` that contradicts `--out`'s extension is a usage error: either way the file would be misnamed, and
  /// an app or `inspect` would then take it for the format its name says.
  func validate() throws {
    if let format, let chosen = ExportFormats.named(format), let out,
      let named = ExportFormats.named(byExtensionOf: out), named.id != chosen.id
    {
      throw ValidationError(
        "--format \(format) contradicts --out \(out), whose extension .\(named.fileExtension) names \(named.name); "
          + "drop --format, or end --out in .\(chosen.fileExtension)")
    }
  }

  /// `--format`, else the format `--out`'s extension names, else Core ML: `--out m.onnx` alone writes ONNX.
  static func fileFormat(format: String?, out: String?) throws -> any ExportFormat {
    if let format {
      guard let named = ExportFormats.named(format) else {
        throw CommandError(
          "--format: unknown format '\(format)'; the formats are \(ExportFormats.ids.joined(separator: ", "))"
            + Suggestion.phrase(for: format, among: ExportFormats.ids))
      }
      return named
    }
    return out.flatMap(ExportFormats.named(byExtensionOf:)) ?? CoreMLFormat()
  }

  func run() throws {
    try CommandLineFailure.reporting {
      let fileFormat = try Self.fileFormat(format: format, out: out)
      if let maxBytes, maxBytes < 1 { throw CommandError("--max-bytes: \(maxBytes) is not a size in bytes") }
      if !updatable && (learningRate != nil || epochs != nil) {
        throw CommandError("--learning-rate and --epochs set how an updatable model learns; add --updatable")
      }
      var updateSettings = UpdateSettings()
      if let learningRate {
        guard learningRate > 0 && learningRate.isFinite else {
          throw CommandError("--learning-rate: \(learningRate) is not a positive step size")
        }
        updateSettings.learningRate = learningRate
      }
      if let epochs {
        guard epochs >= 1 else { throw CommandError("--epochs: \(epochs) is not at least 1") }
        updateSettings.epochs = epochs
      }
      let experiment = try SpecParser.read(file: spec)
      guard let modelSpec = experiment.models.first(where: { $0.label == model }) else {
        let labels = experiment.models.map(\.label)
        throw CommandError(
          "model '\(model)' is not in \(spec); its models are \(labels.joined(separator: ", "))"
            + Suggestion.phrase(for: model, among: labels))
      }
      // The descriptor says where the model can learn on device: refuse before fitting anything.
      if updatable, let problem = ExportFormats.updatableProblem(modelSpec.descriptor, in: fileFormat) {
        throw CommandError("\(spec): model \(model): \(problem)")
      }
      let path = out ?? Self.defaultFileName(experiment: experiment.name, label: model, format: fileFormat)
      try AtomicFile.checkReplaceable(path)
      if let predictions { try AtomicFile.checkReplaceable(predictions) }
      // A killed export's temporary files go, as a killed run's staging folders do.
      AtomicFile.removeAbandoned(beside: path)
      if let predictions { AtomicFile.removeAbandoned(beside: predictions) }
      let earlier = try Self.earlierResults(explicit: results, default: "reports/\(experiment.name)/results.json")
      let dataset = try Dataset.load(experiment.dataset)
      // A tuned model ships the configuration its inner protocol chooses on all rows, as `run` reports it.
      let shipped = try NestedTuning.resolvingFinal(
        modelSpec, spec: experiment, dataset: dataset, jobs: ProcessInfo.processInfo.activeProcessorCount)
      let pipeline = try FoldEvaluator(dataset: dataset, preprocessing: experiment.preprocessing).fitAllRows(shipped)
      let exported: ExportedFile
      do {
        exported = try OnDeviceCost.export(
          experiment, dataset: dataset, model: modelSpec, pipeline: pipeline, format: fileFormat,
          crossValidatedLogLoss: try Self.crossValidatedLogLoss(
            experiment, dataset: dataset, label: model, earlier: earlier, explicit: results != nil),
          updatable: updatable, updateSettings: updateSettings, maxBytes: maxBytes)
      } catch let error as ExportError {
        throw CommandError("\(spec): model \(model): \(error.message)")
      }
      let predictionsText = predictions.map { _ in
        PredictionsFile.text(
          experiment, dataset: dataset, model: shipped, pipeline: pipeline, format: fileFormat, file: path)
      }
      try AtomicFile.write(exported.bytes, to: path)
      if let predictions, let predictionsText { try AtomicFile.write(predictionsText, to: predictions) }
      print("\(path): \(exported.sizeBytes) bytes, \(exported.summary)")
      if measure {
        let (latency, throughput) = OnDeviceCost.timing(pipeline, rows: dataset.x)
        print(
          "single-row latency: p50 \(Self.microseconds(latency.p50Microseconds)), "
            + "p99 \(Self.microseconds(latency.p99Microseconds)) (\(latency.predictions) predictions); "
            + "batch throughput: \(Int(throughput.rounded())) rows/s")
      }
    }
  }

  /// `flights-delay` and `KNN-15` → `FlightsDelayKNN15.mlmodel`: a name Xcode turns into a class name as it is.
  static func defaultFileName(experiment: String, label: String, format: any ExportFormat) -> String {
    func camel(_ text: String, capitaliseWords: Bool) -> String {
      text.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { word in
        capitaliseWords ? word.prefix(1).uppercased() + word.dropFirst() : String(word)
      }.joined()
    }
    var name = camel(experiment, capitaliseWords: true) + camel(label, capitaliseWords: false)
    if name.first?.isNumber ?? true { name = "Model" + name }
    return name + "." + format.fileExtension
  }

  static func microseconds(_ value: Double) -> String {
    value < 10 ? String(format: "%.2f µs", value) : String(format: "%.1f µs", value)
  }

  /// The results to cite: `--results` must name a readable, valid results file; the default one is
  /// used when it exists and is valid, and passed over otherwise.
  static func earlierResults(explicit: String?, default fallback: String) throws -> (
    path: String, results: ExperimentResults
  )? {
    if let explicit { return (explicit, try ResultsFile.read(explicit)) }
    guard FileManager.default.fileExists(atPath: fallback), let results = try? ResultsFile.read(fallback) else {
      return nil
    }
    return (fallback, results)
  }

  /// The model's mean fold log-loss from an earlier run of this very spec on this very data. A default
  /// results file from another spec or data is passed over; one named by `--results` is an error.
  static func crossValidatedLogLoss(
    _ experiment: ExperimentSpec, dataset: Dataset, label: String,
    earlier: (path: String, results: ExperimentResults)?, explicit: Bool
  ) throws -> Double? {
    guard let (path, results) = earlier else { return nil }
    let specBytes = (try? RegularFile.read(experiment.path, atMost: Limits.specBytes, what: "a spec")) ?? []
    let mismatch: String? =
      if results.spec.sha256 != SHA256.hexDigest(specBytes) {
        "spec.sha256: written for another version of the spec (\(results.spec.path))"
      } else if results.data.sha256 != dataset.provenance.sha256 {
        "data.sha256: written for other data (\(results.data.path))"
      } else if !results.models.contains(where: { $0.label == label }) {
        "models: no model labelled '\(label)'"
      } else {
        nil
      }
    if let mismatch {
      if explicit { throw CommandError("\(path): \(mismatch); --results must come from a run of this spec") }
      return nil
    }
    return results.models.first { $0.label == label }?.logLoss.mean
  }
}

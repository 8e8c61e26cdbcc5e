import BenchbookData
import BenchbookExport
import BenchbookSpec

/// What a model costs in an app: the Core ML file it ships as, and how fast
/// Benchbook's own fitted pipeline predicts one row and many.
public enum OnDeviceCost {
  /// The Core ML file for `model` fitted on all rows, exactly as `benchbook export` writes it.
  ///
  /// - Parameter crossValidatedLogLoss: cited in the file's description when known.
  public static func export(
    _ spec: ExperimentSpec, dataset: Dataset, model: ModelSpec, pipeline: FittedPipeline,
    crossValidatedLogLoss: Double?, updatable: Bool = false
  ) throws(ExportError) -> ExportedModel {
    try CoreMLExporter.export(
      try request(
        spec, dataset: dataset, model: model, pipeline: pipeline, crossValidatedLogLoss: crossValidatedLogLoss,
        updatable: updatable))
  }

  /// The file for `model` fitted on all rows in `format`, exactly as `benchbook export --format` writes it.
  public static func export(
    _ spec: ExperimentSpec, dataset: Dataset, model: ModelSpec, pipeline: FittedPipeline, format: any ExportFormat,
    crossValidatedLogLoss: Double?, updatable: Bool = false, updateSettings: UpdateSettings = UpdateSettings(),
    maxBytes: Int? = nil
  ) throws(ExportError) -> ExportedFile {
    var request = try request(
      spec, dataset: dataset, model: model, pipeline: pipeline, crossValidatedLogLoss: crossValidatedLogLoss,
      updatable: updatable)
    request.updateSettings = updateSettings
    return try Exporter.export(request, as: format, maxBytes: maxBytes)
  }

  /// The size of the file the budget limits (`budget.format`, Core ML by default) for `model` fitted as `pipeline`;
  /// nil when the format cannot hold it.
  public static func budgetSizeBytes(
    _ spec: ExperimentSpec, dataset: Dataset, model: ModelSpec, pipeline: FittedPipeline,
    crossValidatedLogLoss: Double? = nil
  ) -> Int? {
    guard let format = ExportFormats.named(spec.budget?.sizeFormat ?? "coreml") else { return nil }
    return try? export(
      spec, dataset: dataset, model: model, pipeline: pipeline, format: format,
      crossValidatedLogLoss: crossValidatedLogLoss
    ).sizeBytes
  }

  /// The file size in every format the spec measures, and why a format could not hold the model; empty for a
  /// spec without `export:`.
  /// - Parameter coreML: the Core ML size, already measured.
  public static func sizes(
    _ spec: ExperimentSpec, dataset: Dataset, model: ModelSpec, pipeline: FittedPipeline, coreML: Int?,
    crossValidatedLogLoss: Double?
  ) -> (sizes: [String: Int], errors: [String: String]) {
    guard spec.exportFormats != nil else { return ([:], [:]) }
    var sizes: [String: Int] = [:]
    var errors: [String: String] = [:]
    for id in spec.measuredFormats {
      if id == CoreMLFormat().id {
        if let coreML { sizes[id] = coreML }
        continue
      }
      guard let format = ExportFormats.named(id) else { continue }
      do {
        sizes[id] =
          try export(
            spec, dataset: dataset, model: model, pipeline: pipeline, format: format,
            crossValidatedLogLoss: crossValidatedLogLoss
          ).sizeBytes
      } catch {
        errors[id] = error.message
      }
    }
    return (sizes, errors)
  }

  /// What every export of `model` fitted on all rows is asked to write.
  static func request(
    _ spec: ExperimentSpec, dataset: Dataset, model: ModelSpec, pipeline: FittedPipeline,
    crossValidatedLogLoss: Double?, updatable: Bool
  ) throws(ExportError) -> ExportRequest {
    let metadata = ExportMetadata(
      experiment: spec.name, question: spec.description, target: ExportMetadata.targetText(spec.dataset.target),
      modelLabel: model.label, algorithm: model.descriptor.id, algorithmName: model.descriptor.displayName,
      trainingRows: dataset.x.rows, crossValidatedLogLoss: crossValidatedLogLoss,
      benchbookVersion: EnvironmentProbe.benchbookVersion)
    if pipeline.preprocessing.imputer != nil, case .standardize = pipeline.preprocessing.steps.first {
      throw ExportError("the export imputes before it standardizes; list `impute` before `standardize`")
    }
    return ExportRequest(
      features: dataset.features, classes: dataset.classes, scalers: pipeline.preprocessing.scalers,
      classifier: pipeline.classifier, metadata: metadata, updatable: updatable,
      imputer: pipeline.preprocessing.imputer)
  }

  /// Single-row latency alone: 1,000 rows one at a time after 100 warm-up predictions, or as many as
  /// `latencySeconds` allows (at least 100) for a model slower than a millisecond a row.
  public static func latency(_ pipeline: FittedPipeline, rows x: Matrix) -> LatencySummary {
    PredictionTiming.singleRowLatency(
      PredictionTiming.evenlySpaced(x, count: 1000), predictions: 1000, warmUp: 100, budgetSeconds: latencySeconds,
      predict: pipeline.predictProbabilities)
  }

  /// Single-row latency (`latency(_:rows:)`) and batch throughput: batches of the 10,000 rows spread over the
  /// data, or of as many as fit in a quarter of a second for a slow model (`PredictionTiming.throughput`),
  /// timed for at least `throughputSeconds`. Bounded by time, not rows: a slow model costs seconds here, not tens.
  public static func timing(_ pipeline: FittedPipeline, rows x: Matrix) -> (latency: LatencySummary, throughput: Double)
  {
    let latency = latency(pipeline, rows: x)
    let throughput = PredictionTiming.throughput(
      PredictionTiming.evenlySpaced(x, count: 10_000), minimumSeconds: throughputSeconds, batchSeconds: 0.25,
      predict: pipeline.predictProbabilities)
    return (latency, throughput)
  }

  /// How long batches are repeated to time throughput (after one untimed batch, if short). Every model pays it, one
  /// after another, so it is a floor under every run, and a longer window would be a large share of a small
  /// dataset's whole run (iris's). 10 ms still holds many batches of a small dataset's rows, even for its slowest
  /// model (kNN), and several 10,000-row batches of a fast model; a model slower than that is timed on one whole
  /// batch. The clock reads nanoseconds, so the figure's spread is the machine's, not the window's.
  public static let throughputSeconds = 0.01

  /// The single-row timing's budget: 1,000 predictions of a millisecond or less fit in it.
  public static let latencySeconds = 1.0
}

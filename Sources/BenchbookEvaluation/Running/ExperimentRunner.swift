import BenchbookData
import BenchbookModels
import BenchbookSpec
import Foundation

/// Runs an experiment end to end: load, split, fit and score every model on
/// every fold in parallel, and gather the results.
public enum ExperimentRunner {
  public struct Options: Sendable {
    /// Threads for folds and models; results do not depend on it.
    public var jobs: Int
    /// Called with (tasks done, tasks in all) as the run proceeds.
    public var progress: (@Sendable (Int, Int) -> Void)?
    /// The command line recorded in the results (default: `benchbook run SPEC`).
    public var command: String?
    /// Whether to run the leak audit after the main pass (results' `audit`).
    public var audit = true
    /// Called with (audit fits done, in all) while the leak audit runs.
    public var auditProgress: (@Sendable (Int, Int) -> Void)?

    public init(
      jobs: Int = ProcessInfo.processInfo.activeProcessorCount, progress: (@Sendable (Int, Int) -> Void)? = nil
    ) {
      self.jobs = jobs
      self.progress = progress
    }
  }

  /// Everything a run made: the results, and the data and folds behind them.
  public struct Run: Sendable {
    public var results: ExperimentResults
    public var dataset: Dataset
    public var plan: FoldPlan
    /// The spec as run, tuned models resolved to their final configuration.
    public var spec: ExperimentSpec
  }

  public static func run(_ spec: ExperimentSpec, options: Options = Options()) throws -> Run {
    try LeakAudit.validate(spec)
    _ = try FitRepeat.active(labels: spec.models.map(\.label))
    let prepared = try RunPlan(spec, jobs: options.jobs)
    MemoryTrace.mark("fold plan", rows: prepared.dataset.x.rows)
    var outputs: [RunPlan.Output]
    do {
      let computed = try prepared.execute(
        Array(prepared.tasks.indices), jobs: options.jobs, progress: options.progress)
      outputs = prepared.tasks.indices.map { computed[$0]! }
    }
    MemoryTrace.mark("cross-validation", rows: prepared.dataset.x.rows)
    return try assemble(prepared, outputs: consume outputs, options: options)
  }

  /// Turns every task's output into results, then measures on-device cost and runs the audit: the same code
  /// whether the outputs were computed here or gathered from shards.
  /// - Parameter outputs: one per task of `prepared.tasks`, in task order; consumed, so the models fitted on
  ///   all rows are freed before the audit rather than held through it.
  public static func assemble(_ prepared: RunPlan, outputs: consuming [RunPlan.Output], options: Options) throws
    -> Run
  {
    let (spec, dataset, plan) = (prepared.spec, prepared.dataset, prepared.plan)
    let models = spec.models
    let tasks = prepared.tasks
    let tunings = prepared.tunings
    var modelResults: [ModelResult] = []
    var fitRecords: [PreprocessingFitRecord] = []
    var resolvedModels = models
    // Tuned models' fits on all rows, side by side; each is measured alone below, then freed.
    let tuned = tunings.keys.sorted()
    let tunedFits = try ParallelExecutor.run(count: tuned.count, jobs: options.jobs) {
      (i: Int) throws(ModelFailure) -> [FittedPipeline] in
      defer { HeapPolicy.releaseFreedMemory(afterTaskOn: dataset.x) }
      return try tunings[tuned[i]]!.fitAllRows(dataset: dataset, spec: spec)
    }
    var allRowsFits = Dictionary(uniqueKeysWithValues: zip(tuned, tunedFits))
    for (m, model) in models.enumerated() {
      if let tuning = tunings[m] {
        var scores: [TuningSplit: ConfigurationScores] = [:]
        for (t, task) in tasks.enumerated() {
          if case .tuning(m, let split) = task, case .tuning(let output) = outputs[t] { scores[split] = output }
        }
        let outcome = try tuning.outcome(
          scores, pipelines: allRowsFits.removeValue(forKey: m)!, spec: spec, dataset: dataset, jobs: options.jobs)
        var result = outcome.result
        resolvedModels[m] = outcome.resolved
        measureOnDeviceCost(&result, spec: spec, dataset: dataset, model: model, pipeline: outcome.finalPipeline)
        if let budget = spec.budget {
          result.withinBudget = budget.admits(
            sizeBytes: result.sizeBytes(in: budget.sizeFormat), latencyP99: result.latencyMicroseconds?.p99)
        }
        modelResults.append(result)
        continue
      }
      var folds: [FoldResult] = []
      var calibration: [(fold: Fold, part: FoldCalibration)] = []
      var pipeline: FittedPipeline?
      for (t, task) in tasks.enumerated() where task.model == m {
        switch outputs[t] {
        case .fold(let outcome):
          guard case .fold(_, let f) = task else { continue }
          let fold = plan.folds[f]
          calibration.append((fold, outcome.calibration))
          fitRecords.append(
            PreprocessingFitRecord(model: model.label, fold: fold.index, fittedOn: outcome.preprocessingFittedOn))
          folds.append(
            FoldResult(
              fold: fold.index, repeat: fold.repeatIndex, trainRows: fold.train.count, testRows: fold.test.count,
              logLoss: outcome.scores.logLoss, accuracy: outcome.scores.accuracy, brier: outcome.scores.brier,
              rocAUC: outcome.scores.rocAUC, clippedRows: outcome.scores.clippedRows,
              clippedLossShare: outcome.scores.clippedShare, fitSeconds: outcome.fitSeconds,
              predictSeconds: outcome.predictSeconds))
        case .allRows(let fitted):
          pipeline = fitted
        case .tuning:
          continue
        }
      }
      var result = ModelResult(
        label: model.label, algorithm: model.descriptor.id, params: model.classifier.parameters,
        logLoss: Summary(folds.map(\.logLoss)), accuracy: Summary(folds.map(\.accuracy)),
        brier: Summary(folds.map(\.brier)), rocAUC: Summary(folds.compactMap(\.rocAUC)),
        folds: folds, parameterCount: pipeline!.classifier.parameterCount)
      result.calibration = FoldCalibration.record(calibration, classes: dataset.classes)
      // On-device cost, after cross-validation and one model at a time, so no other job disturbs the timing.
      measureOnDeviceCost(&result, spec: spec, dataset: dataset, model: model, pipeline: pipeline!)
      if let budget = spec.budget {
        result.withinBudget = budget.admits(
          sizeBytes: result.sizeBytes(in: budget.sizeFormat), latencyP99: result.latencyMicroseconds?.p99)
      }
      modelResults.append(result)
    }

    var results = ExperimentResults(
      benchbook: EnvironmentProbe.benchbookVersion,
      experiment: spec.name,
      command: options.command ?? "benchbook run \(spec.path)",
      description: spec.description,
      spec: SpecRecord(
        path: spec.path, sha256: try fileDigest(spec.path), definitionSha256: SHA256.hexDigest(spec.definitionText)),
      data: dataRecord(spec, dataset),
      preprocess: spec.preprocessing.map(\.rawValue),
      resampling: resamplingRecord(spec.resampling, plan, dataset),
      scoring: ScoringRecord(logLossEpsilon: LogLoss.epsilon, spread: "population standard deviation over folds"),
      models: modelResults,
      environment: EnvironmentProbe.record(
        jobs: options.jobs, repositoryDirectory: URL(fileURLWithPath: spec.path).deletingLastPathComponent().path))
    results.preprocessing = preprocessingRecord(spec.preprocessing, dataset)
    results.imputation = imputationRecord(dataset)
    results.budget = spec.budget.map {
      BudgetRecord(
        modelSizeBytes: $0.modelSizeBytes, latencyMicrosecondsP99: $0.latencyMicrosecondsP99, format: $0.format)
    }
    MemoryTrace.mark("results and on-device cost", rows: dataset.x.rows)
    // The fitted models and the memory the main pass freed are returned to the system before the audit
    // makes its own copies, so they do not stack.
    outputs = []
    HeapPolicy.releaseFreedMemory()
    // The audit examines the models as they would ship: tuned ones at their final configuration.
    var audited = spec
    audited.models = resolvedModels
    if options.audit {
      results.audit = try LeakAudit.run(
        audited, dataset: dataset, plan: plan,
        mainPass: LeakAudit.MainPass(
          logLoss: modelResults.map { $0.folds.map(\.logLoss) }, fitRecords: fitRecords,
          tuning: modelResults.map(\.selectionScores)),
        options: LeakAudit.Options(jobs: options.jobs, progress: options.auditProgress))
      MemoryTrace.mark("leak audit", rows: dataset.x.rows)
    }
    return Run(results: results, dataset: dataset, plan: plan, spec: audited)
  }

  /// Exports the model as `benchbook export` would, and times single-row and batch prediction.
  static func measureOnDeviceCost(
    _ result: inout ModelResult, spec: ExperimentSpec, dataset: Dataset, model: ModelSpec, pipeline: FittedPipeline
  ) {
    do {
      let exported = try OnDeviceCost.export(
        spec, dataset: dataset, model: model, pipeline: pipeline, crossValidatedLogLoss: result.logLoss.mean)
      result.modelSizeBytes = exported.sizeBytes
      result.coremlSpecVersion = exported.specificationVersion.rawValue
      result.coremlIOS = exported.specificationVersion.iOSRelease
    } catch {
      result.coremlError = error.message
    }
    // Other formats, only for specs that list them, so every other results.json reads as before.
    if spec.exportFormats != nil {
      let (sizes, errors) = OnDeviceCost.sizes(
        spec, dataset: dataset, model: model, pipeline: pipeline, coreML: result.modelSizeBytes,
        crossValidatedLogLoss: result.logLoss.mean)
      result.modelSizes = sizes
      result.exportErrors = errors.isEmpty ? nil : errors
    }
    let timing = OnDeviceCost.timing(pipeline, rows: dataset.x)
    result.latencyMicroseconds = LatencyRecord(p50: timing.latency.p50Microseconds, p99: timing.latency.p99Microseconds)
    result.throughputRowsPerSecond = timing.throughput
  }

  static func fileDigest(_ path: String) throws -> String {
    SHA256.hexDigest(try DataFile.storedBytes(atPath: path))
  }

  static func dataRecord(_ spec: ExperimentSpec, _ dataset: Dataset) -> DataRecord {
    var classCounts = [Int](repeating: 0, count: dataset.classes.count)
    for label in dataset.labels { classCounts[label] += 1 }
    let time = dataset.time.flatMap { seconds -> TimeRecord? in
      guard let column = spec.dataset.time?.column, let first = seconds.min(), let last = seconds.max() else {
        return nil
      }
      return TimeRecord(column: column, first: iso8601(first), last: iso8601(last))
    }
    return DataRecord(
      path: spec.dataPath, sha256: dataset.provenance.sha256, rows: dataset.x.rows,
      rowsRead: dataset.provenance.rowsRead, droppedRows: dataset.provenance.droppedRows,
      droppedByColumn: dataset.provenance.droppedByColumn, missingPolicy: spec.dataset.missing.rawValue,
      target: spec.dataset.target.column.column, targetWhen: spec.dataset.target.when?.description,
      features: dataset.features.map(\.name), columns: dataset.columnNames,
      featureSummaries: dataset.features.map {
        FeatureRecord(
          name: $0.name, type: $0.type, min: $0.minimum, max: $0.maximum, categories: $0.categories,
          missing: $0.missingCount)
      },
      classes: dataset.classes, classCounts: classCounts, time: time, dialect: dialectRecord(spec.dataset),
      rowNames: dataset.provenance.rowNames,
      formats: spec.dataset.timeFormats.isEmpty ? nil : spec.dataset.timeFormats.mapValues(\.format.text))
  }

  /// The file's dialect, when it is not the one its name implies.
  static func dialectRecord(_ definition: DatasetDefinition) -> DialectRecord? {
    let dialect = definition.dialect
    guard !dialect.isDefault(forPath: definition.path) else { return nil }
    return DialectRecord(
      delimiter: String(Unicode.Scalar(dialect.delimiter)), decimal: String(Unicode.Scalar(dialect.decimalSeparator)),
      header: dialect.hasHeader, names: dialect.hasHeader ? nil : dialect.columnNames == nil ? "generated" : "spec")
  }

  /// Each step's columns, when some step leaves columns unchanged; `nil` (no key) otherwise.
  static func preprocessingRecord(_ steps: [PreprocessingStep], _ dataset: Dataset) -> [PreprocessingRecord]? {
    guard steps.contains(where: { $0.columns != .all }) else { return nil }
    let categorical = dataset.features.filter { $0.type == .categorical }.flatMap { Array($0.columns) }
    return steps.map { step in
      PreprocessingRecord(
        step: step.rawValue, columns: step.columns.rawValue,
        unchanged: step.columns == .numeric ? categorical.map { dataset.columnNames[$0] } : [])
    }
  }

  /// Every imputed feature, with its missing cells among the rows used; `nil` (no key) when nothing is imputed.
  static func imputationRecord(_ dataset: Dataset) -> [ImputationRecord]? {
    let records = dataset.features.compactMap { feature -> ImputationRecord? in
      guard let imputation = feature.imputation else { return nil }
      let column = feature.columns.lowerBound
      let missing = (0..<dataset.x.rows).reduce(0) { $0 + (dataset.x[$1, column].isNaN ? 1 : 0) }
      let fill =
        imputation.strategy != .constant
        ? nil : feature.type == .categorical ? imputation.categoricalFill : imputation.fillValue ?? "0"
      return ImputationRecord(
        feature: feature.name, strategy: imputation.strategy.rawValue, fillValue: fill,
        addIndicator: imputation.addIndicator, missing: missing)
    }
    return records.isEmpty ? nil : records
  }

  static func resamplingRecord(_ method: any ResamplingMethod, _ plan: FoldPlan, _ dataset: Dataset)
    -> ResamplingRecord
  {
    let classCount = dataset.classes.count
    // A run at a time over the labels' buffer: every fold's rows are counted on the thread that assembles the
    // results, 6.5 million labels for the flagship's ten folds.
    func counts(_ rows: RowIndices) -> [Int] {
      var counts = [Int](repeating: 0, count: classCount)
      dataset.labels.withUnsafeBufferPointer { labels in
        counts.withUnsafeMutableBufferPointer { counts in
          rows.forEachRun { run in
            for row in run { counts[labels[row]] += 1 }
          }
        }
      }
      return counts
    }
    let splits = plan.folds.map {
      SplitRecord(
        fold: $0.index, repeat: $0.repeatIndex, trainRows: $0.train.count, testRows: $0.test.count,
        trainClassCounts: counts($0.train), testClassCounts: counts($0.test))
    }
    return ResamplingRecord(
      method.record(foldsPerRepeat: plan.folds.count / plan.repeats), planSha256: plan.sha256, splits: splits)
  }

  /// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ`.
  static func iso8601(_ seconds: Double) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: Date(timeIntervalSince1970: seconds))
  }
}

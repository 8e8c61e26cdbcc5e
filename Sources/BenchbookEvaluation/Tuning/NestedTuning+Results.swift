import BenchbookData
import BenchbookExport
import BenchbookModels
import BenchbookSpec
import Dispatch

extension NestedTuning {
  /// A tuned model's results, and the model resolved to its final configuration.
  struct Outcome {
    var result: ModelResult
    var resolved: ModelSpec
    var finalPipeline: FittedPipeline
  }

  /// Every configuration fitted on all rows, sharing what its fits share: what `outcome` measures. Tuned
  /// models' fits may run side by side; only the timings in `outcome` must run alone.
  func fitAllRows(dataset: Dataset, spec: ExperimentSpec) throws(ModelFailure) -> [FittedPipeline] {
    try FoldEvaluator(dataset: dataset, preprocessing: spec.preprocessing).fitAllRows(
      model, configurations: configurations)
  }

  /// Makes the choices from the scores of every split, then measures each
  /// configuration fitted on all rows (size, and latency one at a time).
  /// - Parameter scores: the output of `evaluate` for every split of `splits`.
  /// - Parameter pipelines: `fitAllRows`' fits, one per configuration.
  /// - Parameter jobs: threads for the Core ML sizes and for timing the shipped model's predictions per fold.
  func outcome(
    _ scores: [TuningSplit: ConfigurationScores], pipelines: [FittedPipeline], spec: ExperimentSpec,
    dataset: Dataset, jobs: Int
  ) throws(ModelFailure) -> Outcome {
    let budget = spec.budget
    // The final model: the inner protocol on all rows (`GridSearchCV.fit(X, y).best_estimator_`).
    let finalMeans = innerMeans(finalInner.indices.map { scores[.inner(outer: nil, inner: $0)]! })
    let finalIndex = Self.choose(finalMeans, allowed: [Bool](repeating: true, count: gridCount))!
    let outer = outerFolds.indices.map { scores[.outer(fold: $0)]! }
    let flat = configurations.indices.map { c in outer.map { $0.logLoss[c] } }

    // Each configuration fitted on all rows: its file (side by side), then (a timing) its latency, one
    // configuration at a time.
    let model = model
    let sizes = ParallelExecutor.run(count: pipelines.count, jobs: jobs) { c in
      let logLoss = Summary(flat[c]).mean
      let coreML =
        try? OnDeviceCost.export(
          spec, dataset: dataset, model: model, pipeline: pipelines[c], crossValidatedLogLoss: logLoss
        ).sizeBytes
      // Other formats only for specs that list them (`export.formats`).
      let others = OnDeviceCost.sizes(
        spec, dataset: dataset, model: model, pipeline: pipelines[c], coreML: coreML, crossValidatedLogLoss: logLoss)
      return (coreML, spec.exportFormats == nil ? nil : others.sizes)
    }
    var records: [ConfigurationRecord] = []
    for (c, pipeline) in pipelines.enumerated() {
      let latency = OnDeviceCost.latency(pipeline, rows: dataset.x)
      let latencyRecord = LatencyRecord(p50: latency.p50Microseconds, p99: latency.p99Microseconds)
      var record = ConfigurationRecord(
        params: configurations[c].parameters, flatLogLoss: Summary(flat[c]), flatFolds: flat[c],
        parameterCount: pipeline.classifier.parameterCount, modelSizeBytes: sizes[c].0,
        latencyMicroseconds: latencyRecord, withinBudget: true)
      record.modelSizes = sizes[c].1
      record.withinBudget =
        budget?.admits(sizeBytes: record.sizeBytes(in: budget?.sizeFormat ?? "coreml"), latencyP99: latencyRecord.p99)
        ?? true
      records.append(record)
    }

    // The choice in each outer fold, unconstrained and inside the budget.
    var chosen: [ChoiceRecord] = []
    var chosenWithinBudget: [ChoiceRecord] = []
    var folds: [FoldResult] = []
    var calibration: [(fold: Fold, part: FoldCalibration)] = []
    for (f, fold) in outerFolds.enumerated() {
      let means = innerMeans(innerFolds[f].indices.map { scores[.inner(outer: f, inner: $0)]! })
      let pick = Self.choose(means, allowed: [Bool](repeating: true, count: gridCount))!
      chosen.append(choice(fold.index, pick, means))
      if let budget {
        let allowed = (0..<gridCount).map { c in
          budget.admits(sizeBytes: outer[f].sizeBytes[c], latencyP99: records[c].latencyMicroseconds?.p99)
        }
        chosenWithinBudget.append(choice(fold.index, Self.choose(means, allowed: allowed), means))
      }
      // Tuning cost of the fold: every inner fit, plus the outer fits of every configuration.
      let innerSeconds = innerFolds[f].indices.reduce(0.0) { total, i in
        let split = scores[.inner(outer: f, inner: i)]!
        return total + split.fitSeconds + split.predictSeconds
      }
      let picked = outer[f].scores![pick]
      calibration.append((fold, outer[f].calibration![pick]))
      folds.append(
        FoldResult(
          fold: fold.index, repeat: fold.repeatIndex, trainRows: fold.train.count, testRows: fold.test.count,
          logLoss: picked.logLoss, accuracy: picked.accuracy, brier: picked.brier, rocAUC: picked.rocAUC,
          clippedRows: picked.clippedRows, clippedLossShare: picked.clippedShare,
          fitSeconds: innerSeconds + outer[f].fitSeconds + outer[f].predictSeconds, predictSeconds: 0))
    }

    let finalPipeline = pipelines[finalIndex]
    // Predict time: the shipped pipeline on each outer test fold, after the tuning work (shared fits
    // predict every configuration together, which times none alone). Folds run side by side, as the folds
    // of an untuned model are timed, each on its first rows, scaled to all of them: every model here costs the
    // same per row, and a kNN model over every row would otherwise spend seconds re-predicting the data only to
    // time it. Bounded by time as well as rows (`predictTimingSeconds`): a first chunk probes the pace; a model
    // that would predict all `predictTimingRows` within the bound is then timed on them in one call, and a slower
    // one a chunk at a time until the chunks have taken that long.
    let folds0 = outerFolds
    let predictSeconds = ParallelExecutor.run(count: folds0.count, jobs: jobs) { f in
      let test = folds0[f].test
      let timed = Array(test.prefix(Self.predictTimingRows))
      func seconds(_ rows: ArraySlice<Int>) -> Double {
        let x = dataset.x.selecting(rows: Array(rows))
        let start = DispatchTime.now().uptimeNanoseconds
        _ = finalPipeline.predictProbabilities(x)
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      }
      guard !timed.isEmpty else { return 0.0 }
      var done = min(Self.predictTimingChunk, timed.count)
      var spent = seconds(timed[..<done])
      if done < timed.count && spent * Double(timed.count) / Double(done) <= Self.predictTimingSeconds {
        (spent, done) = (seconds(timed[...]), timed.count)
      }
      while done < timed.count && spent < Self.predictTimingSeconds {
        let end = min(done + Self.predictTimingChunk, timed.count)
        spent += seconds(timed[done..<end])
        done = end
      }
      return spent * Double(test.count) / Double(done)
    }
    for f in folds.indices { folds[f].predictSeconds = predictSeconds[f] }
    var frequency = [Int](repeating: 0, count: gridCount)
    for choice in chosen { if let c = choice.configuration { frequency[c] += 1 } }

    let budgetFolds = chosenWithinBudget.enumerated().compactMap { f, choice in choice.configuration.map { flat[$0][f] }
    }
    var resolved = model
    resolved.classifier = configurations[finalIndex]
    var result = ModelResult(
      label: model.label, algorithm: model.descriptor.id, params: configurations[finalIndex].parameters,
      logLoss: Summary(folds.map(\.logLoss)), accuracy: Summary(folds.map(\.accuracy)),
      brier: Summary(folds.map(\.brier)), rocAUC: Summary(folds.compactMap(\.rocAUC)), folds: folds,
      parameterCount: finalPipeline.classifier.parameterCount)
    result.calibration = FoldCalibration.record(calibration, classes: dataset.classes)
    result.tuning = TuningRecord(
      space: Dictionary(uniqueKeysWithValues: (model.search?.dimensions ?? []).map { ($0.name, $0.values) }),
      inner: InnerRecord(method: tune.inner.id, folds: tune.innerFolds), metric: tune.metric,
      configurations: Array(records[..<gridCount]), chosen: chosen,
      chosenWithinBudget: budget == nil ? nil : chosenWithinBudget,
      budgetLogLoss: budget != nil && budgetFolds.count == outerFolds.count ? Summary(budgetFolds) : nil,
      finalConfiguration: finalIndex, finalParams: configurations[finalIndex].parameters,
      selectionFrequency: frequency,
      defaults: DefaultRecord(
        params: configurations[defaultIndex].parameters, configuration: defaultIndex < gridCount ? defaultIndex : nil,
        flatLogLoss: Summary(flat[defaultIndex]), modelSizeBytes: records[defaultIndex].modelSizeBytes,
        modelSizes: records[defaultIndex].modelSizes))
    return Outcome(result: result, resolved: resolved, finalPipeline: finalPipeline)
  }

  /// Rows of an outer test fold the shipped model's predict time is measured on, at most.
  static let predictTimingRows = 10_000
  /// Rows predicted at a time while timing (the probe, and a slow model's chunks), and the time after which no
  /// further chunk starts: a slow model (kNN with a large k) stops after a chunk or two a fold, while a linear model
  /// still predicts the 10,000 in one quick call.
  static let predictTimingChunk = 1_000
  static let predictTimingSeconds = 0.02

  private func choice(_ fold: Int, _ index: Int?, _ means: [Double]) -> ChoiceRecord {
    guard let index else { return ChoiceRecord(fold: fold) }
    return ChoiceRecord(
      fold: fold, configuration: index, params: model.search?.searchedParameters(index), innerLogLoss: means[index])
  }
}

extension ModelResult {
  /// What the selection-bias check needs of a tuned model's run.
  var selectionScores: SelectionBiasCheck.TuningScores? {
    guard let tuning else { return nil }
    let searched = tuning.space.keys.sorted()
    let names = tuning.configurations.map { configuration in
      searched.map { "\($0)=\(configuration.params[$0] ?? .none)" }.joined(separator: ", ")
    }
    return SelectionBiasCheck.TuningScores(
      nested: folds.map(\.logLoss), flat: tuning.configurations.map(\.flatFolds),
      chosen: tuning.chosen.map { $0.configuration ?? 0 }, names: names)
  }
}

import BenchbookData
import BenchbookModels
import BenchbookSpec
import Foundation

extension FoldEvaluator {
  /// Fits every configuration on `train` and scores it on `test`.
  ///
  /// The preprocessing is fitted once on `train` and shared: it does not depend
  /// on the model's settings, so this equals fitting each pipeline on its own.
  /// - Parameters:
  ///   - full: every measure (outer folds), or log-loss alone (inner folds).
  ///   - size: the Core ML size of a configuration fitted here, when a budget needs it.
  ///   - fold: the outer fold, named in errors.
  ///   - presorted: sorted features shared with the model's other splits, which a decision tree grows from
  ///     instead of sorting `train` (`fits(of:train:gathered:labels:model:fold:presorted:)`); counted done here.
  func evaluate(
    _ model: ModelSpec, configurations: [any Classifier], train: RowIndices, test: RowIndices, full: Bool, fold: Int?,
    size: ((Int, FittedPipeline) -> Int?)? = nil, presorted: FoldShared<FeaturePresort?>? = nil
  ) throws(ModelFailure) -> ConfigurationScores {
    let training = GatheredRows(dataset, rows: train)
    let labels = training.labels
    let testX = dataset.x.selecting(rows: test)
    let testLabels = test.gathering(dataset.labels)
    var fitNanoseconds: UInt64 = 0
    var predictNanoseconds: UInt64 = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let (preprocessing, prepared) = fitPreprocessing(consume training)
    try checkPrepared(preprocessing, prepared, rawRows: train, model: model, fold: fold)
    let preparedTest = preprocessing.transform(testX)
    fitNanoseconds += DispatchTime.now().uptimeNanoseconds - start
    var result = ConfigurationScores(
      logLoss: [], scores: full ? [] : nil, calibration: full ? [] : nil, sizeBytes: [], fitSeconds: 0,
      predictSeconds: 0)
    func score(_ probabilities: Matrix) { Self.record(probabilities, labels: testLabels, full: full, into: &result) }
    // Configurations share work when every class trains (`fitPresentClasses` is then a plain fit).
    let classCount = dataset.classes.count
    var present = [Bool](repeating: false, count: classCount)
    for label in labels { present[label] = true }
    if present.allSatisfy({ $0 }) && prepared.rows > 0 {
      // The fits serve both the scores and the Core ML sizes.
      let sharedStart = DispatchTime.now().uptimeNanoseconds
      var waited: Int64 = 0
      let fitted: [any FittedClassifier]
      if let presorted {
        (fitted, waited) = try fits(
          of: configurations, train: train, gathered: prepared, labels: labels, model: model, fold: fold,
          presorted: presorted)
      } else {
        fitted = try fits(of: configurations, on: prepared, labels: labels, model: model, fold: fold)
      }
      let all = Self.predictTogether(fitted, preparedTest)
      fitNanoseconds += UInt64(max(0, Int64(DispatchTime.now().uptimeNanoseconds - sharedStart) - waited))
      for probabilities in all {
        try checkProbabilities(probabilities, testRows: test, model: model, fold: fold)
        score(probabilities)
      }
      result.sizeBytes = fitted.enumerated().map { index, classifier in
        size?(index, FittedPipeline(preprocessing: preprocessing, classifier: classifier))
      }
    } else {
      presorted?.done()
      for (index, configuration) in configurations.enumerated() {
        let fitStart = DispatchTime.now().uptimeNanoseconds
        let classifier: any FittedClassifier
        do {
          classifier = try configuration.fitPresentClasses(prepared, labels: labels, classCount: classCount)
        } catch {
          throw ModelFailure(label: model.label, fold: fold, error: error, location: model.location)
        }
        let fitEnd = DispatchTime.now().uptimeNanoseconds
        let probabilities = classifier.predictProbabilities(preparedTest)
        let predictEnd = DispatchTime.now().uptimeNanoseconds
        fitNanoseconds += fitEnd - fitStart
        predictNanoseconds += predictEnd - fitEnd
        try checkProbabilities(probabilities, testRows: test, model: model, fold: fold)
        score(probabilities)
        result.sizeBytes.append(size?(index, FittedPipeline(preprocessing: preprocessing, classifier: classifier)))
      }
    }
    result.fitSeconds = Double(fitNanoseconds) / 1e9
    result.predictSeconds = Double(predictNanoseconds) / 1e9
    return result
  }

  /// Every configuration fitted on `x`, exactly as each one's own fit: together (`Classifier.sharedFits`) when the
  /// model's descriptor says its configurations share work (`SharedWork.configurations`), else one by one; a
  /// failure names the model and fold.
  /// - Precondition: every class occurs in `labels`.
  /// - Parameter forExport: the fits serve their exported files alone (`Classifier.exportFits`).
  func fits(
    of configurations: [any Classifier], on x: Matrix, labels: [Int], model: ModelSpec, fold: Int?,
    forExport: Bool = false
  ) throws(ModelFailure) -> [any FittedClassifier] {
    let classCount = dataset.classes.count
    do {
      guard model.descriptor.traits.sharedWork.contains(.configurations) else {
        var fits: [any FittedClassifier] = []
        for configuration in configurations {
          fits.append(try configuration.fit(x, labels: labels, classCount: classCount))
        }
        return fits
      }
      return try Self.sharedFits(configurations, x, labels: labels, classCount: classCount, forExport: forExport)
    } catch {
      throw ModelFailure(label: model.label, fold: fold, error: error, location: model.location)
    }
  }

  /// The Core ML size of each configuration fitted on `x`: a size budget needs each configuration's own
  /// fitted model, the file it would ship as.
  /// - Precondition: every class occurs in `labels`.
  func sizes(
    of configurations: [any Classifier], fittedOn x: Matrix, labels: [Int], preprocessing: FittedPreprocessing,
    size: (Int, FittedPipeline) -> Int?, model: ModelSpec, fold: Int?
  ) throws(ModelFailure) -> [Int?] {
    try fits(of: configurations, on: x, labels: labels, model: model, fold: fold, forExport: true).enumerated().map {
      size($0, FittedPipeline(preprocessing: preprocessing, classifier: $1))
    }
  }

  /// Every configuration fitted on all rows, sharing one preprocessing fit and the work `sharedFits` shares:
  /// a tuned model's candidates for shipping.
  func fitAllRows(_ model: ModelSpec, configurations: [any Classifier]) throws(ModelFailure) -> [FittedPipeline] {
    let training = GatheredRows(allOf: dataset)
    let (preprocessing, prepared) = fitPreprocessing(training)
    try checkPrepared(preprocessing, prepared, rawRows: training.rows, model: model, fold: nil)
    return try fits(of: configurations, on: prepared, labels: training.labels, model: model, fold: nil).map {
      FittedPipeline(preprocessing: preprocessing, classifier: $0)
    }
  }

  /// Adds one configuration's scores on a split's test rows: every measure on outer folds, log-loss alone on
  /// inner ones.
  static func record(_ probabilities: Matrix, labels: [Int], full: Bool, into result: inout ConfigurationScores) {
    if full {
      let scores = FoldScores(probabilities: probabilities, labels: labels)
      result.scores!.append(scores)
      result.calibration!.append(FoldCalibration(probabilities: probabilities, labels: labels))
      result.logLoss.append(scores.logLoss)
    } else {
      result.logLoss.append(LogLoss.evaluate(probabilities, labels: labels).value)
    }
  }

  /// Opens the configurations' common type to call its `sharedFits`, or its `exportFits` for fits that serve their
  /// exported files alone.
  static func sharedFits(
    _ configurations: [any Classifier], _ x: Matrix, labels: [Int], classCount: Int, forExport: Bool = false
  ) throws(ModelError) -> [any FittedClassifier] {
    func shared<C: Classifier>(_ first: C) throws(ModelError) -> [any FittedClassifier] {
      let typed = configurations.map { $0 as! C }
      return forExport
        ? try C.exportFits(typed, x, labels: labels, classCount: classCount)
        : try C.sharedFits(typed, x, labels: labels, classCount: classCount)
    }
    return try shared(configurations[0])
  }

  /// Opens the models' common type to call its `predictTogether`.
  static func predictTogether(_ models: [any FittedClassifier], _ x: Matrix) -> [Matrix] {
    func together<F: FittedClassifier>(_ first: F) -> [Matrix] { F.predictTogether(models.map { $0 as! F }, x) }
    return models.isEmpty ? [] : together(models[0])
  }

}

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
  func evaluate(
    _ model: ModelSpec, configurations: [any Classifier], train: RowIndices, test: RowIndices, full: Bool, fold: Int?,
    size: ((Int, FittedPipeline) -> Int?)? = nil
  ) throws(ModelFailure) -> ConfigurationScores {
    let training = GatheredRows(dataset, rows: train)
    let testX = dataset.x.selecting(rows: test)
    let testLabels = test.map { dataset.labels[$0] }
    var fitNanoseconds: UInt64 = 0
    var predictNanoseconds: UInt64 = 0
    let start = DispatchTime.now().uptimeNanoseconds
    let (preprocessing, prepared) = fitPreprocessing(training)
    try checkPrepared(preprocessing, prepared, raw: training.x, model: model, fold: fold)
    let preparedTest = preprocessing.transform(testX)
    fitNanoseconds += DispatchTime.now().uptimeNanoseconds - start
    var result = ConfigurationScores(
      logLoss: [], scores: full ? [] : nil, calibration: full ? [] : nil, sizeBytes: [], fitSeconds: 0,
      predictSeconds: 0)
    func score(_ probabilities: Matrix) { Self.record(probabilities, labels: testLabels, full: full, into: &result) }
    // Configurations share work when every class trains (`fitPresentClasses` is then a plain fit).
    let classCount = dataset.classes.count
    var present = [Bool](repeating: false, count: classCount)
    for label in training.labels { present[label] = true }
    if present.allSatisfy({ $0 }) && training.x.rows > 0 {
      let sharedStart = DispatchTime.now().uptimeNanoseconds
      let all: [Matrix]
      do {
        all = try Self.sharedPredictions(
          configurations, prepared, labels: training.labels, classCount: classCount, test: preparedTest)
      } catch {
        throw ModelFailure(label: model.label, fold: fold, error: error, location: model.location)
      }
      fitNanoseconds += DispatchTime.now().uptimeNanoseconds - sharedStart
      for probabilities in all {
        try checkProbabilities(probabilities, testRows: test, model: model, fold: fold)
        score(probabilities)
      }
      result.sizeBytes =
        try size.map { size throws(ModelFailure) in
          try sizes(
            of: configurations, fittedOn: prepared, labels: training.labels, preprocessing: preprocessing, size: size,
            model: model, fold: fold)
        } ?? [Int?](repeating: nil, count: configurations.count)
    } else {
      for (index, configuration) in configurations.enumerated() {
        let fitStart = DispatchTime.now().uptimeNanoseconds
        let classifier: any FittedClassifier
        do {
          classifier = try configuration.fitPresentClasses(prepared, labels: training.labels, classCount: classCount)
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

  /// The Core ML size of each configuration fitted on `x`: a size budget needs each configuration's own
  /// fitted model, the file it would ship as, and `sharedFits` builds exactly that.
  /// - Precondition: every class occurs in `labels`.
  func sizes(
    of configurations: [any Classifier], fittedOn x: Matrix, labels: [Int], preprocessing: FittedPreprocessing,
    size: (Int, FittedPipeline) -> Int?, model: ModelSpec, fold: Int?
  ) throws(ModelFailure) -> [Int?] {
    let fits: [any FittedClassifier]
    do {
      fits = try Self.sharedFits(configurations, x, labels: labels, classCount: dataset.classes.count)
    } catch {
      throw ModelFailure(label: model.label, fold: fold, error: error, location: model.location)
    }
    return fits.enumerated().map { size($0, FittedPipeline(preprocessing: preprocessing, classifier: $1)) }
  }

  /// Every configuration fitted on all rows, sharing one preprocessing fit and the work `sharedFits` shares:
  /// a tuned model's candidates for shipping.
  func fitAllRows(_ model: ModelSpec, configurations: [any Classifier]) throws(ModelFailure) -> [FittedPipeline] {
    let training = GatheredRows(allOf: dataset)
    let (preprocessing, prepared) = fitPreprocessing(training)
    try checkPrepared(preprocessing, prepared, raw: training.x, model: model, fold: nil)
    let fits: [any FittedClassifier]
    do {
      fits = try Self.sharedFits(configurations, prepared, labels: training.labels, classCount: dataset.classes.count)
    } catch {
      throw ModelFailure(label: model.label, fold: nil, error: error, location: model.location)
    }
    return fits.map { FittedPipeline(preprocessing: preprocessing, classifier: $0) }
  }

  /// Adds one configuration's scores on a split's test rows: every measure on outer folds, log-loss alone on
  /// inner ones.
  static func record(_ probabilities: Matrix, labels: [Int], full: Bool, into result: inout ConfigurationScores) {
    if full {
      let scores = FoldScores(probabilities: probabilities, labels: labels)
      result.scores!.append(scores)
      result.calibration!.append(CalibrationBins(probabilities: probabilities, labels: labels))
      result.logLoss.append(scores.logLoss)
    } else {
      result.logLoss.append(LogLoss.evaluate(probabilities, labels: labels).value)
    }
  }

  /// Opens the configurations' common type to call its `sharedFits`.
  static func sharedFits(_ configurations: [any Classifier], _ x: Matrix, labels: [Int], classCount: Int)
    throws(ModelError) -> [any FittedClassifier]
  {
    func shared<C: Classifier>(_ first: C) throws(ModelError) -> [any FittedClassifier] {
      try C.sharedFits(configurations.map { $0 as! C }, x, labels: labels, classCount: classCount)
    }
    return try shared(configurations[0])
  }

  /// Opens the configurations' common type to call its `sharedPredictions`.
  static func sharedPredictions(
    _ configurations: [any Classifier], _ x: Matrix, labels: [Int], classCount: Int, test: Matrix
  ) throws(ModelError) -> [Matrix] {
    func shared<C: Classifier>(_ first: C) throws(ModelError) -> [Matrix] {
      try C.sharedPredictions(configurations.map { $0 as! C }, x, labels: labels, classCount: classCount, test: test)
    }
    return try shared(configurations[0])
  }
}

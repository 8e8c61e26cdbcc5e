import BenchbookData
import BenchbookModels
import BenchbookSpec
import Foundation

/// The one workhorse: fit one model on one fold's training rows and score it
/// on the fold's test rows (scikit-learn's `_fit_and_score`).
public struct FoldEvaluator: Sendable {
  public let dataset: Dataset
  public let preprocessing: [PreprocessingStep]
  /// Whether a fit on any subset of the rows sees them unchanged and accepts them: no preprocessing, every value
  /// finite, and every column's squares, summed over every row in order, finite. Each partial sum over a subset
  /// is at most the whole's, so such a fit need not check its rows again (`checkPrepared`), and work shared
  /// across splits relies on it.
  let fitsRowsAsTheyAre: Bool

  public init(dataset: Dataset, preprocessing: [PreprocessingStep]) {
    self.dataset = dataset
    self.preprocessing = preprocessing
    fitsRowsAsTheyAre =
      preprocessing.isEmpty && dataset.x.values.allSatisfy(\.isFinite)
      && Self.columnSquares(dataset.x).allSatisfy(\.isFinite)
  }

  /// What one model did on one fold.
  public struct Outcome: Sendable, Codable {
    public var scores: FoldScores
    /// Preprocessing fit and transform of the training rows, plus the model's fit.
    public var fitSeconds: Double
    /// Preprocessing of the test rows, plus prediction.
    public var predictSeconds: Double
    /// The rows the fold's preprocessing was fitted on, as the fitted pipeline recorded them.
    public var preprocessingFittedOn: RowSetFingerprint
    /// Predicted probability against outcome: the reliability diagram's bins and the calibration measures' points.
    public var calibration: FoldCalibration
  }

  public func evaluate(_ model: ModelSpec, on fold: Fold) throws(ModelFailure) -> Outcome {
    if let classifier = inPlaceFitter(model) { return try evaluate(model, on: fold, inPlace: classifier) }
    // The training rows' copy lives only through the fit: a model keeps what it needs, and with two
    // folds in flight the copy would otherwise sit beside the other fold's through a long prediction.
    let pipeline: FittedPipeline
    let fitSeconds: Double
    do {
      let training = GatheredRows(dataset, rows: fold.train, roomForColumns: model.descriptor.traits.appendedColumns)
      let fitStart = DispatchTime.now().uptimeNanoseconds
      pipeline = try fit(model, consume training, fold: fold.index)
      fitSeconds = Double(DispatchTime.now().uptimeNanoseconds - fitStart) / 1e9
    }
    return try score(pipeline, on: fold, fitSeconds: fitSeconds, model: model)
  }

  /// Scores a fitted pipeline on the fold's test rows.
  func score(_ pipeline: FittedPipeline, on fold: Fold, fitSeconds: Double, model: ModelSpec) throws(ModelFailure)
    -> Outcome
  {
    let testX = dataset.x.selecting(rows: fold.test)
    let testLabels = fold.test.gathering(dataset.labels)
    let predictStart = DispatchTime.now().uptimeNanoseconds
    let probabilities = pipeline.predictProbabilities(testX)
    let predictEnd = DispatchTime.now().uptimeNanoseconds
    try checkProbabilities(probabilities, testRows: fold.test, model: model, fold: fold.index)
    return Outcome(
      scores: FoldScores(probabilities: probabilities, labels: testLabels),
      fitSeconds: fitSeconds,
      predictSeconds: Double(predictEnd - predictStart) / 1e9,
      preprocessingFittedOn: pipeline.preprocessing.fittedOn,
      calibration: FoldCalibration(probabilities: probabilities, labels: testLabels))
  }

  /// A fold's rows gathered into matrices: the one copy of data a fold makes.
  public struct FoldData: Sendable {
    public var training: GatheredRows
    public var testX: Matrix
    public var testLabels: [Int]
  }

  public func gather(_ fold: Fold) -> FoldData {
    FoldData(
      training: GatheredRows(dataset, rows: fold.train),
      testX: dataset.x.selecting(rows: fold.test), testLabels: fold.test.gathering(dataset.labels))
  }

  /// Fits preprocessing, then the model, on the given training rows.
  /// - Parameter fold: the fold being fitted, or `nil` for all rows (named in errors).
  /// - Parameter training: consumed; handed its last reference, the model may free the rows mid-fit.
  public func fit(_ model: ModelSpec, _ training: consuming GatheredRows, fold: Int?) throws(ModelFailure)
    -> FittedPipeline
  {
    // A planted slowdown (`BENCHBOOK_TEST_REPEAT_FIT`, tests only) repeats the whole fit.
    for _ in 1..<FitRepeat.fitsNow(for: model.label) { _ = try fitOnce(model, copy training, fold: fold) }
    return try fitOnce(model, training, fold: fold)
  }

  private func fitOnce(_ model: ModelSpec, _ training: consuming GatheredRows, fold: Int?) throws(ModelFailure)
    -> FittedPipeline
  {
    let labels = training.labels
    let rows = training.rows
    // Handed the last reference to the gathered rows, preprocessing transforms them in place and the model
    // holds the only copy (without preprocessing `prepared` is the gathered matrix itself).
    let (preprocessing, prepared) = fitPreprocessing(consume training)
    try checkPrepared(preprocessing, prepared, rawRows: rows, model: model, fold: fold)
    do {
      let classifier = try model.classifier.fitPresentClasses(
        consume prepared, labels: labels, classCount: dataset.classes.count)
      return FittedPipeline(preprocessing: preprocessing, classifier: classifier)
    } catch {
      throw ModelFailure(label: model.label, fold: fold, error: error, location: model.location)
    }
  }

  /// Fits preprocessing and model on every row, as one would before shipping it.
  public func fitAllRows(_ model: ModelSpec) throws(ModelFailure) -> FittedPipeline {
    if let classifier = inPlaceFitter(model) { return try fitAllRows(model, inPlace: classifier) }
    return try fit(
      model, GatheredRows(allOf: dataset, roomForColumns: model.descriptor.traits.appendedColumns), fold: nil)
  }

  /// Fits the spec's preprocessing on `rows` (a training fold) and transforms them.
  ///
  /// The fitted pipeline records the rows it was fitted on (`fittedOn`), which
  /// the leak audit compares with the fold plan.
  /// - Parameter rows: consumed; handed the last reference to gathered rows, standardisation rewrites them in place,
  ///   and every matrix a step makes keeps their room for the fit's columns (`GatheredRows.roomForColumns`).
  public func fitPreprocessing(_ rows: consuming GatheredRows) -> (FittedPreprocessing, Matrix) {
    var steps: [FittedPreprocessing.Step] = []
    let fittedOn = rows.fingerprint
    let room = rows.roomForColumns
    var sharesDatasetMatrix = rows.sharesDatasetMatrix
    var current = rows.x
    _ = consume rows
    for step in preprocessing {
      switch step.kind {
      case .standardize:
        var scaler = StandardScaler().fit(current)
        if step.columns == .numeric { scaler = scaler.leavingUnscaled(categoricalColumns) }
        // The dataset's own matrix is copied before it is rewritten, as value semantics would, with the fit's room.
        if sharesDatasetMatrix {
          current = current.selecting(rows: RowIndices(all: current.rows), roomForColumns: room)
        }
        sharesDatasetMatrix = false
        scaler.transform(inPlace: &current)
        steps.append(.standardize(scaler))
      case .impute:
        let imputer = SimpleImputer(dataset: dataset.features).fit(current)
        // A fill the fold could not compute leaves the rows as they are: `checkPrepared` stops the fit there.
        if imputer.unfitted == nil {
          current = imputer.transform(current, roomForColumns: room)
          sharesDatasetMatrix = false
        }
        steps.append(.impute(imputer))
      }
    }
    return (FittedPreprocessing(steps: steps, fittedOn: fittedOn), current)
  }
}

extension FoldEvaluator {
  /// The one-hot columns of categorical features, which `standardize: {columns: numeric}` leaves as they are.
  var categoricalColumns: [Int] {
    precondition(
      dataset.features.map(\.columns.count).reduce(0, +) == dataset.x.columns,
      "the features' columns do not cover the design matrix")
    return dataset.features.filter { $0.type == .categorical }.flatMap { Array($0.columns) }
  }
}

/// Preprocessing and a classifier fitted together: what an app would ship.
public struct FittedPipeline: Sendable {
  public var preprocessing: FittedPreprocessing
  public var classifier: any FittedClassifier

  /// Class probabilities for raw (encoded, unscaled) rows.
  public func predictProbabilities(_ x: Matrix) -> Matrix {
    classifier.predictProbabilities(preprocessing.transform(x))
  }
}

/// Preprocessing fitted on one training fold, applied unchanged to its test rows.
public struct FittedPreprocessing: Sendable {
  /// One fitted step, in spec order.
  public enum Step: Sendable, Hashable {
    case standardize(FittedStandardScaler)
    case impute(FittedImputer)

    public func transform(_ x: Matrix) -> Matrix {
      switch self {
      case .standardize(let scaler): scaler.transform(x)
      case .impute(let imputer): imputer.transform(x)
      }
    }
  }

  public var steps: [Step]
  /// The rows every step was fitted on (all steps of a pipeline see the same rows).
  public var fittedOn: RowSetFingerprint

  public init(steps: [Step], fittedOn: RowSetFingerprint) {
    self.steps = steps
    self.fittedOn = fittedOn
  }

  /// A pipeline of standardisations only.
  public init(scalers: [FittedStandardScaler], fittedOn: RowSetFingerprint) {
    self.init(steps: scalers.map { .standardize($0) }, fittedOn: fittedOn)
  }

  /// The standardisations, in order.
  public var scalers: [FittedStandardScaler] {
    steps.compactMap { if case .standardize(let scaler) = $0 { scaler } else { nil } }
  }

  /// The imputation, when the spec imputes.
  public var imputer: FittedImputer? {
    steps.lazy.compactMap { if case .impute(let imputer) = $0 { imputer } else { nil } }.first
  }

  public func transform(_ x: Matrix) -> Matrix {
    steps.reduce(x) { $1.transform($0) }
  }
}

/// A model that could not be fitted, with the model and fold it happened on.
public struct ModelFailure: Error, Sendable, CustomStringConvertible {
  public var label: String
  /// 0-based, as results.json counts; `nil` for the fit on all rows.
  public var fold: Int?
  public var error: ModelError
  /// Where the spec declares the model, so the message points at the setting to change.
  public var location: SourceLocation?

  public init(label: String, fold: Int?, error: ModelError, location: SourceLocation? = nil) {
    self.label = label
    self.fold = fold
    self.error = error
    self.location = location
  }

  /// Folds are counted from 1 here, as the report counts them.
  public var description: String {
    let place = fold.map { "fold \($0 + 1)" } ?? "all rows"
    let prefix = location.map { "\($0): " } ?? ""
    return "\(prefix)model \(label) could not be fitted (\(place)): \(error.message)"
  }
}

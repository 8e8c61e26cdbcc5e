import BenchbookData
import BenchbookModels
import BenchbookSpec

/// The rows the statistical screens (suspect-leak) work on: the largest training fold of the spec's plan when it
/// has at most `wholeFoldRows`, otherwise half of it, at most `audit.screen_rows` rows, drawn with a fixed seed;
/// and an inner stratified k-fold over them. The
/// fold's test rows are never touched, and the sample keeps the screens cheap
/// on large data; the same spec and data always give the same sample.
public struct ScreenSample: Sendable {
  /// The sampled rows as a small dataset of their own.
  public let dataset: Dataset
  /// Indices of the sampled rows in the full dataset, ascending.
  public let rows: [Int]
  /// The plan fold whose training rows were sampled.
  public let sourceFold: Int
  /// How many training rows that fold has: more than `rows.count` when the screens run on a sample.
  public let sampledFrom: Int
  /// Inner cross-validation folds, in indices of `dataset`.
  public let folds: [Fold]

  public static let innerFolds = 5
  /// A fold of at most this many training rows is screened whole; a larger one on half its rows (at most
  /// `audit.screen_rows`): the screens then cost about a fifth of the cross-validation they audit (their five inner
  /// fits on four fifths of half a fold against ten fits on whole folds) instead of nearly half, while still
  /// screening on thousands of rows.
  public static let wholeFoldRows = 1_000
  /// The drop-column screen's budget: at most this many features are refitted (on every inner fold), the
  /// ones whose neutralisation costs the full model most (`DropColumnScreen`).
  public static let dropColumnFeatures = 16
  static let sampleSeed: UInt64 = 0x5C12_EE75
  static let foldSeed: UInt64 = 0xF01D_5EED

  /// The sample, or why the screens cannot run.
  public static func make(_ context: AuditContext) -> Result<ScreenSample, ScreenUnavailable> {
    let plan = context.plan
    guard let largest = plan.folds.indices.max(by: { plan.folds[$0].train.count < plan.folds[$1].train.count }),
      let source = plan.folds.indices.first(where: { plan.folds[$0].train.count == plan.folds[largest].train.count })
    else { return .failure(ScreenUnavailable(reason: "the plan has no folds")) }
    var rows = plan.folds[source].train.sorted()
    let sampledFrom = rows.count
    let limit = min(context.spec.audit.screenRows, max(wholeFoldRows, rows.count / 2))
    if rows.count > limit {
      var generator = SeededGenerator(seed: sampleSeed)
      for i in 0..<limit {
        let j = i + generator.uniform(below: rows.count - i)
        rows.swapAt(i, j)
      }
      rows = Array(rows[..<limit]).sorted()
    }
    let full = context.dataset
    let labels = rows.map { full.labels[$0] }
    guard Set(labels).count >= 2 else {
      return .failure(ScreenUnavailable(reason: "the screened training rows hold a single class"))
    }
    guard rows.count >= 2 * innerFolds else {
      return .failure(
        ScreenUnavailable(reason: "\(rows.count) training rows are too few for \(innerFolds)-fold screens"))
    }
    let dataset = Dataset(
      x: full.x.selecting(rows: rows), columnNames: full.columnNames, features: full.features, labels: labels,
      classes: full.classes, time: nil,
      lineNumbers: LineNumbers(rows.lazy.map { full.lineNumbers.indices.contains($0) ? full.lineNumbers[$0] : 0 }),
      provenance: full.provenance)
    let inner = try? StratifiedKFold(folds: innerFolds, shuffle: true, seed: foldSeed).plan(
      rowCount: rows.count, labels: labels, time: nil, specPath: context.spec.path)
    guard let inner else { return .failure(ScreenUnavailable(reason: "inner folds cannot be made")) }
    return .success(
      ScreenSample(
        dataset: dataset, rows: rows, sourceFold: plan.folds[source].index, sampledFrom: sampledFrom,
        folds: inner.folds))
  }

  /// What the screens ran on, as findings and notes say it (`sampleWords(rows:sampledFrom:sourceFold:)`).
  var sampleWords: String { Self.sampleWords(rows: rows.count, sampledFrom: sampledFrom, sourceFold: sourceFold) }

  /// "a seeded sample of 20,000 of the 294,612 training rows of fold 7", or "1,316 training rows of fold 1" when the
  /// fold was screened whole (or a record written before `sampled_from` was kept says nothing of a sample); the
  /// check's note, its findings' evidence and the report's screen table all say it in these words.
  public static func sampleWords(rows: Int, sampledFrom: Int?, sourceFold: Int) -> String {
    let fold = "training rows of fold \(sourceFold + 1)"
    guard let sampledFrom, sampledFrom > rows else { return "\(Format.count(rows)) \(fold)" }
    return "a seeded sample of \(Format.count(rows)) of the \(Format.count(sampledFrom)) \(fold)"
  }

  public struct ScreenUnavailable: Error, Sendable {
    public var reason: String
  }

  /// The sample with only `columns` (a feature alone), or without them (drop-column); `nil` when none are left.
  /// `columns` ascend and hold whole features, whose column ranges are renumbered to match (preprocessing of
  /// the numeric features only reads them).
  func keeping(_ columns: [Int]) -> Dataset? {
    guard !columns.isEmpty else { return nil }
    var copy = dataset
    copy.x = dataset.x.selecting(columns: columns)
    copy.columnNames = columns.map { dataset.columnNames[$0] }
    copy.features = dataset.features.compactMap { feature in
      guard let first = columns.firstIndex(of: feature.columns.lowerBound) else { return nil }
      var kept = feature
      kept.columns = first..<(first + feature.columns.count)
      return kept
    }
    return copy
  }

  /// Columns of the sample without feature `index`'s.
  func columns(without index: Int) -> [Int] {
    let dropped = dataset.features[index].columns
    return (0..<dataset.x.columns).filter { !dropped.contains($0) }
  }

  /// Log-loss of predicting each inner training fold's class shares, per inner fold.
  func nullLogLoss() -> [Double] {
    let classCount = dataset.classes.count
    return folds.map { fold in
      var counts = [Double](repeating: 0, count: classCount)
      fold.train.forEachRow { counts[dataset.labels[$0]] += 1 }
      let total = counts.reduce(0, +)
      var probabilities = Matrix(rows: fold.test.count, columns: classCount)
      for r in 0..<fold.test.count {
        for c in 0..<classCount { probabilities[r, c] = counts[c] / total }
      }
      return LogLoss.evaluate(probabilities, labels: fold.test.gathering(dataset.labels)).value
    }
  }

  /// How well feature `index` alone separates the classes on inner fold `fold`, scored by
  /// `singleFeatureModels[scorer]`: the ROC AUC for two classes; for more, the worst class's
  /// one-vs-rest AUC, since a feature that gives the answer away separates every class, while a
  /// strong honest one (iris's petal width) separates some classes better than others.
  /// `nil` when the model cannot be fitted or no class has an AUC on the fold.
  func singleFeatureAUC(feature index: Int, fold: Int, scorer: Int) -> SuspectLeakCheck.AUCEstimate? {
    guard let alone = keeping(Array(dataset.features[index].columns)) else { return nil }
    var (model, preprocessing) = Self.singleFeatureModels[scorer]
    // An imputed feature is scored as the spec's models see it: filled on the training fold, with its
    // missing indicator when the spec asks for one, so missingness that gives the answer away counts.
    if dataset.features[index].imputation != nil { preprocessing.insert(PreprocessingStep(.impute), at: 0) }
    let evaluator = FoldEvaluator(dataset: alone, preprocessing: preprocessing)
    let training = GatheredRows(alone, rows: folds[fold].train)
    let trainingLabels = training.labels
    let (pipeline, prepared) = evaluator.fitPreprocessing(consume training)
    let classCount = alone.classes.count
    let test = folds[fold].test
    let testX = pipeline.transform(alone.x.selecting(rows: test))
    let probabilities: Matrix
    if scorer == Self.logisticScorer && prepared.columns == 1 {
      // The same model on one column, fitted by Newton's method on its distinct values.
      guard
        let fitted = Self.oneColumnLogistic.fit(
          values: prepared.values, labels: trainingLabels, classCount: classCount)
      else { return nil }
      probabilities = fitted.probabilities(testX.values)
    } else if scorer == Self.logisticScorer,
      let groups = GroupedLogistic.Groups(prepared, atMost: prepared.rows / Self.rowsPerGroup)
    {
      // A category's one-hot columns: the same model fitted on their distinct rows' class counts.
      guard let fitted = Self.groupedLogistic.fit(groups, labels: trainingLabels, classCount: classCount)
      else { return nil }
      probabilities = fitted.predictProbabilities(testX)
    } else {
      guard
        let fitted = try? model.classifier.fitPresentClasses(prepared, labels: trainingLabels, classCount: classCount)
      else { return nil }
      probabilities = fitted.predictProbabilities(testX)
    }
    let labels = test.gathering(alone.labels)
    let classes = classCount == 2 ? [1] : Array(0..<classCount)
    let logLoss = LogLoss.evaluate(probabilities, labels: labels).value
    return classes.compactMap { c -> SuspectLeakCheck.AUCEstimate? in
      let positive = labels.map { $0 == c }
      guard let auc = ROCAUC.binary(scores: probabilities.column(c), positive: positive) else { return nil }
      let positives = positive.filter { $0 }.count
      return SuspectLeakCheck.AUCEstimate(
        auc: auc, positives: positives, negatives: positive.count - positives, logLoss: logLoss)
    }.min { $0.auc < $1.auc }
  }

  /// The models that score one feature alone, each with its preprocessing: a standardised logistic
  /// regression for a steady (monotonic) effect or a category's own rate, and a tree deep enough for a
  /// threshold or a few bands, shallow enough not to memorise noise. The feature's AUC is the better of
  /// the two.
  /// The drop-column screen's own model when no spec model's probabilities stay above 0 on every inner fold: a
  /// standardised logistic regression, whose log-loss no single row can swing by tens of nats.
  static let screeningModel: (model: ModelSpec, preprocessing: [PreprocessingStep]) = (
    ModelSpec(
      label: "screening logistic regression", classifier: LogisticRegression(tol: screeningTolerance),
      location: SourceLocation(file: "audit")), [.standardize]
  )

  /// The audit's own logistic regressions stop when the gradient is below 1e-6 (scikit-learn's default is 1e-4),
  /// not at the spec models' 1e-12: a screen compares AUCs and shares of the null log-loss at two or three digits,
  /// which the last digits of the optimum do not move, and a loose fit takes a fraction of the iterations.
  static let screeningTolerance = 1e-6

  /// A spec model as the screens fit it (its full fits on the inner folds, and drop-column's refits): stopping at
  /// `screeningTolerance` when its fit stops at a tighter one (`ToleranceLoosening`; logistic regression's 1e-12).
  static func screening(_ model: ModelSpec) -> ModelSpec {
    guard let loosening = model.classifier as? any ToleranceLoosening else { return model }
    var screened = model
    screened.classifier = loosening.loosened(to: screeningTolerance)
    return screened
  }

  /// The logistic regression's place in `singleFeatureModels`. On a feature of one column (a number, a two-level
  /// category) it is fitted by `oneColumnLogistic`, the same objective solved by Newton's method on the column's
  /// distinct values (digits' pixels take 17), which is much cheaper than L-BFGS over every row, most of all on
  /// many single-feature fits.
  static let logisticScorer = 0
  static let oneColumnLogistic = OneColumnLogistic(C: 1, tol: 1e-8)
  /// On a feature of several columns with at most a quarter as many distinct rows as rows (a category's one-hot
  /// columns), the logistic regression is fitted by `groupedLogistic` on the distinct rows and their class
  /// counts, at the screens' tolerance.
  static let groupedLogistic = GroupedLogistic(C: 1, tol: screeningTolerance)
  static let rowsPerGroup = 4

  static let singleFeatureModels: [(model: ModelSpec, preprocessing: [PreprocessingStep])] = [
    (
      ModelSpec(
        label: "single-feature logistic regression", classifier: LogisticRegression(tol: screeningTolerance),
        location: SourceLocation(file: "audit")), [.standardize]
    ),
    (
      ModelSpec(
        label: "single-feature tree", classifier: DecisionTree(maxDepth: 4, minSamplesLeaf: 5),
        location: SourceLocation(file: "audit")), []
    ),
  ]
}

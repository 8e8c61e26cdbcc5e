import BenchbookData
import Foundation

/// Histogram gradient boosting: scikit-learn 1.9.1's `HistGradientBoostingClassifier(random_state=0)` with the
/// log loss.
///
/// Features are cut into at most `max_bins` bins (`FeatureBinning`); each iteration fits one tree on the
/// gradients and hessians of the loss (one tree for two classes, one per class otherwise), grown best-first on
/// histograms of the bins (`HistogramGrower`), its leaf values shrunk by the learning rate. The raw scores start
/// from scikit-learn's baseline (the log-odds, or the symmetric multinomial logit, of the class shares). Missing
/// values (NaN) are binned on their own and routed where training sent them, or, for a feature that had none,
/// to the child that saw more rows. A row goes left when `x <= threshold` on its raw double value.
///
/// Everything that decides near-ties is done in scikit-learn's order and precision: gradients and hessians in
/// float32, histogram sums in float64, the smaller child's histogram summed and its sibling's subtracted, and the
/// heap of Python's `heapq`. With `early_stopping` on (`auto`: above 10,000 rows), the validation rows are
/// those of scikit-learn's stratified `train_test_split`, drawn with the same `RandomState` draws from the seed it
/// derives from `random_state`, and the iterations stop when the validation loss has not improved by `tol` over
/// `n_iter_no_change` iterations. The one known difference is in the last bits: for three classes or more, the
/// baseline and the softmax use the C library's `exp` and `log` where NumPy uses its own vectorised ones (on the
/// goldens, probabilities differ by at most 2.3e-16; `Fixtures/make_hgb_goldens.py`).
///
/// Unlike scikit-learn, `random_state` defaults to 0 (Benchbook seeds everything), and `none` is not accepted.
/// `max_features` below 1 draws each split's features as scikit-learn does, from NumPy's `default_rng` (`PCG64`)
/// seeded from `random_state`. Not supported: categorical features (the design matrix is numeric;
/// categoricals arrive one-hot encoded), `class_weight`, monotonic and interaction constraints, `scoring` other
/// than the loss, and a `validation_fraction` of `none` or an integer count.
public struct HistGradientBoosting: Classifier, Hashable, Codable {
  /// scikit-learn's `early_stopping`.
  public enum EarlyStopping: String, Sendable, Hashable, Codable, CaseIterable {
    /// On when the training rows number more than 10,000.
    case auto
    case on = "true"
    case off = "false"
  }

  public var learningRate: Double
  public var maxIter: Int
  /// `nil`: no limit on leaves per tree.
  public var maxLeafNodes: Int?
  /// `nil`: no limit on depth (the root is depth 0).
  public var maxDepth: Int?
  public var minSamplesLeaf: Int
  public var l2Regularization: Double
  /// The share of features each split considers, in (0, 1].
  public var maxFeatures: Double
  /// Bins for non-missing values per feature, 2...255.
  public var maxBins: Int
  public var earlyStopping: EarlyStopping
  public var validationFraction: Double
  public var nIterNoChange: Int
  public var tol: Double
  /// Seeds NumPy's `RandomState` as scikit-learn's `random_state` does: it decides the validation rows and, above
  /// 200,000 rows, the rows the bins are learned from.
  public var randomState: Int

  /// Seeds NumPy's `RandomState` accepts.
  public static let randomStates = 0...Int(UInt32.max)

  public init(
    learningRate: Double = 0.1, maxIter: Int = 100, maxLeafNodes: Int? = 31, maxDepth: Int? = nil,
    minSamplesLeaf: Int = 20, l2Regularization: Double = 0, maxFeatures: Double = 1, maxBins: Int = 255,
    earlyStopping: EarlyStopping = .auto, validationFraction: Double = 0.1, nIterNoChange: Int = 10,
    tol: Double = 1e-7, randomState: Int = 0
  ) {
    precondition(learningRate > 0, "learning rate must be positive")
    precondition(maxIter >= 1, "max iter must be at least 1")
    precondition(maxLeafNodes.map { $0 >= 2 } ?? true, "max leaf nodes must be at least 2")
    precondition(maxDepth.map { $0 >= 1 } ?? true, "max depth must be at least 1")
    precondition(minSamplesLeaf >= 1, "min samples leaf must be at least 1")
    precondition(l2Regularization >= 0, "l2 regularization must not be negative")
    precondition(maxFeatures > 0 && maxFeatures <= 1, "max features must be in (0, 1]")
    precondition((2...255).contains(maxBins), "max bins must be in 2...255")
    precondition(validationFraction > 0 && validationFraction < 1, "validation fraction must be in (0, 1)")
    precondition(nIterNoChange >= 1, "n iter no change must be at least 1")
    precondition(tol >= 0, "tol must not be negative")
    precondition(Self.randomStates.contains(randomState), "random state must be in 0...2^32-1")
    self.learningRate = learningRate
    self.maxIter = maxIter
    self.maxLeafNodes = maxLeafNodes
    self.maxDepth = maxDepth
    self.minSamplesLeaf = minSamplesLeaf
    self.l2Regularization = l2Regularization
    self.maxFeatures = maxFeatures
    self.maxBins = maxBins
    self.earlyStopping = earlyStopping
    self.validationFraction = validationFraction
    self.nIterNoChange = nIterNoChange
    self.tol = tol
    self.randomState = randomState
  }

  public init(settings: inout SettingsReader) throws(SettingError) {
    learningRate = try settings.double(
      "learning_rate", default: 0.1, requirement: "positive", isValid: { $0 > 0 })
    maxIter = try settings.int("max_iter", default: 100, requirement: "at least 1") { $0 >= 1 }
    maxLeafNodes = try settings.optionalInt("max_leaf_nodes", default: 31, requirement: "none or at least 2") {
      $0 >= 2
    }
    maxDepth = try settings.optionalInt("max_depth", requirement: "none or at least 1") { $0 >= 1 }
    minSamplesLeaf = try settings.int("min_samples_leaf", default: 20, requirement: "at least 1") { $0 >= 1 }
    l2Regularization = try settings.double(
      "l2_regularization", default: 0, requirement: "at least 0", isValid: { $0 >= 0 })
    maxFeatures = try settings.double(
      "max_features", default: 1, requirement: "above 0 and at most 1", isValid: { $0 > 0 && $0 <= 1 })
    maxBins = try settings.int("max_bins", default: 255, requirement: "in 2...255") { (2...255).contains($0) }
    let stopping = try settings.choice(
      "early_stopping", options: EarlyStopping.allCases.map(\.rawValue), default: "auto")
    earlyStopping = EarlyStopping(rawValue: stopping)!
    validationFraction = try settings.double(
      "validation_fraction", default: 0.1, requirement: "between 0 and 1", isValid: { $0 > 0 && $0 < 1 })
    nIterNoChange = try settings.int("n_iter_no_change", default: 10, requirement: "at least 1") { $0 >= 1 }
    tol = try settings.double("tol", default: 1e-7, requirement: "at least 0", isValid: { $0 >= 0 })
    randomState = try settings.int(
      "random_state", default: 0, requirement: "0 to \(UInt32.max)", isValid: Self.randomStates.contains)
    try settings.finish(known: Self.settingsSchema.flatMap(\.spellings))
  }

  public static let settingsSchema: [SettingDescriptor] = [
    SettingDescriptor("learning_rate", type: .number, default: .double(0.1), searchable: true),
    SettingDescriptor("max_iter", type: .wholeNumber, default: .int(100), searchable: true),
    SettingDescriptor("max_leaf_nodes", type: .optionalWholeNumber, default: .int(31), searchable: true),
    SettingDescriptor("max_depth", type: .optionalWholeNumber, default: .none, searchable: true),
    SettingDescriptor("min_samples_leaf", type: .wholeNumber, default: .int(20), searchable: true),
    SettingDescriptor("l2_regularization", type: .number, default: .double(0), searchable: true),
    SettingDescriptor("max_features", type: .number, default: .double(1), searchable: true, alternative: .double(0.5)),
    SettingDescriptor("max_bins", type: .wholeNumber, default: .int(255), searchable: true, alternative: .int(63)),
    SettingDescriptor(
      "early_stopping", type: .word(EarlyStopping.allCases.map(\.rawValue)), default: .string("auto"),
      searchable: false),
    SettingDescriptor(
      "validation_fraction", type: .number, default: .double(0.1), searchable: false, alternative: .double(0.2)),
    SettingDescriptor("n_iter_no_change", type: .wholeNumber, default: .int(10), searchable: false),
    SettingDescriptor("tol", type: .number, default: .double(1e-7), searchable: false),
    // A seed picks the validation rows; searching over seeds would tune noise.
    SettingDescriptor("random_state", type: .wholeNumber, default: .int(0), searchable: false),
  ]

  public var parameters: [String: ParameterValue] {
    [
      "learning_rate": .double(learningRate), "max_iter": .int(maxIter),
      "max_leaf_nodes": maxLeafNodes.map { .int($0) } ?? .none, "max_depth": maxDepth.map { .int($0) } ?? .none,
      "min_samples_leaf": .int(minSamplesLeaf), "l2_regularization": .double(l2Regularization),
      "max_features": .double(maxFeatures), "max_bins": .int(maxBins),
      "early_stopping": .string(earlyStopping.rawValue), "validation_fraction": .double(validationFraction),
      "n_iter_no_change": .int(nIterNoChange), "tol": .double(tol), "random_state": .int(randomState),
    ]
  }

  /// Boosts `max_iter` iterations, or fewer when early stopping stops it. Throws when early stopping cannot
  /// split the rows as scikit-learn would (a class with one row, or fewer validation rows than classes).
  public func fit(_ x: consuming Matrix, labels: [Int], classCount: Int) throws(ModelError)
    -> FittedHistGradientBoosting
  {
    let x = x
    precondition(labels.count == x.rows, "one label per row")
    precondition(classCount >= 2, "at least two classes")
    let scoreCount = classCount == 2 ? 1 : classCount
    // `fit`: `_random_seed = rng.randint(np.iinfo(np.uint32).max, dtype="u8")`, then the same for the seed of
    // `default_rng` that draws the features of each split.
    var rng = MersenneTwister(seed: UInt32(randomState))
    let seed = UInt32(rng.integer(below: UInt64(UInt32.max)))
    var featureDraws = PCG64(seed: rng.integer(below: UInt64(UInt32.max)))

    let stopsEarly = earlyStopping == .auto ? x.rows > 10_000 : earlyStopping == .on
    let trainX: Matrix
    let trainLabels: [Int]
    var validationX: Matrix?
    var validationLabels: [Int] = []
    if stopsEarly {
      guard
        let (train, test) = StratifiedValidationSplit.split(
          labels: labels, classCount: classCount, testFraction: validationFraction, seed: seed)
      else {
        throw ModelError(
          "histogram gradient boosting: early stopping needs at least 2 rows of every class and as many "
            + "validation and training rows as classes")
      }
      trainX = x.selecting(rows: train)
      trainLabels = train.map { labels[$0] }
      validationX = x.selecting(rows: test)
      validationLabels = test.map { labels[$0] }
    } else {
      trainX = x
      trainLabels = labels
    }

    let binning = FeatureBinning(trainX, maxBins: maxBins, seed: seed)
    let binned = binning.transform(trainX)
    let n = trainX.rows
    let missingBin = UInt8(maxBins)
    let hasMissing = (0..<trainX.columns).map { f in binned[(f * n)..<((f + 1) * n)].contains(missingBin) }
    let grower = HistogramGrower(
      binned: binned, rowCount: n, featureCount: trainX.columns, binCount: maxBins + 1,
      nonMissingBinCounts: binning.nonMissingBinCounts, hasMissingValues: hasMissing,
      thresholds: binning.thresholds, maxLeafNodes: maxLeafNodes, maxDepth: maxDepth,
      minSamplesLeaf: minSamplesLeaf, l2Regularization: l2Regularization, shrinkage: learningRate,
      maxFeatures: maxFeatures)

    let baseline = LogLossBoosting.baseline(labels: trainLabels, classCount: classCount)
    // Raw scores, score-major (scikit-learn's Fortran-ordered `raw_predictions`).
    var raw = [Double](repeating: 0, count: n * scoreCount)
    for k in 0..<scoreCount { for i in 0..<n { raw[k * n + i] = baseline[k] } }
    var gradients = [Float](repeating: 0, count: n * scoreCount)
    var hessians = [Float](repeating: 0, count: n * scoreCount)

    let validationBinned = validationX.map(binning.transform)
    let validationCount = validationX?.rows ?? 0
    var validationRaw = [Double](repeating: 0, count: validationCount * scoreCount)
    for k in 0..<scoreCount { for i in 0..<validationCount { validationRaw[k * validationCount + i] = baseline[k] } }
    var scores: [Double] = []
    if stopsEarly {
      scores.append(
        -LogLossBoosting.meanLoss(
          raw: validationRaw, labels: validationLabels, rows: validationCount, scoreCount: scoreCount))
    }

    var iterations: [[[HistogramGrower.Node]]] = []
    for _ in 0..<maxIter {
      LogLossBoosting.gradientsAndHessians(
        raw: raw, labels: trainLabels, rows: n, scoreCount: scoreCount, gradients: &gradients,
        hessians: &hessians)
      var trees: [[HistogramGrower.Node]] = []
      for k in 0..<scoreCount {
        let tree = gradients.withUnsafeBufferPointer { g in
          hessians.withUnsafeBufferPointer { h in
            raw.withUnsafeMutableBufferPointer { r in
              grower.grow(
                gradients: UnsafeBufferPointer(rebasing: g[(k * n)..<((k + 1) * n)]),
                hessians: UnsafeBufferPointer(rebasing: h[(k * n)..<((k + 1) * n)]),
                rawPredictions: UnsafeMutableBufferPointer(rebasing: r[(k * n)..<((k + 1) * n)]),
                featureDraws: &featureDraws)
            }
          }
        }
        trees.append(tree)
      }
      iterations.append(trees)
      guard stopsEarly, let validationBinned else { continue }
      for k in 0..<scoreCount {
        for i in 0..<validationCount {
          validationRaw[k * validationCount + i] += FittedHistGradientBoosting.binnedValue(
            trees[k], validationBinned, row: i, rows: validationCount, missingBin: missingBin)
        }
      }
      scores.append(
        -LogLossBoosting.meanLoss(
          raw: validationRaw, labels: validationLabels, rows: validationCount, scoreCount: scoreCount))
      if shouldStop(scores) { break }
    }
    return FittedHistGradientBoosting(
      trees: iterations, baseline: baseline, classCount: classCount, featureCount: x.columns, configuration: self)
  }

  /// `_should_stop`: none of the last `n_iter_no_change` scores beats the one before them by more than `tol`.
  func shouldStop(_ scores: [Double]) -> Bool {
    let reference = nIterNoChange + 1
    guard scores.count >= reference else { return false }
    let referenceScore = scores[scores.count - reference] + tol
    return !scores[(scores.count - reference + 1)...].contains { $0 > referenceScore }
  }
}

/// A boosted ensemble: the baseline plus, per iteration, one tree per raw score.
public struct FittedHistGradientBoosting: FittedClassifier {
  /// `trees[iteration][score]`, each in preorder.
  let trees: [[[HistogramGrower.Node]]]
  /// The raw scores before any tree (scikit-learn's `_baseline_prediction`).
  public let baseline: [Double]
  public let classCount: Int
  public let featureCount: Int
  public let configuration: HistGradientBoosting

  /// Iterations fitted (scikit-learn's `n_iter_`).
  public var iterationCount: Int { trees.count }

  /// A feature index and a threshold per split, a value per leaf, and the baseline.
  public var parameterCount: Int {
    baseline.count
      + trees.joined().reduce(0) { total, tree in
        total + tree.reduce(0) { $0 + ($1.isLeaf ? 1 : 2) }
      }
  }

  /// The value of the leaf a binned row lands in (scikit-learn's `predict_binned`).
  static func binnedValue(
    _ tree: [HistogramGrower.Node], _ binned: [UInt8], row: Int, rows: Int, missingBin: UInt8
  ) -> Double {
    var node = 0
    while !tree[node].isLeaf {
      let split = tree[node]
      let bin = binned[split.feature * rows + row]
      let left = bin == missingBin ? split.missingGoesLeft : Int(bin) <= split.binThreshold
      node = left ? split.left : split.right
    }
    return tree[node].value
  }

  /// The raw scores of each row, score-major per row, added in scikit-learn's order: the baseline, then the
  /// trees iteration by iteration.
  public func rawScores(_ x: Matrix) -> Matrix {
    precondition(x.columns == featureCount, "fitted on \(featureCount) columns, given \(x.columns)")
    let scoreCount = baseline.count
    var out = [Double](repeating: 0, count: x.rows * scoreCount)
    x.values.withUnsafeBufferPointer { values in
      for r in 0..<x.rows {
        let row = values.baseAddress! + r * featureCount
        for k in 0..<scoreCount { out[r * scoreCount + k] = baseline[k] }
        for iteration in trees {
          for (k, tree) in iteration.enumerated() {
            var node = 0
            while !tree[node].isLeaf {
              let split = tree[node]
              let value = row[split.feature]
              let left = value.isNaN ? split.missingGoesLeft : value <= split.threshold
              node = left ? split.left : split.right
            }
            out[r * scoreCount + k] += tree[node].value
          }
        }
      }
    }
    return Matrix(rows: x.rows, columns: scoreCount, values: out)
  }

  /// `predict_proba`: the sigmoid of the one score for two classes, else the softmax of the scores.
  public func predictProbabilities(_ x: Matrix) -> Matrix {
    let raw = rawScores(x)
    let scoreCount = baseline.count
    var out = [Double](repeating: 0, count: x.rows * classCount)
    for r in 0..<x.rows {
      if scoreCount == 1 {
        let p = 1 / (1 + exp(-raw.values[r]))
        out[r * 2] = 1 - p
        out[r * 2 + 1] = p
      } else {
        let scores = raw.values[(r * scoreCount)..<((r + 1) * scoreCount)]
        let top = scores.max()!
        var total = 0.0
        for (k, score) in scores.enumerated() {
          let e = exp(score - top)
          out[r * classCount + k] = e
          total += e
        }
        for k in 0..<classCount { out[r * classCount + k] /= total }
      }
    }
    return Matrix(rows: x.rows, columns: classCount, values: out)
  }

  /// The trees as they are, the baseline as base scores, then a sigmoid or a softmax.
  ///
  /// The form compares `x <= threshold` in double, as Benchbook and scikit-learn do (`comparesFloat32` false): each
  /// format restates a threshold so that every float32 input an app passes goes where this fit sends it (Core ML
  /// compares the double it is given).
  public func exportForm() throws(ExportFormError) -> ExportForm {
    let scoreCount = baseline.count
    var formTrees: [TreeEnsembleForm.Tree] = []
    for iteration in trees {
      for (k, tree) in iteration.enumerated() {
        let nodes = tree.map { node in
          node.isLeaf
            ? TreeForm.Node.leaf
            : TreeForm.Node(
              feature: node.feature, threshold: node.threshold, left: node.left, right: node.right,
              missingGoesLeft: node.missingGoesLeft)
        }
        formTrees.append(
          TreeEnsembleForm.Tree(
            nodes: nodes, values: tree.map { $0.isLeaf ? $0.value : 0 }, valueCount: 1, firstScore: k))
      }
    }
    return .treeEnsemble(
      TreeEnsembleForm(
        trees: formTrees, scoreCount: scoreCount, baseScores: baseline,
        transform: scoreCount == 1 ? .logistic : .softmax, classCount: classCount, featureCount: featureCount,
        comparesFloat32: false))
  }
}

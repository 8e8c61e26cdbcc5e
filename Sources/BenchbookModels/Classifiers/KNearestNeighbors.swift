import BenchbookData

/// k-nearest neighbours with Euclidean distance: scikit-learn's `KNeighborsClassifier()`.
///
/// A class's probability is its share of the k nearest training rows, each
/// neighbour counting 1 (`uniform`) or 1/distance (`distance`). Unlike
/// scikit-learn, whose choice among equally distant rows depends on its tree
/// layout, Benchbook breaks distance ties by training-row order (the lower row
/// wins), so every index gives the same answer.
public struct KNearestNeighbors: Classifier, Hashable, Codable {
  /// How neighbours' votes are weighted (scikit-learn's `weights`).
  public enum Weighting: String, Sendable, Hashable, Codable, CaseIterable {
    /// Every neighbour counts 1.
    case uniform
    /// A neighbour counts 1/distance; neighbours at distance zero, if any, take all the weight.
    case distance
  }

  /// The search structure to build (scikit-learn's `algorithm`); every choice finds the same neighbours.
  public enum IndexChoice: String, Sendable, Hashable, Codable, CaseIterable {
    /// scikit-learn's rule for `algorithm="auto"` (`resolvedIndex(rows:features:sparse:)`).
    case auto
    /// A kd-tree (`KDTree`).
    case kdTree = "kd-tree"
    /// Brute force with distances from BLAS (`BruteForceNeighborIndex`); the spec also accepts `linear`, its
    /// earlier name, and scikit-learn's `brute`.
    case brute
  }

  /// Neighbours consulted per prediction (`n_neighbors`, alias `k`); at least 1.
  public var k: Int
  public var weights: Weighting
  public var index: IndexChoice
  /// kd-tree leaves hold `leafSize` to `2·leafSize − 1` rows (`leaf_size`); affects speed only.
  public var leafSize: Int

  public init(k: Int = 5, weights: Weighting = .uniform, index: IndexChoice = .auto, leafSize: Int = 30) {
    precondition(k >= 1, "k must be at least 1")
    precondition(leafSize >= 1, "leaf size must be at least 1")
    self.k = k
    self.weights = weights
    self.index = index
    self.leafSize = leafSize
  }

  /// Reads `n_neighbors` (alias `k`), `weights`, `index` (alias `algorithm`,
  /// which also takes scikit-learn's `kd_tree` and `brute`) and `leaf_size`.
  public init(settings: inout SettingsReader) throws(SettingError) {
    k = try settings.int("n_neighbors", aliases: ["k"], default: 5, requirement: "at least 1") { $0 >= 1 }
    let weighting = try settings.choice("weights", options: Weighting.allCases.map(\.rawValue), default: "uniform")
    weights = Weighting(rawValue: weighting)!
    let indexWord = try settings.choice(
      "index", aliases: ["algorithm"], options: ["auto", "kd-tree", "brute", "linear"], default: "auto")
    index = indexWord == "linear" ? .brute : IndexChoice(rawValue: indexWord)!
    leafSize = try settings.int(
      "leaf_size", default: 30, requirement: "from 1 to \(Limits.leafSize) (the limit on leaf_size)"
    ) { $0 >= 1 && $0 <= Limits.leafSize }
    try settings.finish(known: Self.settingsSchema.flatMap(\.spellings))
  }

  /// The index and its leaf size change speed only, so they are not searchable.
  public static let settingsSchema: [SettingDescriptor] = [
    SettingDescriptor("n_neighbors", aliases: ["k"], type: .wholeNumber, default: .int(5), searchable: true),
    SettingDescriptor(
      "weights", type: .word(Weighting.allCases.map(\.rawValue)), default: .string("uniform"), searchable: true),
    SettingDescriptor(
      "algorithm", aliases: ["index"], type: .word(["auto", "kd_tree", "brute"]), default: .string("auto"),
      searchable: false),
    SettingDescriptor("leaf_size", type: .wholeNumber, default: .int(30), searchable: false),
  ]

  /// Settings under scikit-learn's names and words (`algorithm`: auto, kd_tree, brute).
  public var parameters: [String: ParameterValue] {
    let algorithm =
      switch index {
      case .auto: "auto"
      case .kdTree: "kd_tree"
      case .brute: "brute"
      }
    return [
      "n_neighbors": .int(k), "weights": .string(weights.rawValue), "algorithm": .string(algorithm),
      "leaf_size": .int(leafSize),
    ]
  }

  /// The index `auto` resolves to for `rows` training rows of `features` features, as scikit-learn's
  /// `algorithm="auto"` resolves (its `NearestNeighbors` fit, checked against scikit-learn 1.9.1): brute force
  /// when there are more than 15 features, when `k >= rows / 2` (integer division), or when the data are
  /// sparse (scikit-learn takes brute force for a sparse matrix, which its `ColumnTransformer` hands on when
  /// one-hot columns leave fewer than 30% of the values non-zero: `NeighborIndexKind.isSparse`); a kd-tree otherwise. A kd-tree
  /// stops pruning in many dimensions, where one BLAS product per block of rows beats it; in few it visits a
  /// few leaves where brute force measures every row. Every index finds the same neighbours (speed only).
  public func resolvedIndex(rows: Int, features: Int, sparse: Bool = false) -> NeighborIndexKind {
    switch index {
    case .kdTree: .kdTree
    case .brute: .linear
    case .auto: features <= 15 && k < rows / 2 && !sparse ? .kdTree : .linear
    }
  }

  /// Stores the training rows and builds the search index.
  ///
  /// Throws when `k` exceeds the training rows (scikit-learn refuses too) or a
  /// value is not finite.
  /// - Parameter x: consumed; handed the last reference, the index keeps the rows without a copy.
  public func fit(_ x: consuming Matrix, labels: [Int], classCount: Int) throws(ModelError) -> FittedKNearestNeighbors {
    try fit(x, labels: labels, classCount: classCount, indexed: true)
  }

  /// Fits for exported files alone store their rows unindexed: a size budget measures every outer fold's
  /// configurations, and the search tree each fold would build serves no query there (its build and the read of its
  /// points back out of tree order would be most of a kNN's size measure). The models declare
  /// the index a fit would build, as their files do, and predict the same.
  public static func exportFits(_ configurations: [Self], _ x: Matrix, labels: [Int], classCount: Int)
    throws(ModelError) -> [FittedKNearestNeighbors]
  {
    try reusingFits(configurations) { configuration throws(ModelError) in
      try configuration.fit(x, labels: labels, classCount: classCount, indexed: false)
    }
  }

  /// `fit`, with the rows kept in the index it resolves (`indexed`) or in a plain scan, which builds nothing.
  private func fit(_ x: consuming Matrix, labels: [Int], classCount: Int, indexed: Bool)
    throws(ModelError) -> FittedKNearestNeighbors
  {
    precondition(labels.count == x.rows, "one label per row")
    guard k <= x.rows else {
      throw ModelError("k-nearest neighbours needs n_neighbors (\(k)) <= training rows (\(x.rows))")
    }
    guard x.values.allSatisfy(\.isFinite) else {
      throw ModelError("k-nearest neighbours cannot use missing or infinite feature values")
    }
    let sparse = NeighborIndexKind.isSparse(x)
    let kind = resolvedIndex(rows: x.rows, features: x.columns, sparse: sparse)
    return FittedKNearestNeighbors(
      labels: labels, classCount: classCount, k: k, weights: weights, indexKind: kind, leafSize: leafSize,
      sparse: sparse, searcher: indexed ? kind.build(consume x, leafSize: leafSize) : LinearNeighborIndex(points: x))
  }
}

/// A fitted k-nearest-neighbours model: the stored training rows and their index.
public struct FittedKNearestNeighbors: FittedClassifier {
  /// The training rows, in training order (row i is training row i), read back from the index, which holds
  /// the only copy (a kd-tree's in its own order): O(rows × features) an access, for exports and tests.
  public var samples: Matrix {
    Matrix(rows: searcher.pointCount, columns: searcher.dimension, values: storedValues)
  }

  /// The training rows' coordinates as `samples` holds them, each converted (Core ML stores float32); inlined
  /// where it is called, so the conversion of a million rows' values is not a generic call each.
  @inlinable
  public func samples<T, E: Error>(_ convert: (Double) throws(E) -> T) throws(E) -> [T] {
    let values = storedValues
    var out = [T]()
    out.reserveCapacity(values.count)
    for value in values { out.append(try convert(value)) }
    return out
  }

  /// The training rows' coordinates, row-major, read back from the index.
  @usableFromInline var storedValues: [Double] { searcher.storedPoints() }

  /// Number of stored training rows.
  public var sampleCount: Int { searcher.pointCount }
  /// Number of features of each stored row.
  public var featureCount: Int { searcher.dimension }
  /// Class of each stored row.
  public let labels: [Int]
  public let classCount: Int
  public let k: Int
  public let weights: KNearestNeighbors.Weighting
  /// The index a fit builds (`auto` resolved), which exports declare; a fit for an export alone
  /// (`KNearestNeighbors.exportFits`) keeps its rows in a plain scan instead.
  public let indexKind: NeighborIndexKind
  public let leafSize: Int
  /// Whether the stored rows are sparse (`NeighborIndexKind.isSparse`), which `auto` weighs.
  public let sparse: Bool
  private let searcher: any NeighborIndex

  init(
    labels: [Int], classCount: Int, k: Int, weights: KNearestNeighbors.Weighting, indexKind: NeighborIndexKind,
    leafSize: Int, sparse: Bool, searcher: any NeighborIndex
  ) {
    self.labels = labels
    self.classCount = classCount
    self.k = k
    self.weights = weights
    self.indexKind = indexKind
    self.leafSize = leafSize
    self.sparse = sparse
    self.searcher = searcher
  }

  /// One query at the largest k serves every model fitted on the same rows: the
  /// neighbours do not depend on k beyond how many are kept, nor on the index.
  public static func predictTogether(_ models: [Self], _ x: Matrix) -> [Matrix] {
    guard let largest = models.max(by: { $0.k < $1.k }) else { return [] }
    var out = models.map { _ in [Double]() }
    largest.inChunks(x) { found in
      for (m, model) in models.enumerated() {
        out[m] +=
          probabilities(found, k: model.k, weights: model.weights, labels: model.labels, classCount: model.classCount)
          .values
      }
    }
    return out.map { Matrix(rows: x.rows, columns: largest.classCount, values: $0) }
  }

  /// `configuration` fitted on the same rows, sharing this model's stored rows and index: what `fit` would
  /// build, without building it again (a fit for an export alone shares its plain scan, as `exportFits` would
  /// build). `nil` when `configuration` would build another index.
  public func reconfigured(as configuration: any Classifier) -> (any FittedClassifier)? {
    guard let configuration = configuration as? KNearestNeighbors, configuration.k <= sampleCount,
      configuration.resolvedIndex(rows: sampleCount, features: featureCount, sparse: sparse) == indexKind,
      configuration.leafSize == leafSize
    else { return nil }
    return FittedKNearestNeighbors(
      labels: labels, classCount: classCount, k: configuration.k, weights: configuration.weights,
      indexKind: indexKind, leafSize: leafSize, sparse: sparse, searcher: searcher)
  }

  /// Stored rows × features, plus one label per stored row.
  public var parameterCount: Int { sampleCount * featureCount + labels.count }

  /// The k nearest training rows of each row of `x`, ordered by (distance, training row).
  public func neighbors(_ x: Matrix) -> NeighborList {
    searcher.nearest(x, k: k)
  }

  /// Class shares of the k nearest training rows.
  ///
  /// Votes are added in neighbour order and divided by their sum over classes,
  /// as scikit-learn does, so the rounding matches it.
  public func predictProbabilities(_ x: Matrix) -> Matrix {
    precondition(x.columns == featureCount, "model fitted on \(featureCount) columns, given \(x.columns)")
    var out: [Double] = []
    out.reserveCapacity(x.rows * classCount)
    inChunks(x) { found in
      out += Self.probabilities(found, k: k, weights: weights, labels: labels, classCount: classCount).values
    }
    return Matrix(rows: x.rows, columns: classCount, values: out)
  }

  /// Rows answered per neighbour search: the list of k neighbours of every query costs 16·k bytes a row
  /// (125 neighbours of 60,000 rows would be 120 MB), so queries go in blocks; each row's answer is its own.
  public static let queryChunk = 4096

  /// The neighbours of `x`'s rows, a block of `queryChunk` rows at a time, in row order.
  func inChunks(_ x: Matrix, _ body: (NeighborList) -> Void) {
    guard x.rows > Self.queryChunk else {
      body(neighbors(x))
      return
    }
    for start in stride(from: 0, to: x.rows, by: Self.queryChunk) {
      body(neighbors(x.selecting(rows: Array(start..<min(start + Self.queryChunk, x.rows)))))
    }
  }

  /// Class shares from the first `k` neighbours of each query in `found`.
  ///
  /// Neighbours are ordered by the total order (distance, row), so the first k
  /// of a longer list are exactly the k nearest: one query at the largest k
  /// serves every smaller one.
  /// - Parameter labels: the class of every stored row `found` can name.
  public static func probabilities(
    _ found: NeighborList, k: Int, weights: KNearestNeighbors.Weighting, labels: [Int], classCount: Int
  ) -> Matrix {
    precondition(k <= found.k, "asked for \(k) neighbours of \(found.k) found")
    var out = Matrix(rows: found.queryCount, columns: classCount)
    var votes = [Double](repeating: 0, count: k)
    found.rows.withUnsafeBufferPointer { rows in
      found.squaredDistances.withUnsafeBufferPointer { distances in
        labels.withUnsafeBufferPointer { labels in
          votes.withUnsafeMutableBufferPointer { votes in
            out.values.withUnsafeMutableBufferPointer { out in
              for q in 0..<found.queryCount {
                classShares(
                  rows: rows.baseAddress! + q * found.k, squaredDistances: distances.baseAddress! + q * found.k,
                  k: k, weights: weights, labels: labels, votes: votes,
                  into: UnsafeMutableBufferPointer(rebasing: out[(q * classCount)..<((q + 1) * classCount)]))
              }
            }
          }
        }
      }
    }
    return out
  }

  /// One query's class shares from its `k` nearest neighbours (nearest first), written over `out`.
  ///
  /// Votes are added in neighbour order and divided by their sum over classes, as scikit-learn does; every
  /// caller goes through here, so a prediction is bit-identical however its neighbours were found.
  /// - Parameters:
  ///   - labels: class of every stored row `rows` can name.
  ///   - votes: scratch space for at least `k` values.
  @inline(__always)
  public static func classShares(
    rows: UnsafePointer<Int>, squaredDistances: UnsafePointer<Double>, k: Int, weights: KNearestNeighbors.Weighting,
    labels: UnsafeBufferPointer<Int>, votes: UnsafeMutableBufferPointer<Double>,
    into out: UnsafeMutableBufferPointer<Double>
  ) {
    switch weights {
    case .uniform:
      for i in 0..<k { votes[i] = 1 }
    case .distance:
      // scikit-learn: weight 1/d; if any weight is infinite (d == 0), those
      // neighbours weigh 1 and the others 0.
      var anyInfinite = false
      for i in 0..<k {
        votes[i] = 1 / squaredDistances[i].squareRoot()
        if votes[i].isInfinite { anyInfinite = true }
      }
      if anyInfinite {
        for i in 0..<k { votes[i] = votes[i].isInfinite ? 1 : 0 }
      }
    }
    for c in out.indices { out[c] = 0 }
    for i in 0..<k { out[labels[rows[i]]] += votes[i] }
    var total = 0.0
    for c in out.indices { total += out[c] }
    for c in out.indices { out[c] /= total }
  }
}

extension FittedKNearestNeighbors {
  /// Class shares of one query for many configurations from one walk over its neighbours per weighting.
  ///
  /// The class sums after the first k neighbours are the partial sums of a longer walk, and a weighting's
  /// votes do not depend on k (a zero distance, if any, is the first neighbour's), so each configuration's
  /// shares are bit-identical to `classShares` with its own k.
  public struct SharedShares: Sendable {
    /// One weighting's walk: its configurations' stops, `stops` of `stopKs` and `stopConfigurations`, by k.
    /// Flat arrays of plain values, so a walk is read without retaining an array per query and split.
    struct Walk {
      var weights: KNearestNeighbors.Weighting
      var stops: Range<Int>
    }

    let walks: [Walk]
    /// Each stop's k (ascending within a walk) and the configuration whose shares are written there.
    let stopKs: [Int]
    let stopConfigurations: [Int]
    let classCount: Int

    public init(_ configurations: [KNearestNeighbors], classCount: Int) {
      self.classCount = classCount
      var walks: [Walk] = []
      var stopKs: [Int] = []
      var stopConfigurations: [Int] = []
      for weights in KNearestNeighbors.Weighting.allCases {
        let stops = configurations.indices.filter { configurations[$0].weights == weights }
          .map { (k: configurations[$0].k, configuration: $0) }.sorted {
            ($0.k, $0.configuration) < ($1.k, $1.configuration)
          }
        guard !stops.isEmpty else { continue }
        walks.append(Walk(weights: weights, stops: stopKs.count..<(stopKs.count + stops.count)))
        stopKs += stops.map(\.k)
        stopConfigurations += stops.map(\.configuration)
      }
      self.walks = walks
      self.stopKs = stopKs
      self.stopConfigurations = stopConfigurations
    }

    /// Each neighbour's distance weight, 1/d, when some configuration weighs by distance (the vote of
    /// `write`'s distance walk, unless a neighbour is at distance 0).
    public func weights(
      squaredDistances: UnsafeBufferPointer<Double>, into weights: UnsafeMutableBufferPointer<Double>
    ) {
      guard walks.contains(where: { $0.weights == .distance }) else { return }
      for i in squaredDistances.indices { weights[i] = 1 / squaredDistances[i].squareRoot() }
    }

    /// Writes configuration c's shares at `out[c·classCount...]`.
    ///
    /// Each class's sum adds its neighbours' votes in list order, as `classShares` does. Two classes keep their
    /// sums in registers rather than in `sums`: the vote goes to one sum and +0 to the other, which leaves a
    /// sum of non-negative votes unchanged, so the shares are the same to the bit.
    /// - Parameters:
    ///   - labels: each neighbour's class, nearest first.
    ///   - weights: `weights(squaredDistances:into:)` of these neighbours.
    ///   - sums: scratch space for `classCount` values.
    public func write(
      labels: UnsafePointer<Int>, squaredDistances: UnsafePointer<Double>, weights: UnsafePointer<Double>,
      sums: UnsafeMutableBufferPointer<Double>, into out: UnsafeMutableBufferPointer<Double>
    ) {
      // scikit-learn's distance weights: 1/d; if any is infinite (d == 0, then the first neighbour's), those
      // weigh 1 and the others 0.
      let zeroDistance = squaredDistances[0] == 0
      for walk in walks {
        let uniform = walk.weights == .uniform
        if classCount == 2 {
          if uniform {
            writeTwoClassesUniform(walk, labels: labels, into: out)
          } else if zeroDistance {
            writeTwoClasses(walk, labels: labels, into: out) { squaredDistances[$0] == 0 ? 1 : 0 }
          } else {
            writeTwoClasses(walk, labels: labels, into: out) { weights[$0] }
          }
          continue
        }
        for c in 0..<classCount { sums[c] = 0 }
        var i = 0
        for stop in walk.stops {
          let k = stopKs[stop]
          while i < k {
            sums[labels[i]] += uniform ? 1 : zeroDistance ? (squaredDistances[i] == 0 ? 1 : 0) : weights[i]
            i += 1
          }
          var total = 0.0
          for c in 0..<classCount { total += sums[c] }
          let base = stopConfigurations[stop] * classCount
          for c in 0..<classCount { out[base + c] = sums[c] / total }
        }
      }
    }

    /// Two classes, every vote 1: the sums are counts, exact in a double, so counted as integers.
    @inline(__always)
    private func writeTwoClassesUniform(
      _ walk: Walk, labels: UnsafePointer<Int>, into out: UnsafeMutableBufferPointer<Double>
    ) {
      var ones = 0
      var i = 0
      for stop in walk.stops {
        let k = stopKs[stop]
        while i < k {
          ones &+= labels[i]
          i &+= 1
        }
        writeTwoClassShares((Double(k - ones), Double(ones)), at: stop, into: out)
      }
    }

    /// Two classes, neighbour i's vote `vote(i)` (non-negative).
    @inline(__always)
    private func writeTwoClasses(
      _ walk: Walk, labels: UnsafePointer<Int>, into out: UnsafeMutableBufferPointer<Double>, vote: (Int) -> Double
    ) {
      var sums = (0.0, 0.0)
      var i = 0
      for stop in walk.stops {
        let k = stopKs[stop]
        while i < k {
          let v = vote(i)
          let isOne = labels[i] != 0
          sums.0 += isOne ? 0 : v
          sums.1 += isOne ? v : 0
          i &+= 1
        }
        writeTwoClassShares(sums, at: stop, into: out)
      }
    }

    /// The shares of `stop`'s configuration from its two class sums, as the general walk divides them.
    @inline(__always)
    private func writeTwoClassShares(
      _ sums: (Double, Double), at stop: Int, into out: UnsafeMutableBufferPointer<Double>
    ) {
      let total = sums.0 + sums.1
      let base = stopConfigurations[stop] * 2
      out[base] = sums.0 / total
      out[base + 1] = sums.1 / total
    }
  }
}

extension FittedKNearestNeighbors {
  /// Its stored rows in training order (read back from the index, O(rows × features)).
  public func exportForm() throws(ExportFormError) -> ExportForm {
    .neighbors(
      NeighborsForm(
        samples: samples, labels: labels, classCount: classCount, k: k,
        weighting: weights == .uniform ? .uniform : .inverseDistance,
        index: indexKind == .kdTree ? .kdTree(leafSize: leafSize) : .linear))
  }
}

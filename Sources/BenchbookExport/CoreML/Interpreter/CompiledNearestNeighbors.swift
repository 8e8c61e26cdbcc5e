/// Core ML's k-nearest-neighbours classifier, evaluated on its float32 samples.
///
/// The query is rounded to float32 like the stored samples, and squared
/// Euclidean distances between those float32 points are summed in double, so
/// a query equal to a stored sample is at distance exactly 0. The k nearest
/// samples vote for their labels: 1 each (uniform) or 1/distance (inverse
/// distance; the format documents "the highest sum of 1 / distance"). Where
/// the format is silent, Benchbook's reading is scikit-learn's: samples at
/// equal distance are taken in stored order, and when any of the k is at
/// distance 0 those alone share the vote. Probabilities are the vote shares.
struct CompiledNearestNeighbors: CompiledModel {
  let input: String
  let dimensions: Int
  let samples: [Float]
  let sampleCount: Int
  /// Position of each sample's label in `output.labels`.
  let labelOfSample: [Int]
  let k: Int
  let inverseDistance: Bool
  let output: ClassifierOutput
  let defaultLabel: Int?

  init(_ knn: KNearestNeighborsClassifier, description: ModelDescription) throws(EvaluationError) {
    input = try ModelCompiler.onlyInput(description, of: "k-nearest-neighbours classifier").name
    let index = knn.index
    guard index.usesSquaredEuclideanDistance else { throw EvaluationError("the kNN index names no distance function") }
    guard index.indexType != nil else { throw EvaluationError("the kNN index names no index type") }
    if case .kdTree(let leafSize)? = index.indexType, leafSize <= 0 {
      throw EvaluationError("the kd-tree leaf size must be positive")
    }
    guard index.sampleLengths.allSatisfy({ $0 == index.numberOfDimensions }) else {
      throw EvaluationError("kNN samples do not all have \(index.numberOfDimensions) dimensions")
    }
    guard let weighting = knn.weighting else { throw EvaluationError("the kNN classifier names no weighting") }
    guard knn.numberOfNeighbors.defaultValue > 0 else {
      throw EvaluationError("the kNN neighbour count must be positive")
    }
    switch knn.numberOfNeighbors.allowed {
    case .set(let values)?:
      guard values.contains(knn.numberOfNeighbors.defaultValue) else {
        throw EvaluationError("the default neighbour count is not among the allowed ones")
      }
    case .range(let range)?:
      guard range.contains(knn.numberOfNeighbors.defaultValue) else {
        throw EvaluationError("the default neighbour count is outside the allowed range")
      }
    case nil: break
    }
    let perSample = knn.labels ?? .strings([])
    guard perSample.count == index.sampleCount else {
      throw EvaluationError("the kNN classifier has \(perSample.count) labels for \(index.sampleCount) samples")
    }
    // The classes are the distinct sample labels, in order of first appearance.
    var distinct: [String] = []
    var position: [String: Int] = [:]
    var labelOfSample: [Int] = []
    labelOfSample.reserveCapacity(perSample.count)
    for text in perSample.texts {
      if position[text] == nil {
        position[text] = distinct.count
        distinct.append(text)
      }
      labelOfSample.append(position[text]!)
    }
    var defaultLabel: Int?
    var defaultIsInt64 = false
    if let fallback = knn.defaultLabel {
      let text: String
      switch fallback {
      case .string(let value): text = value
      case .int64(let value):
        text = String(value)
        defaultIsInt64 = true
      }
      if position[text] == nil {
        position[text] = distinct.count
        distinct.append(text)
      }
      defaultLabel = position[text]
    }
    let labels: ClassLabels =
      perSample.isInt64 || defaultIsInt64 ? .int64s(distinct.map { Int64($0) ?? 0 }) : .strings(distinct)
    output = try ClassifierOutput(labels: labels, description: description)
    dimensions = index.numberOfDimensions
    samples = index.samples
    sampleCount = index.sampleCount
    self.labelOfSample = labelOfSample
    self.defaultLabel = defaultLabel
    k = Int(knn.numberOfNeighbors.defaultValue)
    inverseDistance = weighting == .inverseDistance
  }

  func run(_ features: inout [String: FeatureValue]) throws(EvaluationError) {
    let x = try ModelCompiler.vector(features[input], named: input)
    guard x.count == dimensions else {
      throw EvaluationError("the kNN classifier takes \(dimensions) values, given \(x.count)")
    }
    var votes = [Double](repeating: 0, count: output.labels.count)
    guard sampleCount > 0 else {
      guard let defaultLabel else { throw EvaluationError("the kNN classifier has no samples and no default label") }
      votes[defaultLabel] = 1
      return output.write(votes, to: &features)
    }
    let query = x.map { Double(Float($0)) }
    let count = min(k, sampleCount)
    // The `count` best (squared distance, sample) pairs, kept sorted.
    var bestDistance = [Double](repeating: .infinity, count: count)
    var bestSample = [Int](repeating: -1, count: count)
    samples.withUnsafeBufferPointer { stored in
      for s in 0..<sampleCount {
        var d2 = 0.0
        for f in 0..<dimensions {
          let difference = query[f] - Double(stored[s * dimensions + f])
          d2 += difference * difference
        }
        // Strictly closer than the current last: equal distances keep the earlier sample.
        guard d2 < bestDistance[count - 1] else { continue }
        var slot = count - 1
        while slot > 0 && bestDistance[slot - 1] > d2 {
          bestDistance[slot] = bestDistance[slot - 1]
          bestSample[slot] = bestSample[slot - 1]
          slot -= 1
        }
        bestDistance[slot] = d2
        bestSample[slot] = s
      }
    }
    let exact = inverseDistance && bestDistance.contains(0)
    for i in 0..<count {
      let weight: Double
      if !inverseDistance {
        weight = 1
      } else if exact {
        weight = bestDistance[i] == 0 ? 1 : 0
      } else {
        weight = 1 / bestDistance[i].squareRoot()
      }
      votes[labelOfSample[bestSample[i]]] += weight
    }
    let total = votes.reduce(0, +)
    output.write(votes.map { $0 / total }, to: &features)
  }
}

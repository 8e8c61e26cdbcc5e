/// scikit-learn's `train_test_split(..., stratify=labels, test_size=, random_state=seed)` for labels
/// `0..<classCount`: `StratifiedShuffleSplit`'s first split, drawn with the same `RandomState` draws.
public enum StratifiedValidationSplit {
  /// Row indices (into `labels`) of the training and the validation part, each in the order scikit-learn's
  /// `X[train]` and `X[test]` gather them; `nil` when scikit-learn would refuse (a class with fewer than two
  /// rows, or fewer rows on a side than classes).
  public static func split(labels: [Int], classCount: Int, testFraction: Double, seed: UInt32)
    -> (train: [Int], test: [Int])?
  {
    let n = labels.count
    // `_validate_shuffle_split`: a float test size rounds up, the training part takes the rest.
    let testCount = Int((testFraction * Double(n)).rounded(.up))
    let trainCount = n - testCount
    var classIndices = [[Int]](repeating: [], count: classCount)
    for (row, label) in labels.enumerated() { classIndices[label].append(row) }
    // `np.unique` lists only the classes present.
    classIndices = classIndices.filter { !$0.isEmpty }
    let counts = classIndices.map(\.count)
    guard let fewest = counts.min(), fewest >= 2, trainCount >= counts.count, testCount >= counts.count else {
      return nil
    }
    var rng = MersenneTwister(seed: seed)
    let trainPerClass = approximateMode(counts, draws: trainCount, rng: &rng)
    let testPerClass = approximateMode(zip(counts, trainPerClass).map { $0 - $1 }, draws: testCount, rng: &rng)
    var train: [Int] = []
    var test: [Int] = []
    for (c, indices) in classIndices.enumerated() {
      let order = rng.permutation(indices.count)
      let shuffled = order.map { indices[$0] }
      train += shuffled[0..<trainPerClass[c]]
      test += shuffled[trainPerClass[c]..<(trainPerClass[c] + testPerClass[c])]
    }
    rng.shuffle(&train)
    rng.shuffle(&test)
    return (train, test)
  }

  /// scikit-learn's `_approximate_mode`: each class's share of `draws` rounded down, the rows left over
  /// going to the largest remainders, ties among them broken by `choice(..., replace=False)` (a permutation's
  /// head).
  static func approximateMode(_ counts: [Int], draws: Int, rng: inout MersenneTwister) -> [Int] {
    let total = Double(counts.reduce(0, +))
    let continuous = counts.map { Double($0) / total * Double(draws) }
    var floored = continuous.map { $0.rounded(.down) }
    var needToAdd = draws - Int(floored.reduce(0, +))
    if needToAdd > 0 {
      let remainder = zip(continuous, floored).map { $0 - $1 }
      let values = Array(Set(remainder)).sorted(by: >)
      for value in values {
        let indices = remainder.indices.filter { remainder[$0] == value }
        let addNow = min(indices.count, needToAdd)
        let chosen = rng.permutation(indices.count).prefix(addNow).map { indices[$0] }
        for i in chosen { floored[i] += 1 }
        needToAdd -= addNow
        if needToAdd == 0 { break }
      }
    }
    return floored.map { Int($0) }
  }
}

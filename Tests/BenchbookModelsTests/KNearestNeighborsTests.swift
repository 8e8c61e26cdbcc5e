import BenchbookData
import BenchbookModels
import Testing

/// Goldens: `cd Tests/BenchbookModelsTests/Fixtures && python3 knn-goldens.py`
/// (scikit-learn 1.9.1 `KNeighborsClassifier`, data chosen so no distance ties occur).
@Suite struct KNearestNeighborsTests {
  /// Compares every probability with scikit-learn's within 1e-12.
  private func expectMatchesGolden(
    _ model: KNearestNeighbors, data: String, golden: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let fixture = try SplitFixture("knn-\(data).csv")
    let expected = try FixtureTable("knn-\(data)-proba.csv")
    let fitted = try model.fit(fixture.train, labels: fixture.trainLabels, classCount: fixture.classCount)
    let probabilities = fitted.predictProbabilities(fixture.test)
    let columns = (0..<fixture.classCount).map { "\(golden)_p\($0)" }
    let goldenMatrix = expected.matrix(columns)
    #expect(probabilities.rows == goldenMatrix.rows, sourceLocation: sourceLocation)
    let worst = zip(probabilities.values, goldenMatrix.values).map { abs($0 - $1) }.max() ?? .infinity
    #expect(worst <= 1e-12, "largest difference \(worst)", sourceLocation: sourceLocation)
  }

  @Test(arguments: [KNearestNeighbors.IndexChoice.auto, .kdTree, .brute])
  func matchesScikitLearnOnBreastCancer(index: KNearestNeighbors.IndexChoice) throws {
    try expectMatchesGolden(KNearestNeighbors(index: index), data: "breast-cancer", golden: "uniform")
    try expectMatchesGolden(
      KNearestNeighbors(weights: .distance, index: index), data: "breast-cancer", golden: "distance")
    try expectMatchesGolden(
      KNearestNeighbors(k: 11, weights: .distance, index: index), data: "breast-cancer", golden: "k11distance")
  }

  @Test(arguments: [KNearestNeighbors.IndexChoice.auto, .kdTree, .brute])
  func matchesScikitLearnOnGaussianBlobsWithZeroDistances(index: KNearestNeighbors.IndexChoice) throws {
    try expectMatchesGolden(KNearestNeighbors(index: index), data: "gaussian", golden: "uniform")
    try expectMatchesGolden(KNearestNeighbors(weights: .distance, index: index), data: "gaussian", golden: "distance")
    try expectMatchesGolden(KNearestNeighbors(k: 1, index: index), data: "gaussian", golden: "k1")
  }

  /// The kd-tree and brute force must give bit-identical probabilities even
  /// when most queries have several neighbours at the k-th distance.
  @Test(arguments: [KNearestNeighbors.Weighting.uniform, .distance])
  func kdTreeAndLinearScanAgreeBitForBitOnTies(weights: KNearestNeighbors.Weighting) throws {
    let x = integerPoints(rows: 800, columns: 4, values: 0...3, seed: 11)
    var generator = TestGenerator(seed: 12)
    let labels = (0..<800).map { _ in Int.random(in: 0..<3, using: &generator) }
    let queries = integerPoints(rows: 300, columns: 4, values: -1...4, seed: 13)
    for k in [1, 5, 9] {
      let kd = try KNearestNeighbors(k: k, weights: weights, index: .kdTree, leafSize: 3)
        .fit(x, labels: labels, classCount: 3)
      let brute = try KNearestNeighbors(k: k, weights: weights, index: .brute).fit(x, labels: labels, classCount: 3)
      #expect(kd.indexKind == .kdTree && brute.indexKind == .linear)
      #expect(kd.neighbors(queries) == brute.neighbors(queries))
      let a = kd.predictProbabilities(queries)
      let b = brute.predictProbabilities(queries)
      #expect(a.values.map(\.bitPattern) == b.values.map(\.bitPattern), "k = \(k)")
    }
  }

  /// A fitted model taken to another k or weighting predicts as that configuration's own fit does; one that
  /// would build another index is refused.
  @Test func reconfiguredEqualsItsOwnFit() throws {
    let points = integerPoints(rows: 300, columns: 2, values: 0...5, seed: 4)
    let labels = (0..<300).map { ($0 * 7 + $0 / 11) % 3 }
    let queries = integerPoints(rows: 50, columns: 2, values: -1...6, seed: 5)
    let fitted = try KNearestNeighbors(k: 40).fit(points, labels: labels, classCount: 3)
    for configuration in [KNearestNeighbors(k: 3, weights: .distance), KNearestNeighbors(k: 149)] {
      let shared = try #require(fitted.reconfigured(as: configuration))
      let own = try configuration.fit(points, labels: labels, classCount: 3)
      #expect(shared.predictProbabilities(queries) == own.predictProbabilities(queries))
      #expect(shared.parameterCount == own.parameterCount)
    }
    // k = 150 is not below half the rows, so `auto` would take brute force instead.
    #expect(fitted.reconfigured(as: KNearestNeighbors(k: 150)) == nil)
    #expect(fitted.reconfigured(as: KNearestNeighbors(k: 5, leafSize: 10)) == nil)
    #expect(fitted.reconfigured(as: GaussianNaiveBayes()) == nil)
  }

  @Test func equallyDistantNeighboursGoToTheLowerTrainingRow() throws {
    // Rows 0 and 1 are both at distance 1 from the query; row 0 (class 1) wins.
    let x = Matrix([[1, 0], [-1, 0], [9, 9]])
    for index in [KNearestNeighbors.IndexChoice.kdTree, .brute] {
      let fitted = try KNearestNeighbors(k: 1, index: index, leafSize: 1).fit(x, labels: [1, 0, 0], classCount: 2)
      #expect(fitted.predictProbabilities(Matrix([[0, 0]])) == Matrix([[0, 1]]))
    }
  }

  @Test func zeroDistanceNeighboursShareAllTheWeight() throws {
    let x = Matrix([[0, 0], [0, 0], [0, 0], [1, 0], [0, 1]])
    let fitted = try KNearestNeighbors(k: 5, weights: .distance).fit(x, labels: [0, 1, 1, 0, 0], classCount: 2)
    let p = fitted.predictProbabilities(Matrix([[0, 0], [0.5, 0]]))
    #expect(p[0, 0] == 1.0 / 3 && p[0, 1] == 2.0 / 3)
    // From (0.5, 0), rows 0–3 are at distance 0.5 and row 4 at √1.25; weights are 1/d.
    let near = 1 / 0.5
    let far = 1 / (1.25 as Double).squareRoot()
    // Class 0 gets rows 0, 3 and 4, class 1 rows 1 and 2, added in neighbour order.
    let total = ((near + near) + far) + (near + near)
    #expect(p[1, 1] == (near + near) / total)
  }

  @Test func probabilitiesAreClassSharesOfTheNeighbours() throws {
    let x = Matrix((0..<10).map { [Double($0)] })
    let fitted = try KNearestNeighbors().fit(x, labels: [0, 0, 0, 1, 1, 2, 2, 2, 2, 2], classCount: 3)
    // Neighbours of 2.2: rows 2, 3, 1, 4, 0.
    let p = fitted.predictProbabilities(Matrix([[2.2]]))
    #expect(p == Matrix([[0.6, 0.4, 0]]))
    #expect(fitted.parameterCount == 10 + 10)
  }

  @Test func autoPicksScikitLearnsIndex() {
    let model = KNearestNeighbors()
    #expect(model.resolvedIndex(rows: 12, features: 15) == .kdTree)
    #expect(model.resolvedIndex(rows: 11, features: 4) == .linear)  // k = 5 is not < 11 / 2
    #expect(model.resolvedIndex(rows: 1000, features: 16) == .linear)
    #expect(model.resolvedIndex(rows: 1000, features: 4, sparse: true) == .linear)
    #expect(KNearestNeighbors(index: .kdTree).resolvedIndex(rows: 3, features: 40) == .kdTree)
    #expect(KNearestNeighbors(index: .brute).resolvedIndex(rows: 1000, features: 2) == .linear)
  }

  /// scikit-learn's `ColumnTransformer` passes a sparse matrix on when under 30% of the values are non-zero.
  @Test func sparseMeansUnderThirtyPercentNonZero() throws {
    #expect(NeighborIndexKind.isSparse(Matrix([[1, 0, 0, 0, 0], [0, 0, 0, 0, 1]])))  // 20%
    #expect(!NeighborIndexKind.isSparse(Matrix([[1, 0, 0, 0, 0], [0, 0, 0, 1, 1]])))  // 30%
    #expect(!NeighborIndexKind.isSparse(Matrix(rows: 0, columns: 3)))
    // A numeric column beside one-hot columns of 12 categories: 2 of 13 values non-zero.
    let oneHot = Matrix(
      (0..<200).map { (r: Int) -> [Double] in
        var row = [Double](repeating: 0, count: 13)
        row[0] = Double(r % 7 + 1)
        row[1 + r % 12] = 1
        return row
      })
    let labels = (0..<200).map { $0 % 2 }
    let fitted = try KNearestNeighbors().fit(oneHot, labels: labels, classCount: 2)
    #expect(fitted.sparse && fitted.indexKind == .linear)
  }

  @Test func refusesMoreNeighboursThanTrainingRows() {
    let x = Matrix([[0], [1], [2]])
    #expect(throws: ModelError.self) { try KNearestNeighbors(k: 4).fit(x, labels: [0, 1, 0], classCount: 2) }
    #expect(throws: ModelError.self) {
      try KNearestNeighbors(k: 1).fit(Matrix([[0], [.nan]]), labels: [0, 1], classCount: 2)
    }
  }

  @Test func readsSettingsWithAliasesAndScikitLearnWords() throws {
    var reader = SettingsReader(["k": "7", "weights": "distance", "algorithm": "kd_tree", "leaf_size": "12"])
    let model = try KNearestNeighbors(settings: &reader)
    #expect(model == KNearestNeighbors(k: 7, weights: .distance, index: .kdTree, leafSize: 12))
    #expect(
      model.parameters == [
        "n_neighbors": .int(7), "weights": .string("distance"), "algorithm": .string("kd_tree"),
        "leaf_size": .int(12),
      ])
    #expect(model.descriptor.id == "knn")

    var brute = SettingsReader(["n_neighbors": "3", "index": "brute"])
    #expect(try KNearestNeighbors(settings: &brute).index == .brute)
    var linear = SettingsReader(["index": "linear"])
    #expect(try KNearestNeighbors(settings: &linear).index == .brute)
    var defaults = SettingsReader()
    #expect(try KNearestNeighbors(settings: &defaults) == KNearestNeighbors())
  }

  @Test(arguments: [
    ["n_neighbors": "0"], ["k": "2.5"], ["weights": "gaussian"], ["index": "ball_tree"], ["leaf_size": "0"],
    ["k": "3", "n_neighbors": "3"], ["metric": "manhattan"],
  ])
  func rejectsBadSettings(values: [String: String]) {
    var reader = SettingsReader(values)
    #expect(throws: SettingError.self) { try KNearestNeighbors(settings: &reader) }
  }
}

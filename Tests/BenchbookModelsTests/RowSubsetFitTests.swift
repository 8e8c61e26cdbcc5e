import BenchbookData
import BenchbookModels
import Testing

/// A fit that reads a fold's rows where they are (`RowSubset`) must be the fit on those rows gathered: the same
/// rows in the same order, so the same numbers bit for bit, for every model that fits that way.
@Suite struct RowSubsetFitTests {
  static let models: [any RowSubsetFitting] = [
    GaussianNaiveBayes(), GaussianNaiveBayes(varSmoothing: 1e-3), LinearDiscriminantAnalysis(),
  ]

  /// Runs of consecutive rows covering `rows` in their order.
  static func runs(of rows: [Int]) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    for row in rows {
      if let last = runs.last, last.upperBound == row {
        runs[runs.count - 1] = last.lowerBound..<row + 1
      } else {
        runs.append(row..<row + 1)
      }
    }
    return runs
  }

  static func subset(_ x: Matrix, labels: [Int], rows: [Int]) -> RowSubset {
    let runs = runs(of: rows)
    return RowSubset(x, count: rows.count, labelOfRow: labels) { visit in for run in runs { visit(run) } }
  }

  /// Probabilities of every row of `x` from `model` fitted both ways on `rows`.
  static func bothWays(
    _ model: any RowSubsetFitting, _ x: Matrix, labels: [Int], rows: [Int], classCount: Int
  ) throws -> (inPlace: Matrix, gathered: Matrix) {
    let inPlace = try model.fitPresentClasses(subset(x, labels: labels, rows: rows), classCount: classCount)
    let gathered = try model.fitPresentClasses(
      x.selecting(rows: rows), labels: rows.map { labels[$0] }, classCount: classCount)
    return (inPlace.predictProbabilities(x), gathered.predictProbabilities(x))
  }

  @Test func subsetsInAnyOrderFitAsGathered() throws {
    let data = try DecisionTreeSeedTests.dataset("iris.csv")
    let n = data.x.rows
    let scrambled = (0..<n).sorted { ($0 * 7919) % 1013 < ($1 * 7919) % 1013 }
    let subsets = [
      Array(0..<n), Array(stride(from: 1, to: n, by: 2)), Array(scrambled.prefix(n * 3 / 5)),
      Array(10..<60) + Array(90..<150),
    ]
    for model in Self.models {
      for (s, rows) in subsets.enumerated() {
        let (inPlace, gathered) = try Self.bothWays(
          model, data.x, labels: data.labels, rows: rows, classCount: data.classCount)
        #expect(
          inPlace.values.map(\.bitPattern) == gathered.values.map(\.bitPattern), "\(model.descriptor), subset \(s)")
      }
    }
  }

  /// The fitted parameters themselves, not only the probabilities: a subset read in place gives what the same
  /// rows gathered in its order give (positions, order and sums; scikit-learn's goldens hold the fit itself).
  @Test func parametersEqualTheGatheredFits() throws {
    let data = try DecisionTreeSeedTests.dataset("iris.csv")
    let rows = Array(stride(from: 0, to: data.x.rows, by: 3)) + [1, 4]
    let subset = Self.subset(data.x, labels: data.labels, rows: rows)
    let gatheredX = data.x.selecting(rows: rows)
    let gatheredLabels = rows.map { data.labels[$0] }
    #expect(
      try GaussianNaiveBayes().fit(subset, classCount: 3)
        == GaussianNaiveBayes().fit(gatheredX, labels: gatheredLabels, classCount: 3))
    #expect(
      try LinearDiscriminantAnalysis().fit(subset, classCount: 3)
        == LinearDiscriminantAnalysis().fit(gatheredX, labels: gatheredLabels, classCount: 3))
  }

  /// Rows of a class the fold lacks keep any label; the fit renumbers the classes present and answers zero for
  /// the missing one, as the gathered fit does.
  @Test func subsetLackingAClass() throws {
    let data = try DecisionTreeSeedTests.dataset("iris.csv")
    let rows = Array(50..<150).filter { $0 % 4 != 0 }
    for model in Self.models {
      let (inPlace, gathered) = try Self.bothWays(model, data.x, labels: data.labels, rows: rows, classCount: 3)
      #expect(inPlace.values.map(\.bitPattern) == gathered.values.map(\.bitPattern), "\(model.descriptor)")
      #expect((0..<inPlace.rows).allSatisfy { inPlace[$0, 0] == 0 })
    }
    let single = try GaussianNaiveBayes().fitPresentClasses(
      Self.subset(data.x, labels: data.labels, rows: Array(0..<50)), classCount: 3)
    #expect(single.predictProbabilities(data.x).values.allSatisfy { $0 == 0 || $0 == 1 })
  }

  /// A value that is not finite in the subset's rows is refused with the gathered fit's message; one outside
  /// them is never read.
  @Test func nonFiniteValuesOnlyInTheSubsetAreRefused() throws {
    var values = (0..<40).map { Double(($0 * 37) % 11) }
    values[5] = .nan
    let x = Matrix(rows: 20, columns: 2, values: values)
    let labels = (0..<20).map { $0 % 2 }
    for model in Self.models {
      let rows = Array(0..<20).reversed().filter { $0 != 7 }
      var messages: [String] = []
      do {
        _ = try model.fitPresentClasses(Self.subset(x, labels: labels, rows: rows), classCount: 2)
      } catch { messages.append(error.message) }
      do {
        _ = try model.fitPresentClasses(x.selecting(rows: rows), labels: rows.map { labels[$0] }, classCount: 2)
      } catch { messages.append(error.message) }
      #expect(messages.count == 2, "\(model.descriptor)")
      #expect(messages.first == messages.last)
      #expect(messages.first?.contains("missing or infinite") == true)
      let (inPlace, gathered) = try Self.bothWays(model, x, labels: labels, rows: Array(3..<20), classCount: 2)
      #expect(inPlace.values.map(\.bitPattern) == gathered.values.map(\.bitPattern))
    }
  }
}

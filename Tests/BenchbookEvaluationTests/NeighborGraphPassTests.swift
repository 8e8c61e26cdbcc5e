import BenchbookData
import BenchbookSpec
import Foundation
import Testing

@testable import BenchbookEvaluation

/// A tuned kNN model's splits scored together by one neighbour search over every row must give exactly what
/// fitting each split on its own gives: same neighbours, same ties, same sums, in the same order.
@Suite struct NeighborGraphPassTests {
  /// Every task's output, as JSON with the timings zeroed; a fit on all rows by its parameter count and a
  /// digest of its probabilities for every row and for every row moved off the data's grid (half a unit up),
  /// where a tree's thresholds and a neighbour search's ties both show.
  static func outputs(_ plan: RunPlan, sharing: Bool) throws -> [String] {
    let x = plan.dataset.x
    let moved = Matrix(rows: x.rows, columns: x.columns, values: x.values.map { $0 + 0.5 })
    let outputs = try plan.execute(Array(plan.tasks.indices), jobs: 2, sharing: sharing, progress: nil)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return try plan.tasks.indices.map { index in
      switch outputs[index]! {
      case .tuning(var scores):
        scores.fitSeconds = 0
        scores.predictSeconds = 0
        return "tuning " + String(decoding: try encoder.encode(scores), as: UTF8.self)
      case .fold(var outcome):
        outcome.fitSeconds = 0
        outcome.predictSeconds = 0
        return "fold " + String(decoding: try encoder.encode(outcome), as: UTF8.self)
      case .allRows(let pipeline):
        // FNV-1a over the probabilities' bits: equal outputs, equal digests, and a short message when they differ.
        let probabilities = pipeline.predictProbabilities(x).values + pipeline.predictProbabilities(moved).values
        let digest = probabilities.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ $1.bitPattern) &* 0x100_0000_01b3 }
        return "all rows \(pipeline.classifier.parameterCount) parameters, probabilities \(digest)"
      }
    }
  }

  /// Runs `yaml` (its data in `folder`) with and without shared work and expects every task's output to be the
  /// same; returns the outputs.
  @discardableResult
  static func expectSharingChangesNothing(_ yaml: String, in folder: URL) throws -> [String] {
    let spec = try SpecParser.parse(yaml: yaml, path: folder.appendingPathComponent("spec.yaml").path)
    let plan = try RunPlan(spec)
    let shared = try outputs(plan, sharing: true)
    let separate = try outputs(plan, sharing: false)
    #expect(shared.count == separate.count)
    for (index, (a, b)) in zip(shared, separate).enumerated() {
      #expect(a == b, "task \(plan.tasks[index])")
    }
    return shared
  }

  /// The resampling plans work shared across splits is checked under: unshuffled and shuffled, stratified,
  /// repeated (rows tested in several splits) and a single holdout.
  static let resamplings = [
    "resampling: {method: kfold, folds: 4}",
    "resampling: {method: stratified-kfold, folds: 3, shuffle: true, seed: 7}",
    "resampling: {method: repeated-kfold, folds: 3, repeats: 2, seed: 1}",
    "resampling: {method: holdout, test_size: 0.25, shuffle: true, seed: 2}",
  ]

  /// Three classes take the shares' general walk; two classes their own two-class walks (counts for uniform
  /// votes, sums in registers for distance votes, with and without a neighbour at distance zero), and a model
  /// weighing by distance alone a walk of its own.
  @Test(arguments: resamplings, [(classes: 3, seed: UInt64(3)), (2, 5)])
  func sharedSearchEqualsSeparateFits(resampling: String, data: (classes: Int, seed: UInt64)) throws {
    try TieData.withFolder(rows: 240, seed: data.seed, classes: data.classes) { folder in
      let yaml = """
        \(TieData.specHeader)
        \(resampling)
        models:
          - KNN: {k: [1, 3, 8, 40], weights: [uniform, distance]}
          - KNN: {k: [5], weights: [distance], label: DIST}
        tune: {inner: {method: stratified-kfold, folds: 3}}
        budget: {model_size_bytes: 5000}
        """
      let outputs = try Self.expectSharingChangesNothing(yaml, in: folder)
      #expect(outputs.allSatisfy { $0.hasPrefix("tuning ") })
    }
  }

  /// One-hot columns push the data past 15 columns: the pass searches by brute force, as each split's fit does.
  @Test(arguments: resamplings.prefix(2))
  func sharedBruteForceSearchEqualsSeparateFits(resampling: String) throws {
    try TieData.withFolder(rows: 240, seed: 13, wide: true) { folder in
      let yaml = """
        data: {path: data.csv}
        target: y
        features: [a, b, c, g]
        \(resampling)
        models:
          - KNN: {k: [1, 3, 8, 40], weights: [uniform, distance]}
          - KNN: {k: [2, 9], algorithm: kd_tree, label: KD}
        tune: {inner: {method: stratified-kfold, folds: 3}}
        """
      let outputs = try Self.expectSharingChangesNothing(yaml, in: folder)
      #expect(outputs.allSatisfy { $0.hasPrefix("tuning ") })
    }
  }
}

/// The pass's failure path: a query whose every distance overflows gives a non-finite share, and the run must stop
/// with the error separate fits give, from the same split. The pass takes this data (checked first, so the test
/// cannot pass by the pass declining it); with its checks of the shares (as it writes them, and as it records its
/// splits) taken out, the non-finite share reaches the scores and the run crashes.
@Suite struct NeighborGraphPassFailureTests {
  /// 48 rows of small integers and, at `farRow`, one row of 1e154 in both features: each column's squares stay
  /// finite (so the pass is taken), but that row's squared distance to every other row overflows.
  static func withFarRowFolder<T>(farRow: Int, _ body: (URL) throws -> T) throws -> T {
    var generator = SeededGenerator(seed: 11)
    var text = "a,b,y\n"
    for row in 0..<48 {
      let (a, b) =
        row == farRow
        ? ("1e154", "1e154")
        : (String(Int.random(in: 0...5, using: &generator)), String(Int.random(in: 0...5, using: &generator)))
      text += "\(a),\(b),\(row % 2 == 0 ? "p" : "q")\n"
    }
    return try TieData.withFolder(csv: text, body)
  }

  /// What `execute` gives: every output, or the error it stopped with.
  static func outcome(_ plan: RunPlan, sharing: Bool) -> String {
    do {
      return try NeighborGraphPassTests.outputs(plan, sharing: sharing).joined(separator: "\n")
    } catch {
      return "error: \(error)"
    }
  }

  /// The far row in the first outer fold's test block (row 3) and in the last's (row 40); the inner splits of the
  /// other outer folds test it too. Both paths stop with the outer fold that tests it, at its line.
  @Test(arguments: [3, 40], ["[distance]", "[distance, uniform]"])
  func aNonFiniteShareStopsTheRunAsSeparateFitsDo(farRow: Int, weights: String) throws {
    try Self.withFarRowFolder(farRow: farRow) { folder in
      let yaml = """
        data: {path: data.csv}
        target: y
        features: [a, b]
        resampling: {method: kfold, folds: 4}
        models:
          - KNN: {k: [1, 3], weights: \(weights)}
        tune: {inner: {method: stratified-kfold, folds: 3}}
        """
      let spec = try SpecParser.parse(yaml: yaml, path: folder.appendingPathComponent("spec.yaml").path)
      let plan = try RunPlan(spec)
      let tuning = try #require(plan.tunings[0])
      let splits = plan.tasks.compactMap { task -> TuningSplit? in
        guard case .tuning(_, let split) = task else { return nil }
        return split
      }
      #expect(tuning.sharedPass(splits, with: plan.evaluator) != nil, "the shared pass takes this data")
      let shared = Self.outcome(plan, sharing: true)
      let separate = Self.outcome(plan, sharing: false)
      #expect(shared.hasPrefix("error: "), "the far row's shares are not finite")
      #expect(shared.contains("(fold \(farRow / 12 + 1))"), "the error names the outer fold testing the far row")
      #expect(shared.contains("data line \(farRow + 2)"), "the error names the far row's line")
      #expect(shared == separate)
    }
  }
}

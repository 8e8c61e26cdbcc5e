import BenchbookData
import BenchbookEvaluation
import BenchbookSpec
import Foundation
import Testing

/// An untuned kNN model's folds searched in one tree over every row must score exactly as fitting each fold's
/// own tree does: same neighbours, same distance ties, same sums in the same order.
@Suite struct SharedNeighborTreeTests {
  @Test(arguments: NeighborGraphPassTests.resamplings)
  func sharedTreeEqualsEachFoldsOwn(resampling: String) throws {
    // Integer features with many repeated rows: zero distances and distance ties throughout.
    try TieData.withFolder(rows: 240, seed: 5) { folder in
      let yaml = """
        \(TieData.specHeader)
        \(resampling)
        models:
          - KNN
          - KNN: {n_neighbors: 1, leaf_size: 2, label: K1}
          - KNN: {n_neighbors: 40, weights: distance, leaf_size: 7, label: K40}
          - KNN: {n_neighbors: 3, algorithm: brute, label: K3B}
        """
      let outputs = try NeighborGraphPassTests.expectSharingChangesNothing(yaml, in: folder)
      // Every fold of the four models, then each one's fit on all rows.
      #expect(outputs.count { $0.hasPrefix("fold ") } == outputs.count - 4)
    }
  }

  /// With one-hot columns past 15 the shared index is brute force, as each fold's own fit is; a kd-tree asked
  /// for by name is shared as a kd-tree.
  @Test(arguments: NeighborGraphPassTests.resamplings.prefix(2))
  func sharedBruteForceEqualsEachFoldsOwn(resampling: String) throws {
    try TieData.withFolder(rows: 240, seed: 7, wide: true) { folder in
      let yaml = """
        data: {path: data.csv}
        target: y
        features: [a, b, c, g]
        \(resampling)
        models:
          - KNN
          - KNN: {n_neighbors: 40, weights: distance, label: K40}
          - KNN: {n_neighbors: 3, algorithm: kd_tree, label: K3T}
        """
      let outputs = try NeighborGraphPassTests.expectSharingChangesNothing(yaml, in: folder)
      #expect(outputs.count { $0.hasPrefix("fold ") } == outputs.count - 3)
    }
  }

  /// Time-series splits train on runs of the rows in time order, not in file order: the shared tree stores its
  /// points in time order, so a split's training rows are a run of it and ties still go to the earlier one.
  @Test func timeOrderedTreeEqualsEachSplitsOwn() throws {
    try TieData.withFolder(rows: 300, seed: 11) { folder in
      // A time column out of file order, with many rows sharing a minute (ties keep file order).
      let file = folder.appendingPathComponent("data.csv")
      var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
      var generator = SeededGenerator(seed: 4)
      lines[0] += ",t"
      for i in 1..<lines.count {
        let minute = Int.random(in: 0..<40, using: &generator)
        lines[i] += ",2020-01-01T00:\(minute < 10 ? "0" : "")\(minute):00Z"
      }
      try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
      let yaml = """
        data: {path: data.csv}
        target: y
        time: t
        features: [a, b, c]
        resampling: {method: time-series, folds: 5}
        models:
          - KNN
          - KNN: {n_neighbors: 9, weights: distance, label: K9}
        """
      let outputs = try NeighborGraphPassTests.expectSharingChangesNothing(yaml, in: folder)
      #expect(outputs.count { $0.hasPrefix("fold ") } == 10)
      // Some splits train on under a third of the rows and fit their own tree; the rest share one.
      let time = try RunPlan(SpecParser.parse(yaml: yaml, path: folder.appendingPathComponent("spec.yaml").path)).plan
      #expect(time.folds.contains { 3 * $0.train.count < 300 })
      #expect(time.folds.contains { 3 * $0.train.count >= 300 })
    }
  }

  /// The fold a shared search stands for is the fold's own: its fit time is its share of the one build.
  @Test func foldsAreChargedAShareOfTheBuild() throws {
    try TieData.withFolder(rows: 400, seed: 9) { folder in
      let yaml = """
        \(TieData.specHeader)
        resampling: {method: kfold, folds: 5}
        models: [KNN]
        """
      let spec = try SpecParser.parse(yaml: yaml, path: folder.appendingPathComponent("spec.yaml").path)
      let plan = try RunPlan(spec)
      let outputs = try plan.execute(Array(plan.tasks.indices), jobs: 2, sharing: true, progress: nil)
      let fitSeconds = plan.tasks.indices.compactMap { index -> Double? in
        guard case .fold(let outcome) = outputs[index]! else { return nil }
        return outcome.fitSeconds
      }
      #expect(fitSeconds.count == 5)
      // One build, charged in equal fifths.
      #expect(Set(fitSeconds).count == 1)
      #expect(fitSeconds[0] > 0)
    }
  }
}

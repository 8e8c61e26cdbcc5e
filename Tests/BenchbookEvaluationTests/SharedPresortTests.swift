import BenchbookData
import BenchbookEvaluation
import BenchbookSpec
import Foundation
import Testing

/// An untuned decision tree's folds grown from features sorted once must score exactly as each fold's own fit:
/// the same trees, node for node, so the same probabilities.
@Suite struct SharedPresortTests {
  static let trees = """
    models:
      - DT
      - DT: {max_depth: 3, label: DT3}
      - DT: {criterion: entropy, min_samples_leaf: 4, random_state: none, label: DTE}
      - DT: {min_samples_split: 9, min_impurity_decrease: 0.001, random_state: 7, label: DT7}
    """

  @Test(arguments: NeighborGraphPassTests.resamplings)
  func presortedFoldsEqualEachFoldsOwn(resampling: String) throws {
    // Integer features: ties at every node.
    try TieData.withFolder(rows: 240, seed: 5) { folder in
      let yaml = """
        \(TieData.specHeader)
        \(resampling)
        \(Self.trees)
        """
      let outputs = try NeighborGraphPassTests.expectSharingChangesNothing(yaml, in: folder)
      #expect(outputs.count { $0.hasPrefix("fold ") } == outputs.count - 4)
    }
  }

  /// A tuned tree's splits grown from features sorted once must score exactly as each split's own fits: the
  /// deepest configuration from the sorted features, the shallower ones cut from it (or grown again from the
  /// split's rows where a seeded tie goes another way).
  @Test(arguments: NeighborGraphPassTests.resamplings)
  func tunedSplitsFromSortedFeaturesEqualEachSplitsOwn(resampling: String) throws {
    try TieData.withFolder(rows: 240, seed: 5) { folder in
      let yaml = """
        \(TieData.specHeader)
        \(resampling)
        models:
          - DT: {max_depth: [1, 2, 4, null]}
          - DT: {max_depth: [2, null], criterion: [gini, entropy], random_state: 7, label: DT7}
        tune: {inner: {method: stratified-kfold, folds: 3}}
        """
      let outputs = try NeighborGraphPassTests.expectSharingChangesNothing(yaml, in: folder)
      #expect(outputs.allSatisfy { $0.hasPrefix("tuning ") })
      // The splits did share sorted features: the estimate counts them, by the decision the run takes.
      let plan = try RunPlan(SpecParser.parse(yaml: yaml, path: folder.appendingPathComponent("spec.yaml").path))
      let estimate = plan.memoryEstimate(Array(plan.tasks.indices), jobs: 2, audits: false)
      #expect(estimate.inputs.sharedBytes == 2 * plan.dataset.x.rows * plan.dataset.x.columns * 4)
    }
  }

  /// A fold whose training rows lack a class fits on the classes present and answers zero for the missing one,
  /// as its own fit does.
  @Test func foldMissingAClass() throws {
    try TieData.withFolder(rows: 200, seed: 13) { folder in
      // Three rows of a rare class at the top of the file: the first unshuffled fold tests all of them.
      try Self.editData(in: folder) { $0.insert(contentsOf: ["4,3,2,w", "0,0,0,w", "2,1,1,w"], at: 1) }
      let yaml = """
        \(TieData.specHeader)
        resampling: {method: kfold, folds: 4}
        \(Self.trees)
        """
      _ = try NeighborGraphPassTests.expectSharingChangesNothing(yaml, in: folder)
      let plan = try RunPlan(SpecParser.parse(yaml: yaml, path: folder.appendingPathComponent("spec.yaml").path))
      let rare = try #require(plan.dataset.classes.firstIndex(of: "w"))
      #expect(plan.plan.folds[0].train.allSatisfy { plan.dataset.labels[$0] != rare })
    }
  }

  /// A value beyond float32 stops the presort; each fold then fits its own rows and reports the value's place,
  /// with or without sharing.
  @Test func valueBeyondFloat32IsReportedAsWithoutSharing() throws {
    try TieData.withFolder(rows: 60, seed: 3) { folder in
      try Self.editData(in: folder) { $0[40] = "1e39,1,1,x" }
      let yaml = """
        \(TieData.specHeader)
        resampling: {method: kfold, folds: 3}
        models: [DT]
        """
      let plan = try RunPlan(SpecParser.parse(yaml: yaml, path: folder.appendingPathComponent("spec.yaml").path))
      let folds = plan.tasks.indices.filter { if case .fold = plan.tasks[$0] { true } else { false } }
      var messages: [String] = []
      for sharing in [true, false] {
        do {
          _ = try plan.execute(folds, jobs: 1, sharing: sharing, progress: nil)
          Issue.record("a value beyond float32 was accepted")
        } catch {
          messages.append(String(describing: error))
        }
      }
      #expect(messages.count == 2)
      #expect(messages.first == messages.last)
      #expect(messages.first?.contains("float32") == true)
    }
  }

  /// Rewrites the lines of `folder`'s data.csv (the header is line 0).
  static func editData(in folder: URL, _ edit: (inout [String]) -> Void) throws {
    let file = folder.appendingPathComponent("data.csv")
    var lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    edit(&lines)
    try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
  }
}

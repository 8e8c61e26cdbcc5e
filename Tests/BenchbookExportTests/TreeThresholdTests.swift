import BenchbookData
import BenchbookExport
import BenchbookModels
import Testing

/// Benchbook's tree compares float32-rounded values with its thresholds;
/// the exported tree compares doubles. Probed at and around every threshold,
/// including the exact float32 rounding boundaries, both take the same path.
@Suite struct TreeThresholdTests {
  /// Values on both sides of where `Float(x) <= t` flips, and t itself.
  static func probes(around t: Double) -> [Double] {
    var a = Float(t)
    if Double(a) > t { a = a.nextDown }
    let midpoint = (Double(a) + Double(a.nextUp)) / 2
    return [
      t, t.nextUp, t.nextDown, Double(a), Double(a.nextUp), Double(a.nextDown), midpoint, midpoint.nextUp,
      midpoint.nextDown,
    ]
  }

  @Test(arguments: [ExportFixtures.Case.binary, .binaryStandardized, .iris])
  func probesAroundEveryThreshold(_ fixture: ExportFixtures.Case) throws {
    let trained = try ExportFixtures.train(fixture, model: "DT")
    guard let tree = trained.pipeline.classifier as? FittedDecisionTree else {
      Issue.record("not a tree")
      return
    }
    // The file's input is the spec's raw features, so probe the scaled values through the
    // exported classifier stage alone, which reads the design matrix as the fitted tree does.
    let stage = try #require(trained.exported.model.stages.last).model
    let evaluator = try CoreMLEvaluator(model: stage)
    let base = trained.pipeline.preprocessing.transform(trained.testX).row(0)
    var rows: [[Double]] = []
    for node in tree.nodes where !node.isLeaf {
      for value in Self.probes(around: node.threshold) {
        var row = base
        row[node.feature] = value
        rows.append(row)
      }
    }
    let probes = Matrix(rows)
    let expected = tree.predictProbabilities(probes)
    let input = stage.description.inputs[0].name
    let actual = try evaluator.probabilities(
      (0..<probes.rows).map { [input: .array(probes.row($0))] }, classes: trained.dataset.classes)
    let mismatched = (0..<probes.rows).filter { actual.row($0) != expected.row($0) }
    #expect(
      mismatched.isEmpty, "\(mismatched.count) of \(probes.rows) probes take another path, e.g. \(mismatched.prefix(5))"
    )
    #expect(probes.rows >= 9)
  }
}

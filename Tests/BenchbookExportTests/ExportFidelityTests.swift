import BenchbookData
import BenchbookEvaluation
import BenchbookExport
import BenchbookModels
import Foundation
import Testing

/// The exported file predicts what Benchbook measured: decode it, evaluate it
/// with Core ML's semantics, and compare its probabilities with the harness's
/// own fitted pipeline on rows the model never saw.
@Suite struct ExportFidelityTests {
  /// Largest absolute probability difference allowed: the file stores doubles
  /// for GLMs, trees and scalers, float32 for kNN samples and network weights.
  static func tolerance(_ exported: ExportedModel) -> Double {
    switch exported.model.stages.last?.model.kind {
    case .kNearestNeighborsClassifier, .neuralNetworkClassifier: 1e-5
    default: 1e-9
    }
  }

  @Test(arguments: ExportFixtures.Case.allCases, ExportFixtures.Case.modelLabels)
  func fileMatchesHarness(_ fixture: ExportFixtures.Case, label: String) throws {
    let trained = try ExportFixtures.train(fixture, model: label)
    let evaluator = try CoreMLEvaluator(serializedBytes: trained.exported.bytes)
    let rows = RawFeatureRows.rows(trained.testX, features: trained.dataset.features)
    let fromFile = try evaluator.probabilities(rows, classes: trained.dataset.classes)
    let fromHarness = trained.pipeline.predictProbabilities(trained.testX)
    // kNN rows may differ only where float32 samples can reorder near-equidistant neighbours.
    let ties = NeighbourTies.rows(trained)
    let tolerance = Self.tolerance(trained.exported)
    var worst = 0.0
    var differing = Set<Int>()
    for r in 0..<fromFile.rows {
      let difference = (0..<fromFile.columns).map { abs(fromFile[r, $0] - fromHarness[r, $0]) }.max() ?? 0
      if difference > tolerance { differing.insert(r) }
      if !ties.contains(r) { worst = max(worst, difference) }
    }
    #expect(worst <= tolerance, "largest difference outside neighbour ties: \(worst)")
    #expect(differing.isSubset(of: ties), "rows \(differing.subtracting(ties).sorted()) differ without a tie")
    #expect(differing.count * 10 <= fromFile.rows, "\(differing.count) of \(fromFile.rows) rows differ")
  }

  /// Every row the file predicts is a probability distribution over the data's classes.
  @Test(arguments: ExportFixtures.Case.allCases, ExportFixtures.Case.modelLabels)
  func probabilitiesSumToOne(_ fixture: ExportFixtures.Case, label: String) throws {
    let trained = try ExportFixtures.train(fixture, model: label)
    let evaluator = try CoreMLEvaluator(serializedBytes: trained.exported.bytes)
    let rows = RawFeatureRows.rows(trained.testX, features: trained.dataset.features)
    for row in rows {
      let prediction = try evaluator.predict(row)
      #expect(Set(prediction.probabilities.keys).isSubset(of: Set(trained.dataset.classes)))
      #expect(abs(prediction.probabilities.values.reduce(0, +) - 1) < 1e-9)
      let best = prediction.probabilities.values.max() ?? 0
      #expect(prediction.probabilities[prediction.label] == best)
    }
  }
}

/// Held-out rows whose k-th and (k+1)-th nearest training rows are equidistant
/// or nearly so (relative 1e-5), where float32 samples may swap which one is a
/// neighbour: coreml.md's "labels match except on ties".
enum NeighbourTies {
  static func rows(_ trained: ExportFixtures.Trained) -> Set<Int> {
    guard case .neighbors(let knn)? = try? trained.pipeline.classifier.exportForm() else { return [] }
    let queries = trained.pipeline.preprocessing.transform(trained.testX)
    let samples = knn.samples
    var ties = Set<Int>()
    for q in 0..<queries.rows {
      var distances: [Double] = []
      for s in 0..<samples.rows {
        var d2 = 0.0
        for f in 0..<queries.columns {
          let difference = queries[q, f] - samples[s, f]
          d2 += difference * difference
        }
        distances.append(d2)
      }
      distances.sort()
      guard knn.k < distances.count else { continue }
      let kth = distances[knn.k - 1]
      let next = distances[knn.k]
      if next - kth <= 1e-5 * max(next, 1e-12) { ties.insert(q) }
    }
    return ties
  }
}

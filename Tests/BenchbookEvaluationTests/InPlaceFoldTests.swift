import BenchbookData
import BenchbookEvaluation
import BenchbookModels
import BenchbookSpec
import Foundation
import Testing

/// Untuned naive Bayes and LDA folds read their training rows where they are; each must score exactly as the
/// same model fitted on the fold's rows gathered.
@Suite struct InPlaceFoldTests {
  static let models = """
    models:
      - NB
      - NB: {var_smoothing: 0.01, label: NB2}
      - LDA
    """

  /// Each fold's scores from `evaluate` (in place) against a fit on the gathered rows, bit for bit.
  static func expectInPlaceEqualsGathered(_ yaml: String, in folder: URL) throws {
    let plan = try RunPlan(SpecParser.parse(yaml: yaml, path: folder.appendingPathComponent("spec.yaml").path))
    for model in plan.spec.models {
      for fold in plan.plan.folds {
        let inPlace = try plan.evaluator.evaluate(model, on: fold)
        let data = plan.evaluator.gather(fold)
        let pipeline = try plan.evaluator.fit(model, data.training, fold: fold.index)
        let gathered = FoldScores(probabilities: pipeline.predictProbabilities(data.testX), labels: data.testLabels)
        let place = "\(model.label), fold \(fold.index)"
        #expect(inPlace.scores.logLoss.bitPattern == gathered.logLoss.bitPattern, "\(place)")
        #expect(inPlace.scores.brier.bitPattern == gathered.brier.bitPattern, "\(place)")
        #expect(inPlace.scores.accuracy == gathered.accuracy, "\(place)")
        #expect(inPlace.preprocessingFittedOn == RowSetFingerprint(fold.train), "\(place)")
      }
    }
  }

  @Test(arguments: NeighborGraphPassTests.resamplings)
  func inPlaceFoldsEqualGatheredFits(resampling: String) throws {
    try TieData.withFolder(rows: 240, seed: 11) { folder in
      let yaml = """
        \(TieData.specHeader)
        \(resampling)
        \(Self.models)
        """
      try Self.expectInPlaceEqualsGathered(yaml, in: folder)
    }
  }

  /// A fold whose training rows lack a class renumbers the classes present and answers zero for the missing one.
  @Test func foldMissingAClass() throws {
    try TieData.withFolder(rows: 200, seed: 13) { folder in
      try SharedPresortTests.editData(in: folder) { $0.insert(contentsOf: ["4,3,2,w", "0,0,0,w", "2,1,1,w"], at: 1) }
      let yaml = """
        \(TieData.specHeader)
        resampling: {method: kfold, folds: 4}
        \(Self.models)
        """
      try Self.expectInPlaceEqualsGathered(yaml, in: folder)
    }
  }
}

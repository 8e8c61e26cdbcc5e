import BenchbookData
import BenchbookModels
import BenchbookSpec
import Foundation
import Testing

@testable import BenchbookEvaluation

/// A tuned tree's splits handed shared sorted features do grow from them: built once for every split, every split
/// counted done so they are freed, and the scores those of each split's own fits.
@Suite struct TunedPresortPathTests {
  @Test func splitsBuildTheSortedFeaturesOnceAndScoreAsTheirOwnFits() throws {
    try TieData.withFolder(rows: 240, seed: 5) { folder in
      let yaml = """
        \(TieData.specHeader)
        resampling: {method: kfold, folds: 4}
        models:
          - DT: {max_depth: [1, 2, 4, null]}
        tune: {inner: {method: stratified-kfold, folds: 3}}
        """
      let plan = try RunPlan(SpecParser.parse(yaml: yaml, path: folder.appendingPathComponent("spec.yaml").path))
      let tuning = try #require(plan.tunings[0])
      let splits = tuning.splits
      #expect(splits.count == 4 + 4 * 3 + 3)
      let shared = FoldShared<FeaturePresort?>(folds: splits.count)
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      func text(_ scores: ConfigurationScores) throws -> String {
        var scores = scores
        scores.fitSeconds = 0
        scores.predictSeconds = 0
        return String(decoding: try encoder.encode(scores), as: UTF8.self)
      }
      for split in splits {
        let presorted = try tuning.evaluate(split, with: plan.evaluator, size: nil, presorted: shared)
        let own = try tuning.evaluate(split, with: plan.evaluator, size: nil)
        #expect(try text(presorted) == text(own), "\(split)")
      }
      #expect(shared.counts.builds == 1)
      #expect(shared.counts.pending == 0)
    }
  }
}

import BenchbookData
import BenchbookEvaluation
import Foundation
import Testing

@Suite struct MeasureTests {
  @Test(arguments: Goldens.shared.measures.map(\.case))
  func matchesScikitLearn(caseName: String) throws {
    let golden = try #require(Goldens.shared.measures.first { $0.case == caseName })
    let scores = FoldScores(probabilities: Matrix(golden.probabilities), labels: golden.labels)
    #expect(abs(scores.logLoss - golden.log_loss) <= 1e-12 * golden.log_loss)
    #expect(scores.accuracy == golden.accuracy)
    #expect(abs(scores.brier - golden.brier) <= 1e-12)
    if let auc = golden.roc_auc {
      let value = try #require(scores.rocAUC)
      #expect(abs(value - auc) <= 1e-12)
    }
  }

  @Test func clippingAuditCountsRowsScoredAtEpsilon() {
    // Two rows certain and right, one certain and wrong.
    let p = Matrix([[1, 0], [0, 1], [1, 0]])
    let evaluation = LogLoss.evaluate(p, labels: [0, 1, 1])
    #expect(evaluation.clippedRows == 1)
    let wrong: Double = -log(LogLoss.epsilon)
    let right: Double = -log(1 - LogLoss.epsilon)
    #expect(abs(evaluation.value - (wrong + 2 * right) / 3) < 1e-12)
    #expect(evaluation.clippedShare > 0.999_999)
  }

  @Test func wrongCertaintyCostsAbout36Nats() {
    #expect(abs(LogLoss.loss(0) - 36.04365338911715) < 1e-9)
  }

  @Test func aucIsUndefinedForASingleClassFold() {
    #expect(ROCAUC.evaluate(Matrix([[0.2, 0.8], [0.6, 0.4]]), labels: [1, 1]) == nil)
    // Three classes, only two present: the macro average skips the absent one.
    let p = Matrix([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.6, 0.3, 0.1]])
    let auc = ROCAUC.evaluate(p, labels: [0, 1, 0])
    #expect(auc == 1.0)
  }
}

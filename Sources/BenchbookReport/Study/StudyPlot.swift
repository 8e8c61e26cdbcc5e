import BenchbookEvaluation
import BenchbookStudy

/// One figure of a study's report, drawn from study.json alone.
protocol StudyPlot: Sendable {
  /// File name stem: `critical-difference` → `critical-difference.svg`.
  var id: String { get }
  var title: String { get }
  func script(_ study: StudyResults, output: String) -> GnuplotScript
}

extension StudyPlot {
  var fileName: String { "\(id).svg" }
}

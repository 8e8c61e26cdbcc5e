import BenchbookData
import BenchbookEvaluation
import Foundation

/// Turns results into `report.md` (and its plots). A pure function of the
/// results: no data, no models.
public enum ReportRenderer {
  public static let fileName = "report.md"

  /// The report's sections, in reading order.
  static let sections: [any ReportSection] = [
    HeadlineSection(), LeakAuditSection(placement: .afterTheAnswer), ResultsSection(), TuningSection(), TimingSection(),
    OnDeviceSection(), CalibrationSection(), ComparisonSection(), MethodSection(), DataSection(), PlotsSection(),
    LeakAuditSection(placement: .late), ReproduceSection(),
  ]

  public static func markdown(_ results: ExperimentResults, plots: [PlotOutcome]) -> String {
    let context = ReportContext(results: results, plots: plots)
    return sections.compactMap { $0.render(context) }.joined(separator: "\n")
  }
}

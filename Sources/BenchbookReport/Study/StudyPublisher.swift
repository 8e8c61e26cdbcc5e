import BenchbookData
import BenchbookEvaluation
import BenchbookStudy
import Foundation

/// Writes a study's folder: its plots, study.md and study.json are staged beside it and moved in (study.json last,
/// since the folder holds the experiments' own folders and so is never swapped whole; see `StagedFolder`).
public enum StudyPublisher {
  static let plots: [any StudyPlot] = [CriticalDifferencePlot(), ScoreHeatMapPlot()]

  public struct Written: Sendable {
    public var studyPath: String
    public var reportPath: String
    public var plots: [PlotOutcome]
  }

  /// - Parameter includingStudy: false when re-rendering from a study.json, which is then left as it is.
  @discardableResult
  public static func publish(
    _ study: StudyResults, to directory: String, includingStudy: Bool = true,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> Written {
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    let encoded = try StudyFile.encode(study)
    let staged = try StagedFolder(destination: directory)
    let outcomes = draw(study, into: staged.path, environment: environment)
    try put(Array(StudyReportRenderer.markdown(study, plots: outcomes).utf8), staged.file(StudyReportRenderer.fileName))
    if includingStudy { try put(encoded, staged.file(StudyFile.fileName)) }
    let drawn = outcomes.filter { $0.skippedBecause == nil }.map(\.fileName)
    let names = drawn + [StudyReportRenderer.fileName] + (includingStudy ? [StudyFile.fileName] : [])
    try staged.commit(names, removing: plots.map(\.fileName).filter { !drawn.contains($0) })
    return Written(
      studyPath: prefix + StudyFile.fileName, reportPath: prefix + StudyReportRenderer.fileName, plots: outcomes)
  }

  /// Draws each plot into `directory`; one that cannot be drawn is skipped with its reason.
  static func draw(_ study: StudyResults, into directory: String, environment: [String: String]) -> [PlotOutcome] {
    let gnuplot = Gnuplot.executable(environment: environment)
    return plots.map { plot in
      PlotOutcome.draw(
        id: plot.id, title: plot.title, fileName: plot.fileName, into: directory, gnuplot: gnuplot
      ) { plot.script(study, output: $0) }
    }
  }

  private static func put(_ bytes: [UInt8], _ path: String) throws(AtomicFile.Failure) {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
      throw AtomicFile.Failure(path: path, reason: "cannot create it")
    }
  }
}

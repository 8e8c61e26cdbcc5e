import BenchbookData
import BenchbookEvaluation
import Foundation

/// Writes a report folder as a whole: results.json (for `run` and `merge`), report.md and every plot
/// go into a hidden staging folder beside it, which then takes the folder's place in one step (when
/// it cannot, the files move one by one with results.json last; see `StagedFolder.commit`), so a
/// reader never finds a results.json newer than its report, and a failed or interrupted command leaves
/// the earlier outputs as they were.
public enum ReportPublisher {
  /// What was written where.
  public struct Written: Sendable {
    /// `nil` when only the report was re-rendered.
    public var resultsPath: String?
    public var reportPath: String
    public var plots: [PlotOutcome]
  }

  /// Test-only: seconds to sleep once everything is staged, before the commit, so a kill test can
  /// strike the write phase. Not for users; unset in normal use.
  static let pauseVariable = "BENCHBOOK_TEST_PAUSE_BEFORE_COMMIT"

  /// Checks `results` against the contract, then writes them (when `includingResults`), report.md and the
  /// plots into `directory`; plots Benchbook drew there before and does not draw now are removed.
  /// - Throws: `ResultsFile.ReadError` naming the key path when the results break the contract (nothing is
  ///   written), `AtomicFile.Failure` when a file cannot be written or a target is not a regular file.
  @discardableResult
  public static func publish(
    _ results: ExperimentResults, to directory: String, includingResults: Bool,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> Written {
    let prefix = directory.hasSuffix("/") ? directory : directory + "/"
    let resultsPath = prefix + ResultsFile.fileName
    if let problem = ResultsValidation.firstProblem(results) {
      throw ResultsFile.ReadError(path: resultsPath, reason: "\(problem); nothing was written")
    }
    let encoded = includingResults ? try ResultsFile.encode(results) : nil
    let staged = try StagedFolder(destination: directory)
    let plots = PlotRenderer.draw(results, into: staged.path, environment: environment)
    try put(Array(ReportRenderer.markdown(results, plots: plots).utf8), staged.file(ReportRenderer.fileName))
    var names = plots.filter { $0.skippedBecause == nil }.map(\.fileName) + [ReportRenderer.fileName]
    if let encoded {
      try put(encoded, staged.file(ResultsFile.fileName))
      names.append(ResultsFile.fileName)
    }
    if let pause = environment[pauseVariable].flatMap(Double.init), pause > 0 {
      Thread.sleep(forTimeInterval: pause)
    }
    let drawn = Set(names)
    try staged.commit(names, removing: PlotRenderer.fileNames.filter { !drawn.contains($0) })
    return Written(
      resultsPath: includingResults ? resultsPath : nil,
      reportPath: prefix + ReportRenderer.fileName, plots: plots)
  }

  private static func put(_ bytes: [UInt8], _ path: String) throws(AtomicFile.Failure) {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
      throw AtomicFile.Failure(path: path, reason: "cannot create it")
    }
  }
}

import BenchbookData
import BenchbookEvaluation
import BenchbookSpec
import Foundation

/// Whether an experiment's results.json can stand for a run of it now: the rule `merge` applies to shards,
/// applied to a finished run. Its Benchbook version, its spec file's hash, the spec's definition hash and its
/// data file's hash must all equal today's, and it must carry its leak audit and every model the study compares.
public enum ExperimentFreshness {
  /// Where a study keeps an experiment's report folder: `<study folder>/<experiment name>`.
  public static func folder(_ experiment: StudySpec.Experiment, in studyFolder: String) -> String {
    URL(fileURLWithPath: studyFolder).appendingPathComponent(experiment.spec.name).relativePath
  }

  /// The results in the experiment's folder when they are up to date; why not, otherwise.
  public static func check(_ experiment: StudySpec.Experiment, in studyFolder: String, models: [String])
    -> Result<ExperimentResults, Stale>
  {
    let path = URL(fileURLWithPath: folder(experiment, in: studyFolder)).appendingPathComponent(ResultsFile.fileName)
      .relativePath
    guard FileManager.default.fileExists(atPath: path) else { return .failure(Stale(reason: "no results yet")) }
    let results: ExperimentResults
    do {
      results = try ResultsFile.read(path)
    } catch {
      return .failure(Stale(reason: "\(error)"))
    }
    let spec = experiment.spec
    if results.benchbook != EnvironmentProbe.benchbookVersion {
      return .failure(Stale(reason: "made by Benchbook \(results.benchbook)"))
    }
    guard let specBytes = try? DataFile.storedBytes(atPath: experiment.path),
      SHA256.hexDigest(specBytes) == results.spec.sha256,
      SHA256.hexDigest(spec.definitionText) == results.spec.definitionSha256
    else { return .failure(Stale(reason: "the spec changed")) }
    guard let dataBytes = try? DataFile.storedBytes(atPath: spec.dataset.path),
      SHA256.hexDigest(dataBytes) == results.data.sha256
    else { return .failure(Stale(reason: "the data changed")) }
    guard results.audit != nil else { return .failure(Stale(reason: "it has no leak audit")) }
    for label in models where !results.models.contains(where: { $0.label == label }) {
      return .failure(Stale(reason: "it has no model '\(label)'"))
    }
    return .success(results)
  }

  /// Why results cannot be reused.
  public struct Stale: Error, Sendable {
    public var reason: String
  }
}

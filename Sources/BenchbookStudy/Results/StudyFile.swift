import BenchbookData
import BenchbookEvaluation
import Foundation

/// Reads and writes `study.json` as results.json is written: sorted keys and shortest round-trip numbers, so
/// equal studies are equal bytes.
public enum StudyFile {
  public static let fileName = "study.json"

  public static func encode(_ results: StudyResults) throws -> [UInt8] {
    try ResultsFile.encodeContract(results)
  }

  public static func read(_ path: String) throws -> StudyResults {
    try ResultsFile.decode(StudyResults.self, at: path, kind: "study file")
  }
}

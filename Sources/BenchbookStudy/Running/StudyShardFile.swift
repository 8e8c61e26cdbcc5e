import BenchbookData
import BenchbookEvaluation
import Foundation

/// What a study's shard I of N writes beside its experiments' shard files (`DIR/<experiment>/shard-I-of-N.json`,
/// the same files `benchbook run --shard` writes): `DIR/study-shard-I-of-N.json`, naming the study and which of
/// its experiments the shards computed, so `merge` can tell the shards belong together and which experiments
/// it must find up to date instead.
public struct StudyShardFile: Codable, Sendable, Hashable {
  public var benchbook: String
  /// The study file as given to `benchbook study`; `merge` reads it there.
  public var study: String
  public var studySha256: String
  public var shards: Int
  /// 0-based.
  public var shard: Int
  /// Experiment names the shards compute, in the study's order.
  public var computed: [String]
  /// Experiment names found up to date when the shards were planned; `merge` reads them from its output folder.
  public var reused: [String]

  public init(
    benchbook: String, study: String, studySha256: String, shards: Int, shard: Int, computed: [String], reused: [String]
  ) {
    self.benchbook = benchbook
    self.study = study
    self.studySha256 = studySha256
    self.shards = shards
    self.shard = shard
    self.computed = computed
    self.reused = reused
  }

  enum CodingKeys: String, CodingKey {
    case benchbook, study, shards, shard, computed, reused
    case studySha256 = "study_sha256"
  }

  /// Why a study's shards cannot be merged; names the file at fault.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
  }

  public static func fileName(shard: Int, of count: Int) -> String { "study-shard-\(shard)-of-\(count).json" }

  public func encoded() throws -> [UInt8] { try ShardFile.encodePlain(self) }

  /// Every `study-shard-*-of-*.json` in `directories`, sorted by shard; empty when there are none (the folders
  /// hold an experiment's shards, or nothing).
  public static func read(_ directories: [String]) throws(Failure) -> [(path: String, file: StudyShardFile)] {
    var found: [(path: String, file: StudyShardFile)] = []
    for directory in directories {
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
      for name in names where name.hasPrefix("study-shard-") && name.hasSuffix(".json") {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).relativePath
        do {
          found.append(
            (path, try ResultsFile.decode(StudyShardFile.self, at: path, kind: "study shard file", plainKeys: true)))
        } catch {
          throw Failure(error.description)
        }
      }
    }
    return found.sorted { $0.file.shard < $1.file.shard }
  }

  /// Checks the study's shards agree (Benchbook, study file, shard count, experiments computed) and that every
  /// shard is there once.
  public static func checkAgreement(_ shards: [(path: String, file: StudyShardFile)]) throws(Failure) {
    let first = shards[0]
    for (path, file) in shards.dropFirst() {
      var differences: [String] = []
      if file.benchbook != first.file.benchbook { differences.append("Benchbook \(file.benchbook)") }
      if file.study != first.file.study || file.studySha256 != first.file.studySha256 {
        differences.append("the study file")
      }
      if file.shards != first.file.shards { differences.append("\(file.shards) shards against \(first.file.shards)") }
      if file.computed != first.file.computed || file.reused != first.file.reused {
        differences.append("which experiments it computed (\(file.computed.joined(separator: ", ")))")
      }
      if !differences.isEmpty {
        throw Failure(
          "\(path) does not belong with \(first.path): it differs in \(differences.joined(separator: ", "))")
      }
    }
    var seen: [Int: String] = [:]
    for (path, file) in shards {
      if let earlier = seen[file.shard] { throw Failure("\(path) repeats shard \(file.shard) of \(earlier)") }
      seen[file.shard] = path
    }
    let count = first.file.shards
    let missing = (0..<count).filter { seen[$0] == nil }
    if !missing.isEmpty {
      throw Failure(
        "missing study shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) "
          + "of \(count) (expected \(missing.map { fileName(shard: $0, of: count) }.joined(separator: ", ")))")
    }
  }
}

import BenchbookData
import BenchbookSpec
import Foundation

/// Combines shard files into one run: checks that they belong together and cover every cell once, computes the
/// work on all rows, then assembles exactly as `run` does, so the results are the same bytes, timings aside.
public enum ShardMerge {
  /// Why shards cannot be merged; names the file at fault.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
  }

  /// Every `shard-*-of-*.json` in `directories`, read and sorted by shard.
  public static func read(_ directories: [String]) throws -> [(path: String, file: ShardFile)] {
    var found: [(path: String, file: ShardFile)] = []
    for directory in directories {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw Failure("\(directory): not a directory of shard files")
      }
      let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
      for name in names where name.hasPrefix("shard-") && name.hasSuffix(".json") {
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        do {
          let file = try ResultsFile.decode(ShardFile.self, at: path, kind: "shard file", plainKeys: true)
          if let problem = ShardValidation.firstProblem(file) { throw Failure("\(path): \(problem)") }
          found.append((path, file))
        } catch let error as ResultsFile.ReadError {
          throw Failure(error.description)
        }
      }
    }
    guard !found.isEmpty else { throw Failure("no shard-*-of-*.json in \(directories.joined(separator: ", "))") }
    return found.sorted { $0.file.shard < $1.file.shard }
  }

  /// Checks the shards agree with one another: same Benchbook, spec, data, folds and shard count; each index once.
  public static func checkAgreement(_ shards: [(path: String, file: ShardFile)]) throws {
    let first = shards[0]
    for (path, file) in shards.dropFirst() {
      let a = first.file.identity
      let b = file.identity
      var differences: [String] = []
      if a.benchbook != b.benchbook { differences.append("Benchbook \(a.benchbook) against \(b.benchbook)") }
      if a.spec != b.spec { differences.append("spec \(a.spec) against \(b.spec)") }
      if a.definition != b.definition || a.models != b.models { differences.append("the spec's definition or models") }
      if a.data != b.data { differences.append("the data file") }
      if a.foldPlan != b.foldPlan { differences.append("the fold plan") }
      if a.shards != b.shards { differences.append("\(a.shards) shards against \(b.shards)") }
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
    let count = first.file.identity.shards
    if let outside = shards.first(where: { $0.file.shard < 0 || $0.file.shard >= count }) {
      throw Failure("\(outside.path): shard \(outside.file.shard) is outside 0..<\(count)")
    }
    let missing = (0..<count).filter { seen[$0] == nil }
    if !missing.isEmpty {
      throw Failure(
        "missing shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of \(count) "
          + "(expected \(missing.map { ShardFile.fileName(shard: $0, of: count) }.joined(separator: ", ")))")
    }
  }

  /// The outputs of every task of `plan`: the shards' cells, checked against the plan, and the merge step's own.
  public static func outputs(
    _ plan: RunPlan, shards: [(path: String, file: ShardFile)], jobs: Int, progress: (@Sendable (Int, Int) -> Void)?
  ) throws -> [RunPlan.Output] {
    let expected = ShardFile.identity(
      plan, specPath: shards[0].file.identity.spec, shards: shards[0].file.identity.shards)
    let found = shards[0].file.identity
    if expected.definition != found.definition || expected.models != found.models {
      throw Failure("\(shards[0].path) was made from another version of \(found.spec)")
    }
    if expected.data != found.data { throw Failure("\(shards[0].path) was made from another data file") }
    if expected.foldPlan != found.foldPlan { throw Failure("\(shards[0].path) was made with other folds") }
    let index = Dictionary(uniqueKeysWithValues: plan.tasks.enumerated().map { ($1, $0) })
    var outputs: [Int: RunPlan.Output] = [:]
    for (path, file) in shards {
      for (position, record) in file.tasks.enumerated() {
        guard let t = index[record.task], record.task.cell != nil else {
          throw Failure("\(path): tasks[\(position)]: a task the plan does not have: \(record.task)")
        }
        let configurations = plan.spec.models[record.task.model].search?.configurations.count ?? 1
        if let problem = ShardValidation.problem(record, at: "tasks[\(position)]", configurations: configurations)
          ?? ShardValidation.calibrationProblem(record, at: "tasks[\(position)]", folds: plan.plan.folds)
        {
          throw Failure("\(path): \(problem)")
        }
        guard outputs[t] == nil else { throw Failure("\(path) repeats a task another shard computed: \(record.task)") }
        if let fold = record.fold {
          outputs[t] = .fold(fold)
        } else if let tuning = record.tuning {
          outputs[t] = .tuning(tuning)
        } else {
          throw Failure("\(path) holds no output for \(record.task)")
        }
      }
    }
    let missing = plan.tasks.indices.filter { plan.tasks[$0].cell != nil && outputs[$0] == nil }
    if let first = missing.first {
      throw Failure("the shards lack \(missing.count) of the experiment's cells, such as \(plan.tasks[first])")
    }
    let local = try plan.execute(ShardPartition.mergeTaskIndices(plan), jobs: jobs, progress: progress)
    outputs.merge(local) { a, _ in a }
    return plan.tasks.indices.map { outputs[$0]! }
  }
}

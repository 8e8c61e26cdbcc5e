import BenchbookData
import BenchbookSpec
import Foundation

/// One shard's work as written to `DIR/shard-I-of-N.json`: its cells' outputs, and the hashes every shard of
/// one experiment must share so that `merge` can refuse to combine what does not belong together.
public struct ShardFile: Codable, Sendable {
  /// What must agree between shards and with the spec the merge reads.
  public struct Identity: Codable, Sendable, Hashable {
    public var benchbook: String
    /// The spec path as given to `run`; `merge` reads the spec there.
    public var spec: String
    /// The spec's canonical definition (target, features, preprocessing, resampling, tuning).
    public var definition: String
    /// The models, their settings and search spaces.
    public var models: String
    public var data: String
    public var foldPlan: String
    public var shards: Int

    enum CodingKeys: String, CodingKey {
      case benchbook, spec, definition, models, data, shards
      case foldPlan = "fold_plan"
    }
  }

  /// One task's output.
  public struct TaskRecord: Codable, Sendable {
    public var task: RunPlan.Task
    public var fold: FoldEvaluator.Outcome?
    public var tuning: ConfigurationScores?
  }

  public var identity: Identity
  /// 0-based.
  public var shard: Int
  public var tasks: [TaskRecord]

  public static func fileName(shard: Int, of count: Int) -> String { "shard-\(shard)-of-\(count).json" }

  /// The identity of `plan` as run from `specPath`, split `shards` ways.
  public static func identity(_ plan: RunPlan, specPath: String, shards: Int) -> Identity {
    let models = plan.spec.models.map { model in
      let configurations = model.search?.configurations ?? [model.classifier]
      let settings = configurations.map { configuration in
        configuration.parameters.keys.sorted().map { "\($0)=\(configuration.parameters[$0]!)" }.joined(separator: ",")
      }
      return ([model.label, model.descriptor.id] + settings).joined(separator: ";")
    }
    return Identity(
      benchbook: EnvironmentProbe.benchbookVersion, spec: specPath,
      definition: SHA256.hexDigest(plan.spec.definitionText), models: SHA256.hexDigest(models.joined(separator: "\n")),
      data: plan.dataset.provenance.sha256, foldPlan: plan.plan.sha256, shards: shards)
  }

  public init(identity: Identity, shard: Int, plan: RunPlan, outputs: [Int: RunPlan.Output]) {
    self.identity = identity
    self.shard = shard
    tasks = outputs.keys.sorted().map { index in
      switch outputs[index]! {
      case .fold(let outcome): TaskRecord(task: plan.tasks[index], fold: outcome)
      case .tuning(let scores): TaskRecord(task: plan.tasks[index], tuning: scores)
      case .allRows: preconditionFailure("fits on all rows belong to the merge step")
      }
    }
  }

  public func encoded() throws -> [UInt8] { try Self.encodePlain(self) }

  /// A shard file (an experiment's or a study's) as Foundation codes it by default, keys sorted: shard files pass
  /// outputs between `run --shard` and `merge` of one build, and the outputs' types spell no keys of their own
  /// (not `JSONCoding`). `ResultsFile.decode(_:at:kind:plainKeys:)` reads them back.
  public static func encodePlain(_ value: some Encodable) throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array(try encoder.encode(value)) + [UInt8(ascii: "\n")]
  }
}

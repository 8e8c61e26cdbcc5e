import BenchbookData
import BenchbookModels

/// A reviewed record of what an experiment measured, committed beside the
/// spec (`experiments/baselines/<name>.json`). A check measures the same
/// things again and compares.
///
/// A check's own measurement has the same shape, so comparing is a pure
/// function of two baselines.
public struct Baseline: Codable, Sendable {
  public var benchbook: String
  public var experiment: String
  /// How this baseline was made.
  public var command: String
  public var hashes: Hashes
  public var machine: Machine
  /// Rounds and fold of the single-threaded timing pass.
  public var timingRounds: Int
  public var timingFold: Int
  /// The reference workload the times are ratios to (`ReferenceWorkload.identifier`);
  /// absent in baselines made with the first workload.
  public var timingReference: String?
  public var models: [Model]

  public init(
    benchbook: String, experiment: String, command: String, hashes: Hashes, machine: Machine, timingRounds: Int,
    timingFold: Int, timingReference: String? = ReferenceWorkload.identifier, models: [Model]
  ) {
    self.benchbook = benchbook
    self.experiment = experiment
    self.command = command
    self.hashes = hashes
    self.machine = machine
    self.timingRounds = timingRounds
    self.timingFold = timingFold
    self.timingReference = timingReference
    self.models = models
  }

  /// What must match for two measurements to be compared.
  public struct Hashes: Codable, Sendable, Hashable {
    /// The spec's canonical definition (target, features, preprocessing, resampling).
    public var definition: String
    public var data: String
    public var foldPlan: String

    public init(definition: String, data: String, foldPlan: String) {
      self.definition = definition
      self.data = data
      self.foldPlan = foldPlan
    }
  }

  /// The machine the timings come from.
  public struct Machine: Codable, Sendable, Hashable {
    public var cpu: String
    /// Vendor, family, model and stepping: a virtual machine often names only
    /// "AMD EPYC", and one such name covers processors whose relative speeds differ.
    public var cpuSignature: String?
    public var cores: Int
    public var os: String
    public var swift: String

    public init(cpu: String, cpuSignature: String? = nil, cores: Int, os: String, swift: String) {
      self.cpu = cpu
      self.cpuSignature = cpuSignature
      self.cores = cores
      self.os = os
      self.swift = swift
    }

    /// What the timings' comparability rests on: the signature when both sides have one.
    public func sameProcessor(as other: Machine) -> Bool {
      if let a = cpuSignature, let b = other.cpuSignature { return a == b }
      return cpu == other.cpu
    }

    /// The processor in words, for notes.
    public var processor: String { cpuSignature.map { "\(cpu), \($0)" } ?? cpu }
  }

  public struct Model: Codable, Sendable {
    public var label: String
    public var algorithm: String
    public var params: [String: ParameterValue]
    /// SHA-256 of the algorithm and its settings.
    public var settingsSha256: String
    public var logLoss: Metric
    public var accuracy: Metric
    public var brier: Metric
    public var rocAUC: Metric
    public var timing: ModelTiming
    /// Size of the exported Core ML file, when the run measured it.
    public var modelSizeBytes: Int?
    /// A tuned model's choices, which must not change silently; absent for a fixed model.
    public var tuning: Choices?
    /// Instructions of a fit and a predict batch on the timing fold (means, after a warm-up), counted under
    /// valgrind when the spec asks (`regression.instructions: true`).
    public var instructions: InstructionCounts?

    /// Instructions executed, as callgrind counts them (`Ir`).
    public struct InstructionCounts: Codable, Sendable, Hashable {
      public var fit: Int
      public var predict: Int

      public init(fit: Int, predict: Int) {
        self.fit = fit
        self.predict = predict
      }
    }

    /// The configurations a tuned model chose: per outer fold, and on all rows.
    public struct Choices: Codable, Sendable, Hashable {
      /// Index into the grid per outer fold (`nil` where none was inside the budget is not recorded here).
      public var chosen: [Int?]
      public var finalConfiguration: Int
      /// The final configuration's searched settings, for messages.
      public var finalParams: [String: ParameterValue]

      public init(chosen: [Int?], finalConfiguration: Int, finalParams: [String: ParameterValue]) {
        self.chosen = chosen
        self.finalConfiguration = finalConfiguration
        self.finalParams = finalParams
      }
    }

    public init(
      label: String, algorithm: String, params: [String: ParameterValue], settingsSha256: String, logLoss: Metric,
      accuracy: Metric, brier: Metric, rocAUC: Metric, timing: ModelTiming, modelSizeBytes: Int?
    ) {
      self.label = label
      self.algorithm = algorithm
      self.params = params
      self.settingsSha256 = settingsSha256
      self.logLoss = logLoss
      self.accuracy = accuracy
      self.brier = brier
      self.rocAUC = rocAUC
      self.timing = timing
      self.modelSizeBytes = modelSizeBytes
    }

    /// Keys that are not the snake_case of their property, as the camelCase `JSONCoding`'s strategy turns into them.
    enum CodingKeys: String, CodingKey {
      case label, algorithm, params, accuracy, brier, timing, settingsSha256, logLoss, modelSizeBytes, tuning,
        instructions
      case rocAUC = "rocAuc"  // roc_auc
    }
  }

  /// A measure's mean and its per-fold values.
  public struct Metric: Codable, Sendable, Hashable {
    public var mean: Double?
    public var folds: [Double?]

    public init(mean: Double?, folds: [Double?]) {
      self.mean = mean
      self.folds = folds
    }
  }
}

extension Baseline {
  /// The baseline of a run: its scores from `results`, its timings from the timing pass.
  public init(results: ExperimentResults, timing: TimingSamples, command: String) {
    benchbook = results.benchbook
    experiment = results.experiment
    self.command = command
    hashes = Hashes(
      definition: results.spec.definitionSha256, data: results.data.sha256, foldPlan: results.resampling.planSha256)
    let environment = results.environment
    machine = Machine(
      cpu: environment.cpu, cpuSignature: EnvironmentProbe.cpuSignature, cores: environment.cores, os: environment.os,
      swift: environment.swift)
    timingRounds = timing.rounds
    timingFold = timing.fold
    timingReference = ReferenceWorkload.identifier
    models = results.models.map { model in
      var record = Model(
        label: model.label, algorithm: model.algorithm, params: model.params,
        settingsSha256: Self.settingsDigest(model),
        logLoss: Metric(mean: model.logLoss.mean, folds: model.folds.map(\.logLoss)),
        accuracy: Metric(mean: model.accuracy.mean, folds: model.folds.map(\.accuracy)),
        brier: Metric(mean: model.brier.mean, folds: model.folds.map(\.brier)),
        rocAUC: Metric(mean: model.rocAUC.mean, folds: model.folds.map(\.rocAUC)),
        timing: timing.model(model.label)
          ?? ModelTiming(
            label: model.label, fitRepetitions: 0, predictRepetitions: 0, fitSeconds: [], predictSeconds: [],
            referenceSeconds: []),
        modelSizeBytes: model.modelSizeBytes)
      record.tuning = model.tuning.map { tuning in
        let searched = Set(tuning.space.keys)
        return Model.Choices(
          chosen: tuning.chosen.map(\.configuration), finalConfiguration: tuning.finalConfiguration,
          finalParams: tuning.finalParams.filter { searched.contains($0.key) })
      }
      return record
    }
  }

  /// What makes two runs of a model comparable: its fixed settings, or a tuned
  /// model's whole grid (its chosen settings are judged, not compared away).
  static func settingsDigest(_ model: ModelResult) -> String {
    guard let tuning = model.tuning else { return settingsDigest(algorithm: model.algorithm, params: model.params) }
    let grid = tuning.configurations.map { configuration in
      configuration.params.keys.sorted().map { "\($0)=\(configuration.params[$0]!)" }.joined(separator: ",")
    }
    return SHA256.hexDigest(([model.algorithm, "tuned over"] + grid).joined(separator: "\n"))
  }

  /// SHA-256 of `algorithm` and its settings in name order, values printed by value.
  public static func settingsDigest(algorithm: String, params: [String: ParameterValue]) -> String {
    let text = ([algorithm] + params.keys.sorted().map { "\($0)=\(params[$0]!)" }).joined(separator: "\n")
    return SHA256.hexDigest(text)
  }

  public func model(_ label: String) -> Model? { models.first { $0.label == label } }
}

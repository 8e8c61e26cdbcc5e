import BenchbookEvaluation

/// Everything a study concluded, as written to `study.json`. Key names are a contract other tools read: added
/// to, never renamed. It holds no timings, so a study computed in shards and merged equals one run on one
/// machine byte for byte, but for `environment`.
public struct StudyResults: Codable, Sendable {
  public var benchbook: String
  /// The study's name.
  public var study: String
  public var description: String?
  /// The command that reproduces it.
  public var command: String
  public var spec: StudySpecRecord
  public var metric: String
  public var rope: Double
  public var alpha: Double
  /// Experiment names, in the study's order.
  public var datasets: [String]
  /// Model labels, in the study's order.
  public var models: [String]
  /// {dataset: {model: the metric's mean over the experiment's outer folds}}.
  public var scores: [String: [String: Double]]
  /// {dataset: {model: rank}}, 1 for the lowest score, ties at their average rank.
  public var ranks: [String: [String: Double]]
  public var meanRanks: [String: Double]
  public var friedman: FriedmanRecord
  public var nemenyi: NemenyiRecord
  /// One per pair of models (a before b in `models` order).
  public var pairs: [PairRecord]
  /// How the Bayesian signed-rank probabilities were drawn.
  public var bayesianSignedRank: BayesSettingsRecord
  /// {dataset: what the study read from that experiment}.
  public var experiments: [String: StudyExperimentRecord]
  public var environment: EnvironmentRecord
}

public struct StudySpecRecord: Codable, Sendable, Hashable {
  /// As given on the command line.
  public var path: String
  public var sha256: String
}

public struct FriedmanRecord: Codable, Sendable, Hashable {
  public var statistic: Double
  public var pValue: Double
  /// `null` when infinite: every dataset ranks the models alike.
  public var imanDavenportStatistic: Double?
  public var imanDavenportPValue: Double

  /// The keys, for the custom encoding below (`JSONCoding` spells them in snake_case).
  enum CodingKeys: String, CodingKey {
    case statistic, pValue, imanDavenportStatistic, imanDavenportPValue
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(statistic, forKey: .statistic)
    try container.encode(pValue, forKey: .pValue)
    // Written as null rather than left out: the key is part of the contract.
    try container.encode(imanDavenportStatistic, forKey: .imanDavenportStatistic)
    try container.encode(imanDavenportPValue, forKey: .imanDavenportPValue)
  }
}

public struct NemenyiRecord: Codable, Sendable, Hashable {
  public var criticalDifference: Double
  public var alpha: Double
  /// q_α: the studentized range's 1 − α quantile for k models (infinite degrees of freedom) over √2.
  public var qAlpha: Double
}

public struct PairRecord: Codable, Sendable, Hashable {
  public struct Bayes: Codable, Sendable, Hashable {
    public var pABetter: Double
    public var pEquivalent: Double
    public var pBBetter: Double
  }

  public var a: String
  public var b: String
  /// Datasets where a is significantly better than b by the experiment's corrected resampled t-test at `alpha`.
  public var wins: Int
  /// Datasets where the test finds no significant difference (or there is one fold only).
  public var ties: Int
  public var losses: Int
  /// Two-sided, over the datasets' scores (see `WilcoxonSignedRank`).
  public var wilcoxonPValue: Double
  /// Holm-adjusted over every pair of the study.
  public var wilcoxonPValueHolm: Double
  /// `exact`, `permutation` or `normal`.
  public var wilcoxonMethod: String
  /// Mean over datasets of a's score − b's (negative: a is lower, better for log-loss).
  public var meanDifference: Double
  public var bayes: Bayes
}

public struct BayesSettingsRecord: Codable, Sendable, Hashable {
  public var samples: Int
  /// Pair i (in `pairs` order) draws from `SeededGenerator.derivedSeed(seed, stream: i)`.
  public var seed: UInt64
  /// The Dirichlet weight of the pseudo-observation at zero.
  public var prior: Double
}

/// What the study read from one experiment: where it is, the hashes that made it up to date, what its leak
/// audit found, and what its models cost.
public struct StudyExperimentRecord: Codable, Sendable, Hashable {
  public struct Finding: Codable, Sendable, Hashable {
    public var check: String
    public var severity: String
    public var subject: String
    public var accepted: Bool
  }

  public var spec: String
  /// The experiment's question.
  public var description: String?
  public var specSha256: String
  public var definitionSha256: String
  public var dataSha256: String
  /// The experiment's report, relative to the study's folder.
  public var report: String
  public var rows: Int
  public var features: Int
  public var classes: Int
  public var folds: Int
  /// The leak audit's findings, worst first.
  public var audit: [Finding]
  /// {model: exact size of its Core ML file}, for the models that could be exported.
  public var modelSizeBytes: [String: Int]
  /// The lowest-scoring model inside the spec's budget: absent without a budget, null when none fits.
  public var budget: BudgetChoice?

  public struct BudgetChoice: Codable, Sendable, Hashable {
    public var bestWithin: String?
    public var modelSizeBytes: Int?
    public var latencyMicrosecondsP99: Double?

    /// Keys that are not the snake_case of their property, as the camelCase `JSONCoding`'s strategy turns into them.
    enum CodingKeys: String, CodingKey {
      case bestWithin, modelSizeBytes
      case latencyMicrosecondsP99 = "latencyUsP99"  // latency_us_p99
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(bestWithin, forKey: .bestWithin)
      try container.encodeIfPresent(modelSizeBytes, forKey: .modelSizeBytes)
      try container.encodeIfPresent(latencyMicrosecondsP99, forKey: .latencyMicrosecondsP99)
    }
  }
}

import BenchbookData
import BenchbookEvaluation
import BenchbookSpec
import Foundation

/// Turns the experiments' results into the study's: scores and ranks per dataset, Friedman's test, the Nemenyi
/// critical difference, and for every pair of models their wins, ties and losses, the Wilcoxon signed-rank test
/// (Holm-adjusted over the pairs) and the Bayesian signed-rank test with the rope. A pure function of its
/// inputs: the same results give the same bytes.
public enum StudyAnalysis {
  /// The seed every study's Bayesian draws start from; pair i uses stream i.
  public static let bayesSeed: UInt64 = 20_170_101

  /// A results file that does not hold what the study compares.
  public struct Failure: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// - Parameters:
  ///   - results: one per experiment of `spec`, in its order.
  ///   - studySha256: SHA-256 of the study file as read.
  public static func analyse(
    _ spec: StudySpec, results: [ExperimentResults], studySha256: String, command: String,
    environment: EnvironmentRecord, bayesSamples: Int = BayesianSignedRank.defaultSamples
  ) throws(Failure) -> StudyResults {
    precondition(results.count == spec.experiments.count, "one result per experiment")
    let labels = spec.models
    let datasets = results.map(\.experiment)
    // models[d][m]: the experiment's result for label m.
    var chosen: [[ModelResult]] = []
    for (experiment, result) in zip(spec.experiments, results) {
      var row: [ModelResult] = []
      for label in labels {
        guard let model = result.models.first(where: { $0.label == label }), model.logLoss.mean != nil else {
          throw Failure(description: "\(experiment.path): its results hold no log-loss for the model '\(label)'")
        }
        row.append(model)
      }
      chosen.append(row)
    }
    let scores = chosen.map { $0.map { $0.logLoss.mean! } }
    let ranks = FriedmanTest.ranks(lowerIsBetter: scores)
    let n = Double(datasets.count)
    let meanRanks = labels.indices.map { m in ranks.reduce(0) { $0 + $1[m] } / n }
    let friedman = FriedmanTest(ranks: ranks)
    let nemenyi = NemenyiTest(models: labels.count, datasets: datasets.count, alpha: spec.alpha)

    var pairs: [PairRecord] = []
    var pairIndex = 0
    for i in labels.indices {
      for j in labels.indices where j > i {
        var (wins, ties, losses) = (0, 0, 0)
        for (d, result) in results.enumerated() {
          switch verdict(chosen[d][i], chosen[d][j], result, alpha: spec.alpha) {
          case .some(true): wins += 1
          case .some(false): losses += 1
          case nil: ties += 1
          }
        }
        let differences = scores.map { $0[i] - $0[j] }
        let wilcoxon = WilcoxonSignedRank(differences: differences)
        let bayes = BayesianSignedRank(
          differences: differences.map { -$0 }, rope: spec.rope, samples: bayesSamples,
          seed: SeededGenerator.derivedSeed(bayesSeed, stream: pairIndex))
        pairs.append(
          PairRecord(
            a: labels[i], b: labels[j], wins: wins, ties: ties, losses: losses, wilcoxonPValue: wilcoxon.pValue,
            wilcoxonPValueHolm: wilcoxon.pValue, wilcoxonMethod: wilcoxon.method.rawValue,
            meanDifference: differences.reduce(0, +) / n,
            bayes: PairRecord.Bayes(pABetter: bayes.aBetter, pEquivalent: bayes.equivalent, pBBetter: bayes.bBetter)))
        pairIndex += 1
      }
    }
    for (index, adjusted) in HolmCorrection.adjusted(pairs.map(\.wilcoxonPValue)).enumerated() {
      pairs[index].wilcoxonPValueHolm = adjusted
    }

    var experiments: [String: StudyExperimentRecord] = [:]
    for (d, result) in results.enumerated() {
      experiments[result.experiment] = record(result, spec.experiments[d], chosen: chosen[d])
    }
    func byDataset<T>(_ values: [[T]]) -> [String: [String: T]] {
      Dictionary(uniqueKeysWithValues: zip(datasets, values.map { Dictionary(uniqueKeysWithValues: zip(labels, $0)) }))
    }
    return StudyResults(
      benchbook: EnvironmentProbe.benchbookVersion, study: spec.name, description: spec.description,
      command: command, spec: StudySpecRecord(path: spec.path, sha256: studySha256), metric: spec.metric.rawValue,
      rope: spec.rope, alpha: spec.alpha, datasets: datasets, models: labels, scores: byDataset(scores),
      ranks: byDataset(ranks), meanRanks: Dictionary(uniqueKeysWithValues: zip(labels, meanRanks)),
      friedman: FriedmanRecord(
        statistic: friedman.statistic, pValue: friedman.pValue,
        imanDavenportStatistic: friedman.imanDavenportStatistic, imanDavenportPValue: friedman.imanDavenportPValue),
      nemenyi: NemenyiRecord(
        criticalDifference: nemenyi.criticalDifference, alpha: spec.alpha, qAlpha: nemenyi.criticalValue),
      pairs: pairs,
      bayesianSignedRank: BayesSettingsRecord(
        samples: bayesSamples, seed: bayesSeed, prior: BayesianSignedRank.prior),
      experiments: experiments, environment: environment)
  }

  /// Whether a beat b on one dataset by the corrected resampled t-test over its folds at `alpha`: `true` when a is
  /// significantly lower, `false` when b is, `nil` for no significant difference (or a single fold).
  static func verdict(_ a: ModelResult, _ b: ModelResult, _ result: ExperimentResults, alpha: Double) -> Bool? {
    let splits = result.resampling.splits
    let ratios = splits.map { Double($0.testRows) / Double(max(1, $0.trainRows)) }
    let ratio = ratios.reduce(0, +) / Double(max(1, ratios.count))
    let differences = zip(a.folds, b.folds).map { $0.logLoss - $1.logLoss }
    guard let test = CorrectedResampledTTest(differences: differences, testTrainRatio: ratio),
      test.pValue < alpha
    else { return nil }
    return test.meanDifference < 0
  }

  static func record(_ result: ExperimentResults, _ experiment: StudySpec.Experiment, chosen: [ModelResult])
    -> StudyExperimentRecord
  {
    var sizes: [String: Int] = [:]
    for model in chosen { sizes[model.label] = model.modelSizeBytes }
    var budget: StudyExperimentRecord.BudgetChoice?
    if let limits = result.budget {
      let within = chosen.filter { $0.withinBudget == true }.min {
        ($0.logLoss.mean ?? .infinity) < ($1.logLoss.mean ?? .infinity)
      }
      budget = StudyExperimentRecord.BudgetChoice(
        bestWithin: within?.label, modelSizeBytes: limits.modelSizeBytes,
        latencyMicrosecondsP99: limits.latencyMicrosecondsP99)
    }
    let findings = (result.audit?.findings ?? []).map {
      StudyExperimentRecord.Finding(
        check: $0.check.rawValue, severity: $0.severity.rawValue, subject: $0.subject, accepted: $0.accepted)
    }
    return StudyExperimentRecord(
      spec: experiment.path, description: result.description, specSha256: result.spec.sha256,
      definitionSha256: result.spec.definitionSha256,
      dataSha256: result.data.sha256, report: "\(result.experiment)/report.md", rows: result.data.rows,
      features: result.data.features.count, classes: result.data.classes.count, folds: result.resampling.splits.count,
      audit: findings, modelSizeBytes: sizes, budget: budget)
  }
}

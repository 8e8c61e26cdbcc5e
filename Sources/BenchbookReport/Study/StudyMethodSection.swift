import BenchbookEvaluation
import BenchbookStudy

/// How the numbers were computed, and the command that reproduces them.
enum StudyMethodSection {
  static func render(_ context: StudyContext) -> String {
    let study = context.study
    let bayes = study.bayesianSignedRank
    var text = "## Method\n\n"
    text += "- **Scores**: each experiment's mean \(study.metric) over its outer folds, one number per model and "
    text += "dataset; ranks within a dataset, 1 for the lowest, ties at their average rank.\n"
    text += "- **Friedman's test** on those ranks (with scipy's correction for ties), and Iman and Davenport's F "
    text += "form of it, F = (N − 1)χ² / (N(k − 1) − χ²) on k − 1 and (k − 1)(N − 1) degrees of freedom.\n"
    text += "- **Nemenyi**: q_α = \(Format.fixed(study.nemenyi.qAlpha, 4)) is the studentized range's "
    text += "1 − α quantile for \(study.models.count) groups and infinite degrees of freedom, over √2, computed by "
    text += "numerical integration.\n"
    text += "- **Wilcoxon signed-rank** on the pair's scores over the datasets, two-sided, as scipy 1.17 computes it "
    text += "by default: exact for up to 50 datasets without ties or zero differences, exact over every sign "
    text += "pattern for up to 13 with them, the normal approximation otherwise; Holm's step-down adjustment.\n"
    text += "- **Bayesian signed-rank test** (Benavoli et al., 2017): a Dirichlet process posterior (prior weight "
    text += "\(Format.number(bayes.prior)) on a pseudo-observation at 0), \(Format.count(bayes.samples)) Monte Carlo "
    text += "samples from Benchbook's own seeded generator (seed \(bayes.seed), one stream per pair), so the "
    text += "probabilities are the same bits on every run; each is within about ±0.003 (two standard errors) of "
    text += "its limit.\n"
    text += "- **Wins, ties, losses**: per dataset, the experiment's corrected resampled t-test (Nadeau & Bengio, "
    text += "2003) over its folds at α = \(Format.number(study.alpha)).\n\n"
    text += "## Reproduce\n\n```\n\(study.command)\n```\n\n"
    text += "Benchbook \(study.benchbook); study file `\(study.spec.path)` (SHA-256 \(study.spec.sha256.prefix(12))…); "
    text += "\(study.environment.os); \(study.environment.cpu); git \(study.environment.gitCommit).\n"
    return text
  }
}

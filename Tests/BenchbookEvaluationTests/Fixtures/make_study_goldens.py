#!/usr/bin/env python3
"""Golden values for the statistics of `benchbook study`, from scipy, statsmodels and baycomp.

Regenerate (from the repository root, in a venv with scipy, statsmodels and baycomp):
  python3 Tests/BenchbookEvaluationTests/Fixtures/make_study_goldens.py \
    > Tests/BenchbookEvaluationTests/Fixtures/study_goldens.json
Made with scipy 1.17.1, statsmodels 0.15.0, baycomp 1.0.3, numpy 2.4.6 (/work/refvenv/bin/python).

baycomp draws its own random numbers, so its probabilities are Monte Carlo estimates; they are drawn with
BAYES_SAMPLES samples, and `bayes_samples` records how many, for the tests' tolerance.
"""
import json
import sys
import warnings

import baycomp
import numpy as np
import scipy
from scipy import stats
from statsmodels.stats.multitest import multipletests

BAYES_SAMPLES = 400_000
rng = np.random.default_rng(20261126)
out = {"scipy": scipy.__version__, "baycomp": "1.0.3", "bayes_samples": BAYES_SAMPLES}


def friedman_case(name, scores):
    """scores: rows are datasets, columns models (any orientation of 'better' gives the same statistic)."""
    scores = np.asarray(scores, dtype=float)
    n, k = scores.shape
    result = stats.friedmanchisquare(*[scores[:, j] for j in range(k)])
    chi = float(result.statistic)
    denominator = n * (k - 1) - chi
    if denominator <= 1e-12 * n * (k - 1):
        f, fp = None, 0.0
    else:
        f = (n - 1) * chi / denominator
        fp = float(stats.f.sf(f, k - 1, (k - 1) * (n - 1)))
    return {"case": name, "scores": scores.tolist(), "statistic": chi, "p_value": float(result.pvalue),
            "iman_davenport_statistic": f, "iman_davenport_p_value": fp,
            "ranks": stats.rankdata(scores, axis=1).tolist()}


friedman = []
friedman.append(friedman_case("random 10x5", rng.normal(size=(10, 5)).round(3)))
friedman.append(friedman_case("random 25x5", rng.normal(size=(25, 5)).round(3)))
friedman.append(friedman_case("N=2, k=3", [[0.3, 0.1, 0.2], [0.25, 0.2, 0.4]]))
friedman.append(friedman_case("N=3, k=4", [[0.3, 0.1, 0.2, 0.5], [0.25, 0.2, 0.4, 0.1], [0.5, 0.6, 0.2, 0.3]]))
friedman.append(friedman_case("ties", [[0.1, 0.1, 0.3, 0.4], [0.2, 0.3, 0.3, 0.3], [0.5, 0.4, 0.4, 0.2],
                                       [0.1, 0.2, 0.3, 0.3], [0.9, 0.9, 0.9, 0.1]]))
friedman.append(friedman_case("strong effect 30x6",
                              (np.arange(6)[None, :] * 0.05 + rng.normal(scale=0.04, size=(30, 6))).round(4)))
friedman.append(friedman_case("same order everywhere", [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.2, 0.25, 0.9]]))
friedman.append(friedman_case("k=8 with ties", rng.integers(0, 4, size=(12, 8)).astype(float)))
out["friedman"] = friedman

# Distribution tails, including far ones.
out["chi2_sf"] = [{"x": x, "df": df, "sf": float(stats.chi2.sf(x, df))}
                  for x, df in [(0.5, 1), (3.2, 2), (9.49, 4), (40.0, 4), (120.0, 9), (0.01, 7), (7.0, 7),
                                (300.0, 3), (2.5, 0.5)]]
out["f_sf"] = [{"f": f, "d1": d1, "d2": d2, "sf": float(stats.f.sf(f, d1, d2))}
               for f, d1, d2 in [(0.7, 4, 36), (2.6, 4, 96), (15.0, 3, 6), (80.0, 5, 120), (1.0, 2, 2),
                                 (0.05, 7, 63)]]

# The studentized range with infinitely many degrees of freedom.
sr_cdf = []
for k in [2, 3, 5, 10, 20]:
    for q in [0.5, 1.5, 2.8, 3.9, 5.5]:
        sr_cdf.append({"k": k, "q": q, "cdf": float(stats.studentized_range.cdf(q, k, np.inf))})
out["studentized_range_cdf"] = sr_cdf
sr_ppf = []
for k in [2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20]:
    for p in [0.90, 0.95, 0.99]:
        sr_ppf.append({"k": k, "p": p, "q": float(stats.studentized_range.ppf(p, k, np.inf))})
out["studentized_range_ppf"] = sr_ppf


def auto_method(d):
    """scipy 1.17 wilcoxon(method="auto")'s choice, as its source states it."""
    d = np.asarray(d, dtype=float)
    nonzero = np.abs(d[d != 0])
    ties = len(np.unique(nonzero)) < len(nonzero)
    zeros = np.any(d == 0)
    if len(d) > 50:
        return "normal"
    if not (ties or zeros):
        return "exact"
    return "permutation" if len(d) <= 13 else "normal"


wilcoxon = []


def wilcoxon_case(name, x, y):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = stats.wilcoxon(x, y)
    wilcoxon.append({"case": name, "x": x.tolist(), "y": y.tolist(), "p_value": float(result.pvalue),
                     "statistic": float(result.statistic), "method": auto_method(x - y)})


base = rng.uniform(0.05, 0.9, size=60).round(4)
wilcoxon_case("N=2", [0.3, 0.5], [0.1, 0.2])
wilcoxon_case("N=3", [0.3, 0.5, 0.2], [0.1, 0.2, 0.4])
wilcoxon_case("N=5 exact", base[:5], base[:5] + [0.01, -0.02, 0.03, 0.04, 0.05])
wilcoxon_case("N=10 exact", base[:10], base[:10] + rng.normal(0.02, 0.03, size=10).round(5))
wilcoxon_case("N=20 exact", base[:20], base[:20] + rng.normal(0.01, 0.03, size=20).round(6))
wilcoxon_case("N=50 exact", base[:50], base[:50] + rng.normal(0.005, 0.03, size=50).round(7))
wilcoxon_case("N=60 normal", base, base + rng.normal(0.005, 0.03, size=60).round(7))
wilcoxon_case("N=3 with a zero", [0.3, 0.5, 0.2], [0.1, 0.5, 0.4])
wilcoxon_case("N=8 ties", [1, 2, 3, 4, 5, 6, 7, 8], [2, 1, 2, 2, 7, 4, 9, 5])
wilcoxon_case("N=8 ties and zeros", [1, 2, 3, 4, 5, 6, 7, 8], [1, 1, 2, 4, 7, 4, 9, 5])
wilcoxon_case("N=13 ties", list(range(13)), [x + d for x, d in zip(range(13), [1, 1, -1, 2, 2, 2, 3, -3, 1, 4, 5, 1, 2])])
wilcoxon_case("N=14 ties", list(range(14)), [x + d for x, d in zip(range(14), [1, 1, -1, 2, 2, 2, 3, -3, 1, 4, 5, 1, 2, 6])])
wilcoxon_case("N=30 zeros", base[:30], np.where(np.arange(30) % 7 == 0, base[:30], base[:30] + 0.01 * (np.arange(30) - 12)))
wilcoxon_case("N=4 all positive", [1, 2, 3, 4], [0, 0, 0, 0])
wilcoxon_case("N=6 all zero", [1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6])
out["wilcoxon"] = wilcoxon

holm = []
for p in [[0.01, 0.04, 0.03, 0.005], [0.5, 0.5, 0.2, 0.01, 0.8, 0.03], [0.001], [0.2, 0.2, 0.2],
          rng.uniform(0, 0.2, size=10).round(5).tolist()]:
    holm.append({"p": p, "adjusted": multipletests(p, method="holm")[1].tolist()})
out["holm"] = holm

bayes = []


def bayes_case(name, a, b, rope):
    """a and b are log-losses (lower is better); baycomp's 'left' is its first argument scoring higher, so the
    losses go in as (b, a) and its left probability is A's."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    probabilities = baycomp.two_on_multiple(b, a, rope=rope, nsamples=BAYES_SAMPLES, random_state=7)
    if len(probabilities) == 2:
        left, right = probabilities
        middle = 0.0
    else:
        left, middle, right = probabilities
    bayes.append({"case": name, "a": a.tolist(), "b": b.tolist(), "rope": rope,
                  "p_a_better": float(left), "p_equivalent": float(middle), "p_b_better": float(right)})


losses = rng.uniform(0.05, 1.2, size=20).round(4)
bayes_case("20 datasets, A slightly better", losses, losses + rng.normal(0.008, 0.02, size=20).round(5), 0.01)
bayes_case("20 datasets, equivalent", losses, losses + rng.normal(0.0, 0.004, size=20).round(5), 0.01)
bayes_case("20 datasets, B better", losses, losses - rng.normal(0.05, 0.03, size=20).round(5), 0.01)
bayes_case("10 datasets, no rope", losses[:10], losses[:10] + rng.normal(0.01, 0.02, size=10).round(5), 0.0)
bayes_case("ties and zero differences", [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], [0.1, 0.2, 0.32, 0.42, 0.5, 0.58], 0.01)
bayes_case("N=2", [0.2, 0.3], [0.25, 0.36], 0.01)
bayes_case("N=3", [0.2, 0.3, 0.4], [0.25, 0.29, 0.43], 0.01)
bayes_case("differences on the rope's edge", [0.1, 0.2, 0.3, 0.4], [0.12, 0.22, 0.28, 0.45], 0.01)
out["bayes"] = bayes

json.dump(out, sys.stdout, indent=1)
sys.stdout.write("\n")

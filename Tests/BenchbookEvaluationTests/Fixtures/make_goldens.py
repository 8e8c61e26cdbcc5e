#!/usr/bin/env python3
"""Golden values from scikit-learn for Benchbook's splitters and measures.

Regenerate (from the repository root):
  python3 Tests/BenchbookEvaluationTests/Fixtures/make_goldens.py > Tests/BenchbookEvaluationTests/Fixtures/goldens.json
Made with scikit-learn 1.9.1, numpy 2.4.6.
"""
import json
import numpy as np
import sklearn
from sklearn.metrics import brier_score_loss, log_loss, roc_auc_score
from sklearn.model_selection import KFold, StratifiedKFold, TimeSeriesSplit

rng = np.random.default_rng(20261122)
out = {"sklearn": sklearn.__version__, "splits": [], "measures": []}

def folds(cv, n, y=None):
    X = np.zeros((n, 1))
    return [{"train": tr.tolist(), "test": te.tolist()} for tr, te in cv.split(X, y)]

for n, k in [(11, 3), (10, 10), (23, 5)]:
    out["splits"].append({"kind": "kfold", "n": n, "k": k, "folds": folds(KFold(k), n)})

for labels, k in [([0] * 7 + [1] * 13 + [2] * 5, 5), ([1, 0, 1, 1, 0, 2, 2, 1, 0, 1, 1, 2, 0, 1], 3),
                  ([0] * 50 + [1] * 50 + [2] * 50, 10)]:
    y = np.array(labels)
    out["splits"].append({"kind": "stratified", "labels": labels, "k": k, "folds": folds(StratifiedKFold(k), len(y), y)})

for n, k, gap, maximum, test in [(20, 4, 0, None, None), (23, 3, 2, None, None), (30, 4, 1, 8, 5)]:
    cv = TimeSeriesSplit(n_splits=k, gap=gap, max_train_size=maximum, test_size=test)
    out["splits"].append({"kind": "time-series", "n": n, "k": k, "gap": gap, "max_train_size": maximum,
                          "test_size": test, "folds": folds(cv, n)})

def measure(case, y, p):
    k = p.shape[1]
    labels = list(range(k))
    entry = {"case": case, "labels": y.tolist(), "probabilities": p.tolist(),
             "log_loss": log_loss(y, p, labels=labels),
             "accuracy": float(np.mean(np.argmax(p, axis=1) == y))}
    entry["brier"] = brier_score_loss(y, p if k > 2 else p[:, 1], labels=labels) if k > 2 else brier_score_loss(y, p[:, 1])
    present = sorted(set(y.tolist()))
    if k == 2:
        entry["roc_auc"] = roc_auc_score(y, p[:, 1]) if len(present) == 2 else None
    else:
        entry["roc_auc"] = roc_auc_score(y, p, multi_class="ovr", average="macro", labels=labels) if len(present) == k else None
    out["measures"].append(entry)

p = rng.dirichlet([1, 1], size=40); y = rng.integers(0, 2, 40)
measure("binary", y, p)
p = np.round(rng.dirichlet([1, 1], size=40), 1); p[:, 1] = 1 - p[:, 0]; y = rng.integers(0, 2, 40)
measure("binary with tied scores", y, p)
p = rng.dirichlet([1, 1, 1], size=60); y = rng.integers(0, 3, 60)
measure("three classes", y, p)
p = np.zeros((6, 2)); p[:, 1] = [1, 0, 1, 0.5, 0, 1]; p[:, 0] = 1 - p[:, 1]; y = np.array([0, 0, 1, 1, 1, 0])
measure("hard zeros and ones", y, p)

print(json.dumps(out, indent=1))

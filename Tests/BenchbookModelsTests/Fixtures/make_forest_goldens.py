#!/usr/bin/env python3
"""scikit-learn's RandomForestClassifier on the tree fixtures, for Benchbook's forest parity tests.

Regenerate (from this folder, a few seconds):
  python3 make_forest_goldens.py | gzip -n > forest-goldens.json.gz
Made with scikit-learn 1.9.1 and numpy 2.4 (the versions are written into the file).

Each case fits RandomForestClassifier(random_state=seed, **params) on every row of a fixture (last column the
class, classes in sorted order) and records each tree's seed (`estimators_[t].random_state`), the first two trees'
nodes (feature, threshold, children, distinct rows, weighted class counts) and predict_proba on every row (every 25th of the flights sample), so a
test can name the first tree and node that differ before comparing probabilities.
"""
import gzip, json, sys
import numpy as np, sklearn
from sklearn.ensemble import RandomForestClassifier

CASES = [
    ("iris-default", "tree-iris.csv", {}, 0),
    ("iris-seed-7", "tree-iris.csv", {"n_estimators": 25}, 7),
    ("wine-log2-entropy", "wine.csv", {"n_estimators": 20, "max_features": "log2", "criterion": "entropy"}, 0),
    ("wine-no-bootstrap", "wine.csv", {"n_estimators": 10, "bootstrap": False}, 3),
    ("breast-cancer-shallow", "breast_cancer.csv", {"n_estimators": 30, "max_depth": 4, "min_samples_leaf": 3}, 0),
    ("breast-cancer-samples", "breast_cancer.csv", {"n_estimators": 15, "max_samples": 0.5, "max_features": 0.3}, 1),
    ("flights-count", "flights-sample.csv.gz", {"n_estimators": 8, "max_features": 2, "min_samples_split": 10}, 0),
    ("flights-all", "flights-sample.csv.gz", {"n_estimators": 4, "max_features": None, "max_samples": 3000}, 5),
]

def dataset(name):
    text = gzip.open(name, "rt").read() if name.endswith(".gz") else open(name).read()
    rows = [line.strip().split(",") for line in text.splitlines()[1:] if line.strip()]
    x = np.array([[float(v) for v in r[:-1]] for r in rows])
    names = [r[-1] for r in rows]
    classes = sorted(set(names))
    return x, np.array([classes.index(n) for n in names])

def nodes(tree, n_classes):
    t = tree.tree_
    # tree_.value holds class shares; times the weighted rows it gives the weighted class counts.
    counts = np.rint(t.value[:, 0, :] * t.weighted_n_node_samples[:, None]).astype(int)
    return {"feature": [int(f) for f in t.feature], "threshold": [float(v) for v in t.threshold],
            "left": [int(c) for c in t.children_left], "right": [int(c) for c in t.children_right],
            "samples": [int(s) for s in t.n_node_samples], "counts": [int(c) for c in counts.ravel()]}

cases = []
for name, data, params, seed in CASES:
    x, y = dataset(data)
    forest = RandomForestClassifier(random_state=seed, **params).fit(x, y)
    cases.append({
        "name": name, "dataset": data, "params": params, "seed": seed,
        "tree_seeds": [int(e.random_state) for e in forest.estimators_],
        "first_trees": [nodes(e, len(forest.classes_)) for e in forest.estimators_[:2]],
        # Every row, or every 25th of a large fixture, to keep the file small.
        "proba_step": 1 if len(x) <= 1000 else 25,
        "proba": [[float(v) for v in row] for row in forest.predict_proba(x)[:: 1 if len(x) <= 1000 else 25]],
    })
json.dump({"sklearn": sklearn.__version__, "numpy": np.__version__, "cases": cases}, sys.stdout)

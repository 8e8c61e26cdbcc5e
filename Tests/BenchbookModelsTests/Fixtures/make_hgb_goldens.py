#!/usr/bin/env python3
"""Golden values for Benchbook's histogram gradient boosting (HistGradientBoostingTests.swift).

Run from this folder with scikit-learn 1.9.1 (numpy 2.4.6, scipy 1.17.1 when written) and pandas installed:

    python3 make_hgb_goldens.py

It writes hgb-goldens.json. Each case fits HistGradientBoostingClassifier(random_state=0, ...) with the
case's settings on all of a dataset's rows and records n_iter_ and predict_proba on some rows.

Datasets:
- iris.csv and breast_cancer.csv: the fixtures beside this script (read, not written; classes numbered in
  sorted order, as LabelEncoder and LinearGoldens.dataset number them).
- "randint" datasets, stored as their recipe, not their rows, because Benchbook's MersenneTwister draws the
  same numbers: RandomState(seed).randint(0, 1000, size=(rows, features)) gives integer features a (C order),
  then RandomState's next randint(0, noise, size=rows) gives a noise term e. A feature value is a / 10, or NaN
  where the feature is listed in nan_features and a < nan_below. The score s = a[:,0] + a[:,1] - a[:,2] + e
  (integers, NaNs ignored) gives the class: the number of cuts below s (0 or 1 for one cut, 0..2 for two).
  12,000 and 11,000 rows put early stopping on (early_stopping="auto": more than 10,000 rows); 210,000 rows
  make the bins come from a subsample of 200,000 rows drawn with replacement (RandomState(seed).choice).

Predictions are on the first `predict_rows` training rows, and on those rows again with every third value of
the listed `nan_features_at_predict` set to NaN (rows where training saw no missing value in that feature send
NaN to the child that had more rows).
"""
import json

import numpy as np
import pandas as pd
import sklearn
from sklearn.ensemble import HistGradientBoostingClassifier


def load_csv(name):
    frame = pd.read_csv(name)
    x = frame.iloc[:, :-1].to_numpy(float)
    names = frame.iloc[:, -1].astype(str).to_numpy()
    classes = sorted(set(names))
    y = np.array([classes.index(n) for n in names])
    return x, y


def randint_dataset(recipe):
    rs = np.random.RandomState(recipe["seed"])
    a = rs.randint(0, 1000, size=(recipe["rows"], recipe["features"]))
    e = rs.randint(0, recipe["noise"], size=recipe["rows"])
    x = a / 10.0
    for f in recipe["nan_features"]:
        x[a[:, f] < recipe["nan_below"], f] = np.nan
    s = a[:, 0] + a[:, 1] - a[:, 2] + e
    y = np.zeros(recipe["rows"], dtype=int)
    for cut in recipe["cuts"]:
        y += s > cut
    return x, y


def with_nans(x, features):
    x = x.copy()
    for f in features:
        x[::3, f] = np.nan
    return x


def clean(value):
    """JSON null for NaN (Swift decodes it as nil)."""
    if isinstance(value, float) and np.isnan(value):
        return None
    return value


CASES = [
    dict(name="iris-default", data="iris.csv", settings={}, predict_rows=150, nan_features_at_predict=[2]),
    dict(
        name="iris-shaped",
        data="iris.csv",
        settings=dict(
            max_leaf_nodes=None, max_depth=3, min_samples_leaf=5, l2_regularization=0.5, learning_rate=0.3,
            max_iter=30, max_bins=8),
        predict_rows=150,
        nan_features_at_predict=[],
    ),
    dict(
        name="breast-cancer-default", data="breast_cancer.csv", settings={}, predict_rows=569,
        nan_features_at_predict=[0, 7, 27]),
    dict(
        name="breast-cancer-early-stopping",
        data="breast_cancer.csv",
        settings=dict(early_stopping=True, validation_fraction=0.2, n_iter_no_change=5, random_state=7),
        predict_rows=200,
        nan_features_at_predict=[],
    ),
    dict(
        name="randint-nan-binary",
        data=dict(seed=1, rows=600, features=5, noise=400, nan_features=[1, 3], nan_below=100, cuts=[700]),
        settings=dict(max_bins=32),
        predict_rows=300,
        nan_features_at_predict=[0],
    ),
    dict(
        name="randint-nan-three-classes",
        data=dict(seed=2, rows=800, features=4, noise=300, nan_features=[0], nan_below=150, cuts=[550, 850]),
        settings=dict(min_samples_leaf=10, max_leaf_nodes=15),
        predict_rows=300,
        nan_features_at_predict=[1],
    ),
    dict(
        name="breast-cancer-max-features",
        data="breast_cancer.csv",
        settings=dict(max_features=0.3, max_iter=40, random_state=3),
        predict_rows=300,
        nan_features_at_predict=[],
    ),
    dict(
        name="randint-nan-three-classes-max-features",
        data=dict(seed=5, rows=700, features=6, noise=300, nan_features=[1, 4], nan_below=120, cuts=[550, 850]),
        settings=dict(max_features=0.5, max_iter=50),
        predict_rows=300,
        nan_features_at_predict=[0],
    ),
    dict(
        name="randint-early-stopping-binary",
        data=dict(seed=3, rows=12000, features=8, noise=600, nan_features=[], nan_below=0, cuts=[800]),
        settings={},
        predict_rows=300,
        nan_features_at_predict=[],
    ),
    dict(
        name="randint-early-stopping-three-classes",
        data=dict(seed=4, rows=11000, features=6, noise=500, nan_features=[3], nan_below=50, cuts=[600, 900]),
        settings=dict(learning_rate=0.2),
        predict_rows=300,
        nan_features_at_predict=[],
    ),
    dict(
        name="randint-binning-subsample",
        data=dict(seed=6, rows=210000, features=3, noise=500, nan_features=[2], nan_below=30, cuts=[700]),
        settings=dict(max_iter=20, early_stopping=False),
        predict_rows=300,
        nan_features_at_predict=[],
    ),
]


def main():
    out = dict(sklearn=sklearn.__version__, numpy=np.__version__, cases=[])
    for case in CASES:
        if isinstance(case["data"], str):
            x, y = load_csv(case["data"])
        else:
            x, y = randint_dataset(case["data"])
        model = HistGradientBoostingClassifier(**{"random_state": 0, **case["settings"]}).fit(x, y)
        rows = x[: case["predict_rows"]]
        proba = model.predict_proba(rows)
        nan_rows = with_nans(rows, case["nan_features_at_predict"])
        nan_proba = model.predict_proba(nan_rows) if case["nan_features_at_predict"] else np.zeros((0, 0))
        settings = {
            k: ("none" if v is None else str(v).lower() if isinstance(v, bool) else str(v))
            for k, v in case["settings"].items()
        }
        out["cases"].append(
            dict(
                name=case["name"],
                data=case["data"] if isinstance(case["data"], str) else None,
                recipe=None if isinstance(case["data"], str) else case["data"],
                settings=settings,
                predict_rows=case["predict_rows"],
                nan_features_at_predict=case["nan_features_at_predict"],
                n_iter=int(model.n_iter_),
                probabilities=[[float(v) for v in row] for row in proba],
                nan_probabilities=[[float(v) for v in row] for row in nan_proba],
            ))
        print(case["name"], "n_iter_", model.n_iter_, "do_early_stopping_", model.do_early_stopping_)
    with open("hgb-goldens.json", "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""scikit-learn's per-fold log-loss of make_pipeline(SimpleImputer(...), StandardScaler(), model) on two public
tables that miss values in several columns, for ImputationParityTests.

Regenerate (from this directory, with pandas and scikit-learn; a few seconds):
  python3 make_imputation_goldens.py > imputation-goldens.json
Made with scikit-learn 1.9.1, numpy 2.4.6, pandas 3.1.1 (/work/refvenv).

- airquality.csv: R's datasets::airquality as Rdatasets publishes it (row names first). Month (5..9) from
  Ozone (37 missing), Solar.R (7 missing), Wind and Temp; every row kept.
- msleep.csv: ggplot2's msleep as Rdatasets publishes it. vore from sleep_total, sleep_rem (22 missing),
  sleep_cycle (51 missing), awake, brainwt (27 missing) and bodywt; the 7 rows without a vore are dropped
  (Benchbook: `missing: drop`, which imputation leaves to the target).
- Every strategy (mean, median, most_frequent, constant with fill_value -1), with and without
  add_indicator; folds StratifiedKFold(5) unshuffled, as Benchbook's stratified-kfold; log_loss over the full
  class list, as Benchbook scores.
"""
import json
import warnings

import numpy as np
import pandas as pd
import sklearn
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

warnings.filterwarnings("ignore")

DATASETS = {
    "airquality": ("airquality.csv", "Month", ["Ozone", "Solar.R", "Wind", "Temp"]),
    "msleep": ("msleep.csv", "vore", ["sleep_total", "sleep_rem", "sleep_cycle", "awake", "brainwt", "bodywt"]),
}
MODELS = {
    # Benchbook's LR is lbfgs run to its own tolerance; against a fully converged fit, as the other parity tests.
    "LR": lambda: LogisticRegression(tol=1e-12, max_iter=100000),
    "LDA": LinearDiscriminantAnalysis,
    "NB": GaussianNB,
}
STRATEGIES = [("mean", None), ("median", None), ("most_frequent", None), ("constant", -1.0)]


def scores(X, y, splits, make):
    classes = np.unique(y)
    out = []
    for train, test in splits:
        model = make().fit(X[train], y[train])
        proba = model.predict_proba(X[test])
        full = np.zeros((len(test), len(classes)))
        for j, c in enumerate(model.classes_):
            full[:, list(classes).index(c)] = proba[:, j]
        out.append(float(log_loss(y[test], full, labels=classes)))
    return out


cases = []
for name, (path, target, features) in DATASETS.items():
    table = pd.read_csv(path, index_col=0).dropna(subset=[target]).reset_index(drop=True)
    X = table[features].to_numpy(dtype=float)
    y = table[target].astype(str).to_numpy()
    splits = list(StratifiedKFold(n_splits=5).split(X, y))
    missing = {f: int(table[f].isna().sum()) for f in features}
    for strategy, fill in STRATEGIES:
        for indicator in (False, True):
            models = {}
            for label, make in MODELS.items():
                def pipeline(make=make):
                    imputer = SimpleImputer(strategy=strategy, fill_value=fill, add_indicator=indicator)
                    return make_pipeline(imputer, StandardScaler(), make())
                models[label] = scores(X, y, splits, pipeline)
            cases.append({
                "case": f"{name} {strategy}{' indicator' if indicator else ''}",
                "dataset": name, "path": path, "target": target, "features": features, "rows": len(y),
                "missing": missing, "strategy": strategy, "fill_value": fill, "add_indicator": indicator,
                "models": models,
            })

print(json.dumps({"sklearn": sklearn.__version__, "numpy": np.__version__, "pandas": pd.__version__,
                  "cases": cases}, indent=1))

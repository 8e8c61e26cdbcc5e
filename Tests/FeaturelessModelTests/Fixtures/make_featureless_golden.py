#!/usr/bin/env python3
"""scikit-learn's DummyClassifier(strategy="prior") on iris, fold by fold, for the featureless model's tests.

Regenerate (from the repository root):
  /work/refvenv/bin/python Tests/FeaturelessModelTests/Fixtures/make_featureless_golden.py \
    > Tests/FeaturelessModelTests/Fixtures/featureless-golden.json
Made with scikit-learn 1.9.1, numpy 2.4.6, pandas 3.1.1.

The folds are unshuffled 10-fold k-fold (Benchbook's `kfold`, scikit-learn's KFold(10)) over iris as it ships,
sorted by species, so each training fold's class shares differ and the prior is not uniform. Log-loss is scored on
the full class list, as Benchbook scores it. "tuned" is GridSearchCV over strategy prior and uniform with
StratifiedKFold(5) inner folds (Benchbook's default inner folds) on each outer training set, scored by log-loss:
the configuration chosen per outer fold and its score on the outer test rows.
"""
import json
import numpy as np, pandas as pd, sklearn
from sklearn.dummy import DummyClassifier
from sklearn.metrics import log_loss
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold

iris = pd.read_csv("experiments/data/iris.csv")
X, y = iris.iloc[:, :4].to_numpy(float), iris["species"].to_numpy()
classes = np.unique(y)

def fold_scores(make):
    folds = []
    for train, test in KFold(10).split(X, y):
        model = make().fit(X[train], y[train])
        folds.append(float(log_loss(y[test], model.predict_proba(X[test]), labels=classes)))
    return folds

chosen, nested = [], []
for train, test in KFold(10).split(X, y):
    search = GridSearchCV(DummyClassifier(), {"strategy": ["prior", "uniform"]}, cv=StratifiedKFold(5),
                          scoring="neg_log_loss").fit(X[train], y[train])
    chosen.append(search.best_params_["strategy"])
    nested.append(float(log_loss(y[test], search.predict_proba(X[test]), labels=classes)))

print(json.dumps({
    "sklearn": sklearn.__version__,
    "prior": fold_scores(lambda: DummyClassifier(strategy="prior")),
    "uniform": fold_scores(lambda: DummyClassifier(strategy="uniform")),
    "tuned": {"chosen": chosen, "nested": nested},
}, indent=1))

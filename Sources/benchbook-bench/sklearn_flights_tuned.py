#!/usr/bin/env python3
"""scikit-learn doing the work of `benchbook run experiments/flights-delay-tuned.yaml`, for `make bench`.

Nested cross-validation as a notebook does it: cross_validate(GridSearchCV(est, grid, cv=StratifiedKFold(5),
scoring="neg_log_loss"), X, y, cv=KFold(10), scoring="neg_log_loss", return_estimator=True), with the
grids of the spec and scikit-learn's default estimators (DecisionTreeClassifier(random_state=0)).
Writes {"models": {label: {"seconds": s, "folds": [...], "chosen": [{param: value}, ...]}}} as JSON;
outer scores are also recomputed with log_loss on the full probability matrix ("full_folds").
Needs: pip install scikit-learn pandas
"""
import argparse, json, time, warnings
import numpy as np, pandas as pd, sklearn
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

parser = argparse.ArgumentParser()
parser.add_argument("--csv", required=True)
parser.add_argument("--json", required=True)
args = parser.parse_args()
warnings.filterwarnings("ignore")

frame = pd.read_csv(args.csv).dropna(subset=["arr_delay"]).reset_index(drop=True)
X = frame[["month", "day", "sched_dep_time", "distance"]].to_numpy(float)
y = (frame["arr_delay"] > 15).astype(int).to_numpy()
grids = {
    "LR": (LogisticRegression(), {"C": [0.01, 1, 100]}),
    "LDA": (LinearDiscriminantAnalysis(), None),
    "KNN": (KNeighborsClassifier(), {"n_neighbors": [5, 25, 125], "weights": ["uniform", "distance"]}),
    "DT": (DecisionTreeClassifier(random_state=0), {"max_depth": [4, 8, 12, 16, None]}),
    "NB": (GaussianNB(), {"var_smoothing": [1e-9, 1e-6, 1e-3]}),
}
outer = KFold(10)
out = {"sklearn": sklearn.__version__, "rows": int(len(y)), "models": {}}
for label, (estimator, grid) in grids.items():
    searched = estimator if grid is None else GridSearchCV(
        estimator, grid, cv=StratifiedKFold(5), scoring="neg_log_loss")
    start = time.perf_counter()
    scores = cross_validate(searched, X, y, cv=outer, scoring="neg_log_loss", return_estimator=True)
    seconds = time.perf_counter() - start
    chosen, full = [], []
    for fitted, (_, test) in zip(scores["estimator"], outer.split(X)):
        chosen.append({} if grid is None else {k: v for k, v in fitted.best_params_.items()})
        full.append(float(log_loss(y[test], fitted.predict_proba(X[test]), labels=[0, 1])))
    out["models"][label] = {
        "seconds": seconds, "folds": [float(-s) for s in scores["test_score"]], "full_folds": full, "chosen": chosen}
    print(f"{label}: {seconds:.1f} s", flush=True)
with open(args.json, "w") as handle:
    json.dump(out, handle)

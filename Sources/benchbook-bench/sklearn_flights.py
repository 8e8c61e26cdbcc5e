#!/usr/bin/env python3
"""scikit-learn doing the work of `benchbook run experiments/flights-delay.yaml`, for `make bench`.

Reads the CSV with pandas, drops rows missing arr_delay, binarises arr_delay > 15, and runs
cross_validate (unshuffled 10-fold KFold, neg_log_loss) over the five default estimators,
timing each; the tree is seeded with 0, the seed Benchbook's default tree reproduces.
Writes {"models": {label: {"seconds": s, "folds": [...]}}} as JSON.
Needs: pip install scikit-learn pandas
"""
import argparse, json, time, warnings
import numpy as np, pandas as pd, sklearn
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, cross_validate
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
estimators = {
    "LR": LogisticRegression(), "LDA": LinearDiscriminantAnalysis(), "KNN": KNeighborsClassifier(),
    "DT": DecisionTreeClassifier(random_state=0), "NB": GaussianNB(),
}
out = {"sklearn": sklearn.__version__, "rows": int(len(y)), "models": {}}
for label, estimator in estimators.items():
    start = time.perf_counter()
    scores = cross_validate(estimator, X, y, cv=KFold(10), scoring="neg_log_loss")
    seconds = time.perf_counter() - start
    out["models"][label] = {"seconds": seconds, "folds": [float(-s) for s in scores["test_score"]]}
with open(args.json, "w") as handle:
    json.dump(out, handle)

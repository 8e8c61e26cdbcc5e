#!/usr/bin/env python3
"""scikit-learn doing the work of `benchbook run SPEC` for one dataset of the bench suite (`make bench-suite`).

The job file (JSON, written by benchbook-bench from Benchbook's own results.json, so both sides use the same
rows, columns and folds) names the CSV, the target (and its `when:` test), the features with their types,
the time column, the missing-value policy, whether the spec standardises, the resampling and each fold's
test class counts. This script does what a notebook would:

  pandas.read_csv; dropna over the used columns (when the spec drops); one-hot with pandas.get_dummies
  (categories sorted, as Benchbook orders them); make_pipeline(StandardScaler(), estimator) when the spec
  standardises; cross_validate(estimator, X, y, cv=StratifiedKFold(k) or KFold(k), scoring="neg_log_loss")
  for each model the spec runs, under its label, at scikit-learn's defaults (ESTIMATORS: LogisticRegression(),
  LinearDiscriminantAnalysis(), KNeighborsClassifier(), DecisionTreeClassifier(random_state=0), GaussianNB(),
  RandomForestClassifier(random_state=0), HistGradientBoostingClassifier(random_state=0)), each timed (wall and
  CPU seconds). A model with settings of its own, or an algorithm not in ESTIMATORS, stops the script.

--part newton-cg instead times only LogisticRegression(solver="newton-cg", tol=1e-14, max_iter=100000), the
converged optimum Benchbook's logistic regression reaches, for the many-class comparison of issue 32; it runs
as its own process so that it adds nothing to the models' whole-script time and peak memory.
Writes {"sklearn": version, "rows": n, "columns": c, "folds_match": bool, "models": {label: {"seconds",
"cpu_seconds", "log_loss"}}} as JSON. Needs: pip install scikit-learn pandas
"""
import argparse, json, operator, sys, time, warnings

import numpy as np, pandas as pd, sklearn
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

parser = argparse.ArgumentParser()
parser.add_argument("--job", required=True)
parser.add_argument("--json", required=True)
parser.add_argument("--part", choices=["main", "newton-cg"], default="main")
args = parser.parse_args()
warnings.filterwarnings("ignore")
with open(args.job) as handle:
    job = json.load(handle)


def fail(message):
    print(f"sklearn_suite.py: {job['name']}: {message}", file=sys.stderr)
    sys.exit(2)


frame = pd.read_csv(job["csv"])
features = job["features"]
used = [job["target"]] + [f["name"] for f in features] + ([job["time"]] if job.get("time") else [])
missing = [name for name in used if name not in frame.columns]
if missing:
    fail(f"columns {missing} are not in {job['csv']} (derived features are not reproduced here)")
if job["missing"] == "drop":
    frame = frame.dropna(subset=used).reset_index(drop=True)

target = frame[job["target"]]
if job.get("target_when"):
    comparisons = {">=": operator.ge, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
                   ">": operator.gt, "<": operator.lt}
    text = job["target_when"].strip()
    symbol = next((s for s in comparisons if text.startswith(s)), None)
    if symbol is None:
        fail(f"cannot reproduce the target test {text!r}")
    target = comparisons[symbol](target.astype(float), float(text[len(symbol):])).astype(int)
classes, y = np.unique(target.to_numpy(), return_inverse=True)

blocks = []
for feature in features:
    column = frame[feature["name"]]
    if feature["type"] == "categorical":
        blocks.append(pd.get_dummies(column, prefix=feature["name"], prefix_sep="=", dtype=float))
    else:
        blocks.append(column.astype(float).to_frame())
X = pd.concat(blocks, axis=1).to_numpy(float)
if X.shape[1] != job["columns"] or len(classes) != len(job["classes"]):
    fail(f"{X.shape[1]} columns and {len(classes)} classes here, Benchbook encoded {job['columns']} and "
         f"{len(job['classes'])}")

resampling = job["resampling"]
if resampling.get("shuffle"):
    fail("shuffled folds use Benchbook's own generator and cannot be reproduced here")
cv = {"stratified-kfold": StratifiedKFold, "kfold": KFold}.get(resampling["method"])
if cv is None:
    fail(f"resampling {resampling['method']!r} is not reproduced here")
cv = cv(resampling["folds"])
counts = [np.bincount(y[test], minlength=len(classes)).tolist() for _, test in cv.split(X, y)]
folds_match = counts == job["test_class_counts"]


def estimator(model):
    return make_pipeline(StandardScaler(), model) if job["standardize"] else model


# Benchbook's algorithm ids (results.json `models[].algorithm`, `benchbook models`) and the defaults they equal.
ESTIMATORS = {
    "logistic_regression": LogisticRegression, "lda": LinearDiscriminantAnalysis, "knn": KNeighborsClassifier,
    "decision_tree": lambda: DecisionTreeClassifier(random_state=0), "gaussian_nb": GaussianNB,
    "random_forest": lambda: RandomForestClassifier(random_state=0),
    "hist_gradient_boosting": lambda: HistGradientBoostingClassifier(random_state=0),
}

if args.part == "main":
    unknown = [m["algorithm"] for m in job["models"] if m["algorithm"] not in ESTIMATORS]
    if unknown:
        fail(f"no scikit-learn estimator here for {unknown}")
    models = {m["label"]: ESTIMATORS[m["algorithm"]]() for m in job["models"]}
else:
    models = {"LR newton-cg": LogisticRegression(solver="newton-cg", tol=1e-14, max_iter=100000)}

out = {"sklearn": sklearn.__version__, "rows": int(len(y)), "columns": int(X.shape[1]),
       "folds_match": folds_match, "models": {}}
for label, model in models.items():
    start, cpu = time.perf_counter(), time.process_time()
    scores = cross_validate(estimator(model), X, y, cv=cv, scoring="neg_log_loss")
    log_loss = float(-np.mean(scores["test_score"]))  # NaN when a fold could not be scored: written as null
    out["models"][label] = {
        "seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu,
        "log_loss": log_loss if np.isfinite(log_loss) else None,
    }
with open(args.json, "w") as handle:
    json.dump(out, handle, allow_nan=False)

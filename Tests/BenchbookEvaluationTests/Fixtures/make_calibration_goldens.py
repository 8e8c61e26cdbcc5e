#!/usr/bin/env python3
"""Calibration measures of scikit-learn's out-of-fold predictions, for Benchbook's calibration tests.

Regenerate (from the repository root, with the bench venv; about a minute):
  .build/sklearn-venv/bin/python Tests/BenchbookEvaluationTests/Fixtures/make_calibration_goldens.py \
    > Tests/BenchbookEvaluationTests/Fixtures/calibration-goldens.json
Made with scikit-learn 1.9.1, numpy 2.4.6, pandas 3.1.1.

Each case fits scikit-learn's estimators fold by fold (StratifiedKFold(10), unshuffled, behind StandardScaler, as
the shipped breast-cancer spec does) and pools each row's prediction from the fold that tested it, in row order
(cross_val_predict's order). The judged probability is the second class's for two classes and the top-label
confidence (the first class among equal highest probabilities) for more, with whether its event happened.

The measures, as docs/results.md defines them, are computed here with numpy, independently of Benchbook:
- ece: a stable argsort of the probabilities, np.array_split into 10 bins, sum of (bin rows / rows) x
  |mean probability - observed rate|;
- reliability, resolution, uncertainty (two classes): Murphy's decomposition over the same bins;
- slope, intercept (two classes): LogisticRegression(penalty=None, solver="newton-cholesky", tol=1e-14) of the
  outcome on logit(p), p clipped to [1e-15, 1 - 1e-15].
The unit tests feed the same points to Benchbook's code (1e-9 for the binned measures, 1e-5 for the fit); the
end-to-end tests compare a run's measures with these at the tolerances the parity tests allow its model.
"""
import json, warnings
import numpy as np, pandas as pd, sklearn
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

warnings.filterwarnings("ignore")
MODELS = {
    "LR": lambda: LogisticRegression(tol=1e-12, max_iter=100000),
    "LDA": lambda: LinearDiscriminantAnalysis(),
    "KNN": lambda: KNeighborsClassifier(),
    "DT": lambda: DecisionTreeClassifier(random_state=0),
    "NB": lambda: GaussianNB(),
    "RF": lambda: RandomForestClassifier(random_state=0),
    "HGB": lambda: HistGradientBoostingClassifier(random_state=0),
}

def out_of_fold(X, y, make):
    classes = np.unique(y)
    p = np.zeros((len(y), len(classes)))
    for train, test in StratifiedKFold(10).split(X, y):
        est = make_pipeline(StandardScaler(), make()).fit(X[train], y[train])
        p[np.ix_(test, np.searchsorted(classes, est.classes_))] = est.predict_proba(X[test])
    index = np.searchsorted(classes, y)
    if len(classes) == 2:
        return p[:, 1], index == 1
    top = p.argmax(axis=1)
    return p[np.arange(len(y)), top], top == index

def measures(p, hit, two_classes):
    o = hit.astype(float)
    bins = np.array_split(np.argsort(p, kind="stable"), 10)
    bins = [b for b in bins if len(b)]
    share = np.array([len(b) / len(p) for b in bins])
    mean_p = np.array([p[b].mean() for b in bins])
    rate = np.array([o[b].mean() for b in bins])
    out = {"ece": float(np.sum(share * np.abs(mean_p - rate))), "mean_gap": float(p.mean() - o.mean())}
    if two_classes:
        base = o.mean()
        out["reliability"] = float(np.sum(share * (mean_p - rate) ** 2))
        out["resolution"] = float(np.sum(share * (rate - base) ** 2))
        out["uncertainty"] = float(base * (1 - base))
        c = np.clip(p, 1e-15, 1 - 1e-15)
        fit = LogisticRegression(penalty=None, solver="newton-cholesky", tol=1e-14, max_iter=1000)
        fit.fit(np.log(c / (1 - c)).reshape(-1, 1), hit)
        out["slope"], out["intercept"] = float(fit.coef_[0, 0]), float(fit.intercept_[0])
    return out

def case(name, X, y):
    two = len(np.unique(y)) == 2
    models = {}
    for label, make in MODELS.items():
        p, hit = out_of_fold(X, y, make)
        models[label] = {"probabilities": [float(v) for v in p], "outcomes": [bool(v) for v in hit],
                         "measures": measures(p, hit, two)}
    return {"case": name, "two_classes": two, "models": models}

cancer = pd.read_csv("experiments/data/breast-cancer.csv")
wine = pd.read_csv("Tests/BenchbookModelsTests/Fixtures/wine.csv")
cases = [
    case("breast-cancer stratified 10-fold standardized",
         cancer.iloc[:, :10].to_numpy(float), cancer["diagnosis"].to_numpy()),
    case("wine stratified 10-fold standardized", wine.iloc[:, :13].to_numpy(float), wine["class"].to_numpy()),
]
print(json.dumps({"sklearn": sklearn.__version__, "cases": cases}))

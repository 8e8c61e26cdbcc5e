#!/usr/bin/env python3
"""scikit-learn's per-fold log-loss for the shipped experiments, for Benchbook's parity tests.

Regenerate (from the repository root; about ten minutes, most of it flights trees and brute-force kNN):
  python3 Tests/EndToEndTests/Fixtures/make_goldens.py > Tests/EndToEndTests/Fixtures/sklearn-goldens.json
Made with scikit-learn 1.9.1, numpy 2.4.6, pandas 3.1.1.

Each case fits scikit-learn's default estimators (behind StandardScaler when the spec standardises)
fold by fold and scores log_loss with the full class list, so it also covers folds that
cross_val_score cannot score (a test fold holding one class).

The decision tree breaks equal-gain splits by a seeded feature order: "DT-random-state-0" is
DecisionTreeClassifier(random_state=0), which Benchbook's default tree reproduces exactly; "DT"
is the per-fold mean over random_state 0-9, and "DT-seed-means" lists each seed's mean log-loss:
the spread of scikit-learn's own answers. "DT-random-state-1" and "DT-random-state-42" are the
trees for those seeds, which Benchbook grows with `DT: {random_state: 1}` and `{random_state: 42}`.

"KNN-brute" is KNeighborsClassifier(algorithm="brute"). Neither it nor the default ("auto", a kd-tree on
these data) keeps the lowest training rows among equidistant neighbours, Benchbook's rule: the kd-tree keeps
them in its layout's order, brute force in its bounded heap's. On integer features (flights) all three
differ. "KNN-stable" (flights only) is Benchbook's rule computed exactly: a kd-tree query for each test
row's k-th distance, a radius query for every neighbour within it, exact squared distances (integers),
the first k by (distance, training row).

"parity" says, per case and per Benchbook model (its results.json `algorithm`), which golden its folds must match
and to what relative tolerance, or why none can: the parity tests go through every registered model and fail on
one the goldens do not cover. Logistic regression is compared with scikit-learn run to convergence ("LR-converged";
its defaults stop early: tol=1e-4, max_iter=100), to 1e-4; LDA, Gaussian NB and kNN on continuous data to 1e-6;
the tree to 1e-12 against random_state=0; the random forest ("RF", RandomForestClassifier(random_state=0), which
Benchbook's default forest reproduces tree for tree) to 1e-9; histogram gradient boosting ("HGB",
HistGradientBoostingClassifier(random_state=0), early stopping on above 10,000 rows) to 1e-6. kNN on iris has no reference: its measurements, given to a tenth of a
centimetre, tie often, and scikit-learn orders equidistant neighbours its own way. On the flights data's integer
features kNN is compared with "KNN-stable" to 1e-12, and its mean with scikit-learn's kd-tree and brute force to 2%.
"""
import json, warnings
import numpy as np, pandas as pd, sklearn
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KDTree, KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

warnings.filterwarnings("ignore")
MODELS = {
    "LR": lambda: LogisticRegression(),
    "LR-converged": lambda: LogisticRegression(tol=1e-12, max_iter=100000),
    "LDA": lambda: LinearDiscriminantAnalysis(),
    "KNN": lambda: KNeighborsClassifier(),
    "KNN-brute": lambda: KNeighborsClassifier(algorithm="brute"),
    "NB": lambda: GaussianNB(),
}

def parity(knn, forest):
    return {
        "logistic_regression": {"golden": "LR-converged", "relative_tolerance": 1e-4},
        "lda": {"golden": "LDA", "relative_tolerance": 1e-6},
        "knn": knn,
        "decision_tree": {"golden": "DT-random-state-0", "relative_tolerance": 1e-12},
        "gaussian_nb": {"golden": "NB", "relative_tolerance": 1e-6},
        "random_forest": forest,
        "hist_gradient_boosting": {"golden": "HGB", "relative_tolerance": 1e-6},
    }

CONTINUOUS_KNN = {"golden": "KNN", "relative_tolerance": 1e-6}
IRIS_KNN = {"golden": None, "why": "iris's measurements tie often, and scikit-learn orders equidistant neighbours its own way"}
FLIGHTS_KNN = {"golden": "KNN-stable", "relative_tolerance": 1e-12,
               "means": [{"golden": "KNN", "relative_tolerance": 0.02}, {"golden": "KNN-brute", "relative_tolerance": 0.02}]}

FOREST = {"golden": "RF", "relative_tolerance": 1e-9}
FLIGHTS_FOREST = {"golden": None, "why": "a hundred fully grown trees on 294,611 rows a fold take scikit-learn minutes; "
                  "the forest's parity on flights rows is the model tests' (every 16th row, 20,000 rows, node for node)"}

def case(name, X, y, cv, standardize, knn, forest=FOREST):
    classes = np.unique(y)
    out = {"case": name, "rows": int(len(y)), "parity": parity(knn, forest), "models": {}}
    if forest.get("golden"):
        out["models"]["RF"] = scores(X, y, cv, standardize, lambda: RandomForestClassifier(random_state=0), classes)
    out["models"]["HGB"] = scores(
        X, y, cv, standardize, lambda: HistGradientBoostingClassifier(random_state=0), classes)
    for label, make in MODELS.items():
        out["models"][label] = scores(X, y, cv, standardize, make, classes)
    seeds = [scores(X, y, cv, standardize, lambda seed=seed: DecisionTreeClassifier(random_state=seed), classes)
             for seed in range(10)]
    out["models"]["DT"] = [float(v) for v in np.mean(seeds, axis=0)]
    out["models"]["DT-seed-means"] = [float(np.mean(s)) for s in seeds]
    out["models"]["DT-random-state-0"] = seeds[0]
    out["models"]["DT-random-state-1"] = seeds[1]
    out["models"]["DT-random-state-42"] = scores(
        X, y, cv, standardize, lambda: DecisionTreeClassifier(random_state=42), classes)
    return out

def scores(X, y, cv, standardize, make, classes):
    folds = []
    for train, test in cv.split(X, y):
        est = make_pipeline(StandardScaler(), make()) if standardize else make()
        est.fit(X[train], y[train])
        p = np.zeros((len(test), len(classes)))
        p[:, np.searchsorted(classes, est.classes_)] = est.predict_proba(X[test])
        folds.append(float(log_loss(y[test], p, labels=classes)))
    return folds

def stable_knn_scores(X, y, cv, classes, k=5):
    folds = []
    for train, test in cv.split(X, y):
        Xtr, ytr = X[train], y[train]
        tree = KDTree(Xtr)
        kth = tree.query(X[test], k=k)[0][:, -1]
        candidates = tree.query_radius(X[test], r=kth * (1 + 1e-9) + 1e-9)
        p = np.zeros((len(test), len(classes)))
        for i, (q, found) in enumerate(zip(X[test], candidates)):
            found = np.sort(found)
            d2 = ((Xtr[found] - q) ** 2).sum(axis=1)
            chosen = found[np.lexsort((found, d2))[:k]]
            p[i] = np.bincount(np.searchsorted(classes, ytr[chosen]), minlength=len(classes)) / k
        folds.append(float(log_loss(y[test], p, labels=classes)))
    return folds

cases = []
iris = pd.read_csv("experiments/data/iris.csv")
X, y = iris.iloc[:, :4].to_numpy(float), iris["species"].to_numpy()
cases.append(case("iris stratified 10-fold standardized", X, y, StratifiedKFold(10), True, IRIS_KNN))
cases.append(case("iris sorted unshuffled 10-fold standardized", X, y, KFold(10), True, IRIS_KNN))

cancer = pd.read_csv("experiments/data/breast-cancer.csv")
X, y = cancer.iloc[:, :10].to_numpy(float), cancer["diagnosis"].to_numpy()
cases.append(case("breast-cancer stratified 10-fold standardized", X, y, StratifiedKFold(10), True, CONTINUOUS_KNN))

# The wine fixture of the model tests (scikit-learn's load_wine, rows in its order, sorted by class).
wine = pd.read_csv("Tests/BenchbookModelsTests/Fixtures/wine.csv")
X, y = wine.iloc[:, :13].to_numpy(float), wine["class"].to_numpy()
cases.append(case("wine stratified 10-fold standardized", X, y, StratifiedKFold(10), True, CONTINUOUS_KNN))

flights = pd.read_csv("experiments/data/flights.csv.gz").dropna(subset=["arr_delay"]).reset_index(drop=True)
X = flights[["month", "day", "sched_dep_time", "distance"]].to_numpy(float)
y = (flights["arr_delay"] > 15).astype(int).to_numpy()
cases.append(case("flights unshuffled 10-fold", X, y, KFold(10), False, FLIGHTS_KNN, FLIGHTS_FOREST))
cases[-1]["models"]["KNN-stable"] = stable_knn_scores(X, y, KFold(10), np.unique(y))

print(json.dumps({"sklearn": sklearn.__version__, "cases": cases}, indent=1))

#!/usr/bin/env python3
"""scikit-learn's nested cross-validation, fold by fold, for Benchbook's tuning parity tests.

Regenerate (from the repository root, with the venv `make bench` sets up; well under a minute):
  .build/sklearn-venv/bin/python Tests/EndToEndTests/Fixtures/make_tuning_goldens.py \
    > Tests/EndToEndTests/Fixtures/sklearn-tuning-goldens.json
Made with scikit-learn 1.9.1, numpy 2.4.6, pandas 3.1.1.

What it reproduces is
  cross_validate(GridSearchCV(pipeline, grid, cv=StratifiedKFold(5), scoring="neg_log_loss"), X, y, cv=outer)
with the pipeline StandardScaler then the model, but written out by hand so that every number on the
way is kept. For each outer fold:
  - every configuration of ParameterGrid(grid) (keys sorted, the last key varying fastest) is fitted
    on each of the 5 unshuffled StratifiedKFold splits of the outer training rows and scored with
    log_loss over the full class list; "inner_means" holds the mean of the 5 losses per configuration;
  - "chosen" is the first configuration with the smallest inner mean (GridSearchCV keeps the first
    of equal scores), and "gridsearch_chosen" is what GridSearchCV itself picks on the same rows, whose
    scorer reads only the positive class's column in binary problems, so rounding could differ;
  - "flat" holds every configuration fitted on the outer training rows and scored on the test rows;
  - "outer_log_loss" is flat[chosen], the nested score of the fold.
"final_index" repeats the inner protocol on all rows: the configuration a tuned fit on all rows uses
(and "gridsearch_final_index" is GridSearchCV's pick there).

Logistic regression runs to convergence (newton-cg, tol=1e-14), as Benchbook's does. The decision
tree uses random_state=0, the seed of Benchbook's default tree, which breaks equal-gain splits the
same way, so its numbers are exact references too.
"""
import json, sys, time, warnings
import numpy as np, pandas as pd, sklearn
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import GridSearchCV, ParameterGrid, StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

warnings.filterwarnings("ignore")
INNER_FOLDS, OUTER_FOLDS = 5, 10


def geometric(low, high, points):
    return [float(v) for v in np.geomspace(low, high, points)]


def converged_lr():
    return LogisticRegression(solver="newton-cg", tol=1e-14, max_iter=100000)


def brute_knn():
    return KNeighborsClassifier(algorithm="brute")


IRIS_MODELS = {
    "LR": (converged_lr, {"C": geometric(0.01, 100, 5)}),
    "KNN": (brute_knn, {"n_neighbors": [1, 5, 15], "weights": ["uniform", "distance"]}),
    "NB": (GaussianNB, {"var_smoothing": geometric(1e-9, 1e-3, 3)}),
    "LDA": (LinearDiscriminantAnalysis, {}),
}
CANCER_MODELS = {
    "LR": (converged_lr, {"C": geometric(0.001, 1000, 7)}),
    "KNN": (brute_knn, {"n_neighbors": [5, 15, 51], "weights": ["uniform", "distance"]}),
    "NB": (GaussianNB, {"var_smoothing": geometric(1e-12, 1e-3, 4)}),
    "DT": (lambda: DecisionTreeClassifier(random_state=0), {"max_depth": [2, 4, 6, None], "min_samples_leaf": [1, 20]}),
}


def pipeline(make, config):
    return make_pipeline(StandardScaler(), make().set_params(**config))


def loss(make, config, X, y, train, test, classes):
    """Fits on the train rows and scores log_loss on the test rows, probabilities placed for every class."""
    model = pipeline(make, config).fit(X[train], y[train])
    p = np.zeros((len(test), len(classes)))
    p[:, np.searchsorted(classes, model.steps[-1][1].classes_)] = model.predict_proba(X[test])
    return float(log_loss(y[test], p, labels=classes))


def inner_means(make, configs, X, y, rows, classes):
    """The mean inner-fold loss of each configuration over StratifiedKFold(5) of `rows`."""
    splits = list(StratifiedKFold(INNER_FOLDS).split(X[rows], y[rows]))
    return [float(np.mean([loss(make, c, X, y, rows[tr], rows[va], classes) for tr, va in splits])) for c in configs]


def gridsearch_index(make, grid, X, y):
    step = make_pipeline(StandardScaler(), make()).steps[-1][0]
    search = GridSearchCV(
        make_pipeline(StandardScaler(), make()), {f"{step}__{k}": v for k, v in grid.items()},
        cv=StratifiedKFold(INNER_FOLDS), scoring="neg_log_loss", refit=False)
    return int(search.fit(X, y).best_index_)


def tuned(make, grid, X, y, classes, differences, where):
    configs = list(ParameterGrid(grid))
    folds = []
    for fold, (train, test) in enumerate(StratifiedKFold(OUTER_FOLDS).split(X, y)):
        means = inner_means(make, configs, X, y, train, classes)
        chosen = int(np.argmin(means))
        searched = gridsearch_index(make, grid, X[train], y[train])
        if searched != chosen:
            differences.append(f"{where} fold {fold}: by hand {chosen}, GridSearchCV {searched}")
        flat = [loss(make, c, X, y, train, test, classes) for c in configs]
        folds.append({"fold": fold, "inner_means": means, "chosen": chosen, "gridsearch_chosen": searched,
                      "outer_log_loss": flat[chosen], "flat": flat})
    everything = np.arange(len(y))
    final = int(np.argmin(inner_means(make, configs, X, y, everything, classes)))
    searched = gridsearch_index(make, grid, X, y)
    if searched != final:
        differences.append(f"{where} final: by hand {final}, GridSearchCV {searched}")
    return {"grid": grid, "configs": configs, "folds": folds,
            "nested_mean": float(np.mean([f["outer_log_loss"] for f in folds])),
            "final_index": final, "gridsearch_final_index": searched, "final_params": configs[final]}


def case(name, X, y, models, differences):
    classes = np.unique(y)
    out = {"case": name, "rows": int(len(y)), "models": {}}
    for label, (make, grid) in models.items():
        started = time.perf_counter()
        out["models"][label] = tuned(make, grid, X, y, classes, differences, f"{name} {label}")
        print(f"{name} {label}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return out


started = time.perf_counter()
differences = []
cases = []
iris = pd.read_csv("experiments/data/iris.csv")
X = iris[["sepal_length", "sepal_width", "petal_length", "petal_width"]].to_numpy(float)
cases.append(case("iris tuned", X, iris["species"].to_numpy(), IRIS_MODELS, differences))

cancer = pd.read_csv("experiments/data/breast-cancer.csv")
X = cancer[[c for c in cancer.columns if c.startswith("mean_")]].to_numpy(float)
cases.append(case("breast-cancer tuned", X, cancer["diagnosis"].to_numpy(), CANCER_MODELS, differences))

print(json.dumps({"sklearn": sklearn.__version__, "cases": cases}, indent=1))
print(f"GridSearchCV chose differently {len(differences)} times" + "".join(f"\n  {d}" for d in differences),
      file=sys.stderr)
print(f"took {time.perf_counter() - started:.1f} s", file=sys.stderr)

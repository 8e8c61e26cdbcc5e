#!/usr/bin/env python3
"""Golden values for Benchbook's logistic regression, LDA and Gaussian naive Bayes.

Run from this folder with scikit-learn 1.9.1, numpy and pandas installed:

    python3 make_linear_goldens.py

It writes breast_cancer.csv (scikit-learn's bundled copy of the Wisconsin
diagnostic data, target 0 = malignant, 1 = benign) and linear-goldens.json.
iris.csv is a copy of Benchbook's shared iris data and is only read.

Each case is a fixed train/test split, optionally standardised with
StandardScaler fitted on the training rows. For every case the JSON holds the
fitted parameters and predict_proba on the test rows of

- LinearDiscriminantAnalysis() and GaussianNB() with their defaults;
- LogisticRegression at (near) the exact optimum: newton-cholesky with tol=1e-12
  (or lbfgs with tol=1e-12, max_iter=100000, whichever ends with the smaller
  gradient), so a converged solver must agree with it;
- LogisticRegression() with scikit-learn's defaults (lbfgs, tol=1e-4,
  max_iter=100), recorded only to document how far those stop from the optimum.
"""
import json
import warnings

import numpy as np
import pandas as pd
import sklearn
from sklearn.datasets import load_breast_cancer
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.preprocessing import StandardScaler

warnings.filterwarnings("ignore")


def load_csv(name):
    frame = pd.read_csv(name)
    x = frame.iloc[:, :-1].to_numpy(float)
    classes, y = np.unique(frame.iloc[:, -1].to_numpy(), return_inverse=True)
    return x, y


def objective_gradient(model, x, y, c):
    """Gradient of Σ log-loss + ‖W‖²/(2C) at the model's solution, divided by n."""
    p = model.predict_proba(x)
    k = p.shape[1]
    if k == 2:
        residual = p[:, 1] - (y == 1)
        gw = residual @ x + (model.coef_[0] / c if np.isfinite(c) else 0)
        gb = residual.sum() if model.fit_intercept else 0.0
        g = np.append(gw, gb)
    else:
        residual = p - np.eye(k)[y]
        gw = residual.T @ x + (model.coef_ / c if np.isfinite(c) else 0)
        gb = residual.sum(axis=0) if model.fit_intercept else np.zeros(k)
        g = np.concatenate([gw.ravel(), gb])
    return float(np.abs(g).max() / len(y))


def objective(model, x, y, c):
    p = np.clip(model.predict_proba(x)[np.arange(len(y)), y], 1e-300, 1)
    penalty = 0.0 if not np.isfinite(c) else (model.coef_**2).sum() / (2 * c)
    return float(-np.log(p).sum() + penalty)


def logistic(x, y, xt, c, settings):
    kwargs = {"C": c} if np.isfinite(c) else {"C": np.inf}
    best = None
    for solver, extra in [("newton-cholesky", {"tol": 1e-12, "max_iter": 1000}),
                          ("lbfgs", {"tol": 1e-12, "max_iter": 100000})]:
        model = LogisticRegression(solver=solver, **kwargs, **extra).fit(x, y)
        g = objective_gradient(model, x, y, c)
        if best is None or g < best[1]:
            best = (model, g, solver)
    model, gradient, solver = best
    default = LogisticRegression(**kwargs).fit(x, y)
    optimum_proba = model.predict_proba(xt)
    default_proba = default.predict_proba(xt)
    return {
        "settings": settings,
        "reference_solver": solver,
        "reference_gradient": gradient,
        "coef": model.coef_.tolist(),
        "intercept": model.intercept_.tolist(),
        "proba": optimum_proba.tolist(),
        "objective": objective(model, x, y, c),
        "default_objective": objective(default, x, y, c),
        "default_gradient": objective_gradient(default, x, y, c),
        "default_iterations": int(np.max(default.n_iter_)),
        "default_proba_max_abs_diff": float(np.abs(default_proba - optimum_proba).max()),
    }


def case(name, dataset, x, y, train, test, standardize, logistic_settings):
    xtr, xte = x[train], x[test]
    if standardize:
        scaler = StandardScaler().fit(xtr)
        xtr, xte = scaler.transform(xtr), scaler.transform(xte)
    ytr = y[train]
    lda = LinearDiscriminantAnalysis().fit(xtr, ytr)
    nb = GaussianNB().fit(xtr, ytr)
    out = {
        "name": name, "dataset": dataset, "standardize": standardize,
        "train": [int(i) for i in train], "test": [int(i) for i in test],
        "lda": {"coef": lda.coef_.tolist(), "intercept": lda.intercept_.tolist(),
                "proba": lda.predict_proba(xte).tolist()},
        "gaussian_nb": {"theta": nb.theta_.tolist(), "var": nb.var_.tolist(),
                        "class_prior": nb.class_prior_.tolist(), "epsilon": float(nb.epsilon_),
                        "proba": nb.predict_proba(xte).tolist()},
        "logistic_regression": [],
    }
    for settings in logistic_settings:
        c = settings.get("C", 1.0) if settings.get("penalty", "l2") == "l2" else np.inf
        out["logistic_regression"].append(logistic(xtr, ytr, xte, c, settings))
    return out


def main():
    cancer = load_breast_cancer()
    frame = pd.DataFrame(cancer.data, columns=[n.replace(" ", "_") for n in cancer.feature_names])
    frame["target"] = cancer.target
    frame.to_csv("breast_cancer.csv", index=False)

    cases = []
    rng = np.random.RandomState(0)
    default_l2 = [{}, {"C": 0.01}]

    x, y = load_csv("iris.csv")
    order = rng.permutation(len(y))
    train, test = np.sort(order[:100]), np.sort(order[100:])
    cases.append(case("iris", "iris.csv", x, y, train, test, False, default_l2))
    cases.append(case("iris-standardized", "iris.csv", x, y, train, test, True, default_l2))
    # Rank-deficient: a constant column and an exact sum of two columns (LDA drops the null direction).
    wide = np.column_stack([x, np.ones(len(y)), x[:, 0] + x[:, 2]])
    cases.append(case("iris-deficient", "iris.csv+deficient", wide, y, train, test, False, [{}]))

    x, y = load_csv("breast_cancer.csv")
    order = rng.permutation(len(y))
    train, test = np.sort(order[:400]), np.sort(order[400:])
    cases.append(case("breast-cancer", "breast_cancer.csv", x, y, train, test, False, default_l2))
    cases.append(case("breast-cancer-standardized", "breast_cancer.csv", x, y, train, test, True,
                      default_l2 + [{"C": 100.0}]))

    with open("linear-goldens.json", "w") as f:
        json.dump({"generator": "make_linear_goldens.py", "sklearn": sklearn.__version__,
                   "numpy": np.__version__, "cases": cases}, f, indent=1)
        f.write("\n")
    for c in cases:
        for lr in c["logistic_regression"]:
            print(c["name"], lr["settings"], lr["reference_solver"], "grad %.2e" % lr["reference_gradient"],
                  "default: grad %.2e it %d max|dp| %.2e rel obj gap %.2e" % (
                      lr["default_gradient"], lr["default_iterations"], lr["default_proba_max_abs_diff"],
                      (lr["default_objective"] - lr["objective"]) / lr["objective"]))


if __name__ == "__main__":
    main()

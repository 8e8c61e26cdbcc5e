#!/usr/bin/env python3
"""Writes the two files of this folder that are not as published (penguins-eu.csv, penguins.tsv) and
scikit-learn's per-fold log-loss on every file here, for RealDataTests.

Regenerate (from this directory, with pandas and scikit-learn; a few seconds):
  python3 make_realdata.py > realdata-goldens.json
Made with scikit-learn 1.9.1, numpy 2.4.6, pandas 3.1.1 (/work/refvenv).

- penguins-eu.csv is penguins.csv as a European spreadsheet saves it: ';' between fields, decimal commas,
  missing values as empty fields, text quoted. penguins.tsv is penguins.csv with tabs, missing values as NA.
  Neither changes a value: reading either with its dialect must give penguins.csv's numbers to the bit.
- Each case reads the file as published, with pandas, and scores the models fold by fold, as Benchbook does
  (log_loss over the full class list; folds unshuffled).
"""
import json, warnings
import numpy as np, pandas as pd, sklearn
from sklearn.compose import ColumnTransformer
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.model_selection import StratifiedKFold, TimeSeriesSplit
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder, StandardScaler

warnings.filterwarnings("ignore")

# The dialect twins of penguins.csv.
penguins_text = pd.read_csv("penguins.csv", dtype=str, keep_default_na=False)
def european(value):
    """A cell as a European spreadsheet writes it: a decimal comma, text quoted, nothing for a missing value."""
    if value == "NA":
        return ""
    if value.replace(".", "", 1).lstrip("-").isdigit():
        return value.replace(".", ",")
    return '"' + value.replace('"', '""') + '"'


with open("penguins-eu.csv", "w", newline="") as out:
    out.write(";".join(european(name) for name in penguins_text.columns) + "\r\n")
    for row in penguins_text.itertuples(index=False):
        out.write(";".join(european(value) for value in row) + "\r\n")
penguins_text.to_csv("penguins.tsv", sep="\t", index=False)


def scores(X, y, splits, make):
    classes = np.unique(y)
    out = []
    for train, test in splits:
        model = make().fit(X.iloc[train] if hasattr(X, "iloc") else X[train], y[train])
        proba = model.predict_proba(X.iloc[test] if hasattr(X, "iloc") else X[test])
        full = np.zeros((len(test), len(classes)))
        for j, c in enumerate(model.classes_):
            full[:, list(classes).index(c)] = proba[:, j]
        out.append(float(log_loss(y[test], full, labels=classes)))
    return out


cases = []

# Seattle weather: its own date format, rows in time order, forward-chaining folds.
weather = pd.read_csv("seattle-weather.csv")
weather["date"] = pd.to_datetime(weather["date"], format="%Y/%m/%d")
weather = weather.sort_values("date", kind="stable")
X = np.column_stack([weather.precipitation, weather.temp_max, weather.temp_min, weather.wind, weather.date.dt.month])
y = weather.weather.to_numpy()
splits = list(TimeSeriesSplit(n_splits=5).split(X))
cases.append({"case": "seattle-weather time-series 5", "rows": len(y), "models": {
    "LDA": scores(X, y, splits, LinearDiscriminantAnalysis), "NB": scores(X, y, splits, GaussianNB)}})

# mtcars from Rdatasets: the row names (car names) are the index, every other column but vs a feature.
cars = pd.read_csv("mtcars.csv", index_col=0)
X = cars.drop(columns=["am", "vs"]).to_numpy(dtype=float)
y = cars.am.to_numpy()
splits = list(StratifiedKFold(n_splits=4).split(X, y))
cases.append({"case": "mtcars stratified 4", "rows": len(y), "models": {
    "LDA": scores(X, y, splits, LinearDiscriminantAnalysis), "NB": scores(X, y, splits, GaussianNB)}})

# Penguins: scikit-learn's usual ColumnTransformer, numeric columns standardised, categories one-hot and
# left as 0 and 1; rows missing a used value dropped.
numeric = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g"]
categorical = ["island", "sex"]
birds = pd.read_csv("penguins.csv").dropna(subset=numeric + categorical + ["species"]).reset_index(drop=True)
X = birds[categorical + numeric]
y = birds.species.to_numpy()
splits = list(StratifiedKFold(n_splits=5).split(X, y))


def column_transformer_lr():
    return make_pipeline(
        ColumnTransformer([("num", StandardScaler(), numeric), ("cat", OneHotEncoder(), categorical)]),
        LogisticRegression(tol=1e-12, max_iter=100000))


cases.append({"case": "penguins stratified 5 numeric standardized", "rows": len(y), "models": {
    "LR-converged": scores(X, y, splits, column_transformer_lr)}})

print(json.dumps({"sklearn": sklearn.__version__, "cases": cases}, indent=1))

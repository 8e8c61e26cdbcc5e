#!/usr/bin/env python3
"""digits.csv.gz: scikit-learn's bundled handwritten digits, raw (1,797 rows, 64 pixel counts 0-16, 10 classes).

The leak audit's clean controls and the wide-data cost of its screens use it.
Regenerate (from the repository root; scikit-learn 1.9.1, no download):
  python3 Tests/EndToEndTests/Fixtures/make_digits.py
"""
import gzip
from sklearn.datasets import load_digits

digits = load_digits()
lines = [",".join([f"p{j}" for j in range(64)] + ["digit"])]
for row, label in zip(digits.data.astype(int), digits.target):
    lines.append(",".join(str(v) for v in row) + f",{label}")
with gzip.GzipFile("Tests/EndToEndTests/Fixtures/digits.csv.gz", "wb", mtime=0) as out:
    out.write(("\n".join(lines) + "\n").encode())

#!/usr/bin/env python3
"""Golden predict_proba values from scikit-learn's KNeighborsClassifier for KNearestNeighborsTests.

Run from this directory (scikit-learn 1.9.1, numpy):
  python3 knn-goldens.py
Writes knn-<dataset>.csv (features, label, split: 0 = train, 1 = test) and
knn-<dataset>-proba.csv (one row per test row, one column per model and class).
Every query's k-th and (k+1)-th nearest distances differ by a clear margin, so
the neighbour sets are unique and no tie-breaking rule is involved.
"""
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.neighbors import KNeighborsClassifier


def write_table(path, header, rows):
    with open(path, 'w') as f:
        f.write(','.join(header) + '\n')
        for row in rows:
            f.write(','.join(repr(float(v)) if isinstance(v, (float, np.floating)) else str(int(v)) for v in row) + '\n')


def check_no_ties(X_train, X_test, k):
    d = np.sqrt(((X_test[:, None, :] - X_train[None, :, :]) ** 2).sum(axis=2))
    d.sort(axis=1)
    gap = (d[:, k] - d[:, k - 1]) / np.maximum(d[:, k], 1e-300)
    assert (gap > 1e-9).all(), f'a query has a near tie at neighbour {k}'


def golden(name, X, y, n_train, models):
    X_train, y_train, X_test = X[:n_train], y[:n_train], X[n_train:]
    split = np.r_[np.zeros(n_train, int), np.ones(len(y) - n_train, int)]
    write_table(f'knn-{name}.csv', [f'x{j}' for j in range(X.shape[1])] + ['label', 'split'],
                [list(X[i]) + [y[i], split[i]] for i in range(len(y))])
    header, columns = [], []
    for label, params in models:
        check_no_ties(X_train, X_test, params.get('n_neighbors', 5))
        proba = KNeighborsClassifier(**params).fit(X_train, y_train).predict_proba(X_test)
        for c in range(proba.shape[1]):
            header.append(f'{label}_p{c}')
            columns.append(proba[:, c])
    write_table(f'knn-{name}-proba.csv', header, np.column_stack(columns))


# Breast cancer: 30 continuous features, 2 classes; scikit-learn's `auto` picks brute force here.
cancer = load_breast_cancer()
golden('breast-cancer', cancer.data.astype(float), cancer.target, 400, [
    ('uniform', {}),
    ('distance', {'weights': 'distance'}),
    ('k11distance', {'n_neighbors': 11, 'weights': 'distance'}),
])

# Synthetic Gaussian blobs: 4 features, 3 classes, kd-tree in scikit-learn. The last
# five test rows copy training rows, so distance weighting meets zero distances.
rng = np.random.default_rng(20240611)
centres = np.array([[0, 0, 0, 0], [1.5, 1, 0, -1], [0, 2, 1.5, 0.5]])
labels = rng.integers(0, 3, 400)
X = centres[labels] + rng.normal(size=(400, 4))
X[395:] = X[[3, 50, 120, 200, 299]]
golden('gaussian', X, labels, 300, [
    ('uniform', {'algorithm': 'kd_tree'}),
    ('distance', {'algorithm': 'kd_tree', 'weights': 'distance'}),
    ('k1', {'n_neighbors': 1}),
])

#!/usr/bin/env python3
"""Seeded golden trees: scikit-learn's DecisionTreeClassifier(random_state=seed) node by node.

Run from this directory (scikit-learn 1.9.1, numpy, pandas; about a minute):
  python3 tree-seed-goldens.py
Writes wine.csv and flights-sample.csv.gz (features, then the class; iris.csv and
breast_cancer.csv are already here) and tree-seed-goldens.json.gz (gzip without
a timestamp, so the same trees give the same bytes).

Each case fits one tree on every row of a dataset for random_state 0, 1 and 42
and records scikit-learn's tree_ arrays as columns: feature (-2 at a leaf),
threshold, children, n_node_samples, and the class counts of each node
(node-major; tree_.value holds counts / n_node_samples, checked here to be
exactly that division). These trees are decided by equal-gain ties, which
scikit-learn breaks with its seeded feature order, so Benchbook must reproduce
that order to match them. The script prints how many distinct trees the three
seeds grow for each case: a case where they all agree tests the splits but not
the order.

The flights sample is every 16th row of flights.csv.gz with a known arrival
delay, 20,000 rows; its month is constant inside many nodes, which exercises
the tracking of constant features.
"""
import gzip
import json
import os

import numpy as np
import pandas as pd
import sklearn
from sklearn.datasets import load_wine
from sklearn.tree import DecisionTreeClassifier

SEEDS = [0, 1, 42]
FLIGHTS = os.environ.get('FLIGHTS', '../../../experiments/data/flights.csv.gz')


def write_gzip(name, text):
    with open(name, 'wb') as raw, gzip.GzipFile(filename='', mode='wb', fileobj=raw, mtime=0) as f:
        f.write(text.encode())


def write_dataset(name, X, y, columns):
    frame = pd.DataFrame(X, columns=columns)
    frame['class'] = y
    text = frame.to_csv(index=False)
    if name.endswith('.gz'):
        write_gzip(name, text)
    else:
        with open(name, 'w') as f:
            f.write(text)


def load(name):
    """The fixture as Benchbook's tests read it: classes numbered in sorted (string) order."""
    frame = pd.read_csv(name)
    X = frame.iloc[:, :-1].to_numpy(float)
    labels = frame.iloc[:, -1].astype(str)
    classes = sorted(set(labels))
    return X, np.array([classes.index(v) for v in labels]), len(classes)


def node_arrays(tree, n_classes):
    t = tree.tree_
    samples = t.n_node_samples
    counts = np.rint(t.value[:, 0, :] * samples[:, None])
    assert (counts / samples[:, None] == t.value[:, 0, :]).all(), 'value is not counts / samples'
    return {
        'feature': t.feature.tolist(),
        'threshold': t.threshold.tolist(),
        'left': t.children_left.tolist(),
        'right': t.children_right.tolist(),
        'samples': samples.tolist(),
        'counts': counts.astype(int).ravel().tolist(),
    }


wine = load_wine()
write_dataset('wine.csv', wine.data, wine.target, [f'x{j}' for j in range(wine.data.shape[1])])
flights = pd.read_csv(FLIGHTS).dropna(subset=['arr_delay']).reset_index(drop=True).iloc[::16].head(20000)
write_dataset('flights-sample.csv.gz', flights[['month', 'day', 'sched_dep_time', 'distance']].to_numpy(int),
              (flights['arr_delay'] > 15).astype(int).to_numpy(), ['month', 'day', 'sched_dep_time', 'distance'])

VARIANTS = {
    'full': {},
    'entropy': {'criterion': 'entropy'},
    'depth4': {'max_depth': 4},
    'split10': {'min_samples_split': 10},
    'leaf5-entropy': {'min_samples_leaf': 5, 'criterion': 'entropy'},
    'decrease': {'min_impurity_decrease': 0.002},
}
DATASETS = ['iris.csv', 'wine.csv', 'breast_cancer.csv', 'flights-sample.csv.gz']
# On 20,000 flights a depth of 4 and a decrease of 0.002 leave no ties to break.
FLIGHTS_VARIANTS = {'depth4': {'max_depth': 12}, 'decrease': {'min_impurity_decrease': 2e-5}}

cases = []
for dataset in DATASETS:
    X, y, n_classes = load(dataset)
    for variant, params in VARIANTS.items():
        if dataset.startswith('flights'):
            variant, params = {'depth4': 'depth12'}.get(variant, variant), FLIGHTS_VARIANTS.get(variant, params)
        trees = []
        for seed in SEEDS:
            tree = DecisionTreeClassifier(random_state=seed, **params).fit(X, y)
            arrays = node_arrays(tree, n_classes)
            trees.append(json.dumps(arrays))
            cases.append({'name': f'{dataset.split(".")[0]} {variant} seed {seed}', 'dataset': dataset, 'params': params,
                          'seed': seed, 'nodes': arrays})
        print(f'{dataset} {variant}: {len(json.loads(trees[0])["feature"])} nodes, '
              f'{len(set(trees))} distinct trees over seeds {SEEDS}')

write_gzip('tree-seed-goldens.json.gz', json.dumps({'sklearn': sklearn.__version__, 'cases': cases},
                                                  separators=(',', ':')))

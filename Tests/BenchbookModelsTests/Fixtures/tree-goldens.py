#!/usr/bin/env python3
"""Golden trees from scikit-learn's DecisionTreeClassifier(random_state=0) for DecisionTreeTests.

Run from this directory (scikit-learn 1.9.1, numpy, pandas):
  python3 tree-goldens.py
For each case writes tree-<case>-nodes.csv (scikit-learn's tree_ arrays: feature,
threshold, left, right, samples, then the class shares of each node; leaves have
feature -2 and children -1) and tree-<case>-proba.csv (predict_proba of the test
rows). Data files are tree-<data>.csv with features, label and split (0 = train,
1 = test). Feature values are float32 numbers written exactly, as scikit-learn
rounds to float32 anyway.

scikit-learn breaks equally good splits by a random feature order, so a case is
kept only if 50 different random_state values grow the very same tree: then no
tie decided anything and Benchbook's tree must equal it exactly. The iris case is
the exception: it records random_state=0 and notes whether other seeds differ.
"""
import numpy as np
import pandas as pd
from sklearn.tree import DecisionTreeClassifier


def fmt(v):
    return repr(float(v)) if isinstance(v, (float, np.floating)) else str(int(v))


def write_table(path, header, rows):
    with open(path, 'w') as f:
        f.write(','.join(header) + '\n')
        for row in rows:
            f.write(','.join(fmt(v) for v in row) + '\n')


def tree_rows(tree):
    t = tree.tree_
    return [[t.feature[i], t.threshold[i], t.children_left[i], t.children_right[i], t.n_node_samples[i]]
            + list(t.value[i, 0]) for i in range(t.node_count)]


def same_tree(a, b):
    ta, tb = a.tree_, b.tree_
    return (ta.node_count == tb.node_count and (ta.feature == tb.feature).all()
            and (ta.threshold == tb.threshold).all() and (ta.children_left == tb.children_left).all()
            and (ta.value == tb.value).all())


def write_data(name, X, y, n_train):
    split = np.r_[np.zeros(n_train, int), np.ones(len(y) - n_train, int)]
    write_table(f'tree-{name}.csv', [f'x{j}' for j in range(X.shape[1])] + ['label', 'split'],
                [list(X[i]) + [y[i], split[i]] for i in range(len(y))])


def golden(case, X, y, n_train, params, require_unique=True):
    X_train, y_train, X_test = X[:n_train], y[:n_train], X[n_train:]
    tree = DecisionTreeClassifier(random_state=0, **params).fit(X_train, y_train)
    unique = all(same_tree(tree, DecisionTreeClassifier(random_state=s, **params).fit(X_train, y_train))
                 for s in range(1, 50))
    if require_unique:
        assert unique, f'{case}: the tree depends on random_state (ties)'
    classes = tree.n_classes_
    write_table(f'tree-{case}-nodes.csv',
                ['feature', 'threshold', 'left', 'right', 'samples'] + [f'p{c}' for c in range(classes)],
                tree_rows(tree))
    write_table(f'tree-{case}-proba.csv', [f'p{c}' for c in range(classes)], tree.predict_proba(X_test))
    print(f'{case}: {tree.tree_.node_count} nodes, depth {tree.get_depth()}, same for 50 seeds: {unique}')


rng = np.random.default_rng(7)

# One continuous feature, three noisy classes, grown until pure: with a single
# feature no two features can tie, so the whole fully grown tree must match.
x = rng.normal(size=(260, 1)).astype(np.float32).astype(float)
y = (np.floor(np.sin(3 * x[:, 0]) * 1.4 + 1.5) + (rng.random(260) < 0.15)).astype(int) % 3
write_data('one-feature', x, y, 200)
golden('one-feature-full', x, y, 200, {})
golden('one-feature-entropy-full', x, y, 200, {'criterion': 'entropy'})

# Four continuous features, three noisy classes; limits keep nodes large so no
# two candidate splits are exactly equally good (checked over 50 seeds). Deeper
# trees reach small nodes where isolating one row works on several features.
X = rng.normal(size=(700, 4)).astype(np.float32).astype(float) * [1, 3, 0.5, 10]
score = X[:, 0] + 0.4 * X[:, 1] - 2 * X[:, 2] + 0.05 * X[:, 3] + rng.normal(scale=0.8, size=700)
y = np.digitize(score, [-0.7, 0.9])
write_data('four-features', X, y, 500)
golden('four-features-depth3', X, y, 500, {'max_depth': 3})
golden('four-features-leaf20-entropy', X, y, 500, {'min_samples_leaf': 20, 'criterion': 'entropy'})
golden('four-features-split30-decrease', X, y, 500, {'min_samples_split': 30, 'min_impurity_decrease': 0.001})

# Iris, grown until pure, trained on every row and queried on every row.
iris = pd.read_csv('tree-iris.csv')
Xi = iris.iloc[:, :4].to_numpy(float)
yi = pd.Categorical(iris['species']).codes.astype(int)
golden('iris-full', np.vstack([Xi, Xi]), np.r_[yi, yi], len(yi), {}, require_unique=False)

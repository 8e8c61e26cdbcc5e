"""Runs Benchbook's exports in the real runtimes and checks what they compute.

A reference check for CI (`make runtime-check`), not part of Benchbook. For every
spec given, every model in it and every format (Core ML, TensorFlow Lite, ONNX):

1. `benchbook export SPEC --model M --format F --predictions P.json` writes the
   file and, beside it, Benchbook's own probabilities for up to 2,000 rows spread
   over the data (all rows when fewer), the inputs as that format takes them, and
   every row's design matrix and class.
2. The file is loaded in its runtime: LiteRT's interpreter (TensorFlow Lite),
   ONNX Runtime after `onnx.checker.check_model(full_check=True)`, and for Core ML,
   which has no runtime on Linux, coremltools' spec loader (every field must be
   one Apple's definitions know) and a numpy evaluation of the pipeline from that
   spec (`coreml_reference.py`). Interfaces and metadata are checked too (input and
   output names and shapes, the resizable batch, class labels and categories).
3. Its probabilities are compared with Benchbook's, and with scikit-learn's fit of
   the same model on all rows (after a `SimpleImputer` per imputed feature, with
   `MissingIndicator` columns appended in feature order, when the spec imputes; a
   missing value is fed to the file as NaN, "" for a text category, Int64.min for an integer one). Tolerance: 1e-4 absolute for logistic regression,
   LDA, naive Bayes and trees. k-nearest neighbours may differ only in rows whose
   k-th and (k+1)-th nearest rows lie within float32 resolution of each other
   (`float32 ties`, which must stay under 0.5% of the rows); against scikit-learn,
   rows whose neighbours tie exactly are counted apart, since scikit-learn breaks
   exact ties by its tree's layout and Benchbook by row order.

Missing indicators (`add_indicator: true`) are computed in every format: in Core ML
by a neural network (notEqual, concatND, inner product) that `coreml_reference.py`
evaluates too.

Updatable Core ML files (k-nearest neighbours, logistic regression with a learning
rate and epochs) are checked for the update parameters that were set.

Usage:
    python check_runtimes.py --benchbook BIN --work DIR [--summary FILE.json] SPEC.yaml [SPEC.yaml ...]
Exit status: 0 when every check passes, 1 otherwise.
"""

import argparse
import io
import json
import os
import subprocess
import sys
import time
import zipfile

import numpy as np
import yaml

TOLERANCE = 1e-4
TIE_SHARE = 0.005
FORMATS = [("coreml", "mlmodel"), ("tflite", "tflite"), ("onnx", "onnx")]
CHUNK = 32  # rows per runtime call: a k-nearest-neighbours graph holds rows × stored rows × features floats


def model_labels(spec_path):
    """Labels in spec order: a bare name, or a mapping's `label` (else its name)."""
    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    labels = []
    for item in spec["models"]:
        if isinstance(item, str):
            labels.append(item)
        else:
            (name, settings), = item.items()
            labels.append((settings or {}).get("label", name))
    return spec["name"], labels


def export(benchbook, spec, label, fmt, out, predictions=None, extra=()):
    command = [benchbook, "export", spec, "--model", label, "--format", fmt, "--out", out, *extra]
    if predictions:
        command += ["--predictions", predictions]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"benchbook export failed: {done.stderr.strip()}")
    return done.stdout.strip()


# MARK: - Runtimes


def run_tflite(path, data):
    from ai_edge_litert.interpreter import Interpreter

    interpreter = Interpreter(model_path=path, num_threads=1)
    inputs = interpreter.get_input_details()
    outputs = interpreter.get_output_details()
    features = data["features"]
    problems = []
    if len(inputs) != 1 or inputs[0]["name"] != "features" or list(inputs[0]["shape_signature"]) != [-1, len(features)]:
        problems.append(f"input {[(i['name'], list(i['shape_signature'])) for i in inputs]}")
    if len(outputs) != 1 or outputs[0]["name"] != "probabilities":
        problems.append(f"output {[o['name'] for o in outputs]}")
    # The metadata's packed files: feature names, class labels, category lists.
    with zipfile.ZipFile(path) as archive:
        names = archive.read("features.txt").decode().splitlines()
        labels = archive.read("labels.txt").decode().splitlines()
        for column, feature in enumerate(features):
            if "categories" in feature:
                listed = archive.read(f"categories_{column}.txt").decode().splitlines()
                if listed != feature["categories"]:
                    problems.append(f"categories of {feature['name']}: {listed}")
    if names != [f["name"] for f in features]:
        problems.append(f"features.txt {names}")
    if labels != data["classes"]:
        problems.append(f"labels.txt {labels}")
    x = np.array(data["inputs"], dtype=np.float64).astype(np.float32)
    out = []
    size = None
    for start in range(0, len(x), CHUNK):
        chunk = x[start : start + CHUNK]
        if size != len(chunk):
            interpreter.resize_tensor_input(inputs[0]["index"], [len(chunk), x.shape[1]])
            interpreter.allocate_tensors()
            size = len(chunk)
        interpreter.set_tensor(inputs[0]["index"], chunk)
        interpreter.invoke()
        out.append(interpreter.get_tensor(outputs[0]["index"]).copy())
    return np.concatenate(out).astype(np.float64), problems


# What an app passes for a missing integer category (Benchbook's MissingSentinel.integer, Int64.min).
MISSING_INTEGER = -(2**63)


def integer_categories(feature):
    """Whether the file takes this categorical feature as int64: every category is an integer's canonical text."""
    try:
        return all(str(int(c)) == c for c in feature.get("categories", []))
    except ValueError:
        return False


def app_category(value, feature):
    """A category as an app passes it: an int for an integer feature (Int64.min when missing), else the text ("" when
    missing, as the predictions file writes any missing category)."""
    if not integer_categories(feature):
        return value
    return MISSING_INTEGER if value in ("", None) else int(value)


def onnx_feeds(session, data, rows):
    features = data["features"]
    inputs = session.get_inputs()
    x = [data["inputs"][r] for r in rows]
    if len(inputs) == 1 and inputs[0].name == "features":
        return {"features": np.array(x, dtype=np.float64).astype(np.float32)}
    feeds = {}
    for column, (feature, node) in enumerate(zip(features, inputs)):
        values = [row[column] for row in x]
        if node.type == "tensor(float)":
            feeds[node.name] = np.array(values, dtype=np.float64).astype(np.float32).reshape(-1, 1)
        elif node.type == "tensor(int64)":
            feeds[node.name] = np.array([app_category(v, feature) for v in values], dtype=np.int64).reshape(-1, 1)
        else:
            feeds[node.name] = np.array(values, dtype=object).reshape(-1, 1)
    return feeds


def run_onnx(path, data):
    import onnx
    import onnxruntime

    onnx.checker.check_model(onnx.load(path), full_check=True)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    session = onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])
    problems = []
    features = data["features"]
    names = [i.name for i in session.get_inputs()]
    numeric = all(f["type"] == "numeric" for f in features)
    expected = ["features"] if numeric else [f["name"] for f in features]
    if names != expected:
        problems.append(f"inputs {names}")
    if [o.name for o in session.get_outputs()] != ["probabilities", "label"]:
        problems.append(f"outputs {[o.name for o in session.get_outputs()]}")
    out, labels = [], []
    for start in range(0, len(data["inputs"]), CHUNK):
        rows = range(start, min(start + CHUNK, len(data["inputs"])))
        probabilities, label = session.run(["probabilities", "label"], onnx_feeds(session, data, rows))
        out.append(probabilities)
        labels += [str(v) for v in label]
    probabilities = np.concatenate(out).astype(np.float64)
    predicted = [data["classes"][i] for i in probabilities.argmax(axis=1)]
    if labels != predicted:
        problems.append("label is not the most probable class")
    return probabilities, problems


def run_coreml(path, data):
    import coremltools

    from check_coremltools import unknown
    from coreml_reference import predict

    spec = coremltools.utils.load_spec(path)
    problems = []
    # Every message is walked, except that a repeated field's elements past the first 1,000 (a kNN file's
    # hundreds of thousands of stored rows, all alike) are left to `make coreml-check`.
    unknown_fields = unknown(sampled(spec), "")
    if unknown_fields:
        problems.append("fields unknown to coremltools at " + ", ".join(unknown_fields[:3]))
    if [f.name for f in spec.description.input] != [f["name"] for f in data["features"]]:
        problems.append(f"inputs {[f.name for f in spec.description.input]}")
    rows = []
    for values in data["inputs"]:
        row = {}
        for feature, value in zip(data["features"], values):
            if feature["type"] == "numeric":
                row[feature["name"]] = float("nan") if value is None else float(value)
            else:
                row[feature["name"]] = app_category(value, feature)
        rows.append(row)
    labels, probabilities = predict(spec, rows)
    order = [labels.index(c) for c in data["classes"]]
    return np.asarray(probabilities, dtype=np.float64)[:, order], problems


def sampled(spec):
    """A copy of `spec` whose long repeated fields keep their first 1,000 elements."""
    from check_coremltools import is_repeated

    copy = type(spec)()
    copy.CopyFrom(spec)

    def trim(message):
        for field, value in message.ListFields():
            if field.type != field.TYPE_MESSAGE or field.message_type.GetOptions().map_entry:
                continue
            if is_repeated(field):
                if len(value) > 1000:
                    del value[1000:]
                for item in value:
                    trim(item)
            else:
                trim(value)

    trim(copy)
    return copy


# MARK: - scikit-learn

# Models whose splits compare values an app passes in float32 with thresholds between training values.
TREE_MODELS = ("decision_tree", "random_forest", "hist_gradient_boosting")


def sklearn_model(algorithm, params, seed=None):
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.tree import DecisionTreeClassifier

    if algorithm == "logistic_regression":
        # The converged reference (shared/design/semantics.md): lbfgs stops early on unscaled data.
        unpenalised = params.get("penalty") == "none"
        return LogisticRegression(
            C=np.inf if unpenalised else params.get("C", 1.0), fit_intercept=params.get("fit_intercept", True),
            solver="newton-cg", tol=1e-14, max_iter=100000)
    if algorithm == "lda":
        return LinearDiscriminantAnalysis(solver="svd", tol=params.get("tol", 1e-4))
    if algorithm == "knn":
        index = {"kd-tree": "kd_tree", "linear": "brute"}.get(params.get("algorithm", "auto"), params.get("algorithm"))
        return KNeighborsClassifier(
            n_neighbors=params["n_neighbors"], weights=params["weights"], algorithm=index or "auto",
            leaf_size=params.get("leaf_size", 30))
    if algorithm == "decision_tree":
        return DecisionTreeClassifier(
            criterion=params.get("criterion", "gini"), max_depth=params.get("max_depth"),
            min_samples_split=params.get("min_samples_split", 2), min_samples_leaf=params.get("min_samples_leaf", 1),
            min_impurity_decrease=params.get("min_impurity_decrease", 0.0),
            random_state=params.get("random_state") if seed is None else seed)
    if algorithm == "gaussian_nb":
        return GaussianNB(var_smoothing=params.get("var_smoothing", 1e-9))
    if algorithm == "random_forest":
        from sklearn.ensemble import RandomForestClassifier

        return RandomForestClassifier(
            n_estimators=params.get("n_estimators", 100), criterion=params.get("criterion", "gini"),
            max_depth=params.get("max_depth"), min_samples_split=params.get("min_samples_split", 2),
            min_samples_leaf=params.get("min_samples_leaf", 1),
            min_impurity_decrease=params.get("min_impurity_decrease", 0.0),
            max_features=params.get("max_features", "sqrt"), bootstrap=params.get("bootstrap", True),
            max_samples=params.get("max_samples") if params.get("bootstrap", True) else None,
            random_state=params.get("random_state", 0) if seed is None else seed)
    if algorithm == "hist_gradient_boosting":
        from sklearn.ensemble import HistGradientBoostingClassifier

        stopping = params.get("early_stopping", "auto")
        return HistGradientBoostingClassifier(
            learning_rate=params.get("learning_rate", 0.1), max_iter=params.get("max_iter", 100),
            max_leaf_nodes=params.get("max_leaf_nodes", 31), max_depth=params.get("max_depth"),
            min_samples_leaf=params.get("min_samples_leaf", 20), l2_regularization=params.get("l2_regularization", 0.0),
            max_features=float(params.get("max_features", 1.0)), max_bins=params.get("max_bins", 255),
            early_stopping=stopping if stopping == "auto" else bool(stopping),
            validation_fraction=params.get("validation_fraction", 0.1),
            n_iter_no_change=params.get("n_iter_no_change", 10), tol=params.get("tol", 1e-7),
            random_state=params.get("random_state", 0) if seed is None else seed)
    raise ValueError(f"no scikit-learn reference for {algorithm}")


def imputed_design(design, data):
    """`design` (NaN where a value is missing) through scikit-learn's `SimpleImputer`, fitted on all its rows, one
    per imputed feature (a category imputed as text, then one-hot again), and `MissingIndicator` columns, one per
    feature with `add_indicator` that misses values, appended after every column in feature order."""
    from sklearn.impute import MissingIndicator, SimpleImputer

    out = design.copy()
    indicators = []
    features = {f["name"]: f for f in data["features"]}
    for item in data.get("imputation", []):
        lo, hi = item["columns"]
        feature = features[item["name"]]
        strategy, fill = item["strategy"], item["fill_value"]
        missing = np.isnan(design[:, lo])
        if feature["type"] == "numeric":
            imputer = SimpleImputer(strategy=strategy, fill_value=None if fill is None else float(fill))
            out[:, lo:hi] = imputer.fit_transform(design[:, lo:hi])
        else:
            categories = feature["categories"]
            text = np.array(
                [np.nan if m else categories[int(np.argmax(row))] for m, row in zip(missing, design[:, lo:hi])],
                dtype=object).reshape(-1, 1)
            imputer = SimpleImputer(strategy=strategy, missing_values=np.nan, fill_value=fill)
            filled = imputer.fit_transform(text)[:, 0]
            out[:, lo:hi] = np.array([[1.0 if c == value else 0.0 for c in categories] for value in filled])
        if item["add_indicator"]:
            found = MissingIndicator(features="missing-only").fit(design[:, lo : lo + 1])
            if len(found.features_):
                indicators.append(found.transform(design[:, lo : lo + 1]).astype(np.float64))
    return np.concatenate([out] + indicators, axis=1) if indicators else out


def expected_refusal(spec_path, fmt):
    """The reason `fmt` is documented to refuse this spec, or None. No spec checked here is refused today (Core ML
    computes missing indicators too); a documented refusal would be listed here with its reason."""
    return None


class Reference:
    """scikit-learn's fit on all rows and, for k-nearest neighbours, the ties at the k-th neighbour."""

    def __init__(self, data):
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        design = imputed_design(np.array(data["design"], dtype=np.float64), data)
        labels = np.array(data["labels"])
        rows = np.array(data["rows"])
        standardize = "standardize" in data["preprocess"]
        estimator = sklearn_model(data["algorithm"], data["params"])
        steps = [StandardScaler(), estimator] if standardize else [estimator]
        fitted = make_pipeline(*steps).fit(design, labels)
        full = np.zeros((len(rows), len(data["classes"])))
        full[:, fitted.classes_] = fitted.predict_proba(design[rows])
        self.probabilities = full
        # A tree compares float32 values: where a split lies between a value as read (double) and that value in
        # float32, as the runtimes get it, the two part. scikit-learn's fit fed the float32 values says which rows
        # differ for that reason alone.
        self.float32_probabilities = None
        if data["algorithm"] in TREE_MODELS:
            rounded = design[rows].astype(np.float32).astype(np.float64)
            self.float32_probabilities = np.zeros_like(full)
            self.float32_probabilities[:, fitted.classes_] = fitted.predict_proba(rounded)
        self.exact_ties = np.zeros(len(rows), dtype=bool)
        self.float32_ties = np.zeros(len(rows), dtype=bool)
        if data["algorithm"] == "knn":
            z = StandardScaler().fit_transform(design) if standardize else design
            k = data["params"]["n_neighbors"]
            for start in range(0, len(rows), 8):
                block = rows[start : start + 8]
                d2 = ((z[None, :, :] - z[block][:, None, :]) ** 2).sum(axis=2)
                part = np.partition(d2, k, axis=1)[:, : k + 1]
                part.sort(axis=1)
                kth, after = part[:, k - 1], part[:, k]
                exact = after == kth
                near = ~exact & (after - kth <= 1e-5 * np.maximum(after, 1e-300))
                self.exact_ties[start : start + len(block)] = exact
                self.float32_ties[start : start + len(block)] = near


# MARK: - Checks


def judge(algorithm, got, bench, reference):
    """(max |Δ| vs Benchbook, max |Δ| vs scikit-learn, rows explained by float32 ties, exact-tie rows, failures)."""
    failures = []
    off_bench = np.abs(got - bench).max(axis=1)
    off_sklearn = np.abs(got - reference.probabilities).max(axis=1)
    n = len(got)
    if algorithm == "knn":
        ties = reference.float32_ties | reference.exact_ties
        wrong = (off_bench > TOLERANCE) & ~ties
        if wrong.any():
            failures.append(f"{wrong.sum()} rows differ from Benchbook's without a float32 tie")
        float32_rows = ((off_bench > TOLERANCE) | (off_sklearn > TOLERANCE)) & reference.float32_ties
        if float32_rows.sum() > TIE_SHARE * n:
            failures.append(f"{float32_rows.sum()} of {n} rows differ at float32 ties (limit {TIE_SHARE:.1%})")
        wrong = (off_sklearn > TOLERANCE) & ~ties
        if wrong.any():
            failures.append(f"{wrong.sum()} rows differ from scikit-learn's without a tie")
        exact_rows = (off_sklearn > TOLERANCE) & reference.exact_ties
        clean = ~ties
        return (
            off_bench[clean].max(initial=0.0), off_sklearn[clean].max(initial=0.0), int(float32_rows.sum()),
            int(exact_rows.sum()), failures)
    if reference.float32_probabilities is not None:
        # Rows a split parts at float32 rounding: the runtime agrees with scikit-learn fed float32 values.
        explained = np.abs(got - reference.float32_probabilities).max(axis=1) <= TOLERANCE
        float32_rows = ((off_bench > TOLERANCE) | (off_sklearn > TOLERANCE)) & explained
        # Counted, not limited: scikit-learn's own fit moves these rows when fed the float32 values an app passes
        # (a forest's hundred trees put some split within float32 rounding of a measured value: 7 of iris's 150).
        off_bench = np.where(float32_rows, 0.0, off_bench)
        off_sklearn = np.where(float32_rows, 0.0, off_sklearn)
        if off_bench.max() > TOLERANCE:
            failures.append(f"{(off_bench > TOLERANCE).sum()} rows differ from Benchbook's by more than {TOLERANCE}")
        if off_sklearn.max() > TOLERANCE:
            failures.append(
                f"{(off_sklearn > TOLERANCE).sum()} rows differ from scikit-learn's by more than {TOLERANCE}")
        return off_bench.max(), off_sklearn.max(), int(float32_rows.sum()), 0, failures
    if off_bench.max() > TOLERANCE:
        failures.append(f"{(off_bench > TOLERANCE).sum()} rows differ from Benchbook's by more than {TOLERANCE}")
    if off_sklearn.max() > TOLERANCE:
        failures.append(f"{(off_sklearn > TOLERANCE).sum()} rows differ from scikit-learn's by more than {TOLERANCE}")
    return off_bench.max(), off_sklearn.max(), 0, 0, failures


def check_updatable(benchbook, spec, label, algorithm, work):
    """An updatable Core ML file for k-nearest neighbours and logistic regression, with the settings asked for."""
    import coremltools

    out = os.path.join(work, f"updatable-{label}.mlmodel")
    extra = ["--updatable"]
    if algorithm == "logistic_regression":
        extra += ["--learning-rate", "0.05", "--epochs", "7"]
    export(benchbook, spec, label, "coreml", out, extra=extra)
    model = coremltools.utils.load_spec(out)
    classifier = model.pipelineClassifier.pipeline.models[-1]
    problems = []
    if not (model.isUpdatable and classifier.isUpdatable and model.specificationVersion >= 4):
        problems.append("not marked updatable at specification version 4 or later")
    if not model.description.trainingInput:
        problems.append("no training inputs")
    if algorithm == "logistic_regression":
        network = classifier.neuralNetworkClassifier
        layer = network.layers[0]
        update = network.updateParams
        sgd = update.optimizer.sgdOptimizer
        loss = update.lossLayers[0].categoricalCrossEntropyLossLayer
        if not (layer.isUpdatable and layer.innerProduct.weights.isUpdatable and layer.innerProduct.bias.isUpdatable):
            problems.append("the inner product is not updatable")
        if sgd.learningRate.defaultValue != 0.05 or update.epochs.defaultValue != 7:
            problems.append(f"learning rate {sgd.learningRate.defaultValue}, epochs {update.epochs.defaultValue}")
        if loss.input != network.labelProbabilityLayerName or loss.target != model.description.predictedFeatureName:
            problems.append(f"loss reads {loss.input} against {loss.target}")
    elif classifier.WhichOneof("Type") != "kNearestNeighborsClassifier":
        problems.append("not a k-nearest-neighbours classifier")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchbook", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--summary")
    parser.add_argument("specs", nargs="+")
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

    import ai_edge_litert
    import coremltools
    import onnx
    import onnxruntime
    import sklearn

    versions = {
        "ai-edge-litert": getattr(ai_edge_litert, "__version__", "?"), "onnxruntime": onnxruntime.__version__,
        "onnx": onnx.__version__, "coremltools": coremltools.__version__, "scikit-learn": sklearn.__version__,
    }
    print("runtimes: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    os.makedirs(args.work, exist_ok=True)
    results = []
    failed = 0
    header = f"{'spec':<22} {'model':<8} {'format':<7} {'bytes':>10} {'rows':>5} {'vs Benchbook':>12} {'vs sklearn':>11} ties"
    print(header)
    for spec in args.specs:
        name, labels = model_labels(spec)
        for label in labels:
            reference = None
            for fmt, extension in FORMATS:
                out = os.path.join(args.work, f"{name}-{label}.{extension}")
                predictions = os.path.join(args.work, f"{name}-{label}-{fmt}.json")
                row = {"spec": name, "model": label, "format": fmt}
                refusal = expected_refusal(spec, fmt)
                if refusal:
                    try:
                        export(args.benchbook, spec, label, fmt, out, predictions)
                        failures = [f"written, though {refusal}"]
                    except RuntimeError as error:
                        failures = [] if refusal in str(error) else [f"refused for another reason: {error}"]
                    row.update(refused=refusal, failures=failures)
                    results.append(row)
                    print(f"{name:<22} {label:<8} {fmt:<7} {'refused as documented' if not failures else 'FAILED: ' + failures[0]}")
                    failed += bool(failures)
                    continue
                try:
                    export(args.benchbook, spec, label, fmt, out, predictions)
                    with open(predictions) as f:
                        data = json.load(f)
                    os.remove(predictions)
                    row["algorithm"] = data["algorithm"]
                    row["bytes"] = os.path.getsize(out)
                    if reference is None:
                        reference = Reference(data)
                    started = time.time()
                    run = {"coreml": run_coreml, "tflite": run_tflite, "onnx": run_onnx}[fmt]
                    got, problems = run(out, data)
                    row["seconds"] = round(time.time() - started, 2)
                    bench = np.array(data["probabilities"], dtype=np.float64)
                    d_bench, d_sklearn, float32_ties, exact_ties, failures = judge(
                        data["algorithm"], got, bench, reference)
                    failures = problems + failures
                    row.update(
                        rows=len(got), max_diff_benchbook=float(d_bench), max_diff_sklearn=float(d_sklearn),
                        float32_tie_rows=float32_ties, exact_tie_rows=exact_ties)
                except Exception as error:  # any failure of export, load or run fails the check
                    failures = [f"{type(error).__name__}: {error}"]
                row["failures"] = failures
                results.append(row)
                ties = (
                    f"{row.get('float32_tie_rows', 0)} f32, {row.get('exact_tie_rows', 0)} exact"
                    if row.get("algorithm") == "knn"
                    else f"{row.get('float32_tie_rows', 0)} f32" if row.get("algorithm") in TREE_MODELS else "")
                print(
                    f"{name:<22} {label:<8} {fmt:<7} {row.get('bytes', 0):>10} {row.get('rows', 0):>5} "
                    f"{row.get('max_diff_benchbook', float('nan')):>12.2e} {row.get('max_diff_sklearn', float('nan')):>11.2e} "
                    f"{ties}{'  FAILED: ' + '; '.join(failures) if failures else ''}", flush=True)
                failed += bool(failures)
            if row.get("algorithm") in ("logistic_regression", "knn") and not expected_refusal(spec, "coreml"):
                try:
                    problems = check_updatable(args.benchbook, spec, label, row["algorithm"], args.work)
                except Exception as error:
                    problems = [f"{type(error).__name__}: {error}"]
                print(f"{name:<22} {label:<8} updatable Core ML: {'ok' if not problems else 'FAILED: ' + '; '.join(problems)}")
                results.append({"spec": name, "model": label, "format": "coreml-updatable", "failures": problems})
                failed += bool(problems)
    if args.summary:
        with open(args.summary, "w") as f:
            json.dump({"versions": versions, "results": results}, f, indent=1)
    print(f"runtime check: {len(results) - failed} of {len(results)} files pass")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

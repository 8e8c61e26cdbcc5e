"""Times single-row predictions of Benchbook's exports in LiteRT and ONNX Runtime.

A reference measurement for `make bench` (`make runtime-latency`), not part of
Benchbook. For every model of the spec it exports a TensorFlow Lite and an ONNX
file (`benchbook export --format … --predictions …`), then, on one thread, times
1,000 one-row predictions of rows spread over the data, after 100 untimed warm-up
predictions, through each runtime's Python API: p50 and p99, nearest rank, in
microseconds.

Python's own cost is measured and stated beside them, with the same loop around a
model that computes nothing: for ONNX Runtime an Identity model of the same input
(built with onnx.helper), for LiteRT the loop's set_tensor and get_tensor without
invoke. What a phone pays is roughly the timed figure minus that overhead (and
differs with the phone).

Usage:
    python latency.py --benchbook BIN --work DIR [--json FILE] SPEC.yaml
"""

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_runtimes import model_labels, onnx_feeds  # noqa: E402

WARM_UP = 100
TIMED = 1000


def percentiles(nanoseconds):
    """p50 and p99 in microseconds, nearest rank: actual measured times."""
    ordered = sorted(nanoseconds)

    def rank(p):
        return ordered[max((p * len(ordered) + 99) // 100, 1) - 1] / 1000

    return rank(50), rank(99)


def time_tflite(path, rows, invoke=True):
    from ai_edge_litert.interpreter import Interpreter

    interpreter = Interpreter(model_path=path, num_threads=1)
    input_ = interpreter.get_input_details()[0]["index"]
    output = interpreter.get_output_details()[0]["index"]
    interpreter.resize_tensor_input(input_, [1, rows.shape[1]])
    interpreter.allocate_tensors()
    single = [rows[i : i + 1] for i in range(len(rows))]
    durations = []
    for i in range(WARM_UP + TIMED):
        row = single[i % len(single)]
        start = time.perf_counter_ns()
        interpreter.set_tensor(input_, row)
        if invoke:
            interpreter.invoke()
        interpreter.get_tensor(output)
        if i >= WARM_UP:
            durations.append(time.perf_counter_ns() - start)
    return percentiles(durations)


def onnx_session(path):
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def time_onnx(session, feeds, outputs=None):
    durations = []
    for i in range(WARM_UP + TIMED):
        feed = feeds[i % len(feeds)]
        start = time.perf_counter_ns()
        session.run(outputs, feed)
        if i >= WARM_UP:
            durations.append(time.perf_counter_ns() - start)
    return percentiles(durations)


def identity_model(feed, path):
    """An ONNX model that returns its inputs: the runtime's and Python's cost with no arithmetic."""
    import onnx
    from onnx import TensorProto, helper

    types = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.int64): TensorProto.INT64}
    inputs, outputs, nodes = [], [], []
    for name, value in feed.items():
        kind = types.get(value.dtype, TensorProto.STRING)
        inputs.append(helper.make_tensor_value_info(name, kind, ["batch", value.shape[1]]))
        outputs.append(helper.make_tensor_value_info(name + "_out", kind, ["batch", value.shape[1]]))
        nodes.append(helper.make_node("Identity", [name], [name + "_out"]))
    graph = helper.make_graph(nodes, "identity", inputs, outputs)
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)], ir_version=10), path)
    return path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--benchbook", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--json")
    parser.add_argument("spec")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    name, labels = model_labels(args.spec)
    results = []
    overhead = {}
    for label in labels:
        for fmt in ("tflite", "onnx"):
            out = os.path.join(args.work, f"{name}-{label}.{fmt}")
            predictions = os.path.join(args.work, f"{name}-{label}-{fmt}.json")
            subprocess.run(
                [args.benchbook, "export", args.spec, "--model", label, "--format", fmt, "--out", out,
                 "--predictions", predictions], check=True, capture_output=True)
            with open(predictions) as f:
                data = json.load(f)
            os.remove(predictions)
            every = len(data["inputs"]) / TIMED
            picked = [int(i * every) for i in range(min(TIMED, len(data["inputs"])))]
            data["inputs"] = [data["inputs"][i] for i in picked]
            if fmt == "tflite":
                rows = np.array(data["inputs"], dtype=np.float64).astype(np.float32)
                p50, p99 = time_tflite(out, rows)
                if "tflite" not in overhead:
                    overhead["tflite"] = time_tflite(out, rows, invoke=False)
            else:
                session = onnx_session(out)
                feeds = [onnx_feeds(session, data, [i]) for i in range(len(data["inputs"]))]
                p50, p99 = time_onnx(session, feeds, ["probabilities"])
                key = "onnx-" + ",".join(sorted(feeds[0]))
                if key not in overhead:
                    identity = onnx_session(identity_model(feeds[0], os.path.join(args.work, "identity.onnx")))
                    overhead[key] = time_onnx(identity, feeds)
                    overhead["onnx"] = overhead[key]
            size = os.path.getsize(out)
            results.append({"model": label, "format": fmt, "bytes": size, "p50_us": p50, "p99_us": p99})
            print(f"{name} {label:<8} {fmt:<7} {size:>10} bytes  p50 {p50:9.1f} µs  p99 {p99:9.1f} µs", flush=True)
    print(
        f"Python call overhead (same loop, nothing computed): LiteRT set_tensor + get_tensor p50 "
        f"{overhead['tflite'][0]:.1f} µs, p99 {overhead['tflite'][1]:.1f} µs; ONNX Runtime run() of an Identity "
        f"model p50 {overhead['onnx'][0]:.1f} µs, p99 {overhead['onnx'][1]:.1f} µs")
    print(f"({TIMED} one-row predictions after {WARM_UP} warm-up ones, one thread, rows spread over the data.)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"spec": name, "results": results, "overhead_us": overhead}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

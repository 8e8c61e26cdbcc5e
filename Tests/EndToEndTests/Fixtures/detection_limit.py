#!/usr/bin/env python3
"""The leak audit's detection limit: a label copy with a share of its rows flipped, planted in every 10th
flight (the rows and spec of LeakAuditTests), audited at several flip rates. Prints the table of docs/leak-audit.md.

Run from the repository root after a release build (about a minute per rate; Python's standard library only):
  python3 Tests/EndToEndTests/Fixtures/detection_limit.py .build/release/benchbook
"""
import gzip, json, os, subprocess, sys, tempfile

MASK = (1 << 64) - 1


class Planting:
    """SplitMix64, as PlantingGenerator in FlightsSample.swift, so the flips fall on the tests' rows."""

    def __init__(self, state):
        self.state = state

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def chance(self, p):
        return (self.next() >> 11) / float(1 << 53) < p


COLUMNS = ["month", "day", "sched_dep_time", "distance", "dep_delay", "arr_delay", "minute", "time_hour"]
SPEC = """name: label-copy
data: {path: data.csv, missing: drop}
target: {column: arr_delay, when: "> 15"}
time: time_hour
features: [month, day, sched_dep_time, distance, copy]
resampling: {method: kfold, folds: 10}
models: [LR, LDA, KNN, DT, NB]
audit:
  thresholds: {duplicates_warning: 0.001}
  accept:
    - {check: time-proxy, subject: month, reason: "calendar month, recurs every year"}
"""


def flights():
    with gzip.open("experiments/data/flights.csv.gz", "rt") as f:
        header = f.readline().rstrip("\n").split(",")
        index = {name: i for i, name in enumerate(header)}
        for line in f:
            fields = line.rstrip("\n").split(",")
            try:
                int(fields[index["arr_delay"]]), int(fields[index["dep_delay"]])
            except ValueError:
                continue
            yield [fields[index[c]] for c in COLUMNS]


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/release/benchbook")
    subset = list(flights())[::10]
    print("| flip rate | drop-column share | single-feature AUC (97.5% lower bound) | result |")
    print("|---:|---:|---:|---|")
    for rate in [0.01, 0.05, 0.10, 0.15, 0.20, 0.25, 0.30, 0.40]:
        planting = Planting(42)
        with tempfile.TemporaryDirectory() as scratch:
            with open(os.path.join(scratch, "data.csv"), "w") as out:
                out.write(",".join(COLUMNS + ["copy"]) + "\n")
                for row in subset:
                    late = 1 if int(row[5]) > 15 else 0
                    out.write(",".join(row + [str(1 - late if planting.chance(rate) else late)]) + "\n")
            with open(os.path.join(scratch, "spec.yaml"), "w") as out:
                out.write(SPEC)
            done = subprocess.run([binary, "audit", "spec.yaml", "--json", "--quiet"], cwd=scratch,
                                  capture_output=True, text=True)
            audit = json.loads(done.stdout)
        screened = next(f for f in audit["screen"]["features"] if f["name"] == "copy")
        finding = next((f for f in audit["findings"] if f["check"] == "suspect-leak" and f["subject"] == "copy"), None)
        result = "not flagged" if finding is None else (
            finding["severity"] + " (" + ", ".join(finding["evidence"]["screens"]) + ")")
        share = screened.get("drop_column_share")
        print(f"| {rate:.0%} | {share:.2f} | {screened['single_feature_auc']:.3f} "
              f"({screened.get('single_feature_auc_lower', float('nan')):.3f}) | {result} |")


main()

#!/usr/bin/env bash
# The evidence for `benchbook check --against` (make gate-evidence): false alarms, power,
# instruction-count spread and the wall-clock of a check, printed as a Markdown table.
# Run it on a quiet machine: it measures the machine's noise, and adds its own hog for half the false-alarm runs.
#
#   experiments/recipes/gate/evidence.sh [BIN]
#
# Counts and choices come from the environment (defaults: the figures docs/gate.md reports):
#   QUIET_CHECKS=20 HOG_CHECKS=20 POWER_CHECKS=10 POWER_FACTORS="1.2 1.5 2 3" POWER_MODEL=NB
#   INSTRUCTION_REPEATS=5 INSTRUCTION_CHECKS=3 COST=1 COST_REVISION=HEAD
#   SPEC=experiments/iris.yaml FLAGSHIP=experiments/flights-delay.yaml COST_SPECS="$SPEC $FLAGSHIP"
set -euo pipefail
cd "$(dirname "$0")/../../.."
BIN=$(realpath "${1:-.build/release/benchbook}")
QUIET_CHECKS=${QUIET_CHECKS:-20}
HOG_CHECKS=${HOG_CHECKS:-20}
POWER_CHECKS=${POWER_CHECKS:-10}
POWER_FACTORS=${POWER_FACTORS:-1.2 1.5 2 3}
POWER_MODEL=${POWER_MODEL:-NB}
INSTRUCTION_REPEATS=${INSTRUCTION_REPEATS:-5}
INSTRUCTION_CHECKS=${INSTRUCTION_CHECKS:-3}
COST=${COST:-1}
COST_REVISION=${COST_REVISION:-HEAD}
SPEC=${SPEC:-experiments/iris.yaml}
FLAGSHIP=${FLAGSHIP:-experiments/flights-delay.yaml}
COST_SPECS=${COST_SPECS:-$SPEC $FLAGSHIP}

work=$(mktemp -d)
hog=""
cleanup() {
  if [ -n "$hog" ]; then kill "$hog" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
rows=()
row() { rows+=("| $1 | $2 |"); echo "  $1: $2" >&2; }

# One self-check: prints "STATUS WARNINGS LINE…" where LINE… are the check's fail/warn lines.
self_check() { # out-dir [VAR=value…]
  local out=$1 status=0
  shift
  env "$@" "$BIN" check "$SPEC" --against-binary "$BIN" --out "$out" >"$out.log" 2>&1 || status=$?
  [ "$status" -le 2 ] || { echo "check failed with status $status:" >&2; cat "$out.log" >&2; exit 1; }
  echo "$status"
}

false_alarms() { # label count
  local fails=0 warned=0 status
  for i in $(seq 1 "$2"); do
    status=$(self_check "$work/fa-$1-$i")
    [ "$status" = 2 ] && fails=$((fails + 1))
    grep -q '^  warn: .* time ratio' "$work/fa-$1-$i.log" && warned=$((warned + 1))
  done
  row "false alarms, $1: $2 checks of a binary against itself" "$fails failed, $warned with a time warning"
}

echo "== false alarms (quiet)" >&2
false_alarms "quiet machine" "$QUIET_CHECKS"

echo "== false alarms (a CPU-and-memory hog on the other core)" >&2
python3 -c '
buffer = bytearray(512 * 1024 * 1024)
while True:
    for i in range(0, len(buffer), 4096):
        buffer[i] = (buffer[i] + 1) & 255
' &
hog=$!
false_alarms "CPU-and-memory hog" "$HOG_CHECKS"
kill "$hog" && wait "$hog" 2>/dev/null || true
hog=""

# The judged fit factor (head ÷ base, median over rounds) of the power model, from a check's history line.
fit_factor() {
  python3 - "$1" "$POWER_MODEL" <<'PY'
import json, sys
entry = json.loads(open(sys.argv[1]).read().splitlines()[-1])
factor = next(model["fit_time_factor"] for model in entry["models"] if model["label"] == sys.argv[2])
print(f"{factor:.2f}×")
PY
}

echo "== power" >&2
for factor in $POWER_FACTORS; do
  failed=0 caught=0 factors=""
  for i in $(seq 1 "$POWER_CHECKS"); do
    out="$work/power-$factor-$i"
    status=$(self_check "$out" BENCHBOOK_TEST_REPEAT_FIT="$POWER_MODEL:$factor")
    [ "$status" = 2 ] && failed=$((failed + 1))
    grep -qE "^  (fail|warn): $POWER_MODEL fit time ratio" "$out.log" && caught=$((caught + 1))
    measured=$(fit_factor "$out/history.jsonl")
    factors="$factors $measured"
  done
  row "power, $POWER_MODEL fit ${factor}× slower: $POWER_CHECKS checks" \
    "exit 2 in $failed/$POWER_CHECKS, failed or warned in $caught/$POWER_CHECKS (measured:$factors)"
done

echo "== instruction counts" >&2
data=$(realpath "$(dirname "$SPEC")/data")
sed "s#path: data/#path: $data/#" "$SPEC" >"$work/instructions.yaml"
printf 'regression: {instructions: true}\n' >>"$work/instructions.yaml"
for i in $(seq 1 "$INSTRUCTION_REPEATS"); do
  "$BIN" baseline "$work/instructions.yaml" --out "$work/instructions-$i.json" >/dev/null
done
spread=$(python3 - "$work" "$INSTRUCTION_REPEATS" <<'PY'
import json, sys
work, repeats = sys.argv[1], int(sys.argv[2])
runs = [json.load(open(f"{work}/instructions-{i}.json")) for i in range(1, repeats + 1)]
parts = []
for model in runs[0]["models"]:
    label = model["label"]
    for kind in ("fit", "predict"):
        counts = [next(m for m in run["models"] if m["label"] == label)["instructions"][kind] for run in runs]
        counts.sort()
        spread = (counts[-1] - counts[0]) / counts[len(counts) // 2] * 100
        parts.append(f"{label} {kind} {spread:.3f}% ({counts[len(counts) // 2]:,})")
print("; ".join(parts))
PY
)
row "instruction count spread, (max − min) ÷ median over $INSTRUCTION_REPEATS measurements" "$spread"
by_time=0 by_instructions=0
for i in $(seq 1 "$INSTRUCTION_CHECKS"); do
  out="$work/instr-check-$i"
  status=0
  env BENCHBOOK_TEST_REPEAT_FIT="$POWER_MODEL:1.2" "$BIN" check "$work/instructions.yaml" --against-binary "$BIN" \
    --out "$out" >"$out.log" 2>&1 || status=$?
  [ "$status" -le 2 ] || { cat "$out.log" >&2; exit 1; }
  grep -qE "^  (fail|warn): $POWER_MODEL fit time ratio" "$out.log" && by_time=$((by_time + 1))
  grep -qE "^  (fail|warn): $POWER_MODEL fit instructions" "$out.log" && by_instructions=$((by_instructions + 1))
done
row "$POWER_MODEL fit 1.2× slower, $INSTRUCTION_CHECKS checks with regression.instructions" \
  "caught by instructions in $by_instructions/$INSTRUCTION_CHECKS, by times in $by_time/$INSTRUCTION_CHECKS"

if [ "$COST" = 1 ]; then
  echo "== wall-clock of check --against $COST_REVISION (cold: no cached build, dependencies included)" >&2
  for spec in $COST_SPECS; do
    for state in cold warm; do
      [ "$state" = cold ] && rm -rf .build/benchbook-against
      start=$(date +%s.%N)
      "$BIN" check "$spec" --against "$COST_REVISION" --out "$work/cost" >"$work/cost.log" 2>&1 || [ $? -eq 2 ]
      end=$(date +%s.%N)
      row "wall-clock, check $(basename "$spec" .yaml) --against $COST_REVISION, $state" \
        "$(python3 -c "print(f'{$end - $start:.1f} s')")"
    done
  done
fi

echo "| measurement | result |"
echo "|---|---|"
printf '%s\n' "${rows[@]}"

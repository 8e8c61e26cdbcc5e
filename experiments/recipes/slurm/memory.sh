#!/usr/bin/env bash
# Prints the sbatch --mem values (in MB) for a sharded run: "SHARD_MB MERGE_MB", from `benchbook plan --json`'s
# estimated peaks (docs/memory.md) plus 25%, the estimate's stated error. Sourced by submit.sh.
# Usage: memory.sh BENCHBOOK SPEC SHARDS JOBS
set -euo pipefail
benchbook=$1 spec=$2 shards=$3 jobs=$4
plan=$("$benchbook" plan "$spec" --shards "$shards" --jobs "$jobs" --json)
megabytes() {
  local bytes
  bytes=$(printf '%s\n' "$plan" | sed -n "s/^  \"$1\" : \([0-9]*\).*/\1/p")
  [ -n "$bytes" ] || { echo "memory.sh: no $1 in benchbook plan --json" >&2; exit 1; }
  echo $(( (bytes * 5 / 4 + 999999) / 1000000 ))
}
echo "$(megabytes largest_shard_peak_bytes) $(megabytes merge_peak_bytes)"

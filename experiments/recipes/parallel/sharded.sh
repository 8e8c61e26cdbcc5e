#!/usr/bin/env bash
# Runs an experiment as SHARDS separate processes with GNU parallel, then merges them.
# Usage: experiments/recipes/parallel/sharded.sh BENCHBOOK SPEC SHARDS OUT
# Each process reads its shard index from GNU parallel's PARALLEL_SEQ (benchbook run --shard auto/N).
set -euo pipefail
benchbook=$1 spec=$2 shards=$3 out=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/benchbook-shards.XXXXXX")
trap 'rm -rf "$work"' EXIT
seq "$shards" | parallel --halt now,fail=1 -n0 -j "$shards" \
  "$benchbook" run "$spec" --shard "auto/$shards" --out "$work" --quiet --jobs 1
"$benchbook" merge "$work" --out "$out"

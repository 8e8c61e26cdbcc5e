#!/usr/bin/env bash
# Runs a study as SHARDS separate processes with GNU parallel, then merges them.
# Usage: experiments/recipes/parallel/sharded-study.sh BENCHBOOK STUDY SHARDS OUT
# The shards split the (experiment, model, fold) cells of every experiment not up to date in OUT; each process
# reads its shard index from GNU parallel's PARALLEL_SEQ (benchbook study --shard auto/N).
set -euo pipefail
benchbook=$1 study=$2 shards=$3 out=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/benchbook-study-shards.XXXXXX")
trap 'rm -rf "$work"' EXIT
seq "$shards" | parallel --halt now,fail=1 -n0 -j "$shards" \
  "$benchbook" study "$study" --shard "auto/$shards" --out "$work" --reuse "$out" --quiet --jobs 1
"$benchbook" merge "$work" --out "$out"

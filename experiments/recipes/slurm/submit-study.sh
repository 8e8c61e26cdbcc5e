#!/usr/bin/env bash
# Submits a study as a Slurm job array of SHARDS shards over its (experiment, model, fold) cells, and a merge job
# that waits for all of them and writes the study into OUT.
# Usage: experiments/recipes/slurm/submit-study.sh STUDY SHARDS SHARD_DIR OUT   (from the repository root, on shared storage)
set -euo pipefail
study=$1 shards=$2 shard_dir=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
export STUDY=$study SHARDS=$shards SHARD_DIR=$shard_dir OUT=$out BENCHBOOK=${BENCHBOOK:-$PWD/.build/release/benchbook}
array=$(sbatch --parsable --array="0-$((shards - 1))" --export=ALL "$here/benchbook-array.sbatch")
sbatch --parsable --dependency="afterok:${array%%;*}" --export=ALL "$here/benchbook-merge.sbatch"

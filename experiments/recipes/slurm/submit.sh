#!/usr/bin/env bash
# Submits an experiment as a Slurm job array of SHARDS shards and a merge job that waits for all of them, each asking
# for the memory `benchbook plan` estimates for it (--mem, the estimate plus 25%; MEM_MB overrides both).
# Usage: experiments/recipes/slurm/submit.sh SPEC SHARDS SHARD_DIR OUT   (run from the repository root, on shared storage)
set -euo pipefail
spec=$1 shards=$2 shard_dir=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
export SPEC=$spec SHARDS=$shards SHARD_DIR=$shard_dir OUT=$out BENCHBOOK=${BENCHBOOK:-$PWD/.build/release/benchbook}
read -r shard_mb merge_mb <<<"$("$here/memory.sh" "$BENCHBOOK" "$spec" "$shards" 1)"
array=$(sbatch --parsable --array="0-$((shards - 1))" --mem="${MEM_MB:-$shard_mb}" --export=ALL \
  "$here/benchbook-array.sbatch")
sbatch --parsable --dependency="afterok:${array%%;*}" --mem="${MEM_MB:-$merge_mb}" --export=ALL \
  "$here/benchbook-merge.sbatch"

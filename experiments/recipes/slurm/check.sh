#!/usr/bin/env bash
# `make slurm-check`: a single-node Slurm on this machine (its own munge key and socket, slurmctld and slurmd on
# localhost, started by hand since there is no systemd), the flagship submitted through submit.sh as a job array
# and a dependent merge, and the merged results compared with a plain run. Everything is stopped and removed after.
# Needs root, slurm-wlm and munge. Usage: experiments/recipes/slurm/check.sh BENCHBOOK SPEC SHARDS
set -euo pipefail
benchbook=$(realpath "$1") spec=$(realpath "$2") shards=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/benchbook-slurm.XXXXXX")
cleanup() {
  for daemon in slurmd slurmctld munged; do
    [ -f "$work/$daemon.pid" ] && kill "$(cat "$work/$daemon.pid")" 2>/dev/null || true
  done
  sleep 2
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "slurm-check: $*" >&2; tail -n 20 "$work"/*.log >&2 2>/dev/null || true; exit 1; }

host=$(hostname -s)
mkdir -p "$work/state" "$work/spool" "$work/jobs"
dd if=/dev/urandom bs=1 count=1024 of="$work/munge.key" 2>/dev/null
chmod 400 "$work/munge.key"
/usr/sbin/munged --force --key-file="$work/munge.key" --socket="$work/munge.socket" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge.seed"
cat > "$work/slurm.conf" <<CONF
ClusterName=benchbook-check
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) RealMemory=$(( $(sed -n "s/^MemTotal: *\([0-9]*\).*/\1/p" /proc/meminfo) / 1024 )) State=UNKNOWN
PartitionName=check Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld -c -f "$SLURM_CONF" || fail "slurmctld did not start"
sleep 1
slurmd -c -f "$SLURM_CONF" || fail "slurmd did not start"
sleep 1
for _ in $(seq 30); do sinfo -h -o %t 2>/dev/null | grep -q idle && break; sleep 1; done
sinfo -h -o %t | grep -q idle || fail "the node never became idle"

start=$(date +%s)
cd "$work/jobs"
BENCHBOOK=$benchbook "$here/submit.sh" "$spec" "$shards" "$work/shards" "$work/merged" >/dev/null
for _ in $(seq 600); do [ -z "$(squeue -h)" ] && break; sleep 1; done
[ -z "$(squeue -h)" ] || fail "jobs still queued after 10 minutes"
[ -f "$work/merged/results.json" ] || { cat "$work"/jobs/*.out >&2; fail "the merge job wrote no results"; }
echo "slurm-check: $shards array tasks and the merge took $(( $(date +%s) - start )) s"

# The plain run writes to the same folder, so the command it records is the one the merge recorded.
cp "$work/merged/results.json" "$work/slurm-merged.json"
"$benchbook" run "$spec" --out "$work/merged" --quiet >/dev/null || [ $? -eq 3 ]
python3 - "$work/merged/results.json" "$work/slurm-merged.json" <<'PY'
import json, sys
def strip(value):
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items()
                if not (k.endswith("_seconds") or k in ("environment", "latency_us", "throughput_rows_per_s"))}
    return [strip(v) for v in value] if isinstance(value, list) else value
plain, merged = (strip(json.load(open(path))) for path in sys.argv[1:])
if plain != merged:
    sys.exit("slurm-check: the merged results differ from the plain run")
print("slurm-check: merged results equal the plain run, timings and environment aside")
PY

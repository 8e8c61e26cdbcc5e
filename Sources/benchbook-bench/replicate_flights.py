#!/usr/bin/env python3
"""Writes the flights data replicated N times, for `make bench`'s memory-per-row runs.

Copy 0 is the file as shipped. Copy c >= 1 repeats every row with its distance moved by a
small deterministic amount (-5..+5 miles, never below 1), so rows are not exact twins and
the audit's duplicate screen sees what it would on real data. Nothing else changes: the
target, the times and the other columns are those of the original row.
Usage: replicate_flights.py SOURCE.csv.gz OUT.csv.gz N   (standard library only)
"""
import gzip, sys

source, out, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
with gzip.open(source, "rt", newline="") as handle:
    header = handle.readline()
    rows = handle.read().splitlines()
distance = header.rstrip("\n").split(",").index("distance")
with gzip.open(out + ".partial", "wt", newline="", compresslevel=1) as handle:
    handle.write(header)
    for copy in range(copies):
        if copy == 0:
            handle.write("\n".join(rows) + "\n")
            continue
        lines = []
        for index, line in enumerate(rows):
            fields = line.split(",")
            shift = (index * 7 + copy * 13) % 11 - 5
            fields[distance] = str(max(1, int(fields[distance]) + shift))
            lines.append(",".join(fields))
        handle.write("\n".join(lines) + "\n")
import os
os.replace(out + ".partial", out)

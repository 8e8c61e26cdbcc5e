#!/usr/bin/env python3
"""pandas' view of the flights data: row counts, class balance, sums and categories to compare
with what Benchbook's loader reads (results.json's data section, or a debugger).

Run from the repository root: python3 Tests/BenchbookDataTests/Fixtures/verify_flights.py [flights.csv.gz]
"""
import sys

import numpy as np
import pandas as pd

path = sys.argv[1] if len(sys.argv) > 1 else 'experiments/data/flights.csv.gz'
df = pd.read_csv(path)
print('rows read', len(df))
feats = ['month', 'day', 'sched_dep_time', 'distance']
d = df.dropna(subset=['arr_delay'] + feats + ['time_hour']).reset_index(drop=True)
print('kept', len(d), 'dropped', len(df) - len(d))
y = (d.arr_delay > 15).astype(int)
print('classes', np.unique(y), 'class 1:', int(y.sum()))
for f in feats:
    print(f'  {f}: sum {d[f].sum()}, first {list(d[f][:3])}, last {d[f].iloc[-1]}, min {d[f].min()}, max {d[f].max()}')
t = pd.to_datetime(d.time_hour)
print('time: first', t.iloc[0].timestamp(), 'last', t.iloc[-1].timestamp())
for c in ['origin', 'carrier']:
    print(f'  {c}:', d[c].value_counts().sort_index().to_dict())
hour = t.dt.hour
gap = d.dep_time - d.sched_dep_time  # dep_time is present wherever arr_delay is
print('  hour: sum', hour.sum(), 'first', list(hour[:3]), 'last', hour.iloc[-1])
print('  dep_gap: sum', gap.sum(), 'first', list(gap[:3]), 'last', gap.iloc[-1], 'missing', int(gap.isna().sum()))

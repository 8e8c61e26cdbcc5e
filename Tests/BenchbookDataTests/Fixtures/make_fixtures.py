#!/usr/bin/env python3
"""Writes the small data fixtures the BenchbookData tests read, and checks them with pandas.

Run from this directory:
  python3 make_fixtures.py && sha256sum small.csv small.csv.gz multi-member.csv.gz > SHA256SUMS
"""
import gzip

import numpy as np
import pandas as pd

# A little of everything the loader must handle: quoted commas, a doubled
# quote, a line break inside quotes, a missing value, ISO timestamps.
small = (
    'id,delay,carrier,note,time\n'
    '1,20,UA,plain,2013-01-01T10:00:00Z\n'
    '2,-3,AA,"has, comma",2013-01-01T11:00:00Z\n'
    '3,NA,UA,"say ""hi""",2013-01-02T05:30:00Z\n'
    '4,16,B6,"two\nlines",2013-02-28T23:00:00Z\n'
    '5,15,AA,end,2013-03-01T00:00:00Z\n'
)
with open('small.csv', 'w', newline='') as f:
    f.write(small)
data = small.encode()
with open('small.csv.gz', 'wb') as f:
    f.write(gzip.compress(data, mtime=0))
# `cat a.gz b.gz` is one valid gzip file holding both contents.
half = data.index(b'3,NA')
with open('multi-member.csv.gz', 'wb') as f:
    f.write(gzip.compress(data[:half], mtime=0) + gzip.compress(data[half:], mtime=0))

# Bigger than the decompressor's first buffer, with a tiny last member, so
# the gzip trailer's size hint is wrong and the output has to grow.
rows = ''.join(f'{i % 97},{i % 2}\n' for i in range(30000))
with open('multi-member-large.csv.gz', 'wb') as f:
    f.write(gzip.compress(('x,y\n' + rows).encode(), mtime=0) + gzip.compress(b'5,1\n', mtime=0))
print('large: rows', 30001, 'sum x', sum(i % 97 for i in range(30000)) + 5, 'bytes', len(rows) + 8)

# What the loader tests expect from small.csv, as pandas sees it.
df = pd.read_csv('small.csv')
kept = df.dropna(subset=['delay'])
print('rows', len(df), 'kept', len(kept))
print('classes of delay > 15:', np.unique((kept.delay > 15).astype(int)), list((kept.delay > 15).astype(int)))
print('carriers:', list(np.unique(kept.carrier)))
print('notes:', list(df.note))
print('times:', list(pd.to_datetime(kept.time).map(lambda t: t.timestamp())))

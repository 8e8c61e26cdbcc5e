"""Writes binary.csv: a small synthetic two-class dataset for the Core ML export tests.

Two numeric features on very different scales, a text category and an integer
category, and a continuous score that a spec binarises with `when: "> 0"`, so
the classes are the int64 labels 0 and 1.

Command that produced the committed file (run from this folder):
    python3 make_binary.py > binary.csv
"""

import numpy as np

rng = np.random.default_rng(20240611)
n = 240
distance = rng.uniform(80, 4000, n).round(0)
hour = rng.uniform(5, 23, n).round(2)
region = rng.choice(["east", "north", "south", "west"], n)
weekday = rng.integers(0, 7, n)
effect = {"east": 0.4, "north": -0.3, "south": 0.0, "west": -0.6}
score = (
    0.0006 * (distance - 2000)
    + 0.15 * (hour - 14)
    + np.array([effect[r] for r in region])
    + 0.1 * (weekday - 3)
    + rng.normal(0, 1.0, n)
)
print("distance,hour,region,weekday,score")
for row in zip(distance, hour, region, weekday, score):
    print(f"{row[0]:.0f},{row[1]:.2f},{row[2]},{row[3]},{row[4]:.4f}")

#!/usr/bin/env python3
"""A small synthetic crowdfunding table for the report's golden test: 120 campaigns with a launch
time, a goal, a category, a duration and an outcome, a few goals missing.

Regenerate (from this folder): python3 make_campaigns.py > campaigns.csv
The golden report reads campaigns-results.json, made from the repository root by
  benchbook run Tests/BenchbookReportTests/Fixtures/campaigns.yaml --out /tmp/campaigns
  cp /tmp/campaigns/results.json Tests/BenchbookReportTests/Fixtures/campaigns-results.json
"""
import numpy as np

rng = np.random.default_rng(7)
print("launched_at,goal,category,duration_days,state")
for i in range(120):
    day = int(rng.integers(0, 365))
    hour = int(rng.integers(0, 24))
    month, rest = divmod(day, 31)
    launched = f"2021-{min(month + 1, 12):02d}-{rest % 28 + 1:02d}T{hour:02d}:00:00Z"
    category = ["games", "music", "design", "film"][int(rng.integers(0, 4))]
    goal = float(np.round(np.exp(rng.normal(8.5, 1.0)), -1))
    duration = int(rng.integers(15, 61))
    score = -0.0004 * goal + (0.8 if category == "games" else 0) - 0.02 * duration + rng.normal(0, 1) + 2
    state = "successful" if score > 0 else "failed"
    goal_text = "" if i % 29 == 5 else f"{goal:g}"
    print(f"{launched},{goal_text},{category},{duration},{state}")

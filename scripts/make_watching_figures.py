"""The figures of "Watching an evaluation while it runs" (docs/guide/watching.md).

Run from the repository: python scripts/make_watching_figures.py (seeded; it writes
docs/watching_peeking.png and docs/watching_paths.png).
"""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats

from pdcompare.stats import sequential as core

DOCS = Path(__file__).resolve().parents[1] / "docs"
rng = np.random.default_rng(0)

# 1. Peeking: a fixed-n z-test read every 10 items, against the confidence sequence.
reps, horizon, planned = 2000, 785, 785
d = rng.normal(0.0, 1.0, (reps, horizon))
t = np.arange(1, horizon + 1)
mean = np.cumsum(d, axis=1) / t
sd = np.sqrt(np.maximum(np.cumsum(d**2, axis=1) - t * mean**2, 0) / np.maximum(t - 1, 1))
looks = np.arange(10, horizon + 1, 10) - 1
z_reject = np.abs(mean[:, looks]) > stats.norm.isf(0.025) * sd[:, looks] / np.sqrt(t[looks])
paths = core.normal_mixture_paths(d, None, 0.05, core.mixture_rho(planned, 0.05))
cs_reject = (paths.low[:, looks] > 0) | (paths.high[:, looks] < 0)
cs_reject[:, looks < 29] = False  # the first look after 30 items
fig, ax = plt.subplots(figsize=(6.4, 3.8), layout="constrained")
ax.plot(
    t[looks],
    np.maximum.accumulate(z_reject, axis=1).mean(axis=0),
    label="z-test, read every 10 items",
)
ax.plot(
    t[looks],
    np.maximum.accumulate(cs_reject, axis=1).mean(axis=0),
    label="confidence sequence (normal mixture)",
)
ax.axhline(0.05, color="black", lw=0.8, ls="--")
ax.set_xlabel("items read")
ax.set_ylabel("true nulls rejected so far")
ax.set_title("Two equal models: how often peeking declares a winner")
ax.legend(frameon=False)
fig.savefig(DOCS / "watching_peeking.png", dpi=90)

# 2. Three models read item by item: each pair's path.
probs = np.array([[0.80], [0.66], [0.62]])
wide = pd.DataFrame(
    (rng.random((3, 800)) < probs).astype(float), index=["model A", "model B", "model C"]
)
result = wide.cmp.set_design(items=True).cmp.sequential()
ax = result.cmp.plot()
ax.figure.savefig(DOCS / "watching_paths.png", dpi=90)
print(result)

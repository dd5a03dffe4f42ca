"""The figure of "When the data are thin" (docs/guide/thin_data.md): pass@1, pass@5, pass^5.

Run from the repository: python scripts/make_thin_figures.py (seeded; it writes
docs/thin_passk.png) from the agents and tasks of the page's example
(docs/guide/snippets/passk.py).
"""

import contextlib
import io
import runpy
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

import pdcompare

DOCS = Path(__file__).resolve().parents[1] / "docs"


if __name__ == "__main__":
    # The page's long table: 3 agents x 200 tasks (in 40 repositories) x 16 attempts.
    with contextlib.redirect_stdout(io.StringIO()):  # the snippet's tables are the page's
        runs = runpy.run_path(str(DOCS / "guide" / "snippets" / "passk.py"))["runs"]
    keys = {"model": "agent", "item": "task", "score": "solved", "sample": "attempt"}
    fig, axes = plt.subplots(1, 3, figsize=(12, 2.8), layout="constrained")
    for ax, (estimand, k) in zip(axes, [("pass@k", 1), ("pass@k", 5), ("pass^k", 5)], strict=True):
        frame = pdcompare.from_items(runs, **keys, cluster="repo", estimand=estimand, k=k)
        frame.cmp.plot("intervals", ax=ax)
    fig.savefig(DOCS / "thin_passk.png", dpi=90)

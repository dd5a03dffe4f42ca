"""Coverage of the bootstrap interval of Cohen's d across data sets: percentile against BCa.

Issue 47, item 14 (a): on 10 to 20 data sets the percentile bootstrap interval
of Cohen's d (``effect_size(measure="cohen_d", ci=0.95)`` on a benchmark
frame) covered the true d in 0.89-0.90 of benchmarks at 95 %; ``effect_size``
now gives the BCa interval there. Each simulated benchmark has N data sets
with a shared difficulty (SD 1) and each model's own noise (SD 0.5), model A
better by ``delta``: the true Cohen's d of the per-data-set means is
``delta / sqrt(1 + 0.25)``. Both intervals are computed from the same
resamples (``stats.effect_size.bootstrap_interval``), seeded.

Run: python benchmarks/validity_effect_ci.py [--quick] (quick: 100 benchmarks
per setting; full: 1000). Timings, if read, are from a loaded machine.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from pdcompare.stats.effect_size import bootstrap_interval

# _bench lives beside this script, also when it is loaded from its file path
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import study_main

SETTINGS = [(10, 0.5), (20, 0.5), (10, 1.0), (20, 1.0)]  # (data sets, delta)
SPREAD = np.sqrt(1.0 + 0.5**2)  # SD of one model's per-data-set means


def run_study(reps: int, seed: int = 2024, n_resamples: int = 2000) -> pd.DataFrame:
    """Long table: n_datasets, true_d, method, coverage, se, reps."""
    rows = []
    root = np.random.SeedSequence(seed)
    for (n, delta), child in zip(SETTINGS, root.spawn(len(SETTINGS)), strict=True):
        rng = np.random.default_rng(child)
        truth = delta / SPREAD
        covered = {"percentile": 0, "bca": 0}
        for _ in range(reps):  # one benchmark per replicate; its resamples are vectorised
            difficulty = rng.normal(0.0, 1.0, n)
            values = difficulty + rng.normal(0.0, 0.5, (2, n)) + np.array([[delta], [0.0]])
            state = int(rng.integers(2**32))
            for method in covered:
                low, high = bootstrap_interval(
                    values, [0], [1], measure="cohen_d", n_resamples=n_resamples,
                    random_state=state, method=method,
                )  # fmt: skip
                covered[method] += bool(low[0] <= truth <= high[0])
        for method, count in covered.items():
            rate = count / reps
            rows.append(
                {"n_datasets": n, "true_d": round(truth, 3), "method": method,
                 "coverage": rate, "se": np.sqrt(rate * (1 - rate) / reps), "reps": reps}
            )  # fmt: skip
    return pd.DataFrame(rows)


def to_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """Coverage at 95 % of each interval, one row per setting."""
    wide = table.pivot_table(index=["n_datasets", "true_d"], columns="method", values="coverage")
    reps = int(table["reps"].iloc[0])
    lines = [
        f"Coverage of the 95 % bootstrap interval of Cohen's d across data sets ({reps} "
        f"benchmarks per row, seed {seed}, {seconds:.0f} s on a loaded machine; Monte Carlo "
        f"SE about {np.sqrt(0.95 * 0.05 / reps):.3f}):",
        "",
        "| data sets | true d | percentile (before) | BCa (now) |",
        "| --- | --- | --- | --- |",
    ]
    for (n, d), row in wide.iterrows():
        lines.append(f"| {n} | {d:.3f} | {row['percentile']:.3f} | {row['bca']:.3f} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> pd.DataFrame:
    return study_main(
        argv, __doc__.splitlines()[0], run_study, to_markdown,
        reps=1000, quick=100, unit="benchmarks per setting",
    )  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])

"""Thin data (issue 56): Skillings–Mack on a leaderboard with holes.

Case "skillings_mack": 200 models x 60 data sets at 30 % fill (each cell kept
with probability 0.3, missing completely at random), through
``frame.cmp.friedman(nan_policy="skillings_mack")`` (validation, the design
checks that name a model, the result frame), against a numpy floor in the same
process, interleaved (minimum over rounds): the shortest numpy that computes
the same statistic on continuous scores (no ties), ranks by a double argsort,
the centred weighted rank sums, the covariance by two matrix products and one
linear solve. Target: under 0.5 s.

Run: python benchmarks/bench_thin.py [--quick]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from _bench import interleaved, peak_mib
from scipy import special

import pdcompare  # noqa: F401 - registers DataFrame.cmp

TARGET_SECONDS = 0.5


def holes_benchmark(m: int = 200, n: int = 60, fill: float = 0.3, seed: int = 0) -> pd.DataFrame:
    """Scores with a data-set effect, each cell kept with probability ``fill``."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0.7, 0.05, (m, 1)) + rng.normal(0, 0.1, (1, n)) + rng.normal(0, 0.05, (m, n))
    x[rng.random((m, n)) >= fill] = np.nan
    return pd.DataFrame(
        x,
        index=[f"model_{k:03d}" for k in range(m)],
        columns=pd.Index([f"data_{k:02d}" for k in range(n)], name="dataset"),
    )


def numpy_floor(values: np.ndarray) -> tuple[float, float]:
    """Skillings–Mack without ties, in the fewest numpy lines: (statistic, p-value)."""
    present = ~np.isnan(values)
    k_i = present.sum(axis=0)
    keep = k_i >= 2
    x, present, k_i = values[:, keep], present[:, keep], k_i[keep]
    order = np.argsort(np.where(present, -x, np.inf), axis=0)
    ranks = np.empty_like(x)
    np.put_along_axis(ranks, order, np.arange(1.0, x.shape[0] + 1)[:, None], axis=0)
    centred = np.where(present, ranks - (k_i + 1) / 2, 0.0)
    a = centred @ np.sqrt(12.0 / (k_i + 1))
    mask = present.astype(float)
    cov = -(mask @ mask.T)
    np.fill_diagonal(cov, 0.0)
    np.fill_diagonal(cov, -cov.sum(axis=1))
    statistic = float(a @ np.linalg.solve(cov + 1.0, a))
    return statistic, float(special.chdtrc(x.shape[0] - 1, statistic))


def bench_skillings_mack(rounds: int) -> None:
    """Skillings–Mack on 200 models x 60 data sets at 30 % fill, against the numpy floor."""
    frame = holes_benchmark()
    values = frame.to_numpy()
    ours = frame.cmp.friedman(nan_policy="skillings_mack")["statistic"].iloc[0]
    floor = numpy_floor(values)[0]
    assert np.isclose(ours, floor, rtol=1e-9), (ours, floor)  # the same number
    cases = {
        "friedman(nan_policy='skillings_mack')": lambda: frame.cmp.friedman(
            nan_policy="skillings_mack"
        ),
        "numpy floor": lambda: numpy_floor(values),
    }
    best = interleaved(cases, rounds)
    name = "friedman(nan_policy='skillings_mack')"
    peak = peak_mib(cases[name])
    holes = int(np.isnan(values).sum())
    print(
        f"Skillings–Mack, 200 models x 60 data sets, 30 % fill ({holes} of {values.size} "
        f"cells missing): {best[name] * 1000:.1f} ms (target {TARGET_SECONDS * 1000:.0f} ms), "
        f"numpy floor {best['numpy floor'] * 1000:.1f} ms, ratio "
        f"{best[name] / best['numpy floor']:.2f}x, peak {peak:.1f} MiB"
    )


def main() -> None:
    quick = "--quick" in sys.argv
    bench_skillings_mack(rounds=3 if quick else 10)


if __name__ == "__main__":
    main()

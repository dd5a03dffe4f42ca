"""`power` on all pairs of many models: pdcompare against its numpy floor.

1,000 models x 100 splits of 10 x 10-fold CV (n_train 90, n_test 10): 499,500
pairs. The floor computes the same columns with the same special functions and
no validation: every pair's variance of differences from one covariance matrix,
the power from two ``scipy.special.nctdtr`` calls, the mdd from the
noncentrality of the one df (one ``nctdtrinc`` plus a scalar bisection), the
floor ``mdd_limit`` by formula, ``n_repeats`` by ``searchsorted`` in a table of
the minimal detectable difference for r = 1 ... 128 repeats (``inf`` beyond,
which the data here never need), and the result frame.

Target: pdcompare within 2x of the floor.

Run: python benchmarks/bench_power.py [--quick]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from _bench import interleaved, make_scores, pair_names
from scipy import special

import pdcompare
from pdcompare.inputs.scores import ALL_PAIRS

DELTA, ALPHA, TARGET, RATIO = 0.01, 0.05, 0.8, 10 / 90


def _noncentrality(df: np.ndarray) -> np.ndarray:
    """Two-sided noncentrality with power TARGET, by bisection on arrays."""
    crit = special.stdtrit(df, 1 - ALPHA / 2)
    low, high = np.zeros_like(df), special.nctdtrinc(df, 1 - TARGET, crit) + 1.0
    for _ in range(64):
        middle = 0.5 * (low + high)
        power = 1 - special.nctdtr(df, middle, crit) + special.nctdtr(df, middle, -crit)
        reached = power >= TARGET
        high, low = np.where(reached, middle, high), np.where(reached, low, middle)
    return high


def floor(scores: pd.DataFrame) -> pd.DataFrame:
    values = scores.to_numpy()
    n = values.shape[1]
    first, second = np.triu_indices(values.shape[0], k=1)
    order = np.argsort(-values.mean(axis=1), kind="stable")
    i, j = order[first], order[second]
    cov = np.cov(values - values.mean(axis=0))
    sd = np.sqrt(np.diag(cov)[i] + np.diag(cov)[j] - 2 * cov[i, j])
    factor = np.sqrt(1 / n + RATIO)
    nc = DELTA / (sd * factor)
    crit = special.stdtrit(n - 1, 1 - ALPHA / 2)
    power = 1 - special.nctdtr(n - 1, nc, crit) + np.nan_to_num(special.nctdtr(n - 1, nc, -crit))
    mdd = _noncentrality(np.array([n - 1.0]))[0] * factor * sd
    limit = (special.ndtri(1 - ALPHA / 2) + special.ndtri(TARGET)) * sd * np.sqrt(RATIO)
    r = np.arange(1.0, 129.0)
    scale = _noncentrality(10 * r - 1) * np.sqrt(1 / (10 * r) + RATIO)
    at = np.searchsorted(-scale, -DELTA / sd)
    repeats = np.where(at < r.size, r[np.minimum(at, r.size - 1)], np.inf)
    repeats[limit >= DELTA] = np.inf
    return pd.DataFrame({**pair_names(scores.index, i, j), "sd_diff": sd,
                         "n_splits": np.full(i.size, float(n)), "power": power, "mdd": mdd,
                         "n_repeats": repeats, "mdd_limit": limit})


def main() -> None:
    quick = "--quick" in sys.argv
    n_models = 300 if quick else 1000
    scores = make_scores(n_models, n_splits=100)

    def ours():
        return pdcompare.power(scores, ALL_PAIRS, delta=DELTA, alpha=ALPHA, target=TARGET)

    mine, reference = ours(), floor(scores)
    np.testing.assert_allclose(mine["power"], reference["power"], rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(mine["mdd"], reference["mdd"], rtol=1e-9)
    np.testing.assert_array_equal(mine["n_repeats"], reference["n_repeats"])
    times = interleaved({"pdcompare": ours, "floor": lambda: floor(scores)}, rounds=3)
    pairs = len(mine)
    print(f"power, all {pairs:,} pairs of {n_models} models x 100 splits")
    for name, seconds in times.items():
        print(f"  {name:10s} {seconds:7.3f} s")
    print(f"  ratio      {times['pdcompare'] / times['floor']:7.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()

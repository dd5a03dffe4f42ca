"""`power` on a runs frame (Welch's t-test): pdcompare against its numpy floor.

300 models x 10 runs (``--quick``: 100 models), every pair. The floor
computes the same columns with the same special functions and no
validation: each model's spread and runs, the Welch–Satterthwaite degrees
of freedom, the power from two ``nctdtr`` calls, the mdd from a 64-step
bisection of the noncentrality of each pair's degrees of freedom, the runs
needed by a bisection on integers from the normal approximation's bracket,
and the result frame.

Target: pdcompare within 2x of the floor.

Run: python benchmarks/bench_power_runs.py [--quick]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from _bench import interleaved, pair_names
from scipy import special

import pdcompare
from pdcompare.inputs.scores import ALL_PAIRS

DELTA, ALPHA, TARGET = 0.01, 0.05, 0.8


def _power(nc, df):
    crit = special.stdtrit(df, 1 - ALPHA / 2)
    return 1 - special.nctdtr(df, nc, crit) + np.nan_to_num(special.nctdtr(df, nc, -crit))


def _welch(s1, s2, n1, n2):
    v1, v2 = s1**2 / n1, s2**2 / n2
    return np.sqrt(v1 + v2), (v1 + v2) ** 2 / (v1**2 / (n1 - 1) + v2**2 / (n2 - 1))


def floor(runs: pd.DataFrame) -> pd.DataFrame:
    values = runs.to_numpy()
    order = np.argsort(-values.mean(axis=1), kind="stable")
    first, second = np.triu_indices(values.shape[0], k=1)
    i, j = order[first], order[second]
    sd, n = values.std(axis=1, ddof=1), np.full(values.shape[0], float(values.shape[1]))
    s1, s2, n1, n2 = sd[i], sd[j], n[i], n[j]
    se, df = _welch(s1, s2, n1, n2)
    power = _power(DELTA / se, df)
    low, high = np.zeros_like(df), np.full(df.shape, 50.0)
    for _ in range(64):
        middle = 0.5 * (low + high)
        reached = _power(middle, df) >= TARGET
        high, low = np.where(reached, middle, high), np.where(reached, low, middle)
    mdd = high * se
    z = special.ndtri(1 - ALPHA / 2) + special.ndtri(TARGET)
    top = np.maximum(2 * np.ceil(z**2 * (s1**2 + s2**2) / DELTA**2) + 8, 4.0)
    bottom = np.ones_like(top)
    while np.any(top - bottom > 1):
        middle = np.floor((bottom + top) / 2)
        se_m, df_m = _welch(s1, s2, middle, middle)
        reached = _power(DELTA / se_m, df_m) >= TARGET
        open_ = top - bottom > 1
        top = np.where(open_ & reached, middle, top)
        bottom = np.where(open_ & ~reached, middle, bottom)
    return pd.DataFrame({**pair_names(runs.index, i, j), "sd_1": s1, "sd_2": s2,
                         "n_runs_1": n1.astype(int), "n_runs_2": n2.astype(int),
                         "power": power, "mdd": mdd, "n_runs_needed": top})  # fmt: skip


def main() -> None:
    quick = "--quick" in sys.argv
    n_models = 100 if quick else 300
    rng = np.random.default_rng(0)
    values = 0.8 + rng.normal(0, 0.01, (n_models, 10)) * rng.uniform(0.5, 2, (n_models, 1))
    runs = pd.DataFrame(values, index=[f"model{k}" for k in range(n_models)])
    runs = pdcompare.set_design(runs, paired=False)

    def ours():
        return pdcompare.power(runs, ALL_PAIRS, delta=DELTA, alpha=ALPHA, target=TARGET)

    mine, reference = ours(), floor(runs)
    np.testing.assert_allclose(mine["power"], reference["power"], rtol=1e-9, atol=1e-15)
    np.testing.assert_allclose(mine["mdd"], reference["mdd"], rtol=1e-6)
    np.testing.assert_array_equal(mine["n_runs_needed"], reference["n_runs_needed"])
    times = interleaved({"pdcompare": ours, "floor": lambda: floor(runs)}, rounds=3)
    print(f"power of runs (Welch), all {len(mine):,} pairs of {n_models} models x 10 runs")
    for name, seconds in times.items():
        print(f"  {name:10s} {seconds:7.3f} s")
    print(f"  ratio      {times['pdcompare'] / times['floor']:7.2f}x (target <= 2x)")


if __name__ == "__main__":
    main()

"""Forecast comparisons: Diebold–Mariano on all pairs, the model confidence set against arch.

* ``diebold_mariano`` on all pairs of 100 models (T rows of forecasts) against
  its numpy floor: the loss differences of all pairs at once, their mean and
  autocovariances, the statistic, t p-values, Holm and the result frame.
  Target (issue 28): within 2x.
* ``confidence_set`` with 100 models x 10,000 rows x 1,000 resamples against
  ``arch.bootstrap.MCS`` on the same problem (independent resampling, range
  statistic), in the same process. Target: faster than arch.

Run: python benchmarks/bench_forecast.py [--quick]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from _bench import holm, interleaved, pair_names, peak_mib, report
from scipy import special

import pdcompare  # noqa: F401  (registers DataFrame.cmp)


def make_forecasts(n_rows: int, n_models: int, seed: int = 0) -> pd.DataFrame:
    """A random walk and forecasts of it whose errors share a common shock."""
    rng = np.random.default_rng(seed)
    y = np.cumsum(rng.normal(size=n_rows))
    common = rng.normal(0.0, 0.5, size=n_rows)
    columns = {"y": y}
    for k in range(n_models):
        columns[f"m{k:03d}"] = y + common + rng.normal(0.0, 1.0 + 0.002 * k, size=n_rows)
    return pd.DataFrame(columns)


def dm_floor(frame: pd.DataFrame, h: int) -> pd.DataFrame:
    """All pairs, best first, in the fewest numpy steps: what diebold_mariano computes."""
    y = frame["y"].to_numpy()
    names = frame.columns[1:]
    losses = (y[:, None] - frame[names].to_numpy()) ** 2
    order = np.argsort(losses.mean(axis=0), kind="stable")
    first, second = np.triu_indices(order.size, k=1)
    i, j = order[first], order[second]
    d = losses[:, i] - losses[:, j]
    n = d.shape[0]
    mean = d.mean(axis=0)
    d -= mean
    variance = np.einsum("tp,tp->p", d, d)
    for lag in range(1, h):
        variance += 2.0 * np.einsum("tp,tp->p", d[lag:], d[:-lag])
    statistic = mean / np.sqrt(variance / n / n)
    statistic *= np.sqrt((n + 1 - 2 * h + h * (h - 1) / n) / n)
    pvalue = np.minimum(2.0 * special.stdtr(n - 1.0, -np.abs(statistic)), 1.0)
    adjusted = holm(pvalue)
    return pd.DataFrame(
        {
            **pair_names(names, i, j),
            "mean_loss_diff": mean,
            "statistic": statistic,
            "df": np.full(i.size, n - 1.0),
            "pvalue": pvalue,
            "pvalue_adj": adjusted,
            "reject": adjusted <= 0.05,
        },
        copy=False,
    )


def bench_dm(n_rows: int, n_models: int, h: int, rounds: int) -> None:
    frame = make_forecasts(n_rows, n_models)
    ours = frame.cmp.pairwise(test="diebold_mariano", h=h)
    floor = dm_floor(frame, h)
    np.testing.assert_allclose(ours["statistic"], floor["statistic"], rtol=1e-9)
    np.testing.assert_allclose(ours["pvalue_adj"], floor["pvalue_adj"], rtol=1e-9, atol=1e-300)
    cases = {
        "pdcompare pairwise(test='diebold_mariano')": lambda: frame.cmp.pairwise(
            test="diebold_mariano", h=h
        ),
        "numpy floor": lambda: dm_floor(frame, h),
    }
    best = interleaved(cases, rounds)
    peaks = {name: peak_mib(function) for name, function in cases.items()}
    report(
        f"diebold_mariano, all {len(ours)} pairs of {n_models} models x {n_rows} rows, h={h}",
        best,
        peaks,
        [("pdcompare pairwise(test='diebold_mariano')", "numpy floor")],
    )


def bench_mcs(n_rows: int, n_models: int, n_resamples: int, rounds: int) -> None:
    from arch.bootstrap import MCS

    frame = make_forecasts(n_rows, n_models, seed=1)
    losses = (frame[["y"]].to_numpy() - frame.drop(columns="y").to_numpy()) ** 2

    def ours():
        return frame.cmp.confidence_set(n_resamples=n_resamples, random_state=0)

    def arch():
        mcs = MCS(losses, 0.10, reps=n_resamples, block_size=1, method="R", seed=0)
        mcs.compute()
        return mcs.pvalues

    cases = {"pdcompare confidence_set": ours, "arch.bootstrap.MCS": arch}
    best = interleaved(cases, rounds)
    peaks = {name: peak_mib(function) for name, function in cases.items()}
    report(
        f"confidence_set, {n_models} models x {n_rows} rows x {n_resamples} resamples (R)",
        best,
        peaks,
        [("pdcompare confidence_set", "arch.bootstrap.MCS")],
    )
    in_ours = set(ours().query("in_set").index)
    theirs = arch()
    in_arch = {frame.columns[1 + k] for k in theirs.index[theirs["Pvalue"] > 0.10]}
    print(f"  models in the set: pdcompare {len(in_ours)}, arch {len(in_arch)}, "
          f"common {len(in_ours & in_arch)}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller problems, one round")
    args = parser.parse_args()
    if args.quick:
        bench_dm(500, 30, h=3, rounds=2)
        bench_mcs(1000, 20, 200, rounds=1)
        return
    bench_dm(1000, 100, h=1, rounds=5)
    bench_dm(1000, 100, h=5, rounds=5)
    bench_mcs(10_000, 100, 1000, rounds=1)


if __name__ == "__main__":
    main()

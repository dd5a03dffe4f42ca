"""Bootstrap of a regression loss and of a callable score, against the weights form.

N rows x 20 models of regression predictions, the same resamples for every
candidate (the same seed, drawn in the same chunks as pdcompare draws them):

* ``bootstrap(score="mean_squared_error")`` against its floor, the bincount
  weights form: per resample ``np.bincount(index, minlength=N) @ losses / N``
  (one matrix product scores every model of a chunk of resamples);
* ``bootstrap(score=callable)`` against the least a callable can cost: the
  callable on the same resampled rows, every model's column gathered once per
  resample from a contiguous copy. (The bincount weights form cannot call a
  callable; its time is printed for scale.)

Target (issue 16): both within 1.5x of their floors.

Run: python benchmarks/bench_bootstrap_loss.py [--quick] [--rows 1000000] [--resamples 100]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from _bench import interleaved, peak_mib, report

import pdcompare  # noqa: F401  (registers DataFrame.cmp)
from pdcompare.stats import bootstrap as core

N_MODELS = 20


def make_predictions(n_rows: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.normal(size=n_rows)
    columns = {"y": y}
    for k in range(N_MODELS):
        columns[f"m{k:02d}"] = y + rng.normal(0.0, 0.5 + 0.02 * k, size=n_rows)
    return pd.DataFrame(columns)


def squared_error(y_true, y_pred):
    """A callable score: the mean squared error as a user would write it."""
    return float(np.mean((y_true - y_pred) ** 2))


def _chunks(n_rows, n_resamples, seed, per_row_bytes):
    """The resamples pdcompare draws for this seed (same generator, same chunks)."""
    return core._index_chunks(n_rows, n_resamples, np.random.default_rng(seed), per_row_bytes)


def _interval_frame(names, estimate, replicates):
    low, high = np.quantile(replicates, [0.025, 0.975], axis=0)
    frame = pd.DataFrame({"estimate": estimate, "se": replicates.std(axis=0, ddof=1),
                          "ci_low": low, "ci_high": high}, index=pd.Index(names, name="model"))
    return frame.iloc[np.argsort(estimate, kind="stable")]


def weights_floor(frame: pd.DataFrame, n_resamples: int, seed: int) -> pd.DataFrame:
    y = frame["y"].to_numpy()
    losses = (frame.drop(columns="y").to_numpy() - y[:, None]) ** 2
    n_rows = len(y)
    replicates = np.empty((n_resamples, N_MODELS))
    done = 0
    for index in _chunks(n_rows, n_resamples, seed, per_row_bytes=16):
        for rows in index:
            replicates[done] = np.bincount(rows, minlength=n_rows) @ losses
            done += 1
    replicates /= n_rows
    return _interval_frame(frame.columns[1:], losses.mean(axis=0), replicates)


def callable_floor(frame: pd.DataFrame, n_resamples: int, seed: int) -> pd.DataFrame:
    y = frame["y"].to_numpy()
    columns = np.ascontiguousarray(frame.drop(columns="y").to_numpy().T)
    n_rows = len(y)
    estimate = np.array([squared_error(y, column) for column in columns])
    replicates = np.empty((n_resamples, N_MODELS))
    done = 0
    for index in _chunks(n_rows, n_resamples, seed, per_row_bytes=8):
        for rows in index:
            truth = y[rows]
            replicates[done] = [squared_error(truth, column[rows]) for column in columns]
            done += 1
    return _interval_frame(frame.columns[1:], estimate, replicates)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="N = 1e5, 100 resamples")
    parser.add_argument("--rows", type=float, default=None)
    parser.add_argument("--resamples", type=int, default=100)
    args = parser.parse_args()
    n_rows = int(args.rows) if args.rows else (100_000 if args.quick else 1_000_000)
    n_resamples = args.resamples
    frame = make_predictions(n_rows)

    def mine_loss():
        return frame.cmp.bootstrap("mean_squared_error", n_resamples=n_resamples, random_state=0)

    def mine_callable():
        return frame.cmp.bootstrap(squared_error, n_resamples=n_resamples, random_state=0,
                                   greater_is_better=False)

    cases = {
        "bootstrap('mean_squared_error')": mine_loss,
        "floor: bincount(index) @ losses": lambda: weights_floor(frame, n_resamples, 0),
        "bootstrap(callable)": mine_callable,
        "floor: callable on contiguous gathers": lambda: callable_floor(frame, n_resamples, 0),
    }
    # Same resamples, same numbers.
    loss, floor = mine_loss(), weights_floor(frame, n_resamples, 0)
    error = np.max(np.abs(loss[["se", "ci_low", "ci_high"]].to_numpy()
                          - floor.loc[loss.index, ["se", "ci_low", "ci_high"]].to_numpy()))
    called = mine_callable()
    error_callable = np.max(np.abs(called[["se", "ci_low", "ci_high"]].to_numpy()
                                   - loss.loc[called.index, ["se", "ci_low", "ci_high"]]
                                   .to_numpy()))
    best = interleaved(cases, 3)
    peaks = {name: peak_mib(function) for name, function in cases.items()}
    names = list(cases)
    report(f"bootstrap, {n_rows:,} rows x {N_MODELS} models, {n_resamples} resamples; max |diff| "
           f"vs the weights form {error:.1e}, callable vs named loss {error_callable:.1e}",
           best, peaks, [(names[0], names[1]), (names[2], names[3]), (names[2], names[1])])


if __name__ == "__main__":
    main()

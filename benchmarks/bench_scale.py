"""Experiments at scale: one joblib.Parallel for cv_scores, and predictions in dask partitions.

Two sections, each against its own floor, run in this process:

* ``cv_scores``: 8 models x k splits of a slow-ish estimator (a random forest
  of 60 trees on 3,000 samples) with ``n_jobs=2``, against the per-model loop
  it replaces (``cross_val_score(..., n_jobs=2)`` for one model after
  another, which keeps at most k fits in flight and waits for the slowest of
  each model). The ideal is the total work divided by the two workers; the
  ratio loop / cv_scores is printed with the sequential time, so the
  efficiency of each is visible. The gain is largest when k is small or not
  a multiple of the workers.
* ``dask``: McNemar's test and the bootstrap of accuracy on a dask
  predictions frame of 10^8 rows (three models, binary labels) built
  partition by partition (2 x 10^6 rows each, never in memory at once):
  wall time per 10^7 rows and the growth of the process's peak resident
  memory, against the size of one partition. The numbers equal pandas' on
  the first 10^6 rows (checked).

Run: python benchmarks/bench_scale.py [--quick]   (--quick: 3 models' worth of fits, 10^7 rows)
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np
import pandas as pd
from _bench import peak_rss_mib


def _forest_models(n_models: int) -> dict:
    from sklearn.ensemble import RandomForestClassifier

    return {
        f"forest_{k}": RandomForestClassifier(n_estimators=60, max_features=0.5 + 0.05 * k,
                                              random_state=k, n_jobs=1)
        for k in range(n_models)
    }  # fmt: skip


def cv_scores_section(quick: bool) -> None:
    from sklearn.datasets import make_classification
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    import pdcompare

    X, y = make_classification(n_samples=1500 if quick else 3000, n_features=20, random_state=0)
    n_models = 4 if quick else 8
    for k in (3, 10) if not quick else (3,):
        cv = StratifiedKFold(k, shuffle=True, random_state=0)
        models = _forest_models(n_models)

        def loop(models=models, cv=cv):
            return {
                name: cross_val_score(estimator, X, y, cv=cv, n_jobs=2)
                for name, estimator in models.items()
            }

        def single(models=models, cv=cv):
            return pdcompare.cv_scores(models, X, y, cv=cv, n_jobs=2)

        def sequential(models=models, cv=cv):
            return pdcompare.cv_scores(models, X, y, cv=cv, n_jobs=None)

        single()  # start the worker pool once, outside the timings
        times = {"loop": [], "single": []}
        for _ in range(2):  # interleaved
            for name, function in (("loop", loop), ("single", single)):
                start = time.perf_counter()
                out = function()
                times[name].append(time.perf_counter() - start)
        start = time.perf_counter()
        sequential()
        serial = time.perf_counter() - start
        expected = loop()
        assert all(np.array_equal(out.loc[n], v) for n, v in expected.items())
        best = {name: min(values) for name, values in times.items()}
        print(
            f"cv_scores {n_models} models x {k:2d} splits, n_jobs=2: one Parallel "
            f"{best['single']:6.2f} s, per-model loop {best['loop']:6.2f} s -> "
            f"{best['loop'] / best['single']:4.2f}x; sequential {serial:6.2f} s "
            f"(speed-up over sequential: one Parallel {serial / best['single']:4.2f}x, "
            f"loop {serial / best['loop']:4.2f}x, ideal 2x)",
            flush=True,
        )


def _partition(seed: int, rows: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, rows, dtype=np.int8)
    frame = {"y": y}
    for k, accuracy in enumerate((0.90, 0.88, 0.80)):
        wrong = rng.random(rows) >= accuracy
        frame[f"model_{k}"] = np.where(wrong, 1 - y, y).astype(np.int8)
    return pd.DataFrame(frame)


def dask_section(quick: bool) -> None:
    import dask.dataframe as dd

    import pdcompare.dask  # noqa: F401 - registers ddf.cmp

    rows_per_partition = 2_000_000
    n_rows = 10**7 if quick else 10**8
    parts = n_rows // rows_per_partition
    frame = dd.from_map(_partition, range(parts), rows=rows_per_partition)
    partition_mb = _partition(0, rows_per_partition).memory_usage(deep=True).sum() / 2**20

    small = _partition(0, 10**6)
    check = dd.from_pandas(small, npartitions=4)
    assert check.cmp.mcnemar().equals(small.cmp.mcnemar())
    pd.testing.assert_frame_equal(
        check.cmp.bootstrap(random_state=0), small.cmp.bootstrap(random_state=0)
    )

    before = peak_rss_mib()
    for name, call in (
        ("mcnemar", lambda: frame.cmp.mcnemar()),
        ("bootstrap accuracy, 1000 resamples", lambda: frame.cmp.bootstrap(random_state=0)),
    ):
        start = time.perf_counter()
        call()
        elapsed = time.perf_counter() - start
        print(
            f"dask {name:36s} {n_rows:.0e} rows in {parts} partitions: {elapsed:6.1f} s, "
            f"{elapsed / (n_rows / 1e7):5.2f} s per 1e7 rows; peak RSS grew "
            f"{max(peak_rss_mib() - before, 0):6.0f} MB (one partition {partition_mb:.0f} MB, "
            f"the whole frame {partition_mb * parts:,.0f} MB)",
            flush=True,
        )


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    warnings.simplefilter("ignore")
    dask_section(quick)  # first, so that its peak memory is not hidden by the fits'
    cv_scores_section(quick)

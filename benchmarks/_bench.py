"""Helpers shared by the benchmarks: interleaved timing, peak memory, ratio lines.

Every benchmark times pdcompare and its floor (the shortest numpy code that
computes the same numbers, result frame included) in one process, taking
turns, and keeps each candidate's minimum: load on the machine then hits all
candidates alike. Peak memory is the largest ``tracemalloc`` figure of one
call (numpy and Python allocations), plus the growth of pyarrow's memory pool
when pyarrow is loaded (Arrow strings are allocated outside tracemalloc's view).
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import special


def make_scores(
    n_models: int, n_splits: int = 100, n_train: int = 90, n_test: int = 10, seed: int = 0
) -> pd.DataFrame:
    """Correlated fold scores like a grid search's: a shared fold effect plus model noise.

    Models ``model_00``, ``model_01``, ... (zero-padded to sort in order),
    splits ``split0``, ...; the design ``n_train``/``n_test`` is set.
    """
    import pdcompare  # noqa: F401 - registers DataFrame.cmp

    rng = np.random.default_rng(seed)
    fold = rng.normal(0.0, 0.04, size=n_splits)
    level = rng.normal(0.85, 0.02, size=(n_models, 1))
    values = level + fold + rng.normal(0.0, 0.02, size=(n_models, n_splits))
    width = max(2, len(str(n_models - 1)))
    names = [f"model_{k:0{width}d}" for k in range(n_models)]
    splits = [f"split{k}" for k in range(n_splits)]
    scores = pd.DataFrame(values, index=names, columns=splits)
    return scores.cmp.set_design(n_train=n_train, n_test=n_test)


def holm(pvalue: np.ndarray) -> np.ndarray:
    """Holm-adjusted p-values: the step-down products, made monotone, capped at 1."""
    k = pvalue.size
    order = np.argsort(pvalue, kind="stable")
    adjusted = np.empty_like(pvalue)
    adjusted[order] = np.minimum(np.maximum.accumulate(pvalue[order] * (k - np.arange(k))), 1)
    return adjusted


def pair_names(names: pd.Index, i: np.ndarray, j: np.ndarray) -> dict:
    """The ``model_1``/``model_2`` columns of the pairs ``(i, j)``, categorical as pdcompare's."""
    return {
        "model_1": pd.Categorical.from_codes(i, categories=names),
        "model_2": pd.Categorical.from_codes(j, categories=names),
    }


def ttest_frame(i, j, mean, se, df, names: pd.Index) -> pd.DataFrame:
    """The corrected t-test result frame of pairs from their mean differences and SEs (Holm)."""
    statistic = mean / se
    pvalue = np.minimum(2.0 * special.stdtr(df, -np.abs(statistic)), 1.0)
    adjusted = holm(pvalue)
    half = special.stdtrit(df, 0.975) * se
    return pd.DataFrame(
        {
            **pair_names(names, i, j),
            "mean_diff": mean,
            "statistic": statistic,
            "df": np.full(i.size, float(df)),
            "pvalue": pvalue,
            "pvalue_adj": adjusted,
            "reject": adjusted <= 0.05,
            "ci_low": mean - half,
            "ci_high": mean + half,
        },
        copy=False,  # as pdcompare's result frames: the fresh arrays, not a consolidated copy
    )


def bayes_frame(i, j, mean, se, df, names: pd.Index, rope: float) -> pd.DataFrame:
    """The Bayesian correlated t-test result frame of pairs (Student posterior, rope ±rope)."""
    worse = special.stdtr(df, (-rope - mean) / se)
    below_high = special.stdtr(df, (rope - mean) / se)
    better, inside = 1.0 - below_high, below_high - worse
    half = special.stdtrit(df, 0.975) * se
    n_models = len(names)
    code = np.select(
        [better >= 0.95, worse >= 0.95, inside >= 0.95],
        [i, j, np.full(i.size, n_models + 1)],
        n_models,
    )
    decision = pd.Categorical.from_codes(
        code, categories=[*map(str, names), "undecided", "equivalent"]
    )
    return pd.DataFrame(
        {
            **pair_names(names, i, j),
            "mean_diff": mean,
            "prob_better": better,
            "prob_rope": inside,
            "prob_worse": worse,
            "ci_low": mean - half,
            "ci_high": mean + half,
            "decision": decision,
        },
        copy=False,
    )


def interleaved(cases: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Time every case once per round, in turn; keep each case's minimum (seconds)."""
    best = dict.fromkeys(cases, np.inf)
    for _ in range(rounds):
        for name, function in cases.items():
            start = time.perf_counter()
            function()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def _arrow_pool():
    pyarrow = sys.modules.get("pyarrow")
    return pyarrow.default_memory_pool() if pyarrow is not None else None


def peak_mib(function: Callable[[], object]) -> float:
    """Peak memory of one call in MiB: tracemalloc's peak plus Arrow's pool growth."""
    pool = _arrow_pool()
    arrow_before = pool.bytes_allocated() if pool is not None else 0
    arrow_peak_before = pool.max_memory() if pool is not None else 0
    tracemalloc.start()
    try:
        function()
        traced = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    pool = _arrow_pool()
    arrow = 0
    if pool is not None:
        # max_memory never decreases: only a new peak above the old one is visible.
        arrow = max(0, pool.max_memory() - max(arrow_peak_before, arrow_before))
    return (traced + arrow) / 2**20


def peak_rss_mib() -> float:
    """This process's peak resident memory so far, in MiB (Linux ``VmHWM``).

    Not ``ru_maxrss``: Linux carries that over from the parent at fork and
    exec, so a child started by a large benchmark process would report the
    parent's memory.
    """
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0  # kB
    msg = "no VmHWM in /proc/self/status: the memory figures need Linux"
    raise RuntimeError(msg)


def frame_mib(frame) -> float:
    """Memory of a result frame (deep: strings and categories included), in MiB."""
    return float(frame.memory_usage(deep=True, index=True).sum()) / 2**20


def report(
    title: str, best: dict[str, float], peaks: dict[str, float], pairs: list[tuple[str, str]]
) -> None:
    """Print each case's time and peak, then the ratio of each (candidate, floor) pair."""
    print(f"\n{title}")
    print(f"  {'':44}{'time ms':>11}{'peak MiB':>10}")
    for name, seconds in best.items():
        peak = peaks.get(name)
        shown = f"{peak:10.1f}" if peak is not None else f"{'':>10}"
        print(f"  {name:44}{seconds * 1000:11.3f}{shown}")
    for candidate, floor in pairs:
        print(f"  {candidate} / {floor}: {best[candidate] / best[floor]:.2f}x")


def study_main(
    argv: list[str] | None,
    description: str,
    run_study: Callable[..., pd.DataFrame],
    to_markdown: Callable[[pd.DataFrame, int, float], str],
    *,
    reps: int,
    quick: int,
    unit: str,
) -> pd.DataFrame:
    """The command line of a validity study: ``--reps``, ``--quick``, ``--seed``, ``--out``.

    Runs ``run_study(reps, seed=...)``, prints ``to_markdown(table, seed, seconds)``
    and, with ``--out``, writes it there (and the table beside it as CSV).
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--reps", type=int, default=reps, help=f"{unit} (default {reps})")
    parser.add_argument("--quick", action="store_true", help=f"{quick} {unit}")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, help="write the Markdown table here (and .csv)")
    args = parser.parse_args(argv)
    n = quick if args.quick else args.reps
    if n < 2:
        parser.error(f"--reps must be at least 2; got {n}")
    start = time.perf_counter()
    table = run_study(n, seed=args.seed)
    markdown = to_markdown(table, args.seed, time.perf_counter() - start)
    print(markdown)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(markdown, encoding="utf-8")
        table.to_csv(args.out.with_suffix(".csv"), index=False, float_format="%.6g")
    return table

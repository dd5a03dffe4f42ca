"""All pairs of m models x 100 splits: ``corrected_ttest`` and ``bayes`` against their floors.

The floor is the shortest numpy code that computes the same numbers and the
same result frame: one covariance matrix for every pair's variance of
differences, ``scipy.special`` for the t tails and quantiles, Holm's step-down
by one sort and a running maximum, and a frame whose model name columns are
categoricals over the model index (``pd.Categorical.from_codes``). The floor
skips what pdcompare adds for accuracy and validation (recomputing pairs
where the covariance shortcut cancels, degenerate pairs, the NaN policy).

Times are interleaved minima in one process (see ``_bench.py``). Peak memory
of ``bayes`` is measured in a fresh process (its peak RSS, ``VmHWM``, above the RSS
before the call), which also sees Arrow's allocations; it is compared with
the deep memory of the result frame.

Targets (issue 16): at m = 3,000 both within 1.25x of their floors; at
m = 10,000 ``bayes`` peak memory at most 2.5x its result frame.

Run: python benchmarks/bench_allpairs.py [--quick] [--sizes 1000 3000] [--memory 10000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import numpy as np
import pandas as pd
from _bench import (
    bayes_frame,
    frame_mib,
    interleaved,
    make_scores,
    peak_rss_mib,
    report,
    ttest_frame,
)

import pdcompare  # noqa: F401  (registers DataFrame.cmp)

N_SPLITS = 100
N_TRAIN, N_TEST = 90, 10
RATIO = N_TEST / N_TRAIN
ROPE = 0.01


def _moments(values: np.ndarray):
    """Pairs best first, and the mean and corrected standard error of their differences."""
    n = values.shape[1]
    means = values.mean(axis=1)
    order = np.argsort(-means, kind="stable")
    first, second = np.triu_indices(len(order), k=1)
    i, j = order[first], order[second]
    centred = values - means[:, None]
    cov = centred @ centred.T / (n - 1)
    diag = np.diag(cov)
    variance = diag[i] + diag[j] - 2.0 * cov[i, j]
    mean = means[i] - means[j]
    se = np.sqrt(variance * (1.0 / n + RATIO))
    return i, j, mean, se, n - 1


def ttest_floor(values: np.ndarray, names: pd.Index) -> pd.DataFrame:
    return ttest_frame(*_moments(values), names)


def bayes_floor(values: np.ndarray, names: pd.Index) -> pd.DataFrame:
    return bayes_frame(*_moments(values), names, ROPE)


def speed(n_models: int, rounds: int) -> None:
    scores = make_scores(n_models)
    values, names = scores.to_numpy(), scores.index
    cases = {
        "pairwise('corrected_ttest')  (holm)": lambda: scores.cmp.pairwise("corrected_ttest"),
        "floor: covariance t-test + holm + frame": lambda: ttest_floor(values, names),
        "pairwise('bayes', rope=0.01)": lambda: scores.cmp.pairwise("bayes", rope=ROPE),
        "floor: covariance posterior + frame": lambda: bayes_floor(values, names),
    }
    for function in cases.values():  # warm up imports and tables
        function()
    best = interleaved(cases, rounds)
    names_list = list(cases)
    mine = scores.cmp.pairwise("corrected_ttest")
    floor = ttest_floor(values, names)
    error = np.max(np.abs(mine["statistic"].to_numpy() - floor["statistic"].to_numpy()))
    same = bool((mine["model_1"].astype(str) == floor["model_1"].astype(str)).all())
    report(
        f"all pairs, {n_models} models x {N_SPLITS} splits ({n_models * (n_models - 1) // 2:,} "
        f"pairs); t max |diff| vs floor {error:.1e}, same pairs: {same}",
        best,
        {},
        [(names_list[0], names_list[1]), (names_list[2], names_list[3])],
    )


def memory_child(n_models: int, which: str) -> None:
    """In a fresh process: peak RSS of one bayes call above the RSS before it (MiB)."""
    import resource

    scores = make_scores(n_models)
    values, names = scores.to_numpy(), scores.index
    warm = make_scores(20)
    warm.cmp.pairwise("bayes", rope=ROPE)
    bayes_floor(warm.to_numpy(), warm.index)
    with open("/proc/self/statm") as statm:
        rss_before = int(statm.read().split()[1]) * resource.getpagesize()
    if which == "pdcompare":
        result = scores.cmp.pairwise("bayes", rope=ROPE)
    else:
        result = bayes_floor(values, names)
    peak = peak_rss_mib() * 2**20
    print(json.dumps({"peak": (peak - rss_before) / 2**20, "frame": frame_mib(result)}))


def memory(n_models: int) -> None:
    print(f"\nbayes, all pairs of {n_models} models: peak RSS of one call (fresh process)")
    for which in ("pdcompare", "floor"):
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(n_models), which],
            check=True,
            capture_output=True,
            text=True,
        )
        figures = json.loads(out.stdout.strip().splitlines()[-1])
        ratio = figures["peak"] / figures["frame"]
        print(
            f"  {which:10} peak {figures['peak']:9.0f} MiB   result frame "
            f"{figures['frame']:8.0f} MiB   peak / frame {ratio:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="m = 1000 and memory at m = 2000")
    parser.add_argument("--sizes", type=int, nargs="*")
    parser.add_argument("--memory", type=int, nargs="*")
    parser.add_argument("--child", nargs=2)
    args = parser.parse_args()
    if args.child:
        memory_child(int(args.child[0]), args.child[1])
        return
    sizes = args.sizes or ([1000] if args.quick else [1000, 3000])
    for n_models in sizes:
        speed(n_models, rounds=3 if n_models > 1000 else 5)
    for n_models in args.memory if args.memory is not None else ([2000] if args.quick else [5000]):
        memory(n_models)


if __name__ == "__main__":
    main()

"""pareto at scale against the all-pairs one-sided test it rests on, in the same process.

DESIGN section 25: at 1,000 models the call stays within 2x of the all-pairs
one-sided corrected t-test (``corrected_ttest`` on every pair,
``alternative="better"``), which it runs once; the rest is the Holm correction
of each model's cheaper rivals and the statuses.

Run: python benchmarks/bench_pareto.py [--quick]   (--quick: 300 models; default 1,000)
"""

import sys
import time
import warnings

import numpy as np
import pandas as pd

import pdcompare
from pdcompare.inputs.scores import ALL_PAIRS


def frame(m, n=30, seed=0):
    rng = np.random.default_rng(seed)
    folds = rng.normal(0, 0.01, n)
    quality = rng.uniform(0.75, 0.92, m)
    scores = pd.DataFrame(quality[:, None] + folds + rng.normal(0, 0.01, (m, n)),
                          index=[f"model_{k}" for k in range(m)])  # fmt: skip
    cost = pd.Series(np.exp(rng.uniform(0, 7, m)), index=scores.index)
    return scores.cmp.set_design(cv=10), cost


def timed(call, repeats):
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def main(quick=False):
    m = 300 if quick else 1000
    scores, cost = frame(m)
    repeats = 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        floor = timed(
            lambda: pdcompare.corrected_ttest(
                scores, ALL_PAIRS, alternative="better", correction=None
            ),
            repeats,
        )
        call = timed(lambda: pdcompare.pareto(scores, cost), repeats)
    print(f"{m} models x 30 splits ({m * (m - 1) // 2:,} pairs), best of {repeats}")
    print(f"  all-pairs one-sided corrected t-test  {floor:8.3f} s   1.00x")
    print(f"  pareto(cost)                          {call:8.3f} s   {call / floor:.2f}x  "
          "(target <= 2x)")  # fmt: skip


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)

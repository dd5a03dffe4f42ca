"""Benchmark: all-pairs Bayesian correlated t-test (rope 0.01) against per-pair loops.

Runs ``df.cmp.bayes(ALL_PAIRS, rope=0.01, cv=10)`` end to end (result frame
included) for m models x k = 100 splits, and in the same process

- a per-pair loop of frozen ``scipy.stats.t`` objects (probabilities and the
  95% credible interval, as a careful user would write it), and
- a per-pair loop of ``baycomp.CorrelatedTTest.probs`` (runs=10, i.e. 10x10 CV),

both timed on a sample of pairs and scaled to all pairs. The sampled pairs'
probabilities are also checked against pdcompare's. Usage::

    python benchmarks/bench_pairwise_bayes.py [--sizes 10 100 300 1000] [--repeat 3]

Target (2-core machine): m = 1000 under 0.4 s, at least 100x faster than baycomp.
"""

from __future__ import annotations

import argparse
import time

import baycomp
import numpy as np
import pandas as pd
from scipy import stats

import pdcompare  # noqa: F401  (registers DataFrame.cmp)
from pdcompare.frames import ALL_PAIRS

K = 100
ROPE = 0.01
RATIO = 1.0 / 9.0  # 10-fold CV repeated 10 times


def make_scores(m: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    split_effect = rng.normal(0.0, 0.04, K)
    model_effect = rng.normal(0.0, 0.03, (m, 1))
    values = 0.8 + split_effect + model_effect + rng.normal(0.0, 0.02, (m, K))
    return pd.DataFrame(values, index=[f"model{i}" for i in range(m)])


def best_time(function, repeat: int) -> tuple[float, float, object]:
    """Best wall-clock time, the CPU time of that run (all threads), and the output."""
    best, cpu, out = np.inf, np.inf, None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        out = function()
        elapsed = time.perf_counter() - start
        if elapsed < best:
            best, cpu = elapsed, time.process_time() - start_cpu
    return best, cpu, out


def scipy_loop(values: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    out = np.empty((len(pairs), 3))
    for row, (i, j) in enumerate(pairs):
        d = values[i] - values[j]
        n = len(d)
        post = stats.t(n - 1, d.mean(), np.sqrt(np.var(d, ddof=1) * (1 / n + RATIO)))
        worse, below_high = post.cdf(-ROPE), post.cdf(ROPE)
        post.interval(0.95)
        out[row] = 1.0 - below_high, below_high - worse, worse
    return out


def baycomp_loop(values: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    out = np.empty((len(pairs), 3))
    for row, (i, j) in enumerate(pairs):
        # baycomp's differences are y - x: its left tail is "x better".
        out[row] = baycomp.CorrelatedTTest.probs(values[i], values[j], ROPE, runs=10)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 300, 1000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sample", type=int, default=400, help="pairs timed in the loops")
    args = parser.parse_args()

    print(f"all-pairs bayes, rope {ROPE}, k = {K} splits; loops timed on <= {args.sample} pairs")
    header = (
        f"{'m':>5} {'pairs':>8} {'pdcompare s':>12} {'(cpu s)':>8} {'scipy.t loop s':>15} "
        f"{'baycomp loop s':>15} {'x scipy':>8} {'x baycomp':>10} {'max |diff|':>11}"
    )
    print(header)
    rng = np.random.default_rng(1)
    for m in args.sizes:
        scores = make_scores(m)
        elapsed, cpu, result = best_time(
            lambda scores=scores: scores.cmp.bayes(ALL_PAIRS, rope=ROPE, cv=10), args.repeat
        )
        n_pairs = len(result)
        sample = rng.choice(n_pairs, size=min(args.sample, n_pairs), replace=False)
        rows = result.iloc[sample]
        pairs = np.column_stack(
            [scores.index.get_indexer(rows["model_1"]), scores.index.get_indexer(rows["model_2"])]
        )
        values = scores.to_numpy()
        scale = n_pairs / len(sample)
        scipy_time, _, scipy_probs = best_time(lambda v=values, p=pairs: scipy_loop(v, p), 1)
        baycomp_time, _, baycomp_probs = best_time(lambda v=values, p=pairs: baycomp_loop(v, p), 1)
        ours = rows[["prob_better", "prob_rope", "prob_worse"]].to_numpy(float)
        difference = max(np.abs(ours - scipy_probs).max(), np.abs(ours - baycomp_probs).max())
        scipy_total, baycomp_total = scipy_time * scale, baycomp_time * scale
        print(
            f"{m:>5} {n_pairs:>8} {elapsed:>12.4f} {cpu:>8.4f} {scipy_total:>15.2f} "
            f"{baycomp_total:>15.2f} {scipy_total / elapsed:>8.0f} "
            f"{baycomp_total / elapsed:>10.0f} {difference:>11.1e}"
        )


if __name__ == "__main__":
    main()

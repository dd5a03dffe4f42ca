"""All-pairs comparison: pdcompare's vectorised tests against the gallery example's loop.

The scikit-learn gallery example "Statistical comparison of models using grid
search" compares every pair of models with a Python loop: per pair, the
differences, the Nadeau–Bengio corrected t by hand, ``scipy.stats.t.sf`` and a
Bonferroni correction by multiplication. pdcompare computes every pair at once
from one covariance matrix. Both run here on the same scores (m models x 100
splits, 10x10 CV with n_train 90, n_test 10), in the same process.

Times are the minimum over repeats (the figure least disturbed by other load on
the machine) and include building the result frame. Where the whole loop would
take minutes it runs on a random sample of pairs and its time is scaled up to
all pairs (marked "*"). The vectorised statistics are checked against the loop's
on the sampled pairs.

The Bayesian correlated t-test (``bayes``, rope 0.01) runs against two loops:
a frozen ``scipy.stats.t`` posterior per pair, and ``baycomp.CorrelatedTTest.probs``
per pair; their probabilities are checked against pdcompare's.

Targets: corrected t-test with Holm (issue 7), m = 1000 (499,500 pairs) under
0.4 s and at least 300x faster than the loop; bayes (issue 3), m = 1000 under
0.4 s and at least 100x faster than the baycomp loop.

Run: python benchmarks/bench_pairwise.py [sizes...]   (default: 10 100 300 1000)

To add another test, write a function like ``corrected_ttest_case`` that
returns a ``Row`` and list it in ``CASES``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd
from _bench import make_scores

import pdcompare  # noqa: F401  (registers DataFrame.cmp)

N_SPLITS = 100
N_TRAIN, N_TEST = 90, 10
LOOP_PAIRS = 2000  # pairs of the loop actually timed when there are more


@dataclass
class Row:
    case: str  # what is timed, and against which loop
    models: int
    pairs: int
    vectorised: float
    vectorised_cpu: float
    loop: float
    loop_scaled: bool
    max_rel_error: float


def best_time(function: Callable[[], object], repeats: int) -> tuple[float, float, object]:
    """Minimum wall time, minimum CPU time of this process, and the last result."""
    times, cpu, result = [], [], None
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = function()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(times), min(cpu), result


# --------------------------------------------------------------------------- the gallery's loop


def corrected_std(differences, n_train, n_test):
    """The gallery example's corrected standard deviation (verbatim)."""
    kr = len(differences)
    corrected_var = np.var(differences, ddof=1) * (1 / kr + n_test / n_train)
    return np.sqrt(corrected_var)


def compute_corrected_ttest(differences, df, n_train, n_test):
    """The gallery example's corrected t-test (verbatim; right-tailed)."""
    from scipy.stats import t

    mean = np.mean(differences)
    std = corrected_std(differences, n_train, n_test)
    t_stat = mean / std
    p_val = t.sf(np.abs(t_stat), df)
    return t_stat, p_val


def gallery_loop(model_scores: pd.DataFrame, pairs: list[tuple[int, int]], n_comparisons: int):
    """The gallery example's pairwise loop over ``pairs``, Bonferroni by multiplication."""
    df = model_scores.shape[1] - 1
    rows = []
    for model_i, model_k in pairs:
        model_i_scores = model_scores.iloc[model_i].values
        model_k_scores = model_scores.iloc[model_k].values
        differences = model_i_scores - model_k_scores
        t_stat, p_val = compute_corrected_ttest(differences, df, N_TRAIN, N_TEST)
        p_val *= n_comparisons
        p_val = 1 if p_val > 1 else p_val
        rows.append([model_scores.index[model_i], model_scores.index[model_k], t_stat, p_val])
    return pd.DataFrame(rows, columns=["model_1", "model_2", "t_stat", "p_val"])


# --------------------------------------------------------------------------- cases


def corrected_ttest_case(n_models: int) -> Row:
    scores = make_scores(n_models)
    n_pairs = n_models * (n_models - 1) // 2
    scores.cmp.pairwise("corrected_ttest", correction="holm")  # warm up imports
    repeats = 7 if n_models <= 300 else 5
    vectorised, vectorised_cpu, result = best_time(
        lambda: scores.cmp.pairwise("corrected_ttest", correction="holm"), repeats
    )
    sample = sample_pairs(n_models)
    loop_time, _, loop = best_time(lambda: gallery_loop(scores, sample, n_pairs), 3)
    loop_time *= n_pairs / len(sample)
    # The same statistics (up to the sign: the loop keeps frame order, pdcompare rank order).
    table = result.set_index(["model_1", "model_2"])["statistic"]
    flipped = table.copy()
    flipped.index = flipped.index.swaplevel()
    both = pd.concat([table, -flipped])
    mine = both.loc[list(zip(loop["model_1"], loop["model_2"], strict=True))].to_numpy()
    error = np.max(np.abs(mine - loop["t_stat"].to_numpy()) / np.abs(loop["t_stat"].to_numpy()))
    return Row(
        "corrected_ttest + holm",
        n_models,
        n_pairs,
        vectorised,
        vectorised_cpu,
        loop_time,
        len(sample) < n_pairs,
        float(error),
    )


ROPE = 0.01


def sample_pairs(n_models: int) -> list[tuple[int, int]]:
    """All pairs, or a fixed random sample of ``LOOP_PAIRS`` of them."""
    every = list(combinations(range(n_models), 2))
    if len(every) <= LOOP_PAIRS:
        return every
    chosen = np.random.default_rng(1).choice(len(every), LOOP_PAIRS, replace=False)
    return [every[k] for k in np.sort(chosen)]


def scipy_posterior_loop(values: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    """Per pair, a frozen scipy.stats.t posterior and its three probabilities."""
    from scipy import stats

    out = np.empty((len(pairs), 3))
    for row, (i, j) in enumerate(pairs):
        d = values[i] - values[j]
        n = len(d)
        scale = np.sqrt(np.var(d, ddof=1) * (1 / n + N_TEST / N_TRAIN))
        posterior = stats.t(n - 1, d.mean(), scale)
        worse, below_high = posterior.cdf(-ROPE), posterior.cdf(ROPE)
        posterior.interval(0.95)
        out[row] = 1.0 - below_high, below_high - worse, worse
    return out


def baycomp_loop(values: np.ndarray, pairs: list[tuple[int, int]]) -> np.ndarray:
    """Per pair, baycomp.CorrelatedTTest.probs (10-fold CV repeated 10 times)."""
    import baycomp

    out = np.empty((len(pairs), 3))
    for row, (i, j) in enumerate(pairs):
        # baycomp's differences are y - x: its left tail is "x better".
        out[row] = baycomp.CorrelatedTTest.probs(values[i], values[j], ROPE, runs=10)
    return out


def _bayes_case(n_models: int, name: str, loop_function) -> Row:
    scores = make_scores(n_models)
    n_pairs = n_models * (n_models - 1) // 2
    scores.cmp.pairwise("bayes", rope=ROPE)  # warm up imports and tables
    repeats = 7 if n_models <= 300 else 5
    vectorised, vectorised_cpu, result = best_time(
        lambda: scores.cmp.pairwise("bayes", rope=ROPE), repeats
    )
    sample = sample_pairs(n_models)
    values = scores.to_numpy()
    loop_time, _, loop = best_time(lambda: loop_function(values, sample), 1)
    loop_time *= n_pairs / len(sample)
    # pdcompare orders pairs best first; the loop keeps frame order: swap where needed.
    columns = ["prob_better", "prob_rope", "prob_worse"]
    table = result.set_index(["model_1", "model_2"])[columns]
    swapped = table[columns[::-1]].set_axis(columns, axis=1)
    swapped.index = swapped.index.swaplevel()
    both = pd.concat([table, swapped])
    keys = [(scores.index[i], scores.index[j]) for i, j in sample]
    error = np.abs(both.loc[keys].to_numpy() - loop).max()
    return Row(
        name,
        n_models,
        n_pairs,
        vectorised,
        vectorised_cpu,
        loop_time,
        len(sample) < n_pairs,
        float(error),
    )


def bayes_scipy_case(n_models: int) -> Row:
    return _bayes_case(n_models, "bayes vs scipy.t loop", scipy_posterior_loop)


def bayes_baycomp_case(n_models: int) -> Row:
    return _bayes_case(n_models, "bayes vs baycomp loop", baycomp_loop)


CASES: list[Callable[[int], Row]] = [corrected_ttest_case, bayes_scipy_case, bayes_baycomp_case]


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [10, 100, 300, 1000]
    print(
        f"{'case':<24} {'models':>6} {'pairs':>8} {'pdcompare':>11} {'(cpu)':>9} "
        f"{'loop':>13} {'ratio':>8} {'max diff':>15}"
    )
    for case in CASES:
        for n_models in sizes:
            row = case(n_models)
            star = "*" if row.loop_scaled else " "
            print(
                f"{row.case:<24} {row.models:>6} {row.pairs:>8} {row.vectorised:>9.4f} s "
                f"{row.vectorised_cpu:>7.4f} s {row.loop:>10.3f} s{star} "
                f"{row.loop / row.vectorised:>7.0f}x {row.max_rel_error:>15.1e}"
            )
    print("max diff: relative in t for the t-test, absolute in the probabilities for bayes.")
    print(
        "* loop timed on a random sample of pairs, scaled to all pairs. Times are the "
        "minimum over repeats;\n  (cpu) is the CPU time of this process (both threads "
        "of the p-values for many pairs), less disturbed by other load on the machine."
    )


if __name__ == "__main__":
    main()

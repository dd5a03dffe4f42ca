"""Several data sets: pdcompare's rank core against scikit-posthocs and scipy.

Each section times pdcompare's pure core (``pdcompare.stats.ranks``) and a
reference doing the same computation, in the same process, on the same models x
data sets table, and prints the ratio:

* ``nemenyi``: mean ranks + Friedman + Nemenyi for all pairs (ranks once,
  ``ranked=True``), against ``scipy.stats.friedmanchisquare`` plus
  scikit-posthocs' ``posthoc_nemenyi_friedman`` (which ranks with scipy and
  calls ``scipy.stats.studentized_range.sf`` on every pair, about 60 us a pair);
* ``conover``: Conover for all pairs, against ``posthoc_conover_friedman``.

The runs alternate (core, reference, core, reference, ...) so that a change of
load on the machine hits both; the figure is the median. Where the reference
would take longer than ``REFERENCE_BUDGET`` seconds at a size, it runs on the
first ``m`` models only, with ``m`` chosen so that its pairs take about that
budget, and its time is scaled by the ratio of pairs (its cost is the
per-pair studentized range); such rows are marked "*" and say the size used.
The agreement of the p-values (largest absolute difference on the pairs both
computed) is printed too. Peak memory is measured in a separate, untimed run
of each side with ``tracemalloc`` (numpy reports its buffers to it).

Target (issue 14): 1,000 models x 200 data sets, summary + Friedman + Nemenyi
all pairs, at least 20x faster than scikit-posthocs' Nemenyi plus scipy's
Friedman.

Then the Bayesian signed-rank test of all pairs against baycomp's per-pair
loop (``signed_rank_section``).

Run: python benchmarks/bench_datasets.py [--quick] [--signed-rank] [n_models ...]
(default: 10 100 1000; ``--signed-rank``: only the Bayesian signed-rank section,
whose quick size is the target's, 30 models x 100 data sets)

To add a section (all-pairs Wilcoxon, Bayesian signed-rank, ...), write a
function ``name_case(values) -> Row`` and list it in ``CASES`` below.
"""

from __future__ import annotations

import statistics
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from pdcompare.stats import ranks

N_DATASETS = 200
REPEATS = 5
REFERENCE_BUDGET = 60.0  # seconds one reference run may take before it is scaled


@dataclass
class Row:
    case: str
    models: int
    datasets: int
    pairs: int
    core: float  # seconds, median
    reference: float  # seconds, median (scaled when reference_models < models)
    reference_models: int
    max_abs_pvalue_diff: float
    core_peak_mb: float
    reference_peak_mb: float


def make_table(n_models: int, n_datasets: int = N_DATASETS, seed: int = 0) -> np.ndarray:
    """Scores of models of different skill on data sets of different difficulty, rounded.

    Rounded to 3 decimals, so that ties occur as in accuracy tables.
    """
    rng = np.random.default_rng(seed)
    skill = rng.normal(0.0, 0.02, (n_models, 1))
    difficulty = rng.uniform(0.6, 0.95, (1, n_datasets))
    noise = rng.normal(0.0, 0.03, (n_models, n_datasets))
    return np.minimum(1.0, difficulty + skill + noise).round(3)


def interleaved(
    core: Callable[[], object],
    reference: Callable[[], object],
    repeats: int,
    reference_repeats: int,
):
    """Median times of alternating runs, and the last results of each."""
    core_times, reference_times = [], []
    core_result = reference_result = None
    for run in range(max(repeats, reference_repeats)):
        if run < repeats:
            start = time.perf_counter()
            core_result = core()
            core_times.append(time.perf_counter() - start)
        if run < reference_repeats:
            start = time.perf_counter()
            reference_result = reference()
            reference_times.append(time.perf_counter() - start)
    return (
        statistics.median(core_times),
        statistics.median(reference_times),
        core_result,
        reference_result,
    )


def peak_mb(function: Callable[[], object]) -> float:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def reference_size(n_models: int, seconds_per_pair: float) -> int:
    """Models the reference runs on: all, or as many as fit in the budget."""
    pairs = n_models * (n_models - 1) / 2
    if pairs * seconds_per_pair <= REFERENCE_BUDGET:
        return n_models
    m = int((1 + np.sqrt(1 + 8 * REFERENCE_BUDGET / seconds_per_pair)) / 2)
    return max(2, min(m, n_models))


# --------------------------------------------------------------------------- sections


def nemenyi_case(values: np.ndarray) -> Row:
    import scikit_posthocs as sp
    from scipy import stats

    k, n = values.shape
    i, j = np.triu_indices(k, 1)

    def core():
        table = ranks.rank_within_columns(values)
        mean = ranks.mean_ranks(table, ranked=True)
        test = ranks.friedman(table, ranked=True)
        pairs = ranks.nemenyi(table, i, j, ranked=True)
        return mean, test, pairs

    # scikit-posthocs' cost is one studentized range integral per pair: measure it.
    probe = np.linspace(0.1, 6, 200)
    start = time.perf_counter()
    stats.studentized_range.sf(probe, k, np.inf)
    per_pair = (time.perf_counter() - start) / probe.size
    m = reference_size(k, per_pair)
    sub = values[:m]

    def reference():
        friedman = stats.friedmanchisquare(*values)  # Friedman on the whole table
        # scikit-posthocs ranks ascending: negate so that rank 1 is the best.
        matrix = sp.posthoc_nemenyi_friedman(-sub.T).to_numpy()
        return friedman, matrix

    core()  # warm up imports
    core_time, reference_time, out, (friedman, matrix) = interleaved(
        core, reference, REPEATS, 3 if m * m < 200_000 else 1
    )
    scale = (k * (k - 1)) / (m * (m - 1))
    # Agreement on the pairs both computed: the p-values of the first m models.
    _, test, pairs = out
    inside = (i < m) & (j < m)
    sub_out = ranks.nemenyi(sub, i[inside], j[inside])
    diff = float(np.max(np.abs(sub_out["pvalue"] - matrix[i[inside], j[inside]])))
    if m == k:
        diff = max(diff, float(np.max(np.abs(pairs["pvalue"] - matrix[i, j]))))
    assert abs(test["statistic"] - friedman.statistic) <= 1e-9 * friedman.statistic
    return Row(
        "mean ranks + friedman + nemenyi",
        k,
        n,
        i.size,
        core_time,
        reference_time * scale if m < k else reference_time,
        m,
        diff,
        peak_mb(core),
        peak_mb(reference),
    )


def conover_case(values: np.ndarray) -> Row:
    import scikit_posthocs as sp

    k, n = values.shape
    i, j = np.triu_indices(k, 1)

    def core():
        return ranks.conover(values, i, j)

    def reference():
        return sp.posthoc_conover_friedman(-values.T, p_adjust=None).to_numpy()

    core()
    core_time, reference_time, out, matrix = interleaved(core, reference, REPEATS, 3)
    diff = float(np.max(np.abs(out["pvalue"] - matrix[i, j])))
    return Row(
        "conover",
        k,
        n,
        i.size,
        core_time,
        reference_time,
        k,
        diff,
        peak_mb(core),
        peak_mb(reference),
    )


# Sections run for every size. Add new ones here (all-pairs Wilcoxon across data
# sets, Bayesian signed-rank, ...): each takes the models x data sets table and
# returns a Row.
CASES: list[Callable[[np.ndarray], Row]] = [
    nemenyi_case,
    conover_case,
]


def signed_rank_section(quick: bool = False) -> None:
    """The Bayesian signed-rank test on all pairs against baycomp's per-pair loop.

    baycomp's ``SignedRankTest`` makes an (n+1) x (n+1) product per sample and
    pair; a few pairs are timed and the time scaled by the number of pairs.
    Target (issue 15): 30 models x 100 data sets, 10,000 samples, at least
    100x faster; and the time and peak memory at 100 models x 200 data sets.
    """
    from baycomp import SignedRankTest

    from pdcompare.stats.signed_rank_bayes import signed_rank_pairs

    sizes = [(30, 100, 10_000)] if quick else [(30, 100, 10_000), (100, 200, 10_000)]
    for n_models, n_datasets, n_samples in sizes:
        values = make_table(n_models, n_datasets)
        i, j = np.triu_indices(n_models, 1)

        def core(values=values, i=i, j=j, n_samples=n_samples):
            return signed_rank_pairs(
                values,
                i,
                j,
                rope=0.01,
                n_samples=n_samples,
                random_state=np.random.default_rng(0),
            )

        probe = 2 if n_models > 30 else 3
        core_times, reference_times = [], []
        for _ in range(2 if n_models > 30 else 3):  # interleaved
            start = time.perf_counter()
            out = core()
            core_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            reference = [
                SignedRankTest.probs(
                    values[a], values[b], rope=0.01, nsamples=n_samples, random_state=0
                )
                for a, b in zip(i[:probe], j[:probe], strict=True)
            ]
            reference_times.append((time.perf_counter() - start) / probe * i.size)
        ours = np.column_stack([out["prob_better"], out["prob_rope"], out["prob_worse"]])[:probe]
        diff = float(np.max(np.abs(ours - np.array(reference))))
        core_time, reference_time = min(core_times), min(reference_times)
        print(
            f"{'bayesian signed-rank, rope 0.01':34s} {n_models:5d} models x {n_datasets} data "
            f"sets ({i.size:7d} pairs, {n_samples} samples): pdcompare {core_time:8.3f} s, "
            f"baycomp loop {reference_time:9.1f} s* -> {reference_time / core_time:7.1f}x; "
            f"max |P diff| {diff:.3f} (Monte Carlo); peak memory {peak_mb(core):.0f} MB  "
            f"(* baycomp timed on {probe} pairs, scaled by pairs)",
            flush=True,
        )


def main(sizes: list[int]) -> None:
    rows = []
    for n_models in sizes:
        values = make_table(n_models)
        for case in CASES:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # scikit-posthocs' pandas warnings
                row = case(values)
            rows.append(row)
            scaled = row.reference_models < row.models
            print(
                f"{row.case:34s} {row.models:5d} models x {row.datasets} data sets "
                f"({row.pairs:7d} pairs): pdcompare {row.core:8.4f} s, reference "
                f"{row.reference:9.3f} s{'*' if scaled else ' '} -> "
                f"{row.reference / row.core:7.1f}x; max |p diff| {row.max_abs_pvalue_diff:.1e}; "
                f"peak memory {row.core_peak_mb:.0f} MB vs {row.reference_peak_mb:.0f} MB"
                + (
                    f"  (* reference timed on {row.reference_models} models, scaled by pairs)"
                    if scaled
                    else ""
                ),
                flush=True,
            )


if __name__ == "__main__":
    quick = "--quick" in sys.argv
    only_signed_rank = "--signed-rank" in sys.argv
    arguments = [int(arg) for arg in sys.argv[1:] if not arg.startswith("--")]
    if not only_signed_rank:
        main(arguments or ([10, 100] if quick else [10, 100, 1000]))
    signed_rank_section(quick)

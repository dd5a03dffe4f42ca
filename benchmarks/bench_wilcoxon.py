"""All-pairs Wilcoxon signed-rank and sign tests: pdcompare's core against loops and floors.

Two sizes, all pairs of models:

* 100 models x 200 data sets, one (mean) score per data set: the
  several-data-sets comparison of DESIGN.md section 9 (4,950 pairs);
* 1,000 models x 100 splits: the single-data-set all-pairs table (499,500 pairs).

Against, in the same process and interleaved (each timed the minimum over
repeats, taking turns so that load on the machine hits all alike):

* the per-pair loop ``scipy.stats.wilcoxon(a, b)`` (at 1,000 models on a random
  sample of pairs, its time scaled to all pairs, marked "*"); its p-values are
  checked against pdcompare's on the pairs it ran;
* a floor: the least work a vectorised signed-rank test can do, assuming no
  ties and no zeros: differences, ``argsort`` of ``|d|`` for the ranks, the
  rank sum of the positive ones and the normal approximation, in the same
  chunks of pairs;
* for the sign test, a one-pass floor: differences and one count of the
  positive ones.

pdcompare's Wilcoxon is timed without and with the Hodges–Lehmann estimate
(``hodges_lehmann=False`` / ``True``): the estimate is the median of the
``n (n + 1) / 2`` Walsh averages of each pair, found by a selection of
``O(n log n)`` per pair (``pdcompare.stats._walsh``, two chunks of pairs at a
time on two threads, beside the test on the same differences: its wall time
is compared with the single-threaded loop).
Peak memory is the largest ``tracemalloc`` block of one call.

Targets: at 100 x 200, >= 50x faster than the per-pair scipy loop (issue 32:
with the Hodges–Lehmann estimate); the test within 1.5x of the floor; the
sign test within 1.5x of its one-pass floor.

Run: python benchmarks/bench_wilcoxon.py [--quick]
"""

from __future__ import annotations

import sys
import tracemalloc

import numpy as np
from _bench import interleaved
from scipy import special, stats

from pdcompare.stats import _moments, paired


def scores(n_models: int, n_columns: int, *, seed: int) -> np.ndarray:
    """Continuous scores with a model effect and a shared column effect (no ties)."""
    rng = np.random.default_rng(seed)
    column = rng.uniform(0.6, 0.95, size=n_columns)
    model = np.linspace(0.0, 0.05, n_models)[:, None]
    return column + model + rng.normal(0.0, 0.02, size=(n_models, n_columns))


def wilcoxon_floor(values, i, j):
    """Tie-free signed-rank test: argsort ranks, rank sum of the positives, normal p-value."""
    n = values.shape[1]
    pvalue = np.empty(i.size)
    ranks_of_order = np.arange(1.0, n + 1.0)
    mean = n * (n + 1) / 4
    se = np.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    for part in _moments.chunks(i.size, n):
        d = values[i[part]] - values[j[part]]
        order = np.argsort(np.abs(d), axis=1)
        ranks = np.empty_like(d)
        np.put_along_axis(ranks, order, ranks_of_order, axis=1)
        r_plus = np.where(d > 0, ranks, 0.0).sum(axis=1)
        pvalue[part] = 2 * special.ndtr(-np.abs((r_plus - mean) / se))
    return pvalue


def sign_floor(values, i, j):
    """One pass: the differences and the count of positive ones."""
    n = values.shape[1]
    wins = np.empty(i.size, dtype=np.intp)
    for part in _moments.chunks(i.size, n):
        wins[part] = np.count_nonzero(values[i[part]] - values[j[part]] > 0.0, axis=1)
    return wins


def scipy_loop(values, i, j):
    pairs = zip(i, j, strict=True)
    return np.array([stats.wilcoxon(values[a], values[b]).pvalue for a, b in pairs])


def peak_mib(function) -> float:
    tracemalloc.start()
    try:
        function()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def run(n_models: int, n_columns: int, *, loop_sample: int | None, rounds: int) -> None:
    values = scores(n_models, n_columns, seed=n_models)
    i, j = np.triu_indices(n_models, 1)
    n_pairs = i.size
    print(f"\n{n_models} models x {n_columns} columns: {n_pairs:,} pairs")

    cases = {
        "wilcoxon (test only)": lambda: paired.wilcoxon(values, i, j, hodges_lehmann=False),
        "wilcoxon + Hodges-Lehmann": lambda: paired.wilcoxon(values, i, j),
        "floor (argsort ranks, no ties)": lambda: wilcoxon_floor(values, i, j),
        "sign_test": lambda: paired.sign_test(values, i, j),
        "sign floor (one pass)": lambda: sign_floor(values, i, j),
    }
    best = interleaved(cases, rounds)
    out = cases["wilcoxon + Hodges-Lehmann"]()

    if loop_sample is None or loop_sample >= n_pairs:
        sample = np.arange(n_pairs)
    else:
        sample = np.sort(np.random.default_rng(0).choice(n_pairs, loop_sample, replace=False))
    # The loop in turn with pdcompare's test + estimate (twice each), so that load hits both.
    kept = {}

    def loop():
        kept["p"] = scipy_loop(values, i[sample], j[sample])

    turns = interleaved({"loop": loop, "hl": cases["wilcoxon + Hodges-Lehmann"]}, 2)
    best["wilcoxon + Hodges-Lehmann"] = min(best["wilcoxon + Hodges-Lehmann"], turns["hl"])
    loop_time, loop_p = turns["loop"], kept["p"]
    scaled = loop_time * n_pairs / sample.size
    mark = "*" if sample.size < n_pairs else ""
    worst = np.max(np.abs(out["pvalue"][sample] - loop_p) / loop_p)
    floor_p = wilcoxon_floor(values, i[sample], j[sample])
    print(
        f"  p-values vs the scipy loop on {sample.size:,} pairs: max relative difference "
        f"{worst:.1e} (floor vs scipy: {np.max(np.abs(floor_p - loop_p) / loop_p):.1e})"
    )

    peaks = {
        "wilcoxon (test only)": peak_mib(cases["wilcoxon (test only)"]),
        "wilcoxon + Hodges-Lehmann": peak_mib(cases["wilcoxon + Hodges-Lehmann"]),
        "floor (argsort ranks, no ties)": peak_mib(cases["floor (argsort ranks, no ties)"]),
        "sign_test": peak_mib(cases["sign_test"]),
        "sign floor (one pass)": peak_mib(cases["sign floor (one pass)"]),
    }
    print(f"  {'':34}{'time':>10}{'peak MiB':>10}")
    print(f"  {'scipy.stats.wilcoxon per pair' + mark:34}{scaled:10.3f}{'':>10}")
    for name in (
        "wilcoxon (test only)",
        "wilcoxon + Hodges-Lehmann",
        "floor (argsort ranks, no ties)",
        "sign_test",
        "sign floor (one pass)",
    ):
        print(f"  {name:34}{best[name]:10.3f}{peaks[name]:10.1f}")
    test = best["wilcoxon (test only)"]
    print(
        f"  wilcoxon vs the scipy loop:        {scaled / test:8.1f}x faster"
        f" ({scaled / best['wilcoxon + Hodges-Lehmann']:.1f}x with Hodges-Lehmann)"
    )
    floor = best["floor (argsort ranks, no ties)"]
    sign_ratio = best["sign_test"] / best["sign floor (one pass)"]
    print(f"  wilcoxon / floor:                  {test / floor:8.2f}")
    print(f"  sign_test / one-pass floor:        {sign_ratio:8.2f}")


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    run(100, 200, loop_sample=None, rounds=7)
    run(1000, 100, loop_sample=1000 if quick else 5000, rounds=1 if quick else 3)


if __name__ == "__main__":
    main()

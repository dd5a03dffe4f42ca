"""Items frames: all pairs clustered t + Holm, every exact McNemar, from_items on many rows.

Three measurements, each against a floor in the same process (interleaved minima,
``_bench.py``):

1. all pairs of 100 models x 100,000 items in 5,000 clusters, ``ttest`` (CR1-clustered,
   Holm) against a numpy floor of the same arithmetic: centred cluster sums by
   ``np.add.reduceat``, one matrix product for the clustered sums of squares and one for
   the unclustered ones (design effect, correlation), the t tails, Holm, the frame.
   Target (issue 40): within 1.5x of the floor and well under a second.
2. every exact McNemar of 1,000 models x 10,000 binary items (499,500 pairs) against a
   floor that counts the discordant items by one float32 matrix product and takes the
   binomial tails with ``scipy.special.bdtr``. Target: within 3 s. Measured twice: with
   ``mcnemar``'s default Tango interval of every pair (about a million score-equation
   roots, DESIGN 33) and without it (``interval=None``, the floor's arithmetic).
3. ``from_items`` on 10^7 sample rows (model, item, sample, score, passage) against a plain
   pandas group-by of the means, counts and variances; and both peak memories.
   Target: within 1.5x.

Run: python benchmarks/bench_items.py [--quick]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from _bench import holm, interleaved, pair_names, peak_mib, report
from scipy import special

import pdcompare


def clustered_frame(n_models: int, n_items: int, n_clusters: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    cluster = rng.integers(0, n_clusters, n_items)
    cluster[:n_clusters] = np.arange(n_clusters)
    effect = rng.normal(0, 1, n_clusters)[cluster]
    ability = rng.normal(0.3, 0.1, (n_models, 1))
    values = (rng.random((n_models, n_items)) < 1 / (1 + np.exp(-(effect + ability)))).astype(
        float
    )
    names = [f"model_{k:03d}" for k in range(n_models)]
    wide = pd.DataFrame(values, index=names)
    return wide.cmp.set_design(items=True, cluster=dict(enumerate(cluster))), cluster


def ttest_floor(values: np.ndarray, cluster: np.ndarray, n_clusters: int, names: pd.Index):
    """The clustered paired t of every pair, Holm, and the frame: the arithmetic alone."""
    values = np.ascontiguousarray(values)  # row-major: BLAS products are fastest so
    n = values.shape[1]
    means = values.mean(axis=1)
    order = np.argsort(-means, kind="stable")
    first, second = np.triu_indices(len(order), k=1)
    i, j = order[first], order[second]
    sort = np.argsort(cluster, kind="stable")
    sizes = np.bincount(cluster, minlength=n_clusters)
    starts = np.concatenate([[0], np.cumsum(sizes[:-1])])
    sums = np.add.reduceat(values[:, sort], starts, axis=1) - means[:, None] * sizes
    gram = sums @ sums.T
    centred = values - means[:, None]
    plain_gram = centred @ centred.T
    squares = np.diag(gram)[i] + np.diag(gram)[j] - 2 * gram[i, j]
    plain = np.diag(plain_gram)[i] + np.diag(plain_gram)[j] - 2 * plain_gram[i, j]
    c = float(n_clusters)
    se = np.sqrt(c / (c - 1) * squares) / n
    plain_se = np.sqrt(plain / (n - 1) / n)
    mean = means[i] - means[j]
    statistic = mean / se
    df = c - 1
    pvalue = np.minimum(2 * special.stdtr(df, -np.abs(statistic)), 1)
    adjusted = holm(pvalue)
    half = special.stdtrit(df, 0.975) * se
    diag = np.diag(plain_gram)
    return pd.DataFrame(
        {
            **pair_names(names, i, j),
            "mean_diff": mean,
            "statistic": statistic,
            "df": np.full(i.size, df),
            "pvalue": pvalue,
            "pvalue_adj": adjusted,
            "reject": adjusted <= 0.05,
            "ci_low": mean - half,
            "ci_high": mean + half,
            "se": se,
            "n_items": np.full(i.size, n),
            "n_clusters": np.full(i.size, n_clusters),
            "design_effect": (se / plain_se) ** 2,
            "corr": plain_gram[i, j] / np.sqrt(diag[i] * diag[j]),
        },
        copy=False,
    )


def mcnemar_floor(values: np.ndarray, names: pd.Index):
    """Exact McNemar of every pair: discordant counts by one float32 product, binomial tails."""
    x = values.astype(np.float32)
    totals = x.sum(axis=1, dtype=np.float64)
    order = np.argsort(-totals, kind="stable")
    first, second = np.triu_indices(len(order), k=1)
    i, j = order[first], order[second]
    both = (x @ x.T)[i, j].astype(np.float64)
    b, c = totals[i] - both, totals[j] - both
    smaller = np.minimum(b, c)
    pvalue = np.minimum(2 * special.bdtr(smaller, (b + c).astype(np.int64), 0.5), 1)
    adjusted = holm(pvalue)
    return pd.DataFrame(
        {
            **pair_names(names, i, j),
            "only_1_correct": b,
            "only_2_correct": c,
            "statistic": smaller,
            "pvalue": pvalue,
            "pvalue_adj": adjusted,
            "reject": adjusted <= 0.05,
        },
        copy=False,
    )


def long_table(n_rows: int, n_models: int = 10, n_samples: int = 5, seed: int = 0):
    rng = np.random.default_rng(seed)
    n_items = n_rows // (n_models * n_samples)
    model = np.repeat([f"m{k}" for k in range(n_models)], n_items * n_samples)
    item = np.tile(np.repeat(np.arange(n_items), n_samples), n_models)
    return pd.DataFrame(
        {
            "model": model,
            "item": item,
            "sample": np.tile(np.arange(n_samples), n_models * n_items),
            "score": rng.integers(0, 2, model.size).astype(float),
            "passage": item // 10,
        }
    )


def groupby_floor(table: pd.DataFrame):
    return table.groupby(["model", "item"], sort=False)["score"].agg(["mean", "count", "var"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        sizes, mc_sizes, n_rows, rounds = (30, 10_000, 500), (200, 2_000), 10**6, 3
    else:
        sizes, mc_sizes, n_rows, rounds = (100, 100_000, 5_000), (1_000, 10_000), 10**7, 3
    print("(times from a loaded shared machine: compare ratios, not milliseconds)")

    frame, cluster = clustered_frame(*sizes)
    values, names = frame.to_numpy(), frame.index
    cases = {
        "ttest() all pairs, clustered, holm": lambda: frame.cmp.pairwise("ttest"),
        "floor: cluster sums + 2 products + holm": lambda: ttest_floor(
            values, cluster, sizes[2], names
        ),
    }
    best = interleaved(cases, rounds)
    mine, floor = frame.cmp.pairwise("ttest"), ttest_floor(values, cluster, sizes[2], names)
    error = np.max(np.abs(mine["se"].to_numpy() - floor["se"].to_numpy()) / floor["se"])
    keys = list(cases)
    report(
        f"all pairs of {sizes[0]} models x {sizes[1]:,} items in {sizes[2]:,} clusters "
        f"({len(mine):,} pairs); se max rel diff vs floor {error:.1e}",
        best,
        {},
        [(keys[0], keys[1])],
    )

    rng = np.random.default_rng(1)
    m, n = mc_sizes
    binary = (rng.random((m, n)) < rng.uniform(0.5, 0.9, (m, 1))).astype(np.int8)
    items = pd.DataFrame(binary, index=[f"model_{k:04d}" for k in range(m)])
    items = items.cmp.set_design(items=True)
    cases = {
        "pairwise('mcnemar') exact, Tango intervals": lambda: items.cmp.pairwise("mcnemar"),
        "pairwise('mcnemar', interval=None)": lambda: items.cmp.pairwise(
            "mcnemar", interval=None
        ),
        "floor: one float32 product + bdtr + holm": lambda: mcnemar_floor(binary, items.index),
    }
    best = interleaved(cases, 2)
    mine, floor = items.cmp.pairwise("mcnemar"), mcnemar_floor(binary, items.index)
    same = np.allclose(np.sort(mine["pvalue"].to_numpy()), np.sort(floor["pvalue"].to_numpy()))
    keys = list(cases)
    report(
        f"every exact McNemar of {m:,} models x {n:,} binary items ({len(mine):,} pairs); "
        f"same p-values: {same}",
        best,
        {},
        [(keys[0], keys[2]), (keys[1], keys[2])],
    )

    table = long_table(n_rows)
    cases = {
        "from_items(sample=, cluster=)": lambda: pdcompare.from_items(
            table, sample="sample", cluster="passage"
        ),
        "floor: groupby(model, item).agg(mean, count, var)": lambda: groupby_floor(table),
    }
    best = interleaved(cases, rounds)
    peaks = {name: peak_mib(function) for name, function in cases.items()}
    keys = list(cases)
    report(
        f"from_items on {n_rows:,} sample rows ({table.memory_usage(deep=True).sum() / 2**20:.0f} "
        "MiB table)",
        best,
        peaks,
        [(keys[0], keys[1])],
    )


if __name__ == "__main__":
    main()

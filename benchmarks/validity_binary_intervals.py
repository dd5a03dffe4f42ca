"""Coverage of the intervals of small samples of binary items (DESIGN section 33).

**Paired proportions.** Two models answer the same n items (n = 15, 30, 60,
100); each item's pair of 0/1 scores is drawn from the 2×2 table of a grid of
accuracies (p1, p2) and correlations ρ of the two models' item scores:
p11 = p1 p2 + ρ sqrt(p1 (1 − p1) p2 (1 − p2)), p10 = p1 − p11, p01 = p2 − p11,
p00 = 1 − p1 − p2 + p11 (grid points with a negative cell are left out). The
coverage of an interval of Δ = p1 − p2 is computed *exactly*, not simulated:
every table (a, b, c, d) with a + b + c + d = n is enumerated once (176,851
tables at n = 100), its interval computed once (vectorised over all tables),
and the coverage at each grid point is the multinomial probability of the
tables whose interval holds Δ. No Monte Carlo error. Measured: Tango's score
interval (``mcnemar``'s default), Newcombe's hybrid score interval (method 10),
Wald's, and the paired t interval over items (``ttest``'s, d_i in {−1, 0, 1}).
A check through the public API: ``mcnemar(interval=...)`` on one simulated
items frame per n gives the same limits as the enumeration's.

**Clustered accuracy.** One model answers n items in C clusters of unequal
sizes (C = 12 clusters of 2–60 items, C = 30 clusters of 2–20); cluster c has
its own accuracy p_c ~ Beta with mean p and intra-cluster correlation 0.05 or 0.2, and
its items are Bernoulli(p_c). The mean item score estimates p. Coverage of p by
``summary(interval="wilson")`` with clusters (Korn–Graubard's clustered
Wilson), by the clustered t interval (``summary()``'s default), and by the
plain Wilson interval that ignores the clusters, over 4,000 replications per
point, all replications at once (arrays of shape replications × items). Monte
Carlo standard error about 0.0035 at 95 %.

Run ``python benchmarks/validity_binary_intervals.py`` (about a minute) or
``--quick`` (a smaller grid); ``--out docs/validity_table_binary_intervals.md``
writes the tables.
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
import pandas as pd
from scipy import special, stats

import pdcompare
from pdcompare.stats import items as items_core
from pdcompare.stats import paired_proportions as pp

LEVEL = 0.95
SIZES = (15, 30, 60, 100)
ACCURACIES = (0.5, 0.7, 0.85, 0.95)
GAPS = (0.0, 0.1, 0.2)
CORRELATIONS = (0.0, 0.3, 0.6)
METHODS = ("tango", "newcombe", "wald", "t")


def all_tables(n: int) -> np.ndarray:
    """Every 2×2 table (a, b, c, d) with a + b + c + d = n, shape (tables, 4)."""
    a, b, c = np.meshgrid(*(np.arange(n + 1),) * 3, indexing="ij")
    keep = a + b + c <= n
    a, b, c = a[keep], b[keep], c[keep]
    return np.stack([a, b, c, n - a - b - c], axis=1).astype(float)


def paired_t_interval(tables: np.ndarray, level: float) -> tuple[np.ndarray, np.ndarray]:
    """The paired t interval over items of d_i = x_i − y_i in {−1, 0, 1}, from the counts."""
    _, b, c, _ = tables.T
    n = tables.sum(axis=1)
    mean = (b - c) / n
    variance = (b + c - n * mean**2) / (n - 1)
    half = stats.t.ppf(0.5 + level / 2, n - 1) * np.sqrt(variance / n)
    return mean - half, mean + half


def cell_probabilities(p1: float, p2: float, rho: float) -> np.ndarray | None:
    """(p11, p10, p01, p00) of accuracies p1, p2 with correlation rho, or None if impossible."""
    p11 = p1 * p2 + rho * np.sqrt(p1 * (1 - p1) * p2 * (1 - p2))
    cells = np.array([p11, p1 - p11, p2 - p11, 1 - p1 - p2 + p11])
    return cells if (cells >= -1e-12).all() else None


def grid(quick: bool) -> list[tuple[float, float, float]]:
    accuracies = ACCURACIES[1:3] if quick else ACCURACIES
    points = []
    for p1, gap, rho in itertools.product(accuracies, GAPS, CORRELATIONS):
        if cell_probabilities(p1, p1 - gap, rho) is not None:
            points.append((p1, round(p1 - gap, 10), rho))
    return points


def log_multinomial(tables: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """log P(table) under the multinomial with these cell probabilities."""
    n = tables.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(tables > 0, tables * np.log(np.maximum(cells, 1e-300)), 0.0)
    return special.gammaln(n + 1) - special.gammaln(tables + 1).sum(axis=1) + terms.sum(axis=1)


def paired_coverage(n: int, points, level: float) -> list[dict]:
    """Exact coverage of every method at every grid point, for n items."""
    tables = all_tables(n)
    limits = {m: pp.paired_interval(m, *tables.T, confidence=level) for m in METHODS[:3]}
    limits["t"] = paired_t_interval(tables, level)
    rows = []
    for p1, p2, rho in points:
        weights = np.exp(log_multinomial(tables, cell_probabilities(p1, p2, rho)))
        delta = p1 - p2
        row = {"n": n, "p1": p1, "p2": p2, "rho": rho}
        for method, (low, high) in limits.items():
            covered = (low <= delta + 1e-12) & (delta - 1e-12 <= high)
            row[method] = float(weights[covered].sum())
        rows.append(row)
    return rows


def api_check(n: int, level: float, seed: int) -> float:
    """Largest gap between mcnemar's limits on a simulated items frame and the enumeration's."""
    rng = np.random.default_rng(seed)
    values = (rng.random((3, n)) < np.array([[0.8], [0.7], [0.6]])).astype(int)
    items = pd.DataFrame(values, index=["a", "b", "c"]).cmp.set_design(items=True)
    gap = 0.0
    for method in METHODS[:3]:
        out = items.cmp.mcnemar(interval=method, ci=level)
        for _, row in out.iterrows():
            x = items.loc[row["model_1"]].to_numpy(dtype=bool)
            y = items.loc[row["model_2"]].to_numpy(dtype=bool)
            table = [np.sum(x & y), np.sum(x & ~y), np.sum(~x & y), np.sum(~x & ~y)]
            low, high = pp.paired_interval(method, *table, confidence=level)
            gap = max(gap, abs(float(low) - row["ci_low"]), abs(float(high) - row["ci_high"]))
    return gap


def cluster_sizes(n_clusters: int, low: int, high: int, rng) -> np.ndarray:
    return rng.integers(low, high + 1, n_clusters)


def clustered_coverage(
    p: float, sizes: np.ndarray, icc: float, reps: int, rng, level: float
) -> dict:
    """Coverage of p by the clustered Wilson, clustered t and plain Wilson intervals."""
    n_clusters = sizes.size
    cluster = np.repeat(np.arange(n_clusters), sizes)
    n = cluster.size
    scale = 1 / icc - 1
    p_cluster = rng.beta(p * scale, (1 - p) * scale, (reps, n_clusters))
    x = (rng.random((reps, n)) < p_cluster[:, cluster]).astype(float)
    means = x.mean(axis=1)
    se = items_core.clustered_se(x, cluster, n_clusters)
    kg = pp.clustered_wilson_interval(means, n, se**2, n_clusters, level)
    t = stats.t.ppf(0.5 + level / 2, n_clusters - 1)
    clustered_t = (means - t * se, means + t * se)
    plain = pp.wilson_interval(means, n, pp.normal_quantile(level))
    out = {"p": p, "clusters": n_clusters, "items": n, "icc": icc}
    for name, (low, high) in (
        ("clustered wilson", kg),
        ("clustered t", clustered_t),
        ("wilson ignoring clusters", plain),
    ):
        out[name] = float(np.mean((low <= p) & (p <= high)))
    return out


def paired_table(rows: list[dict]) -> str:
    frame = pd.DataFrame(rows)
    lines = [
        "| items | interval | mean coverage | lowest coverage | grid points at 94 % or more |",
        "| ---: | --- | ---: | ---: | ---: |",
    ]
    names = {
        "tango": "Tango (`mcnemar` default)",
        "newcombe": "Newcombe (method 10)",
        "wald": "Wald",
        "t": "paired t over items",
    }
    for n, part in frame.groupby("n"):
        for method in METHODS:
            values = part[method].to_numpy()
            lines.append(
                f"| {n} | {names[method]} | {values.mean():.3f} | {values.min():.3f} | "
                f"{(values >= 0.94).sum()} of {values.size} |"
            )
    return "\n".join(lines)


def clustered_table(rows: list[dict], reps: int) -> str:
    lines = [
        "| clusters (items) | intra-cluster correlation | accuracy p | clustered Wilson | "
        "clustered t | Wilson ignoring clusters |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row['clusters']} ({row['items']}) | {row['icc']:.2f} | {row['p']:.2f} | "
            f"{row['clustered wilson']:.3f} | {row['clustered t']:.3f} | "
            f"{row['wilson ignoring clusters']:.3f} |"
        )
    se = np.sqrt(LEVEL * (1 - LEVEL) / reps)
    return "\n".join(lines) + f"\n\n{reps} replications per row; Monte Carlo se {se:.4f}."


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller grid")
    parser.add_argument("--reps", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", help="write the Markdown tables here")
    args = parser.parse_args()
    start = time.perf_counter()
    points = grid(args.quick)
    sizes = SIZES[:2] if args.quick else SIZES
    rows = [row for n in sizes for row in paired_coverage(n, points, LEVEL)]
    gaps = [api_check(n, LEVEL, args.seed + n) for n in sizes]
    rng = np.random.default_rng(args.seed)
    reps = 500 if args.quick else args.reps
    designs = [(12, 2, 60), (30, 2, 20)]
    clustered = []
    for n_clusters, low, high in designs:
        group_sizes = cluster_sizes(n_clusters, low, high, rng)
        for icc, p in itertools.product((0.05, 0.2), (0.5, 0.8, 0.95)):
            clustered.append(clustered_coverage(p, group_sizes, icc, reps, rng, LEVEL))
    seconds = time.perf_counter() - start
    accuracies = ACCURACIES[1:3] if args.quick else ACCURACIES
    text = "\n\n".join(
        [
            "Paired proportions: exact coverage of a 95 % interval of p1 − p2 over "
            f"{len(points)} grid points (p1 in {accuracies}, "
            f"p1 − p2 in {GAPS}, correlation in {CORRELATIONS}).",
            paired_table(rows),
            f"`mcnemar(interval=...)` through the public API against the enumeration: largest "
            f"gap {max(gaps):.1e}.",
            "Clustered accuracy: coverage of p by a 95 % interval of one model's accuracy.",
            clustered_table(clustered, reps),
            f"pdcompare {pdcompare.__version__}; seed {args.seed}; {seconds:.0f} s; made by "
            "`python benchmarks/validity_binary_intervals.py --out "
            "docs/validity_table_binary_intervals.md`.",
        ]
    )
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")


if __name__ == "__main__":
    main()

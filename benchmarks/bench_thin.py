"""Where the data are thin (DESIGN section 33): the costs of the small-sample answers.

Measurements, each against its reference in the same process (interleaved minima,
``_bench.py``):

- **few clusters**: all pairs of 100 models x 20,000 items in 40 clusters of unequal
  sizes, ``pairwise("ttest", se="cr2")`` (Bell–McCaffrey CR2, Satterthwaite df, Holm)
  against the same call with ``se="cr1"``. Target (issue 56): within 2x of CR1. CR2
  adds one scaling of the m x C cluster sums and one df from the cluster sizes
  (shared by every pair), so the two should cost about the same.

Run: python benchmarks/bench_thin.py [--quick]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from _bench import interleaved, report

import pdcompare  # noqa: F401 - registers DataFrame.cmp


def few_clusters_frame(n_models: int, n_items: int, n_clusters: int, seed: int = 0):
    """Binary item scores of ``n_models`` models on items in clusters of unequal sizes."""
    rng = np.random.default_rng(seed)
    weights = rng.uniform(0.2, 3.0, n_clusters)  # unequal clusters (sizes about 1:15)
    cluster = rng.choice(n_clusters, n_items, p=weights / weights.sum())
    cluster[:n_clusters] = np.arange(n_clusters)
    effect = rng.normal(0, 1, n_clusters)[cluster]
    ability = rng.normal(0.3, 0.1, (n_models, 1))
    chance = 1 / (1 + np.exp(-(effect + ability)))
    values = (rng.random((n_models, n_items)) < chance).astype(float)
    names = [f"model_{k:03d}" for k in range(n_models)]
    wide = pd.DataFrame(values, index=names)
    return wide.cmp.set_design(items=True, cluster=dict(enumerate(cluster)))


def bench_few_clusters(quick: bool) -> float:
    """CR2 against CR1 on all pairs; returns the ratio of their times."""
    m, n, c = (30, 5_000, 40) if quick else (100, 20_000, 40)
    frame = few_clusters_frame(m, n, c)
    cases = {
        "pairwise('ttest', se='cr2') all pairs, holm": lambda: frame.cmp.pairwise(
            "ttest", se="cr2"
        ),
        "pairwise('ttest', se='cr1') all pairs, holm": lambda: frame.cmp.pairwise(
            "ttest", se="cr1"
        ),
    }
    best = interleaved(cases, 5 if quick else 7)
    cr2 = frame.cmp.pairwise("ttest", se="cr2")
    cr1 = frame.cmp.pairwise("ttest", se="cr1")
    keys = list(cases)
    report(
        f"few clusters: all pairs of {m} models x {n:,} items in {c} unequal clusters "
        f"({len(cr2):,} pairs); CR2 df {cr2['df'].iloc[0]:.2f} against CR1's "
        f"{cr1['df'].iloc[0]:.0f}; se CR2/CR1 median {np.median(cr2['se'] / cr1['se']):.3f}",
        best,
        {},
        [(keys[0], keys[1])],
    )
    ratio = best[keys[0]] / best[keys[1]]
    print(f"  target: within 2x of CR1 -> {'met' if ratio <= 2.0 else 'NOT met'}")
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print("(times from a loaded shared machine: compare ratios, not milliseconds)")
    bench_few_clusters(args.quick)


if __name__ == "__main__":
    main()

"""Validity of the clustered paired t over items with few clusters: CR1 against CR2.

Under the null (two models with the same expected score), the item score
differences are ``d_i = u_g + e_i``: a cluster effect ``u_g ~ N(0, icc)``
shared by the items of cluster ``g`` (the two models' passage effects do not
cancel) plus an item part ``e_i ~ N(0, 1 − icc)``. The clusters are unequal:
12 clusters of 2 to 60 items (2, 60, 5, 17, 3, 41, 8, 2, 26, 11, 4, 33; the
sizes of ``tests/data/clubsandwich``), and 6, 24 and 50 clusters whose sizes
are drawn once from 2..60 (seeded). Each replicate runs the two-sided test at
5 % with

- **CR1**: ``C/(C − 1) · Σ_g S_g² / N²`` on ``C − 1`` degrees of freedom
  (DESIGN section 21; inspect_ai's ``stderr(cluster=)``, statsmodels'), and
- **CR2**: Bell–McCaffrey's ``Σ_g S_g² / (1 − n_g/N) / N²`` on Satterthwaite's
  degrees of freedom (DESIGN section 33; R's clubSandwich ``coef_test(...,
  vcov = "CR2", test = "Satterthwaite")``),

both by pdcompare's own core (``pdcompare.stats.items.clustered_se`` and
``clustered_df``, what ``ttest`` on an items frame computes), vectorised over
the replicates: every replicate is one row of one matrix. A few replicates
are checked against ``frame.cmp.ttest`` itself.

Run: ``python benchmarks/validity_clusters.py [--reps 40000] [--quick] [--out FILE.md]``.
Seeded: the numbers are the same on every run.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import special

import pdcompare
from pdcompare.stats.items import clustered_df, clustered_se

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import study_main

ALPHA = 0.05
TWELVE = (2, 60, 5, 17, 3, 41, 8, 2, 26, 11, 4, 33)
ICCS = (0.1, 0.5)
#: Replicates simulated at once (rows of one matrix), to bound the memory.
CHUNK = 4000


def designs(seed: int) -> dict[int, np.ndarray]:
    """Cluster sizes of each design: 6, 12 (fixed), 24 and 50 clusters of 2 to 60 items."""
    rng = np.random.default_rng(seed + 1)
    drawn = {c: rng.integers(2, 61, c) for c in (6, 24, 50)}
    return {6: drawn[6], 12: np.array(TWELVE), 24: drawn[24], 50: drawn[50]}


def _rejections(sizes, icc, reps, rng):
    """How often CR1 and CR2 reject at 5 %, over ``reps`` replicates."""
    cluster = np.repeat(np.arange(sizes.size), sizes)
    c = sizes.size
    found = {"cr1": 0, "cr2": 0}
    dfs = {se: clustered_df(cluster, c, se) for se in found}
    for start in range(0, reps, CHUNK):
        size = min(CHUNK, reps - start)
        effect = rng.normal(0.0, math.sqrt(icc), (size, c))[:, cluster]
        d = effect + rng.normal(0.0, math.sqrt(1.0 - icc), (size, cluster.size))
        mean = d.mean(axis=1)
        for se_type in found:
            se = clustered_se(d, cluster, c, se_type)
            pvalue = 2.0 * special.stdtr(dfs[se_type], -np.abs(mean / se))
            found[se_type] += int(np.sum(pvalue <= ALPHA))
    return found, dfs


def _check_against_ttest(sizes, rng):
    """One replicate through ``frame.cmp.ttest`` (the public test) equals the core's numbers."""
    cluster = np.repeat(np.arange(sizes.size), sizes)
    scores = rng.normal(size=(2, cluster.size))
    frame = pd.DataFrame(scores, index=["a", "b"]).cmp.set_design(
        items=True, cluster=dict(enumerate(cluster))
    )
    d = (scores[0] - scores[1])[None, :]
    for se_type in ("cr1", "cr2"):
        result = frame.cmp.ttest("a", "b", se=se_type, correction=None)
        expected = clustered_se(d, cluster, sizes.size, se_type)[0]
        assert math.isclose(result["se"].iloc[0], expected, rel_tol=1e-10), se_type
        assert math.isclose(
            result["df"].iloc[0], clustered_df(cluster, sizes.size, se_type), rel_tol=1e-10
        )


def run_study(reps: int, seed: int = 2024) -> pd.DataFrame:
    """One row per (clusters, icc, standard error): the rejection rate at 5 %."""
    rng = np.random.default_rng(seed)
    rows = []
    for c, sizes in designs(seed).items():
        _check_against_ttest(sizes, rng)
        for icc in ICCS:
            found, dfs = _rejections(sizes, icc, reps, rng)
            for se_type, count in found.items():
                rows.append(
                    {
                        "clusters": c,
                        "sizes": f"{sizes.min()}–{sizes.max()}",
                        "items": int(sizes.sum()),
                        "icc": icc,
                        "se": se_type.upper(),
                        "df": dfs[se_type],
                        "rate": count / reps,
                        "reps": reps,
                    }
                )
    return pd.DataFrame(rows)


def to_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """One row per design and icc: CR1's and CR2's rejection rates side by side."""
    reps = int(table["reps"].iloc[0])

    def rate(value: float) -> str:
        return f"{100 * value:.1f} % ± {100 * math.sqrt(value * (1 - value) / reps):.1f}"

    lines = [
        "| clusters | items (sizes) | within-cluster correlation | CR1: level (df) "
        "| CR2: level (Satterthwaite df) |",
        "| ---: | ---: | ---: | ---: | ---: |",
    ]
    for (c, icc), part in table.groupby(["clusters", "icc"], sort=True):
        at = part.set_index("se")
        lines.append(
            f"| {c} | {int(at.loc['CR1', 'items'])} ({at.loc['CR1', 'sizes']}) | {icc:g} "
            f"| {rate(at.loc['CR1', 'rate'])} ({at.loc['CR1', 'df']:.0f}) "
            f"| {rate(at.loc['CR2', 'rate'])} ({at.loc['CR2', 'df']:.1f}) |"
        )
    lines += [
        "",
        f"Rejection rates of the two-sided clustered paired t at 5 % under the null, over "
        f"{reps} replications each (± Monte Carlo standard error), seed {seed}, "
        f"{seconds:.0f} s on a loaded machine. Clusters of unequal sizes; the 12 clusters "
        "are 2, 60, 5, 17, 3, 41, 8, 2, 26, 11, 4 and 33 items. `ttest` on an items frame "
        "uses CR2 below 50 clusters and CR1 from 50 on (`se=` chooses).",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> pd.DataFrame:
    return study_main(
        argv, __doc__.splitlines()[0], run_study, to_markdown,
        reps=40000, quick=500, unit="replications",
    )  # fmt: skip


if __name__ == "__main__":
    assert pdcompare  # registers DataFrame.cmp for the check against ttest
    main(sys.argv[1:])

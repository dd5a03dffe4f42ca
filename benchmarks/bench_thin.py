"""Where the data are thin (DESIGN section 33): one function per case, each with its floor.

Cases (each a function ``case_*(quick)`` in ``CASES``; more are added beside them):

1. ``case_passk``: 1,000 agents x 500 tasks (in 50 repositories) x 16 attempts,
   pass@5. Two measurements against floors in the same process (interleaved
   minima, ``_bench.py``):

   a. the reduction ``from_items(table, sample=, cluster=, estimand="pass@k", k=5)``
      of the 8,000,000 attempt rows to the 1,000 x 500 frame of estimates, against
      a plain pandas group-by of the per-cell successes and counts
      (``groupby([agent, task]).score.agg(["sum", "count"])``). Target: within 1.5x.
   b. every pair's clustered paired t on that frame (``pairwise("ttest")``,
      499,500 pairs, CR1 by repository, Holm) against the numpy floor of the same
      arithmetic (``bench_items.ttest_floor``). Target: under 0.5 s.

2. ``case_skillings_mack``: 200 models x 60 data sets at 30 % fill (each cell
   kept with probability 0.3, missing completely at random), through
   ``frame.cmp.friedman(nan_policy="skillings_mack")`` (validation, the design
   checks that name a model, the result frame), against the shortest numpy that
   computes the same statistic on continuous scores (no ties): ranks by a double
   argsort, the centred weighted rank sums, the covariance by two matrix products
   and one linear solve. Target: under 0.5 s.

3. ``case_few_clusters``: all pairs of 100 models x 20,000 items in 40 clusters of
   unequal sizes, ``pairwise("ttest", se="cr2")`` (Bell–McCaffrey CR2,
   Satterthwaite df, Holm) against the same call with ``se="cr1"``. Target: within
   2x of CR1 (CR2 adds one scaling of the m x C cluster sums and one df from the
   cluster sizes, shared by every pair). ``--quick``: 30 models x 5,000 items.

``--quick``: 200 agents x 500 tasks x 16 attempts.

Run: python benchmarks/bench_thin.py [--quick]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from _bench import interleaved, peak_mib, report
from bench_items import ttest_floor
from scipy import special

import pdcompare


def attempts_table(n_agents: int, n_tasks: int, n_attempts: int, seed: int = 0) -> pd.DataFrame:
    """Long table of 0/1 attempts: agent, task, attempt, score, repo (10 tasks a repository)."""
    rng = np.random.default_rng(seed)
    difficulty = rng.normal(0, 1.5, n_tasks)
    ability = rng.normal(0, 0.5, n_agents)
    p = 1 / (1 + np.exp(-(ability[:, None] + difficulty[None, :])))
    rows = n_agents * n_tasks * n_attempts
    score = (rng.random((n_agents, n_tasks, n_attempts)) < p[:, :, None]).astype(np.int8)
    task = np.tile(np.repeat(np.arange(n_tasks), n_attempts), n_agents)
    return pd.DataFrame(
        {
            "agent": pd.Categorical.from_codes(
                np.repeat(np.arange(n_agents), n_tasks * n_attempts),
                [f"agent_{k:04d}" for k in range(n_agents)],
            ),
            "task": task,
            "attempt": np.tile(np.arange(n_attempts), n_agents * n_tasks).astype(np.int8),
            "score": score.reshape(rows),
            "repo": task // 10,
        }
    )


def groupby_floor(table: pd.DataFrame) -> pd.DataFrame:
    """The reduction alone: per (agent, task) the successes and the attempts."""
    return table.groupby(["agent", "task"], sort=False, observed=True)["score"].agg(
        ["sum", "count"]
    )


def _se_difference(mine: pd.DataFrame, floor: pd.DataFrame) -> float:
    """Largest relative difference of the two results' se, pairs matched by their names
    (models of equal means may come in either order)."""

    def keyed(result):
        names = np.sort(result[["model_1", "model_2"]].to_numpy(dtype=str), axis=1)
        return pd.Series(result["se"].to_numpy(), index=pd.MultiIndex.from_arrays(names.T))

    a, b = keyed(mine), keyed(floor)
    return float(np.max(np.abs(a - b.reindex(a.index)) / a))


def case_passk(quick: bool) -> None:
    """pass@5 of 1,000 agents x 500 tasks x 16 attempts: the reduction, then all pairs."""
    n_agents = 200 if quick else 1_000
    n_tasks, n_attempts, k, rounds = 500, 16, 5, 3
    table = attempts_table(n_agents, n_tasks, n_attempts)

    def reduce():
        return pdcompare.from_items(
            table, model="agent", item="task", sample="attempt", cluster="repo",
            estimand="pass@k", k=k,
        )  # fmt: skip

    cases = {
        "from_items(estimand='pass@k', k=5, cluster=)": reduce,
        "floor: groupby(agent, task).agg(sum, count)": lambda: groupby_floor(table),
    }
    best = interleaved(cases, rounds)
    peaks = {name: peak_mib(function) for name, function in cases.items()}
    keys = list(cases)
    report(
        f"pass@{k}: {len(table):,} attempt rows ({n_agents:,} agents x {n_tasks} tasks x "
        f"{n_attempts} attempts) reduced to the frame of estimates",
        best,
        peaks,
        [(keys[0], keys[1])],
    )

    frame = reduce()
    data = frame.attrs["pdcompare"]["items"]
    cluster = np.asarray(data["cluster"], dtype=np.int64)
    n_clusters = int(cluster.max()) + 1
    values, names = frame.to_numpy(), frame.index
    cases = {
        "pairwise('ttest') all pairs, clustered, holm": lambda: frame.cmp.pairwise("ttest"),
        "floor: cluster sums + 2 products + holm": lambda: ttest_floor(
            values, cluster, n_clusters, names
        ),
    }
    best = interleaved(cases, rounds)
    mine = frame.cmp.pairwise("ttest")
    floor = ttest_floor(values, cluster, n_clusters, names)
    error = _se_difference(mine, floor)
    keys = list(cases)
    report(
        f"pass@{k} all pairs of {n_agents:,} agents x {n_tasks} tasks in {n_clusters} "
        f"repositories ({len(mine):,} pairs); se max rel diff vs floor {error:.1e}; "
        f"target under 0.5 s: {best[keys[0]]:.3f} s",
        best,
        {},
        [(keys[0], keys[1])],
    )


SM_TARGET_S = 0.5


def holes_benchmark(m: int = 200, n: int = 60, fill: float = 0.3, seed: int = 0) -> pd.DataFrame:
    """Scores with a data-set effect, each cell kept with probability ``fill``."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0.7, 0.05, (m, 1)) + rng.normal(0, 0.1, (1, n)) + rng.normal(0, 0.05, (m, n))
    x[rng.random((m, n)) >= fill] = np.nan
    return pd.DataFrame(
        x,
        index=[f"model_{k:03d}" for k in range(m)],
        columns=pd.Index([f"data_{k:02d}" for k in range(n)], name="dataset"),
    )


def numpy_floor(values: np.ndarray) -> tuple[float, float]:
    """Skillings–Mack without ties, in the fewest numpy lines: (statistic, p-value)."""
    present = ~np.isnan(values)
    k_i = present.sum(axis=0)
    keep = k_i >= 2
    x, present, k_i = values[:, keep], present[:, keep], k_i[keep]
    order = np.argsort(np.where(present, -x, np.inf), axis=0)
    ranks = np.empty_like(x)
    np.put_along_axis(ranks, order, np.arange(1.0, x.shape[0] + 1)[:, None], axis=0)
    centred = np.where(present, ranks - (k_i + 1) / 2, 0.0)
    a = centred @ np.sqrt(12.0 / (k_i + 1))
    mask = present.astype(float)
    cov = -(mask @ mask.T)
    np.fill_diagonal(cov, 0.0)
    np.fill_diagonal(cov, -cov.sum(axis=1))
    statistic = float(a @ np.linalg.solve(cov + 1.0, a))
    return statistic, float(special.chdtrc(x.shape[0] - 1, statistic))


def bench_skillings_mack(rounds: int) -> None:
    """Skillings–Mack on 200 models x 60 data sets at 30 % fill, against the numpy floor."""
    frame = holes_benchmark()
    values = frame.to_numpy()
    ours = frame.cmp.friedman(nan_policy="skillings_mack")["statistic"].iloc[0]
    floor = numpy_floor(values)[0]
    assert np.isclose(ours, floor, rtol=1e-9), (ours, floor)  # the same number
    cases = {
        "friedman(nan_policy='skillings_mack')": lambda: frame.cmp.friedman(
            nan_policy="skillings_mack"
        ),
        "numpy floor": lambda: numpy_floor(values),
    }
    best = interleaved(cases, rounds)
    name = "friedman(nan_policy='skillings_mack')"
    peak = peak_mib(cases[name])
    holes = int(np.isnan(values).sum())
    print(
        f"Skillings–Mack, 200 models x 60 data sets, 30 % fill ({holes} of {values.size} "
        f"cells missing): {best[name] * 1000:.1f} ms (target {SM_TARGET_S * 1000:.0f} ms), "
        f"numpy floor {best['numpy floor'] * 1000:.1f} ms, ratio "
        f"{best[name] / best['numpy floor']:.2f}x, peak {peak:.1f} MiB"
    )


def case_skillings_mack(quick: bool) -> None:
    """Skillings–Mack on 200 models x 60 data sets at 30 % fill (the same size with --quick)."""
    bench_skillings_mack(rounds=3 if quick else 10)


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


def case_few_clusters(quick: bool) -> None:
    """CR2 against CR1 on all pairs of 100 models x 20,000 items in 40 clusters."""
    bench_few_clusters(quick)


#: The cases of this file, run in order.
CASES = [case_passk, case_skillings_mack, case_few_clusters]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print("(times from a loaded shared machine: compare ratios, not milliseconds)")
    start = time.perf_counter()
    for case in CASES:
        case(args.quick)
    print(f"\n{time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()

"""Validity of pass@k and pass^k comparisons: coverage of the paired, clustered t interval.

DESIGN section 33: ``from_items(..., estimand="pass@k" | "pass^k", k=)`` puts
each item's unbiased estimate in the frame and ``ttest`` compares the two
agents' estimates across items (section 21's paired t, CR1-clustered). The
target is the population difference of the two agents' pass@k (pass^k) over
the distribution of tasks. This study measures how often the 95 % interval
of the difference covers it.

Population: tasks have heterogeneous success probabilities. Task ``i`` (in
repository ``r``) has a difficulty ``z_i = 0.9 u_r + 1.2 e_i`` (``u, e`` standard
normal; without repositories ``z_i = 1.5 e_i``); agent A succeeds with
probability ``expit(0.6 + z_i)``, agent B with ``expit(0.2 + z_i + 0.5 f_i)``
(``f_i`` its own normal deviation, so that the per-task differences vary and
are not of one sign). Each agent makes ``n`` independent attempts of each
task (1, 2, 4, 8, 16); every ``k ≤ n`` of 1, 2, 4, 8, 16 is estimated from
the same attempts. The true differences are integrals over ``z`` and ``f``
(Gauss–Hermite, 120 × 120 nodes).

Designs: 100 independent tasks (the t over tasks, 99 degrees of freedom);
150 tasks in 30 repositories of 5 (clustered by repository, 29 degrees of
freedom).

The replicates go through pdcompare's own cores at once (no loop per
replicate): :mod:`pdcompare.stats.attempts` for the estimates and
:func:`pdcompare.stats.items.clustered_paired_ttest` for the intervals,
each replicate a pair of rows; one replicate per design is checked against
``from_items(...).cmp.ttest()`` on its long table, to 1e-12.

Run: ``python benchmarks/validity_passk.py [--reps 4000] [--quick] [--out FILE.md]``.
Seeded: the numbers are the same on every run.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import expit

import pdcompare
from pdcompare.stats.attempts import estimate
from pdcompare.stats.items import clustered_paired_ttest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import study_main

ATTEMPTS = (1, 2, 4, 8, 16)
KS = (1, 2, 4, 8, 16)
LEVEL = 0.95
DESIGNS = {
    "100 independent tasks": {"n_clusters": 100, "per_cluster": 1, "repo_sd": 0.0, "task_sd": 1.5},
    "150 tasks in 30 repositories": {
        "n_clusters": 30,
        "per_cluster": 5,
        "repo_sd": 0.9,
        "task_sd": 1.2,
    },
}
ABILITY_A, ABILITY_B, OWN_SD = 0.6, 0.2, 0.5


def _truth(estimand: str, k: int, difficulty_sd: float) -> float:
    """Population pass@k (pass^k) of A minus B: a Gauss–Hermite double integral."""
    nodes, weights = np.polynomial.hermite_e.hermegauss(120)
    weights = weights / weights.sum()
    z = difficulty_sd * nodes[:, None]
    f = OWN_SD * nodes[None, :]
    w = weights[:, None] * weights[None, :]
    p_a = np.broadcast_to(expit(ABILITY_A + z), w.shape)
    p_b = expit(ABILITY_B + z + f)

    def value(p):
        return 1 - (1 - p) ** k if estimand == "pass@k" else p**k

    return float((w * (value(p_a) - value(p_b))).sum())


def _probabilities(design: dict, reps: int, rng) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each replicate's tasks: the success probabilities of A and B, and the repositories."""
    c, per = design["n_clusters"], design["per_cluster"]
    repo = np.repeat(np.arange(c), per)
    z = design["repo_sd"] * rng.standard_normal((reps, c))[:, repo]
    z = z + design["task_sd"] * rng.standard_normal((reps, c * per))
    own = OWN_SD * rng.standard_normal(z.shape)
    return expit(ABILITY_A + z), expit(ABILITY_B + z + own), repo


def _intervals(values_a, values_b, repo, n_clusters):
    """Every replicate's interval at once: replicate r is the pair of rows (2r, 2r + 1)."""
    reps = len(values_a)
    lows, highs = [], []
    for start in range(0, reps, 500):  # 1,000 rows at a time: the Gram matrix stays small
        a, b = values_a[start : start + 500], values_b[start : start + 500]
        stacked = np.empty((2 * len(a), a.shape[1]))
        stacked[0::2], stacked[1::2] = a, b
        pairs = np.arange(len(a))
        out = clustered_paired_ttest(
            stacked, repo, n_clusters, 2 * pairs, 2 * pairs + 1,
            confidence=LEVEL, clustered=n_clusters < len(repo),
        )  # fmt: skip
        lows.append(out["ci_low"])
        highs.append(out["ci_high"])
    return np.concatenate(lows), np.concatenate(highs)


def _check_one_replicate(successes_a, successes_b, n, repo, estimand, k, low, high) -> None:
    """Replicate 0 through from_items and ttest: the same interval to 1e-12."""
    rows = []
    for model, successes in (("A", successes_a[0]), ("B", successes_b[0])):
        for task, (c, r) in enumerate(zip(successes, repo, strict=True)):
            rows += [(model, task, e, int(e < c), r) for e in range(n)]
    table = pd.DataFrame(rows, columns=["model", "task", "attempt", "score", "repo"])
    frame = pdcompare.from_items(
        table, item="task", sample="attempt", estimand=estimand, k=k,
        cluster="repo" if len(np.unique(repo)) < len(repo) else None,
    )  # fmt: skip
    result = frame.cmp.ttest("A", "B", correction=None, alpha=1 - LEVEL)
    np.testing.assert_allclose(result[["ci_low", "ci_high"]].to_numpy()[0], [low, high], 1e-12)


def run_study(reps: int, seed: int = 2024) -> pd.DataFrame:
    """Coverage of every (design, attempts, estimand, k) over ``reps`` replicates."""
    rng = np.random.default_rng(seed)
    rows = []
    for name, design in DESIGNS.items():
        sd = float(np.hypot(design["repo_sd"], design["task_sd"]))
        p_a, p_b, repo = _probabilities(design, reps, rng)
        for n in ATTEMPTS:
            c_a, c_b = rng.binomial(n, p_a), rng.binomial(n, p_b)
            for estimand in ("pass@k", "pass^k"):
                for k in (k for k in KS if k <= n and not (estimand == "pass^k" and k == 1)):
                    truth = _truth(estimand, k, sd)
                    low, high = _intervals(
                        estimate(estimand, n, c_a, k), estimate(estimand, n, c_b, k),
                        repo, design["n_clusters"],
                    )  # fmt: skip
                    if n == 4 and k == 2:
                        _check_one_replicate(c_a, c_b, n, repo, estimand, k, low[0], high[0])
                    covered = (low <= truth) & (truth <= high)
                    rows.append(
                        {
                            "design": name, "attempts": n,
                            "estimand": estimand.replace("k", str(k)), "truth": truth,
                            "coverage": covered.mean(),
                            "mc_se": np.sqrt(covered.mean() * (1 - covered.mean()) / reps),
                            "mean_width": float(np.mean(high - low)), "reps": reps,
                        }
                    )  # fmt: skip
    return pd.DataFrame(rows)


def to_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """The coverage table of the docs: one row per design, attempts and estimand."""
    lines = [
        "| design | attempts per task | estimand | true A − B | coverage | MC se | mean width |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    previous = None
    for row in table.itertuples():
        design = row.design if row.design != previous else ""
        previous = row.design
        lines.append(
            f"| {design} | {row.attempts} | {row.estimand} | {row.truth:.3f} | "
            f"{row.coverage:.3f} | {row.mc_se:.3f} | {row.mean_width:.3f} |"
        )
    worst = table.loc[table["coverage"].idxmin()]
    lines += [
        "",
        f"{int(table['reps'].iloc[0])} replicates per row, seed {seed}, nominal level "
        f"{LEVEL:.0%}, the 95 % t interval of `ttest` (CR1-clustered by repository in the "
        f"second design); {seconds:.0f} s. Lowest coverage {worst['coverage']:.3f} "
        f"({worst['estimand']} from {worst['attempts']} attempts per task, {worst['design']}).",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    study_main(
        sys.argv[1:],
        __doc__.splitlines()[0],
        run_study,
        to_markdown,
        reps=4000,
        quick=200,
        unit="replicates",
    )

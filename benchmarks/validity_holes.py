"""Validity on benchmarks with holes: Skillings–Mack's level, and the rank sets' coverage.

A benchmark: m models scored on n data sets, x_jd = θ_j + β_d + e_jd, a data
set effect β_d ~ N(0, 0.1²) shared by the models (some data sets are harder)
and noise e_jd ~ N(0, 0.05²). Holes are missing completely at random: each
cell is kept with probability ``fill`` (30 %, 50 %, 70 %; 100 % is the
complete benchmark, where Skillings–Mack is Friedman's test).

Part 1, the level of ``friedman(nan_policy="skillings_mack")`` at alpha 0.05:
all θ_j equal. Every cell (m, n, fill) draws ``reps`` benchmarks and computes
all their statistics at once (``stats.holes.skillings_mack_many``: one
ranking of every data set, batched solves); benchmarks that ``friedman``
would refuse (a model on fewer than two data sets with another model, or
models in parts that never meet) are counted and left out. Also counted: the
benchmarks on which the complete-case cut (today's default with
``nan_policy="omit"``) keeps at least two data sets.

Part 2, the coverage of ``ranks()`` and ``top_set()`` with holes, through the
public API (one call per benchmark): m = 8 models with true means

    0.80 0.80 0.78 0.75 0.75 0.70 0.65 0.60

(a tie for the best, a near tie, another tie), n = 30 data sets. Model j's
true rank is every rank from 1 + #{θ_k > θ_j} to m − #{θ_k < θ_j}; the
simultaneous sets cover when every model's set holds all of its true ranks.
``top_set()`` covers when it holds both truly best models. The estimand is
each model's mean over the population of data sets; under MCAR holes each
model's mean over its own data sets estimates it without bias.

Monte Carlo standard errors are √(p (1 − p) / reps). Every cell has its own
seed (``numpy.random.SeedSequence(seed).spawn``).

Run: python benchmarks/validity_holes.py [--quick] [--reps N] [--out docs/validity_table_holes.md]
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd
from _bench import study_main
from scipy import special

import pdcompare  # noqa: F401 - registers DataFrame.cmp
from pdcompare.stats.holes import skillings_mack_many

FILLS = (0.3, 0.5, 0.7, 1.0)
SIZES = ((5, 20), (10, 20), (10, 60))
THETA = np.array([0.80, 0.80, 0.78, 0.75, 0.75, 0.70, 0.65, 0.60])
N_DATASETS = 30
DATASET_SD, NOISE_SD = 0.1, 0.05
ALPHA = 0.05


def _benchmarks(rng, reps, theta, n, fill):
    m = theta.size
    x = theta[None, :, None] + rng.normal(0, DATASET_SD, (reps, 1, n))
    x = x + rng.normal(0, NOISE_SD, (reps, m, n))
    x[rng.random((reps, m, n)) >= fill] = np.nan
    return x


def _refused_by_count(x):
    """Benchmarks with a model on fewer than two data sets that hold another model."""
    present = ~np.isnan(x)
    usable = present & (present.sum(axis=1, keepdims=True) >= 2)
    return (usable.sum(axis=2) < 2).any(axis=1)


def level_rows(reps, seed):
    rows = []
    cells = [(m, n, fill) for m, n in SIZES for fill in FILLS]
    seeds = np.random.SeedSequence(seed).spawn(len(cells))
    for (m, n, fill), cell_seed in zip(cells, seeds, strict=True):
        rng = np.random.default_rng(cell_seed)
        x = _benchmarks(rng, reps, np.zeros(m), n, fill)
        statistic = skillings_mack_many(x)
        usable = ~np.isnan(statistic) & ~_refused_by_count(x)
        reject = special.chdtrc(m - 1, statistic[usable]) <= ALPHA
        complete = (~np.isnan(x).any(axis=1)).sum(axis=1) >= 2
        p = reject.mean() if reject.size else np.nan
        rows.append({
            "part": "level", "models": m, "datasets": n, "fill": fill,
            "benchmarks": int(usable.sum()), "refused": int((~usable).sum()),
            "complete_case_possible": float(complete.mean()),
            "rate": float(p), "mc_se": float(np.sqrt(p * (1 - p) / max(reject.size, 1))),
        })  # fmt: skip
    return rows


def _true_rank_bounds(theta):
    low = 1 + (theta[None, :] > theta[:, None]).sum(axis=1)
    high = theta.size - (theta[None, :] < theta[:, None]).sum(axis=1)
    return low, high


def coverage_rows(reps, seed):
    rows = []
    low_true, high_true = _true_rank_bounds(THETA)
    best = {f"m{j}" for j in np.flatnonzero(THETA.max() == THETA)}
    names = [f"m{j}" for j in range(THETA.size)]
    columns = pd.Index([f"d{k}" for k in range(N_DATASETS)], name="dataset")
    seeds = np.random.SeedSequence(seed + 1).spawn(len(FILLS))
    for fill, cell_seed in zip(FILLS, seeds, strict=True):
        rng = np.random.default_rng(cell_seed)
        x = _benchmarks(rng, reps, THETA, N_DATASETS, fill)
        covered = topped = used = 0
        width = 0.0
        for table in x:
            frame = pd.DataFrame(table, index=names, columns=columns)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = frame.cmp.ranks(n_draws=2000, random_state=0)
            except ValueError:
                continue  # a model on fewer than 2 data sets: refused
            used += 1
            position = [names.index(name) for name in result.index]
            low = result["rank_low"].to_numpy()
            high = result["rank_high"].to_numpy()
            lt, ht = low_true[position], high_true[position]
            covered += bool(np.all((low <= lt) & (high >= ht)))
            topped += best <= set(result.index[low == 1])
            width += float(np.mean(high - low + 1))
        p, q = covered / used, topped / used
        rows.append({
            "part": "coverage", "models": THETA.size, "datasets": N_DATASETS, "fill": fill,
            "benchmarks": used, "refused": reps - used, "rate": p,
            "mc_se": float(np.sqrt(p * (1 - p) / used)), "top_set": q,
            "top_set_mc_se": float(np.sqrt(q * (1 - q) / used)), "mean_width": width / used,
        })  # fmt: skip
    return rows


def run_study(reps, seed=2024):
    level = level_rows(max(reps * 4, 2), seed)  # vectorised: four times the benchmarks
    return pd.DataFrame([*level, *coverage_rows(reps, seed)])


def to_markdown(table, seed, seconds):
    level = table[table["part"] == "level"]
    cover = table[table["part"] == "coverage"]
    lines = [
        "Made by `python benchmarks/validity_holes.py --out docs/validity_table_holes.md` "
        f"(seed {seed}, {seconds:.0f} s). Scores x_jd = θ_j + β_d + e_jd (data-set effect "
        "sd 0.1, noise sd 0.05); each cell kept with probability `fill`, missing "
        "completely at random.",
        "",
        "**Skillings–Mack's level** (all models equal, alpha 0.05):",
        "",
        "`friedman(nan_policy='skillings_mack')`, chi-square on k − 1 df. *refused*: "
        "benchmarks `friedman` refuses (a model on fewer than 2 shared data sets, or "
        "models that never meet). *complete-case possible*: share of benchmarks where "
        "cutting to complete data sets leaves at least 2.",
        "",
        "| models | data sets | fill | benchmarks | refused | rejection rate | MC s.e. "
        "| complete-case possible |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in level.itertuples():
        lines.append(
            f"| {r.models} | {r.datasets} | {r.fill:.0%} | {r.benchmarks} | {r.refused} | "
            f"{r.rate:.2%} | {r.mc_se:.2%} | {r.complete_case_possible:.0%} |"
        )
    lines += [
        "",
        "**Rank sets with holes**: `ranks()` (95 % simultaneous) and `top_set()`:",
        "",
        f"{THETA.size} models, true means {' '.join(f'{t:.2f}' for t in THETA)}, "
        f"{N_DATASETS} data sets; each model's mean over its own data sets, the "
        "covariance of two means from the data sets both ran on; 2,000 draws.",
        "",
        "| fill | benchmarks | refused | joint coverage | MC s.e. | top_set holds both best "
        "| MC s.e. | mean set width |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in cover.itertuples():
        lines.append(
            f"| {r.fill:.0%} | {r.benchmarks} | {r.refused} | {r.rate:.1%} | {r.mc_se:.1%} | "
            f"{r.top_set:.1%} | {r.top_set_mc_se:.1%} | {r.mean_width:.2f} |"
        )
    return "\n".join(lines) + "\n"


def main(argv=None):
    return study_main(
        argv,
        "Skillings–Mack's level and the rank sets' coverage on benchmarks with holes.",
        run_study,
        to_markdown,
        reps=1000,
        quick=50,
        unit="benchmarks per coverage cell (four times as many per level cell)",
    )


if __name__ == "__main__":
    main(sys.argv[1:])

"""Validity of runs over tasks: coverage of the stratified bootstrap intervals (issue 43).

Imported by ``benchmarks/validity.py`` (``--part aggregates``). Each
replication is one agent: T tasks, n runs per task, the run scores of task t
drawn from a known distribution, so the population values are known:

- ``normal``: task t's runs ~ N(mu_t, 0.15^2), mu_t spread on 0.2-1.8;
- ``skewed``: task t's runs ~ mu_t * LogNormal(0, 0.5) (heavy right tail,
  as human-normalised Atari scores).

The true mean is the mean of the tasks' expectations; the true IQM the 25 %
trimmed mean of the equal-weight mixture of the task distributions (computed
from 400,000 draws per task, error about 1e-4). Every replication of one
setting is a row of one runs-over-tasks frame, so one ``aggregate`` call
computes all their intervals; coverage is the share of intervals holding the
true value (Monte Carlo standard error sqrt(p (1 - p) / reps)).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

import pdcompare

POPULATIONS = ("normal", "skewed")
SETTINGS = ((10, 3), (10, 5), (30, 3), (30, 5), (30, 10))  # (tasks, runs per task)
METHODS = ("percentile", "bca")
METRICS = ("iqm", "mean")


def task_centres(n_tasks: int) -> np.ndarray:
    return np.linspace(0.2, 1.8, n_tasks)


def draw(population: str, centres: np.ndarray, size: tuple, rng: np.random.Generator):
    """Runs of every task: shape (*size, tasks)."""
    if population == "normal":
        return centres + rng.normal(0.0, 0.15, size=(*size, centres.size))
    return centres * rng.lognormal(0.0, 0.5, size=(*size, centres.size))


def truth(population: str, n_tasks: int) -> dict[str, float]:
    centres = task_centres(n_tasks)
    mean = centres.mean() * (1.0 if population == "normal" else float(np.exp(0.125)))
    pooled = draw(population, centres, (400_000,), np.random.default_rng(0)).ravel()
    return {"mean": float(mean), "iqm": float(stats.trim_mean(pooled, 0.25))}


def run_aggregates_study(reps: int, seed: int = 2024, n_resamples: int = 2000) -> pd.DataFrame:
    """Coverage and mean width of 95 % intervals, per population, setting, method, metric."""
    rows = []
    rng = np.random.default_rng(seed)
    for population in POPULATIONS:
        for n_tasks, n_runs in SETTINGS:
            true = truth(population, n_tasks)
            runs = draw(population, task_centres(n_tasks), (reps, n_runs), rng)
            frame = pdcompare.from_rliable({f"r{k}": runs[k] for k in range(reps)})
            for method in METHODS:
                out = frame.cmp.aggregate(
                    list(METRICS), n_resamples=n_resamples, method=method, random_state=seed
                )
                for metric in METRICS:
                    low, high = out[(metric, "ci_low")], out[(metric, "ci_high")]
                    covered = ((low <= true[metric]) & (true[metric] <= high)).mean()
                    rows.append(
                        {
                            "population": population,
                            "n_tasks": n_tasks,
                            "n_runs": n_runs,
                            "method": method,
                            "metric": metric,
                            "coverage": float(covered),
                            "se": float(np.sqrt(covered * (1 - covered) / reps)),
                            "width": float((high - low).mean()),
                            "reps": reps,
                        }
                    )
    return pd.DataFrame(rows)


def aggregates_markdown(table: pd.DataFrame, seed: int, seconds: float) -> str:
    """One Markdown table: rows (population, tasks, runs), columns (metric, method)."""
    columns = [(m, k) for m in METRICS for k in METHODS]
    lookup = table.set_index(["population", "n_tasks", "n_runs", "metric", "method"])
    lines = [
        "**Coverage of 95 % stratified bootstrap intervals** (percent ± Monte Carlo "
        "standard error).",
        "",
        "| population | tasks | runs | "
        + " | ".join(f"{m.upper() if m == 'iqm' else m} {k}" for m, k in columns)
        + " |",
        "| --- | ---: | ---: |" + " ---: |" * len(columns),
    ]
    for population in POPULATIONS:
        for n_tasks, n_runs in SETTINGS:
            cells = []
            for metric, method in columns:
                rate, se = lookup.loc[
                    (population, n_tasks, n_runs, metric, method), ["coverage", "se"]
                ]
                cells.append(f"{100 * rate:.1f} ± {100 * se:.1f}")
            lines.append(f"| {population} | {n_tasks} | {n_runs} | " + " | ".join(cells) + " |")
    reps = int(table["reps"].iloc[0])
    lines += [
        "",
        f"{reps} agents per row, 2,000 resamples each, seed {seed}, {seconds:.0f} s.",
    ]
    return "\n".join(lines) + "\n"

"""Runs over many tasks: interquartile mean, probability of improvement, profiles
==================================================================================

Reinforcement-learning agents (and other stochastic learners) are judged over
a few seeds on many tasks. Agarwal et al. (2021), "Deep reinforcement learning
at the edge of the statistical precipice", showed that the per-task means and
the median over tasks of a handful of runs mislead, and recommended the
interquartile mean (IQM) with stratified bootstrap intervals, the probability
of improvement and performance profiles (the rliable package).

The bundled ``load_rl_runs()`` holds simulated human-normalised scores of five
agents on 26 tasks, 5 seeds each. This example computes

- ``aggregate``: the IQM, median, mean and optimality gap of each agent with
  95 % stratified bootstrap intervals (runs resampled within each task);
- ``prob_improvement``: the probability that the best agent by IQM beats each
  other on a randomly chosen task;
- ``performance_profile``: the share of runs above every score threshold;

and saves the three pictures to the folder given on the command line (a new
temporary folder by default). Runs headless in a few seconds.

Run: ``python examples/runs_over_tasks.py [FOLDER]``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd

import pdcompare
from pdcompare.datasets import load_rl_runs


def main(folder: str | Path | None = None) -> dict:
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)

    runs = load_rl_runs()  # 5 agents x (26 tasks x 5 seeds), paired=False
    metrics = ["iqm", "median", "mean", "optimality_gap"]
    aggregates = runs.cmp.aggregate(metrics, n_resamples=10000, random_state=0)
    improvement = runs.cmp.prob_improvement(n_resamples=10000, random_state=0)
    profile = runs.cmp.performance_profile([0.25, 0.5, 1.0, 2.0])
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(aggregates.round(3))
        print()
        print(improvement.round(3))
        print()
        print(profile.round(3))
    for row in improvement.itertuples():
        # P: a run of model_1 beats a run of model_2 on the same task, averaged over tasks.
        verdict = "more often than not" if row.ci_low > 0.5 else "not shown more often than not"
        print(
            f"{row.model_1}'s runs beat {row.model_2}'s {verdict}: "
            f"P = {row.prob_improvement:.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}]"
        )

    figures = {}
    for kind, source in (
        ("aggregate", aggregates),
        ("prob_improvement", improvement),
        ("profile", runs),
    ):
        ax = source.cmp.plot() if kind != "profile" else source.cmp.plot("profile")
        figures[kind] = folder / f"runs_over_tasks_{kind}.png"
        ax.figure.savefig(figures[kind], dpi=110, bbox_inches="tight")
        plt.close(ax.figure)
        print(f"figure: {figures[kind]}")
    # rliable's dictionaries, for code that already uses it:
    score_dict = pdcompare.to_rliable(runs)  # {agent: runs x tasks array}
    return {
        "runs": runs,
        "aggregates": aggregates,
        "improvement": improvement,
        "profile": profile,
        "score_dict": score_dict,
        "figures": figures,
    }


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)

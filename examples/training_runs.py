"""Comparing training runs over random seeds
=========================================

Stochastic learners (neural networks, random forests, anything with a
``random_state``) are often compared over *runs*: the same training and test
data, a different seed each time. Run 3 of one model has nothing to do with
run 3 of another, so the paired tests of a cross-validation do not apply;
the runs of two models are two independent samples.

Here three random-forest settings are trained on the breast-cancer data with
10 seeds each (the small forest only 7: models may have different numbers of
runs), and their test accuracies are compared with

- ``welch_ttest``: Welch's unequal-variance t-test on the mean accuracy;
- ``mannwhitney``: the Mann–Whitney U test, robust to an outlying run;
- ``aso``: almost stochastic order (Dror et al. 2019), the test of the
  deep-learning literature: does one model beat the other at (almost) every
  quantile of its runs?

The picture of the runs is saved to the folder given on the command line (a
new temporary folder by default). Runs headless in a few seconds.

Run: ``python examples/training_runs.py [FOLDER]``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import train_test_split

import pdcompare

SETTINGS = {
    "forest, 50 trees": {"n_estimators": 50},
    "forest, 5 trees": {"n_estimators": 5},
    "forest, depth 2": {"n_estimators": 50, "max_depth": 2},
}
SEEDS = {"forest, 50 trees": range(10), "forest, 5 trees": range(7), "forest, depth 2": range(10)}


def training_runs() -> pd.DataFrame:
    """One row per (setting, seed): the test accuracy of that run (a long table)."""
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.4, stratify=y, random_state=0
    )
    rows = []
    for name, options in SETTINGS.items():
        for seed in SEEDS[name]:
            forest = RandomForestClassifier(random_state=seed, max_features=0.2, **options)
            accuracy = forest.fit(X_train, y_train).score(X_test, y_test)
            rows.append({"model": name, "seed": seed, "accuracy": accuracy})
    return pd.DataFrame(rows)


def main(folder: str | Path | None = None) -> dict:
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)

    long = training_runs()
    # A runs frame: models as rows, one column per seed, paired=False in its design.
    runs = pdcompare.from_long(long, split="seed", score="accuracy", paired=False)
    summary = runs.cmp.summary()
    welch = runs.cmp.pairwise(test="welch_ttest")
    mannwhitney = runs.cmp.pairwise(test="mannwhitney")
    aso = runs.cmp.pairwise(test="aso", random_state=0)
    with pd.option_context("display.width", 160, "display.max_columns", 20):
        print(summary.round(4))
        print()
        print(welch[["model_1", "model_2", "mean_diff", "statistic", "df", "pvalue_adj"]].round(4))
        print()
        print(mannwhitney[["model_1", "model_2", "statistic", "pvalue_adj"]].round(4))
        print()
        print(aso.round(4))
    for row in aso.itertuples():
        verdict = "almost always beats" if row.reject else "is not shown to almost always beat"
        print(f"{row.model_1} {verdict} {row.model_2} (eps_min {row.eps_min:.3f} vs tau 0.2)")

    ax = runs.cmp.plot("runs", xlabel="test accuracy")
    path = folder / "training_runs.png"
    ax.figure.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(ax.figure)
    print(f"figure: {path}")
    return {
        "long": long,
        "runs": runs,
        "summary": summary,
        "welch": welch,
        "mannwhitney": mannwhitney,
        "aso": aso,
        "figure": path,
    }


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)

"""Racing inside a search: dropping the clear losers early
=======================================================

A grid of 24 decision trees on scikit-learn's digits (``max_depth`` times
``min_samples_leaf``), 10-fold stratified CV. ``pdcompare.RaceSearchCV`` fits
the candidates split by split and, from the fifth split on, drops every
candidate the one-sided corrected t-test finds worse than the current best
(Holm over the others, times the number still running, at 0.05 spent over
the six looks): the chance of ever dropping a candidate as good as the best
is at most 5 % over the race. ``GridSearchCV`` on the same splits fits every
candidate on every split; the two searches end with the same best.

``race_`` says when and why each candidate left; ``pdcompare.from_search``
gives the scores of the candidates still running (they ran every split) to
the rest of pdcompare (the report, once the candidates that grow the same tree
are kept once); ``pdcompare.plot`` draws the race. The figure is saved
to the folder given on the command line (a new temporary folder by
default). Runs headless.

Run: ``python examples/racing_search.py [FOLDER]``.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.datasets import load_digits
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

import pdcompare

CV = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
GRID = {"max_depth": [1, 2, 3, 4, 6, 8, 12, None], "min_samples_leaf": [1, 5, 20]}


def main(folder: str | Path | None = None) -> dict:
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)
    X, y = load_digits(return_X_y=True)
    tree = DecisionTreeClassifier(random_state=0)

    race = pdcompare.RaceSearchCV(tree, GRID, cv=CV).fit(X, y)
    grid = GridSearchCV(tree, GRID, cv=CV).fit(X, y)

    results = race.cv_results_
    fits = int(sum(np.isfinite(results[f"split{k}_test_score"]).sum() for k in range(10)))
    print(f"The race fitted {fits} of the grid's {len(GRID['max_depth']) * 3 * 10} fits.")
    print(f"Best: race {race.best_params_}, grid {grid.best_params_}")

    left = race.race_[race.race_["dropped_at"].notna()]
    why = pd.DataFrame(
        {
            "candidate": [str(p) for p in left["params"]],
            "dropped_at": left["dropped_at"].astype(int),
            "p_adj": left["pvalue_adj"].round(5),
        }
    )
    with pd.option_context("display.width", 120, "display.max_colwidth", 60):
        print(why.to_string(index=False))

    scores = pdcompare.from_search(race)  # the candidates still running, on all 10 splits
    # With 20 samples a leaf, trees of depth 8, 12 and unlimited are the same tree: keep one.
    scores = scores[~scores.duplicated()]
    print()
    print(pdcompare.report(scores))

    ax = pdcompare.plot(race)
    figure = folder / "race.png"
    ax.figure.savefig(figure, dpi=100)
    plt.close(ax.figure)
    return {"race": race, "grid": grid, "scores": scores, "fits": fits, "figure": figure}


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)

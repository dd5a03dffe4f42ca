"""Choosing the simplest model the evidence cannot tell from the best
===================================================================

A grid search over the inverse regularisation strength ``C`` of a logistic
regression on the breast-cancer data, 10-fold cross-validated. The grid search
keeps the best mean; ``select`` applies four rules to the same scores:

- ``best``: scikit-learn's default, the highest mean;
- ``one_se``: the simplest model within one Nadeau–Bengio corrected standard
  error of the best (Breiman's rule made honest for CV);
- ``not_worse``: the simplest model the one-sided corrected t-test does not
  find worse than the best;
- ``equivalent``: the simplest model the correlated Bayesian t-test finds
  practically equivalent to the best (ROPE of half a point of accuracy).

Smaller ``C`` means stronger regularisation: a simpler model. The same choice
refits the search itself with ``refit=pdcompare.refit_rule(...)``. The figure of
the one-SE choice is saved to the folder given on the command line (a new
temporary folder by default). Runs headless.

Run: ``python examples/choose_simplest.py [FOLDER]``.
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
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import pdcompare

CV = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
GRID = {"logisticregression__C": np.logspace(-3, 2, 11)}
RULES = ("best", "one_se", "not_worse", "equivalent")
ROPE = 0.005


def search(refit=True) -> GridSearchCV:
    """The grid search, refitted with ``refit`` (True: the best mean)."""
    X, y = load_breast_cancer(return_X_y=True)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000))
    return GridSearchCV(model, GRID, cv=CV, scoring="accuracy", refit=refit).fit(X, y)


def main(folder: str | Path | None = None) -> dict:
    folder = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)

    fitted = search()
    scores = pdcompare.from_search(fitted)
    choices = {rule: scores.cmp.select(rule, by="C", rope=ROPE) for rule in RULES}
    table = pd.DataFrame(
        {
            rule: [result.attrs["pdcompare"]["selected"], result.attrs["pdcompare"]["reason"]]
            for rule, result in choices.items()
        },
        index=["selected", "why"],
    ).T
    with pd.option_context("display.max_colwidth", 120, "display.width", 160):
        print(table)
    print()
    print(choices["one_se"][["mean", "diff_to_best", "eligible", "selected"]].round(4))

    refitted = search(refit=pdcompare.refit_rule("one_se", by="C", cv=CV))
    print(f"\nGridSearchCV(refit=refit_rule('one_se')).best_params_ = {refitted.best_params_}")

    ax = choices["one_se"].cmp.plot()
    path = folder / "choose_simplest.png"
    ax.figure.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(ax.figure)
    print(f"figure: {path}")
    return {"scores": scores, "choices": choices, "refitted": refitted, "figure": path}


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)

"""Bootstrap on out-of-fold predictions, CompStats style: is the forest really better?
===================================================================================

Breast cancer data; a random forest and Gaussian naive Bayes, each predicting
every sample once by 10-fold cross-validation (``cross_val_predict``). On
those predictions, macro recall gets a bootstrap confidence interval per model
and the paired bootstrap of the difference against the best model gives an
interval and a p-value. Both figures are saved to the folder given on the
command line (a new temporary folder by default). Runs headless.

Run: ``python examples/bootstrap_competition.py [FOLDER]``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB

import pdcompare  # noqa: F401  (registers DataFrame.cmp)


def out_of_fold_predictions() -> pd.DataFrame:
    """One row per sample: the truth and each model's out-of-fold prediction."""
    X, y = load_breast_cancer(return_X_y=True)
    cv = StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    models = {
        "random_forest": RandomForestClassifier(n_estimators=50, random_state=0),
        "naive_bayes": GaussianNB(),
    }
    predictions = {name: cross_val_predict(model, X, y, cv=cv) for name, model in models.items()}
    return pd.DataFrame({"y": y, **predictions})


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description="Bootstrap on out-of-fold predictions.")
    parser.add_argument("folder", nargs="?", help="where to save the figures (default: temp)")
    args = parser.parse_args(argv)
    folder = Path(args.folder) if args.folder else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)

    predictions = out_of_fold_predictions()
    intervals = predictions.cmp.bootstrap("recall_macro", n_resamples=2000, random_state=0)
    difference = predictions.cmp.bootstrap_diff(
        score="recall_macro", n_resamples=2000, random_state=0
    )
    print("Macro recall, 95% percentile bootstrap intervals (2000 resamples):")
    print(intervals.round(4).to_string())
    print()
    print("Best model against the other (paired bootstrap of the difference):")
    print(difference.round(4).to_string(index=False))
    row = difference.iloc[0]
    print(
        f"\n{row['model_1']} beats {row['model_2']} by {row['mean_diff']:.4f} macro recall "
        f"(95% CI {row['ci_low']:.4f} to {row['ci_high']:.4f}); share of resamples against "
        f"it, doubled: p = {row['pvalue']:.4f}."
    )

    figures = {}
    for name, result in (("intervals", intervals), ("difference", difference)):
        fig, ax = plt.subplots(figsize=(6, 2.5))
        result.cmp.plot(ax=ax)
        fig.tight_layout()
        path = folder / f"bootstrap_{name}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        figures[name] = path
    print(f"Figures saved in {folder}")
    return {"intervals": intervals, "difference": difference, "figures": figures}


if __name__ == "__main__":
    main()

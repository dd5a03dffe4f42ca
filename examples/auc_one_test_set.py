"""One test set of scores: DeLong's test of ROC AUCs and the permutation test
===========================================================================

Breast cancer data; a logistic regression, Gaussian naive Bayes and a shallow
tree, fitted on 60 % of the samples and scoring the other 40 %, one held-out
test set (the probability of the positive class). On those scores, each model's ROC AUC gets
DeLong's interval (``auc_ci``), the best model is compared with the others by
DeLong's test of correlated AUCs (``delong``), and average precision, a score
of the whole sample, by the paired permutation test (``permutation_test``).
The two figures are saved to the folder given on the command line (a new
temporary folder by default). Runs headless.

DeLong's test answers for these test samples, scored by one fitted model
each. Out-of-fold predictions (``cv_predictions``) mix the models fitted on
every fold in one column, so ``delong`` warns on them: to compare AUCs over CV
folds, put them in a scores frame and use ``corrected_ttest``.

Run: ``python examples/auc_one_test_set.py [FOLDER]``.
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
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

import pdcompare  # noqa: F401  (registers DataFrame.cmp)


def held_out_scores() -> pd.DataFrame:
    """One row per test sample: the truth and each model's probability of class 1."""
    X, y = load_breast_cancer(return_X_y=True)
    models = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression()),
        "naive_bayes": GaussianNB(),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
    }
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=0.4, stratify=y, random_state=0
    )
    scores = {
        name: model.fit(X_train, y_train).predict_proba(X_test)[:, 1]
        for name, model in models.items()
    }
    return pd.DataFrame({"y": y_test, **scores})


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description="DeLong's test on one held-out test set.")
    parser.add_argument("folder", nargs="?", help="where to save the figures (default: temp)")
    args = parser.parse_args(argv)
    folder = Path(args.folder) if args.folder else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)

    scores = held_out_scores()
    intervals = scores.cmp.auc_ci()
    delong = scores.cmp.delong()
    permutation = scores.cmp.permutation_test(score="average_precision", random_state=0)
    print("ROC AUC with DeLong's 95% interval:")
    print(intervals.round(4).to_string())
    print("\nDeLong's test, the best model against the others (Holm):")
    print(delong.round(4).to_string(index=False))
    print("\nAverage precision, paired permutation test (9999 resamples, Holm):")
    print(permutation.round(4).to_string(index=False))
    row = delong.iloc[0]
    print(
        f"\n{row['model_1']} has AUC {row['auc_1']:.4f} against {row['auc_2']:.4f} for "
        f"{row['model_2']}: z = {row['statistic']:.2f}, p = {row['pvalue']:.4f}."
    )

    figures = {}
    for name, result in (("auc_intervals", intervals), ("delong", delong)):
        fig = result.cmp.plot().figure  # a new figure sized to its content
        path = folder / f"{name}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        figures[name] = path
    print(f"Figures saved in {folder}")
    return {
        "scores": scores,
        "intervals": intervals,
        "delong": delong,
        "permutation": permutation,
        "figures": figures,
    }


if __name__ == "__main__":
    main()

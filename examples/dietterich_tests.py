"""Dietterich's tests, side by side: is a random forest better than 1-nearest-neighbour on wine?

Dietterich (1998) compared the tests practitioners use to tell two classifiers
apart; Alpaydin (1999) and Nadeau & Bengio (2003) added the combined 5x2cv F
and the corrected resampled t-test. Every one of them is a pdcompare call:

- one holdout split, predictions frame: McNemar's test and the two-proportion
  z-test (the latter is the one Dietterich warns about);
- 30 random holdouts (``ShuffleSplit``), scores frame: the *resampled paired
  t-test* is ``ttest``; ``corrected_ttest`` is its Nadeau-Bengio correction;
- 10-fold cross-validation: the *k-fold cross-validated paired t-test* is
  ``ttest`` again, ``corrected_ttest`` its correction;
- 5 x 2-fold cross-validation: Dietterich's 5x2cv t-test and Alpaydin's 5x2cv
  F-test.

The plain t-tests treat overlapping training sets as independent experiments,
so their p-values are too small; compare them with the corrected ones.

Run: ``python examples/dietterich_tests.py`` (headless, a few seconds).
"""

from __future__ import annotations

import pandas as pd
from sklearn.datasets import load_wine
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import (
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    train_test_split,
)
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import pdcompare


def models():
    return {
        "forest": RandomForestClassifier(n_estimators=50, random_state=42),
        "1-nn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=1)),
    }


def line(name: str, result: pd.DataFrame) -> str:
    row = result.iloc[0]
    return f"{name:<44} statistic = {row['statistic']:8.3f}   p = {row['pvalue']:.4f}"


def holdout(X, y) -> list[str]:
    """One train/test split: tests on the predictions of the test set."""
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=1 / 3, stratify=y, random_state=0
    )
    preds = pd.DataFrame({"y": y_test})
    for name, model in models().items():
        preds[name] = model.fit(X_train, y_train).predict(X_test)
    mcnemar = preds.cmp.mcnemar("forest", "1-nn")
    counts = mcnemar.iloc[0]
    return [
        f"holdout of {len(preds)} samples: only the forest right on "
        f"{counts['only_1_correct']}, only 1-nn right on {counts['only_2_correct']}",
        line("McNemar (holdout)", mcnemar),
        line(
            "two-proportion z (holdout; not advised)",
            preds.cmp.proportions_ztest("forest", "1-nn"),
        ),
    ]


def resampled(X, y, cv, label: str) -> list[str]:
    """Scores on the same splits for both models: plain and corrected paired t-tests."""
    scores = pdcompare.cv_scores(models(), X, y, cv=cv)
    return [
        line(f"{label} paired t (ttest)", scores.cmp.ttest("forest", "1-nn")),
        line(
            f"{label} corrected t (corrected_ttest)", scores.cmp.corrected_ttest("forest", "1-nn")
        ),
    ]


def five_by_two(X, y) -> list[str]:
    cv = RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=0)
    scores = pdcompare.cv_scores(models(), X, y, cv=cv)  # repeat-major: r1f1, r1f2, r2f1, ...
    return [
        line("5x2cv paired t (ttest_5x2cv)", scores.cmp.ttest_5x2cv("forest", "1-nn")),
        line("5x2cv combined F (ftest_5x2cv)", scores.cmp.ftest_5x2cv("forest", "1-nn")),
    ]


def main() -> None:
    X, y = load_wine(return_X_y=True)
    lines = holdout(X, y)
    lines += resampled(
        X, y, ShuffleSplit(n_splits=30, test_size=1 / 3, random_state=0), "resampled"
    )
    lines += resampled(X, y, StratifiedKFold(n_splits=10, shuffle=True, random_state=0), "10-fold")
    lines += five_by_two(X, y)
    print("\n".join(lines))


if __name__ == "__main__":
    main()

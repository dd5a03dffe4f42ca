"""Dietterich's tests, side by side: is a random forest better than 1-nearest-neighbour on wine?
=============================================================================================

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

import warnings

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


def holdout_predictions(X, y) -> pd.DataFrame:
    """One train/test split: the truth and each model's predictions on the test third."""
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=1 / 3, stratify=y, random_state=0
    )
    preds = pd.DataFrame({"y": y_test})
    for name, model in models().items():
        preds[name] = model.fit(X_train, y_train).predict(X_test)
    return preds


def main() -> dict:
    X, y = load_wine(return_X_y=True)
    preds = holdout_predictions(X, y)
    # The same splits for both models (paired), design attached for corrected_ttest.
    holdouts = pdcompare.cv_scores(
        models(), X, y, cv=ShuffleSplit(n_splits=30, test_size=1 / 3, random_state=0)
    )
    kfold = pdcompare.cv_scores(
        models(), X, y, cv=StratifiedKFold(n_splits=10, shuffle=True, random_state=0)
    )
    # RepeatedStratifiedKFold yields repeat-major splits: r1f1, r1f2, r2f1, ...
    five_by_two = pdcompare.cv_scores(
        models(), X, y, cv=RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=0)
    )
    a, b = "forest", "1-nn"
    # The plain t-test on overlapping holdouts is Dietterich's example of what not to
    # do: pdcompare says so with a warning, shown here.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", pdcompare.PdcompareWarning)
        resampled = holdouts.cmp.ttest(a, b)
    results = {
        "McNemar (holdout)": preds.cmp.mcnemar(a, b),
        "two-proportion z (holdout; not advised)": preds.cmp.proportions_ztest(a, b),
        "resampled paired t (ttest, 30 holdouts)": resampled,
        "resampled corrected t (corrected_ttest)": holdouts.cmp.corrected_ttest(a, b),
        "10-fold paired t (ttest)": kfold.cmp.ttest(a, b),
        "10-fold corrected t (corrected_ttest)": kfold.cmp.corrected_ttest(a, b),
        "5x2cv paired t (ttest_5x2cv)": five_by_two.cmp.ttest_5x2cv(a, b),
        "5x2cv combined F (ftest_5x2cv)": five_by_two.cmp.ftest_5x2cv(a, b),
    }
    counts = results["McNemar (holdout)"].iloc[0]
    print(
        f"Holdout of {len(preds)} samples: only the forest is right on "
        f"{counts['only_1_correct']}, only 1-nn on {counts['only_2_correct']}."
    )
    for name, result in results.items():
        row = result.iloc[0]
        print(f"{name:<42} statistic = {row['statistic']:8.3f}   p = {row['pvalue']:.4f}")
    for warning in caught:
        print(f"\npdcompare warned: {warning.message}")
    return {
        "predictions": preds,
        "holdouts": holdouts,
        "kfold": kfold,
        "five_by_two": five_by_two,
        "results": results,
    }


if __name__ == "__main__":
    main()

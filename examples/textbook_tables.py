"""The textbook tables of a model comparison, each one ``matrix()`` of a pairwise result
=====================================================================================

Three classifiers (Gaussian naive Bayes, k-nearest neighbours, CART) are
cross-validated on the same splits of 10 times repeated stratified 10-fold CV
(``pdcompare.cv_scores``) on scikit-learn's wine data, where k-NN without
feature scaling is weak. The corrected resampled t-test (Nadeau & Bengio 2003;
Bouckaert & Frank 2004) of every pair
then gives the five tables of the textbook approach, row model minus column
model:

- the t-statistic,
- the p-value (two-sided, no correction, as in the textbooks; pass
  ``correction="holm"`` to ``pairwise`` for the family-wise version),
- the advantage (mean difference of accuracy),
- the significance (the hypothesis of no difference rejected at 5%),
- "significantly better": the row model beats the column model significantly.

Run: ``python examples/textbook_tables.py``.
"""

from __future__ import annotations

import pandas as pd
from sklearn.datasets import load_wine
from sklearn.model_selection import RepeatedStratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

import pdcompare


def main() -> dict[str, pd.DataFrame]:
    X, y = load_wine(return_X_y=True)
    estimators = {
        "naive_bayes": GaussianNB(),
        "knn": KNeighborsClassifier(),
        "cart": DecisionTreeClassifier(random_state=0),
    }
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    scores = pdcompare.cv_scores(estimators, X, y, cv=cv, scoring="accuracy")
    print("Accuracy over 10 x 10-fold CV:")
    print(scores.cmp.summary().round(4), end="\n\n")

    result = scores.cmp.pairwise(test="corrected_ttest", correction=None, alpha=0.05)
    advantage = result.cmp.matrix("mean_diff")
    significant = result.cmp.matrix("reject")
    tables = {
        "t-statistic": result.cmp.matrix("statistic"),
        "p-value": result.cmp.matrix("pvalue"),
        "advantage": advantage,
        "significance": significant,
        # Row significantly better than column: a rejected test and a positive advantage.
        "significantly better": significant & (advantage > 0),
    }
    tables["scores"] = scores
    tables["result"] = result
    for name in ("t-statistic", "p-value", "advantage", "significance", "significantly better"):
        table = tables[name]
        print(f"{name} (row model vs column model):")
        if name == "p-value":
            # Tiny p-values print as "<0.0001" rather than a misleading 0.0.
            table = table.map(
                lambda p: "" if pd.isna(p) else "<0.0001" if p < 0.00005 else f"{p:.4f}"
            )
        elif name not in ("significance", "significantly better"):
            table = table.round(4)
        print(table)
        print()
    return tables


if __name__ == "__main__":
    main()

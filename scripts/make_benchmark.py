"""Regenerate pdcompare/datasets/data/benchmark.csv with scikit-learn.

A small benchmark for the several-data-sets comparisons (DESIGN.md section 9):
the 10-fold stratified cross-validated accuracy of 7 scikit-learn classifiers
on 22 data sets. The data sets are the four that scikit-learn ships in the
package (iris, wine, breast_cancer, digits: nothing is downloaded) and 18
generated ones (make_classification with varied size, dimension, class
separation, label noise and number of classes; make_moons, make_circles,
make_gaussian_quantiles), so that different models win on different data sets.

Every model sees the same 10 splits of a data set:
``StratifiedKFold(n_splits=10, shuffle=True, random_state=0).split(X, y)``,
computed once per data set and passed to ``cross_val_score`` as an explicit
list. Models with a ``random_state`` get 0; the generated data sets are seeded.
The output is a long table, one row per model x data set x split, with the
scores written as exact float text (``%.17g``). Runs in about a minute on two
cores. Run: python scripts/make_benchmark.py
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn import datasets
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

OUT = Path(__file__).resolve().parents[1] / "pdcompare" / "datasets" / "data"

N_FOLDS = 10


def models() -> dict:
    """The classifiers, by the name used in the table (scaled where the model needs it)."""
    return {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        "lda": LinearDiscriminantAnalysis(),
        "naive_bayes": GaussianNB(),
        "knn": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5)),
        "tree": DecisionTreeClassifier(random_state=0),
        "forest": RandomForestClassifier(n_estimators=50, random_state=0),
        "svc_rbf": make_pipeline(StandardScaler(), SVC(kernel="rbf")),
    }


def classification(name, n_samples, n_features, n_informative, *, seed, **options):
    """A ``make_classification`` data set (no redundant features unless asked)."""
    options.setdefault("n_redundant", 0)
    X, y = datasets.make_classification(
        n_samples=n_samples,
        n_features=n_features,
        n_informative=n_informative,
        random_state=seed,
        **options,
    )
    return name, X, y


def data_sets() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """The 22 data sets, in table order: the shipped ones first, then the generated ones."""
    shipped = [
        ("iris", *datasets.load_iris(return_X_y=True)),
        ("wine", *datasets.load_wine(return_X_y=True)),
        ("breast_cancer", *datasets.load_breast_cancer(return_X_y=True)),
        ("digits", *datasets.load_digits(return_X_y=True)),
    ]
    generated = [
        classification("clf_easy", 300, 10, 4, seed=1, class_sep=2.0),
        classification("clf_hard", 300, 10, 4, seed=2, class_sep=0.5),
        classification("clf_noisy", 400, 20, 5, seed=3, flip_y=0.2),
        classification("clf_small", 100, 5, 3, seed=4),
        classification("clf_wide", 150, 60, 6, seed=5, n_redundant=10),
        classification("clf_redundant", 500, 30, 4, seed=6, n_redundant=20),
        classification("clf_3class", 450, 12, 6, seed=7, n_classes=3),
        classification("clf_4class", 600, 16, 8, seed=8, n_classes=4, class_sep=0.8),
        classification("clf_multimodal", 500, 8, 6, seed=9, n_clusters_per_class=4),
        classification("clf_imbalanced", 500, 10, 5, seed=10, weights=[0.85, 0.15]),
        classification("clf_large", 1500, 20, 10, seed=11, flip_y=0.05, class_sep=0.7),
        classification("clf_repeated", 300, 15, 3, seed=12, n_repeated=6, flip_y=0.1),
        ("moons_low_noise", *datasets.make_moons(n_samples=200, noise=0.15, random_state=13)),
        ("moons_high_noise", *datasets.make_moons(n_samples=300, noise=0.35, random_state=14)),
        (
            "circles",
            *datasets.make_circles(n_samples=300, noise=0.1, factor=0.5, random_state=15),
        ),
        (
            "circles_noisy",
            *datasets.make_circles(n_samples=400, noise=0.2, factor=0.6, random_state=16),
        ),
        (
            "quantiles",
            *datasets.make_gaussian_quantiles(
                n_samples=400, n_features=4, n_classes=3, random_state=17
            ),
        ),
        ("hastie", *datasets.make_hastie_10_2(n_samples=800, random_state=18)),
    ]
    return shipped + generated


def main() -> None:
    started = time.perf_counter()
    rows = []
    for dataset, X, y in data_sets():
        cv = StratifiedKFold(n_splits=N_FOLDS, shuffle=True, random_state=0)
        splits = list(cv.split(X, y))  # the same splits for every model
        for model, estimator in models().items():
            scores = cross_val_score(estimator, X, y, cv=splits, scoring="accuracy")
            rows += [
                (model, dataset, f"split{k}", float(score)) for k, score in enumerate(scores)
            ]
        print(f"{dataset:>18}  {X.shape[0]:>5} x {X.shape[1]:<3}"
              f"  {time.perf_counter() - started:6.1f} s", flush=True)
    table = pd.DataFrame(rows, columns=["model", "dataset", "split", "score"])
    OUT.mkdir(parents=True, exist_ok=True)
    table.to_csv(OUT / "benchmark.csv", index=False, float_format="%.17g")
    means = table.pivot_table(index="model", columns="dataset", values="score", sort=False)
    print(means.round(3).T.to_string())
    print(f"{len(table)} rows in {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()

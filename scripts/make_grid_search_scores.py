"""Regenerate pdcompare/datasets/data/grid_search_scores.csv with scikit-learn.

The scikit-learn gallery example "Statistical comparison of models using grid
search": make_moons(noise=0.352, random_state=1, n_samples=100), SVC(random_state=0)
with kernels linear, poly (degree 2 and 3) and rbf, 10x10 repeated stratified
CV (random_state=0), ROC AUC. Run: python scripts/make_grid_search_scores.py
"""

from pathlib import Path

from sklearn.datasets import make_moons
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.svm import SVC

import pdcompare

OUT = Path(__file__).resolve().parents[1] / "pdcompare" / "datasets" / "data"


def gallery_name(params: dict) -> str:
    # The gallery's names: "rbf", "linear", "2_poly", "3_poly".
    return "_".join(str(v) for v in params.values())


def main() -> None:
    X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
    grid = [
        {"kernel": ["linear"]},
        {"kernel": ["poly"], "degree": [2, 3]},
        {"kernel": ["rbf"]},
    ]
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    search = GridSearchCV(SVC(random_state=0), grid, scoring="roc_auc", cv=cv).fit(X, y)
    scores = pdcompare.from_search(search, names=gallery_name)
    scores = scores.loc[scores.mean(axis=1).sort_values(ascending=False).index]
    OUT.mkdir(parents=True, exist_ok=True)
    scores.to_csv(OUT / "grid_search_scores.csv", float_format="%.17g")
    print(scores.mean(axis=1).round(4))


if __name__ == "__main__":
    main()

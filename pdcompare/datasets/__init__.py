"""Data sets shipped with pdcompare."""

from __future__ import annotations

from importlib import resources

import pandas as pd

from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.design import Design
from pdcompare.inputs.files import read_csv

__all__ = ["load_grid_search_scores"]


def load_grid_search_scores() -> pd.DataFrame:
    """Fold scores of the scikit-learn gallery example on comparing models from a grid search.

    Four SVC kernels (``rbf``, ``linear``, ``3_poly``, ``2_poly``) x 100 splits
    of 10x10 repeated stratified cross-validation on ``make_moons(noise=0.352,
    random_state=1, n_samples=100)``, scored by ROC AUC. Each split trains on
    90 samples and tests on 10; that design is attached, so corrected tests
    need no keyword. Regenerate with ``scripts/make_grid_search_scores.py``.

    Returns
    -------
    pandas.DataFrame
        4 x 100 scores frame, models as rows (best first), with
        ``attrs["pdcompare"]["design"]``.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> scores = load_grid_search_scores()
    >>> scores.shape
    (4, 100)
    >>> scores.mean(axis=1).round(4).to_dict()
    {'rbf': 0.94, 'linear': 0.93, '3_poly': 0.9044, '2_poly': 0.6852}
    """
    path = resources.files("pdcompare.datasets") / "data" / "grid_search_scores.csv"
    with resources.as_file(path) as csv:
        scores = read_csv(csv, index_col="model")
    scores.columns.name = "split"
    design = Design(
        test_train_ratio=10 / 90,
        n_train=90.0,
        n_test=10.0,
        source="cv=RepeatedStratifiedKFold(n_splits=10, n_repeats=10)",
    )
    return with_attrs(scores, {"design": design.to_attrs()})

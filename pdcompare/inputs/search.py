"""Scores frames from a fitted scikit-learn search."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from pdcompare.inputs.attrs import pdcompare_attrs, with_attrs
from pdcompare.inputs.cv_results import cv_results_to_scores
from pdcompare.inputs.design import design_from_cv


def from_search(
    search: Any,
    *,
    metric: str | None = None,
    names: Callable[[dict], str] | Sequence[str] | None = None,
    iteration: int | None = None,
) -> pd.DataFrame:
    """Scores frame of a fitted scikit-learn search, with its CV design attached.

    Parameters
    ----------
    search : GridSearchCV, RandomizedSearchCV, HalvingGridSearchCV, ...
        A fitted search (duck-typed: anything with ``cv_results_`` and ``cv``).
    metric : str, optional
        The metric of a multi-metric search (the key of its ``scoring`` dict).
        By default the one the search refits on, when its ``refit`` names one;
        ``attrs["pdcompare"]["metric"]`` then holds its name and
        ``attrs["pdcompare"]["metric_source"]`` is ``"refit"`` (``"metric"``
        when given here).
    names : callable or list of str, optional
        Model names: a function of the parameter dict, or one name per candidate.
        By default, the parameters that vary, kept short.
    iteration : int, optional
        The iteration of a successive-halving search to compare: by default
        the last with at least two candidates. Candidates of different
        iterations were fitted on different resources and are never paired.

    Returns
    -------
    pandas.DataFrame
        One row per candidate, one column per split; the design (from
        ``search.cv``, None meaning scikit-learn's default 5-fold) is stored in
        ``attrs["pdcompare"]["design"]``, each model's parameters in
        ``attrs["pdcompare"]["params"]`` and its row of ``cv_results_`` in
        ``attrs["pdcompare"]["rows"]``.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.model_selection import GridSearchCV
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = make_classification(n_samples=60, random_state=0)
    >>> search = GridSearchCV(DecisionTreeClassifier(random_state=0),
    ...                       {"max_depth": [1, 3]}, cv=4).fit(X, y)
    >>> scores = from_search(search)
    >>> list(scores.index), scores.shape
    (['max_depth=1', 'max_depth=3'], (2, 4))
    >>> round(scores.attrs["pdcompare"]["design"]["test_train_ratio"], 4)
    0.3333
    """
    if not hasattr(search, "cv_results_"):
        msg = (
            f"`search` must be a fitted scikit-learn search with `cv_results_`; got "
            f"{type(search).__name__}. Call `.fit(X, y)` first."
        )
        raise TypeError(msg)
    frame = pd.DataFrame(search.cv_results_)
    chosen: dict[str, str] = {}
    refit = getattr(search, "refit", None)
    if metric is not None:
        chosen = {"metric": metric, "metric_source": "metric"}
    elif isinstance(refit, str):  # a multi-metric search refits on the metric it names
        metric = refit
        chosen = {"metric": metric, "metric_source": "refit"}
    scores = cv_results_to_scores(frame, metric=metric, names=names, iteration=iteration)
    cv = getattr(search, "cv", None)
    design = design_from_cv(5 if cv is None else cv)
    return with_attrs(scores, {**pdcompare_attrs(scores), **chosen, "design": design.to_attrs()})

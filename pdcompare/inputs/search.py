"""Scores frames from scikit-learn: a fitted search, or every estimator on the same splits."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from pdcompare.inputs.attrs import pdcompare_attrs, with_attrs
from pdcompare.inputs.cv_results import cv_results_to_scores
from pdcompare.inputs.design import Design, design_from_cv, explicit_splits_design


def _attach_design(scores: pd.DataFrame, design: Design) -> pd.DataFrame:
    return with_attrs(scores, {"design": design.to_attrs()})


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
    scores = cv_results_to_scores(frame, metric=metric, names=names, iteration=iteration)
    cv = getattr(search, "cv", None)
    design = design_from_cv(5 if cv is None else cv)
    return with_attrs(scores, {**pdcompare_attrs(scores), "design": design.to_attrs()})


def cv_scores(
    estimators: dict[str, Any],
    X: Any,
    y: Any,
    *,
    cv: Any,
    scoring: Any = None,
    groups: Any = None,
    n_jobs: int | None = None,
) -> pd.DataFrame:
    """Cross-validate every estimator on the same splits: the paired experiment.

    Needs scikit-learn (``pip install pdcompare[sklearn]``). The splits are drawn
    once and every estimator is fitted and scored on exactly those splits, as
    every test of pdcompare assumes.

    Parameters
    ----------
    estimators : dict of str to estimator
        The models to compare, by name.
    X, y : array-like
        Data and target.
    cv : int or scikit-learn splitter
        As in ``cross_val_score``; an int means (stratified, for classifiers) k-fold.
    scoring : str or callable, optional
        One scikit-learn scorer (default: the estimator's ``score``).
    groups : array-like, optional
        Group labels for group splitters.
    n_jobs : int, optional
        Parallel jobs for ``cross_val_score``.

    Returns
    -------
    pandas.DataFrame
        One row per estimator, one column per split, with the design (the
        splits' real mean train and test sizes) in ``attrs["pdcompare"]``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> scores = cv_scores({"logreg": LogisticRegression(max_iter=1000),
    ...                     "tree": DecisionTreeClassifier(random_state=0)}, X, y, cv=5)
    >>> scores.shape
    (2, 5)
    >>> scores.attrs["pdcompare"]["design"]["n_test"]
    30.0
    """
    try:
        from sklearn.base import is_classifier
        from sklearn.model_selection import check_cv, cross_val_score
    except ImportError:  # pragma: no cover - exercised without the extra only
        msg = "`cv_scores` needs scikit-learn: pip install 'pdcompare[sklearn]'."
        raise ImportError(msg) from None
    if not isinstance(estimators, dict) or not estimators:
        msg = "`estimators` must be a non-empty dict {name: estimator}."
        raise TypeError(msg)
    design_from_cv(cv)  # reject splitters whose design is unknowable before fitting anything
    first = next(iter(estimators.values()))
    splitter = check_cv(cv, y, classifier=is_classifier(first))
    splits = list(splitter.split(X, y, groups))
    rows = {
        name: cross_val_score(estimator, X, y, cv=splits, scoring=scoring, n_jobs=n_jobs)
        for name, estimator in estimators.items()
    }
    scores = pd.DataFrame.from_dict(rows, orient="index")
    scores.index.name = "model"
    scores.columns = pd.Index([f"split{i}" for i in range(len(splits))], name="split")
    design = explicit_splits_design(splits, "")
    source = design_from_cv(cv).source
    return _attach_design(scores, Design(**{**design.to_attrs(), "source": source}))

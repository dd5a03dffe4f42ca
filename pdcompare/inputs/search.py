"""Scores frames from a fitted scikit-learn search."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.attrs import pdcompare_attrs, with_attrs
from pdcompare.inputs.cv_results import cv_results_to_scores
from pdcompare.inputs.design import splitter_design


def from_search(
    search: Any,
    *,
    metric: str | None = None,
    names: Callable[[dict], str] | Sequence[str] | None = None,
    iteration: int | None = None,
    test_size: float | None = None,
    n_train: int | None = None,
    n_test: int | None = None,
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
    test_size : float, optional
        Fraction of the data in each test split: supplies the test/train
        ratio for a splitter that does not fix it (``PredefinedSplit`` with
        folds of unknown size, any splitter pdcompare cannot read).
    n_train, n_test : int, optional
        Training and test set sizes, together: the same, as counts.

    Returns
    -------
    pandas.DataFrame
        One row per candidate, one column per split; the design (from
        ``search.cv``, None meaning scikit-learn's default 5-fold) is stored in
        ``attrs["pdcompare"]["design"]``, each model's parameters in
        ``attrs["pdcompare"]["params"]`` and its row of ``cv_results_`` in
        ``attrs["pdcompare"]["rows"]``. Of a race
        (:class:`pdcompare.RaceSearchCV`, ``cv_results_`` with ``dropped_at``)
        only the candidates still running at the end are rows: they ran
        every split; ``attrs["pdcompare"]["race"]`` counts the ``dropped``
        and ``running`` candidates.

    Notes
    -----
    Splitters whose test/train ratio is not fixed load too: a
    ``TimeSeriesSplit`` search gives a *time-ordered* design (its expanding
    windows have no Nadeau–Bengio correction, so ``corrected_ttest`` and
    ``bayes`` refuse it and point to :func:`diebold_mariano` on the
    out-of-sample predictions); ``LeaveOneOut`` gives the ratio ``1/(n − 1)``
    with ``n`` the number of splits; ``PredefinedSplit`` the mean sizes of
    its folds.

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
    race: dict[str, Any] = {}
    if "dropped_at" in frame.columns:  # a race (pdcompare.RaceSearchCV): the candidates left
        running = frame["dropped_at"].isna().to_numpy()
        race = {"race": {"dropped": int((~running).sum()), "running": int(running.sum())}}
        kept = np.flatnonzero(running)
        if names is not None and not callable(names) and len(names) == len(frame):
            names = [names[row] for row in kept]  # one name per candidate of the search
        frame = frame.iloc[kept].reset_index(drop=True)
    chosen: dict[str, str] = {}
    refit = getattr(search, "refit", None)
    if metric is not None:
        chosen = {"metric": metric, "metric_source": "metric"}
    elif isinstance(refit, str):  # a multi-metric search refits on the metric it names
        metric = refit
        chosen = {"metric": metric, "metric_source": "refit"}
    scores = cv_results_to_scores(frame, metric=metric, names=names, iteration=iteration)
    if race:
        meta = pdcompare_attrs(scores)
        meta["rows"] = kept[meta["rows"]].tolist()  # rows of the search's cv_results_
        scores = with_attrs(scores, meta)
    cv = getattr(search, "cv", None)
    design = splitter_design(
        5 if cv is None else cv,
        n_samples=scores.shape[1],  # LeaveOneOut: one split per sample
        test_size=test_size,
        n_train=n_train,
        n_test=n_test,
    )
    meta = {**pdcompare_attrs(scores), **chosen, **race, "design": design.to_attrs()}
    return with_attrs(scores, meta)

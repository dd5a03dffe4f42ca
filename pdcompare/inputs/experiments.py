"""Running the paired experiment: every estimator on the same splits, as one joblib job list.

All m x k (model, split) fits are submitted to one ``joblib.Parallel``, so that
whatever joblib backend is active (``loky`` processes, ``threading``,
``dask`` on a ``dask.distributed`` cluster, ``ray``) sees every fit at once
and keeps all its workers busy, instead of k at a time for one model after
another. scikit-learn is imported lazily: it is an optional extra.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.design import Design, explicit_splits_design, splitter_design
from pdcompare.inputs.search import scorer_attrs

#: ``method`` values of :func:`cv_predictions`.
PREDICTION_METHODS = ("predict", "predict_proba", "decision_function")


def _sklearn():
    """The scikit-learn functions used here, or an ImportError that says how to install them."""
    try:
        from sklearn.base import clone, is_classifier
        from sklearn.metrics import check_scoring
        from sklearn.model_selection import check_cv
        from sklearn.utils import _safe_indexing
        from sklearn.utils.parallel import Parallel, delayed
    except ImportError:  # pragma: no cover - exercised without the extra only
        msg = "Running experiments needs scikit-learn: pip install 'pdcompare[sklearn]'."
        raise ImportError(msg) from None
    return {
        "clone": clone,
        "is_classifier": is_classifier,
        "check_scoring": check_scoring,
        "check_cv": check_cv,
        "safe_indexing": _safe_indexing,
        "Parallel": Parallel,
        "delayed": delayed,
    }


def _check_estimators(estimators: Any) -> dict[str, Any]:
    if not isinstance(estimators, dict) or not estimators:
        msg = "`estimators` must be a non-empty dict {name: estimator}."
        raise TypeError(msg)
    for name, estimator in estimators.items():
        if not hasattr(estimator, "fit"):
            msg = (
                f"`estimators[{name!r}]` must be a scikit-learn estimator (with `fit`); "
                f"got {type(estimator).__name__}."
            )
            raise TypeError(msg)
    return estimators


def _splits(sk: dict, estimators: dict, X: Any, y: Any, cv: Any, groups: Any) -> list:
    """The (train, test) index arrays, drawn once for every estimator."""
    first = next(iter(estimators.values()))
    splitter = sk["check_cv"](cv, y, classifier=sk["is_classifier"](first))
    return [(np.asarray(train), np.asarray(test)) for train, test in splitter.split(X, y, groups)]


def _scoring_names(scoring: Any) -> list[str] | None:
    """The metric names of a multi-metric ``scoring`` (list, tuple, set or dict), else None."""
    if isinstance(scoring, dict):
        if not scoring:
            msg = "`scoring` is an empty dict; give at least one {name: scorer}."
            raise ValueError(msg)
        return [str(name) for name in scoring]
    if isinstance(scoring, list | tuple | set | frozenset):
        names = list(scoring)
        if not names or not all(isinstance(name, str) for name in names):
            msg = (
                "`scoring` as a list must hold scikit-learn scorer names such as "
                f"['accuracy', 'f1_macro']; got {scoring!r}. Use a dict for callables."
            )
            raise ValueError(msg)
        if len(set(names)) != len(names):
            msg = f"`scoring` names each metric once; got {scoring!r}."
            raise ValueError(msg)
        return names
    return None


def _fit_and_score(sk, estimator, X, y, train, test, scorers):
    """Scores of one fit on every scorer, or ``(None, error text)`` when it fails."""
    index = sk["safe_indexing"]
    fitted = sk["clone"](estimator)
    try:
        fitted.fit(index(X, train), index(y, train))
        X_test, y_test = index(X, test), index(y, test)
        return [float(scorer(fitted, X_test, y_test)) for scorer in scorers], None
    except Exception as error:  # scikit-learn's error_score=np.nan: the fit scores NaN
        return None, f"{type(error).__name__}: {error}"


def _fit_and_predict(sk, estimator, X, y, train, test, method):
    """Out-of-fold predictions of one fit on its test rows, and the classes it saw."""
    index = sk["safe_indexing"]
    fitted = sk["clone"](estimator).fit(index(X, train), index(y, train))
    predictions = np.asarray(getattr(fitted, method)(index(X, test)))
    return predictions, getattr(fitted, "classes_", None)


def _warn_failures(failures: list[tuple[str, int, str]], n_splits: int) -> None:
    if not failures:
        return
    shown = "; ".join(f"{name!r} on split{split} ({text})" for name, split, text in failures[:5])
    more = f"; and {len(failures) - 5} more" if len(failures) > 5 else ""
    warnings.warn(
        f"{len(failures)} fit(s) failed and score NaN, as scikit-learn's error_score=np.nan: "
        f"{shown}{more}. Fix the estimator, or leave the failed splits out with "
        "nan_policy='omit' in the tests.",
        UserWarning,
        stacklevel=3,
    )
    models = {name for name, _, _ in failures}
    dead = sorted(name for name in models if sum(f[0] == name for f in failures) == n_splits)
    if dead:
        warnings.warn(
            f"Every fit of model(s) {dead} failed: their rows are all NaN.",
            UserWarning,
            stacklevel=3,
        )


def cv_scores(
    estimators: dict[str, Any],
    X: Any,
    y: Any,
    *,
    cv: Any,
    scoring: Any = None,
    groups: Any = None,
    n_jobs: int | None = None,
    test_size: float | None = None,
    n_train: int | None = None,
    n_test: int | None = None,
) -> pd.DataFrame | dict[str, pd.DataFrame]:
    """Cross-validate every estimator on the same splits: the paired experiment.

    Needs scikit-learn (``pip install pdcompare[sklearn]``). The splits are
    drawn once; every estimator is fitted and scored on exactly those splits,
    as every test of pdcompare assumes. All m x k (model, split) fits are one
    ``joblib.Parallel``: under ``with joblib.parallel_config(backend="dask")``
    (a ``dask.distributed`` client) they spread over the cluster, and likewise
    with ``"loky"``, ``"threading"`` or ``"ray"``.

    Parameters
    ----------
    estimators : dict of str to estimator
        The models to compare, by name.
    X, y : array-like
        Data and target.
    cv : int or scikit-learn splitter
        As in ``cross_val_score``; an int means (stratified, for classifiers) k-fold.
    scoring : str, callable, list of str or dict, optional
        One scikit-learn scorer (default: the estimator's ``score``); a list of
        scorer names or a dict ``{name: scorer}`` scores several metrics from
        one fit per (model, split), as ``cross_validate``.
    groups : array-like, optional
        Group labels for group splitters.
    n_jobs : int, optional
        Workers of the one ``joblib.Parallel`` (None: one, unless a
        ``joblib.parallel_config`` says otherwise; -1: all).
    test_size : float, optional
        Fraction of the data in each test split, to record instead of the
        ratio measured on the splits (and the way to run a splitter that
        pdcompare cannot read).
    n_train, n_test : int, optional
        Training and test set sizes, together: the same, as counts.

    Returns
    -------
    pandas.DataFrame or dict of str to pandas.DataFrame
        One row per estimator, one column per split, with the design (the
        splits' real mean train and test sizes) in ``attrs["pdcompare"]``; a
        dict ``{metric: scores frame}`` for a multi-metric ``scoring``. A fit
        that fails scores NaN with a warning naming the model and split
        (scikit-learn's ``error_score=np.nan``); when every fit fails, a
        ValueError carries the first error. A ``TimeSeriesSplit`` gives a
        time-ordered design, which ``corrected_ttest`` and ``bayes`` refuse
        (compare :func:`cv_predictions` of the same splitter with
        ``diebold_mariano``); ``LeaveOneOut`` the ratio ``1/(n − 1)``.

    See Also
    --------
    cv_predictions : the out-of-fold predictions of the same experiment.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> models = {"logreg": LogisticRegression(max_iter=1000),
    ...           "tree": DecisionTreeClassifier(random_state=0)}
    >>> scores = cv_scores(models, X, y, cv=5)
    >>> scores.shape, scores.attrs["pdcompare"]["design"]["n_test"]
    ((2, 5), 30.0)
    >>> both = cv_scores(models, X, y, cv=5, scoring=["accuracy", "f1_macro"])
    >>> sorted(both), both["accuracy"].equals(scores)
    (['accuracy', 'f1_macro'], True)

    Compare with scikit-learn, model by model:

    >>> from sklearn.model_selection import cross_val_score
    >>> bool((cross_val_score(models["tree"], X, y, cv=5) == scores.loc["tree"]).all())
    True
    """
    sk = _sklearn()
    estimators = _check_estimators(estimators)
    # Reject splitters whose design is unknowable before fitting anything.
    n_samples = len(X) if hasattr(X, "__len__") else None
    known = splitter_design(
        cv, n_samples=n_samples, test_size=test_size, n_train=n_train, n_test=n_test
    )
    names = _scoring_names(scoring)
    metrics = (
        [scoring]
        if names is None
        else (list(scoring.values()) if isinstance(scoring, dict) else names)
    )
    splits = _splits(sk, estimators, X, y, cv, groups)
    scorers = {
        name: [sk["check_scoring"](estimator, scoring=metric) for metric in metrics]
        for name, estimator in estimators.items()
    }
    delayed = sk["delayed"]
    results = sk["Parallel"](n_jobs=n_jobs)(
        delayed(_fit_and_score)(sk, estimator, X, y, train, test, scorers[name])
        for name, estimator in estimators.items()
        for train, test in splits
    )
    k = len(splits)
    values = np.full((len(estimators), k, len(metrics)), np.nan)
    failures = []
    for position, (scores, error) in enumerate(results):
        model, split = divmod(position, k)
        if error is None:
            values[model, split] = scores
        else:
            failures.append((list(estimators)[model], split, error))
    if len(failures) == len(results):
        msg = f"Every fit failed; the first: {failures[0][0]!r} on split0: {failures[0][2]}"
        raise ValueError(msg)
    _warn_failures(failures, k)
    design = explicit_splits_design(splits, "")
    if test_size is not None or n_train is not None:
        design = known  # the ratio the caller gave
    else:
        design = Design(
            **{
                **design.to_attrs(),
                "source": known.source,
                "time_ordered": known.time_ordered,
            }
        )
    index = pd.Index(list(estimators), name="model")
    columns = pd.Index([f"split{s}" for s in range(k)], name="split")
    recorded = [
        scorer_attrs(scoring, None if names is None else name)
        for name in (names or [None])
    ]
    frames = [
        with_attrs(pd.DataFrame(values[:, :, m], index=index, columns=columns),
                   {**recorded[m], "design": design.to_attrs()})
        for m in range(len(metrics))
    ]  # fmt: skip
    return frames[0] if names is None else dict(zip(names, frames, strict=True))


def _check_partition(splits: list, n_rows: int, cv: Any, time_ordered: bool) -> np.ndarray:
    """The test indices in split order, after checking that they cover every row once.

    Time-ordered splits test each row at most once and never the first
    window: their rows are the tested ones.
    """
    tested = np.concatenate([test for _, test in splits])
    counts = np.bincount(tested, minlength=n_rows)
    if time_ordered and counts.max() <= 1:
        return tested
    if tested.size != n_rows or not (counts == 1).all():
        if counts.max() > 1:
            problem = f"tests some rows {int(counts.max())} times"
        else:
            problem = f"never tests {int((counts == 0).sum())} of the {n_rows} rows"
        msg = (
            f"`cv`: {type(cv).__name__} {problem}; out-of-fold predictions need a splitter "
            "that partitions the data once, such as KFold(5) or StratifiedKFold(5) (not "
            "repeated, not ShuffleSplit). Compare repeated splits with cv_scores instead."
        )
        raise ValueError(msg)
    return tested


def _positive_column(predictions: np.ndarray, classes: Any, name: str, method: str) -> np.ndarray:
    """The positive-class column of a binary problem's probabilities or decision values."""
    if predictions.ndim == 1:
        return predictions
    if predictions.shape[1] == 2 and method == "predict_proba":
        return predictions[:, 1]
    msg = (
        f"`method={method!r}`: model {name!r} gives {predictions.shape[1]} columns "
        f"(classes {list(classes) if classes is not None else '?'}); the predictions frame "
        "holds one column per model, so only a binary problem's positive-class score fits. "
        "Use method='predict' for labels of a multiclass problem."
    )
    raise ValueError(msg)


def cv_predictions(
    estimators: dict[str, Any],
    X: Any,
    y: Any,
    *,
    cv: Any,
    method: str = "predict",
    n_jobs: int | None = None,
) -> pd.DataFrame:
    """Out-of-fold predictions of every estimator on the same splits: a predictions frame.

    The input of McNemar's test, Cochran's Q and the bootstrap; with
    ``method="predict_proba"`` (or ``"decision_function"``) of :func:`delong`,
    :func:`auc_ci` and the scores of probabilities. Needs scikit-learn. The
    splits are drawn once and every (model, split) fit is one task of a single
    ``joblib.Parallel``, as in :func:`cv_scores`.

    Parameters
    ----------
    estimators : dict of str to estimator
        The models to compare, by name (the columns of the result).
    X, y : array-like
        Data and target.
    cv : int or scikit-learn splitter
        A splitter that tests every row exactly once (k-fold, stratified or
        group k-fold), or a ``TimeSeriesSplit``, whose test windows follow
        each other: the frame then holds the rows of the test windows only,
        in time order, the input of :func:`diebold_mariano`. Repeated and
        shuffle-split splitters are refused.
    method : {"predict", "predict_proba", "decision_function"}, default "predict"
        Labels, or the positive-class probability or decision value of a
        binary problem (a multiclass problem is refused: one column per model).
    n_jobs : int, optional
        Workers of the one ``joblib.Parallel``.

    Returns
    -------
    pandas.DataFrame
        The truth column ``y``, then one column per model; rows in the data's
        order, indexed like ``X`` when it is a DataFrame. With a
        ``TimeSeriesSplit``, only the tested rows, indexed by their position
        in the data (or ``X``'s index), with the time-ordered design in
        ``attrs["pdcompare"]["design"]``. ``attrs["pdcompare"]["origin"]`` is
        ``"cv_predictions"``: :func:`delong` warns on such a frame (each
        row's prediction comes from the model of its own fold).

    See Also
    --------
    cv_scores : the scores of the same experiment, split by split.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> models = {"logreg": LogisticRegression(max_iter=1000),
    ...           "tree": DecisionTreeClassifier(random_state=0)}
    >>> preds = cv_predictions(models, X, y, cv=5)
    >>> list(preds.columns), preds.shape
    (['y', 'logreg', 'tree'], (150, 3))

    Compare with scikit-learn:

    >>> from sklearn.model_selection import cross_val_predict
    >>> bool((cross_val_predict(models["tree"], X, y, cv=5) == preds["tree"]).all())
    True
    """
    sk = _sklearn()
    estimators = _check_estimators(estimators)
    if method not in PREDICTION_METHODS:
        msg = f"`method` must be one of {PREDICTION_METHODS}; got {method!r}."
        raise ValueError(msg)
    if "y" in estimators:
        msg = "A model named 'y' would clash with the truth column `y`; rename it."
        raise ValueError(msg)
    missing = [name for name, est in estimators.items() if not hasattr(est, method)]
    if missing:
        msg = f"`method={method!r}`: model(s) {missing} have no {method}()."
        raise ValueError(msg)
    splits = _splits(sk, estimators, X, y, cv, None)
    n_rows = len(y)
    time_ordered = type(cv).__name__ == "TimeSeriesSplit"
    tested = _check_partition(splits, n_rows, cv, time_ordered)
    delayed = sk["delayed"]
    results = sk["Parallel"](n_jobs=n_jobs)(
        delayed(_fit_and_predict)(sk, estimator, X, y, train, test, method)
        for estimator in estimators.values()
        for train, test in splits
    )
    k = len(splits)
    # A Series keeps its dtype (categorical, nullable, string); its index is not aligned.
    columns = {"y": y.array if isinstance(y, pd.Series) else np.asarray(y)}
    for position, name in enumerate(estimators):
        parts = results[position * k : (position + 1) * k]
        if method != "predict":
            classes = [part[1] for part in parts]
            if any(c is not None and not np.array_equal(c, classes[0]) for c in classes):
                msg = (
                    f"Model {name!r} saw different classes in different training folds "
                    f"({[list(c) for c in classes if c is not None][:2]}, ...), so its "
                    f"{method} columns do not line up; use a stratified splitter."
                )
                raise ValueError(msg)
        blocks = [_positive_column(p, c, name, method) for p, c in parts]
        out = np.empty(n_rows, dtype=np.result_type(*(b.dtype for b in blocks)))
        out[tested] = np.concatenate(blocks)
        columns[name] = out
    index = X.index if isinstance(X, pd.DataFrame) else None
    if not time_ordered:  # the origin: delong warns that folds' models are mixed
        return with_attrs(pd.DataFrame(columns, index=index), {"origin": "cv_predictions"})
    # Only the test windows, in time order (their rows are increasing).
    rows = np.sort(tested)
    columns = {name: np.asarray(values)[rows] for name, values in columns.items()}
    if isinstance(y, pd.Series):
        columns["y"] = y.array[rows]
    index = index[rows] if index is not None else pd.Index(rows)
    design = splitter_design(cv)
    meta = {"design": design.to_attrs(), "origin": "cv_predictions"}
    return with_attrs(pd.DataFrame(columns, index=index), meta)

"""Input adapters: scores frames, ``cv_results_`` frames, predictions frames.

Everything here turns a user's frame into validated numpy arrays (and back into
names), so that the statistical core never sees pandas and the accessor stays
thin. Nothing here modifies the caller's frame or its ``attrs``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_option, unknown_name_error, warn
from pdcompare.design import Design, design_from_cv, explicit_splits_design, resolve_design

#: Key of pdcompare's metadata in ``DataFrame.attrs``.
ATTRS_KEY = "pdcompare"

#: Passed as ``a`` by ``pairwise`` to ask a test for every pair of models.
ALL_PAIRS = object()

NAN_POLICIES = ("propagate", "omit", "raise")

_SPLIT_COLUMN = re.compile(r"^split(\d+)_test_(.+)$")


def pdcompare_attrs(frame: pd.DataFrame) -> dict[str, Any]:
    """A deep copy of the frame's pdcompare metadata (empty dict when absent)."""
    stored = frame.attrs.get(ATTRS_KEY)
    return copy.deepcopy(stored) if isinstance(stored, dict) else {}


def with_attrs(frame: pd.DataFrame, meta: dict[str, Any]) -> pd.DataFrame:
    """Return ``frame`` with ``meta`` stored as its pdcompare metadata (frame is new)."""
    frame.attrs = {**frame.attrs, ATTRS_KEY: meta}
    return frame


# --------------------------------------------------------------------------- files


def read_csv(source: Any, **kwargs: Any) -> pd.DataFrame:
    """``pd.read_csv`` with correctly rounded floats on every pandas version.

    pandas 2's default C parser can be one bit off ("0.9600000000000001" read
    as 0.96), which changes tied ranks in the Wilcoxon and sign tests; its
    ``float_precision="round_trip"`` is exact. pandas 3 parses exactly by
    default and deprecates that keyword.
    """
    if int(pd.__version__.split(".", 1)[0]) < 3:
        kwargs.setdefault("float_precision", "round_trip")
    return pd.read_csv(source, **kwargs)


# --------------------------------------------------------------------------- scores


def is_cv_results(frame: pd.DataFrame) -> bool:
    """Whether ``frame`` looks like ``pd.DataFrame(search.cv_results_)``."""
    return "params" in frame.columns and any(
        isinstance(c, str) and _SPLIT_COLUMN.match(c) for c in frame.columns
    )


def _format_value(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str | int | bool | np.integer | np.bool_) or value is None:
        return str(value)
    if callable(value) or hasattr(value, "get_params"):
        return type(value).__name__ if not isinstance(value, type) else value.__name__
    return str(value)


def _names_from_params(params: Sequence[dict[str, Any]]) -> list[str]:
    """Short, unique, readable model names from the parameters that vary.

    A parameter whose values are all strings shows its value alone ("rbf");
    other parameters show as ``key=value`` ("C=10"). Parameters that are the
    same for every candidate are left out. Names may repeat (see `_deduplicated`).
    """
    keys = sorted({k for p in params for k in p})
    varying = []
    for key in keys:
        values = {_format_value(p[key]) if key in p else "\0absent" for p in params}
        if len(values) > 1:
            varying.append(key)
    textual = [k for k in varying if all(isinstance(p.get(k, ""), str) for p in params)]
    other = [k for k in varying if k not in textual]
    names = []
    for p in params:
        parts = [p[k] for k in textual if k in p]
        parts += [f"{k}={_format_value(p[k])}" for k in other if k in p]
        names.append(", ".join(parts) if parts else "default")
    return names


def _deduplicated(names: list[str]) -> list[str]:
    """Number the names when some repeat (two estimator objects of one class, say)."""
    if len(set(names)) < len(names):
        return [f"{name} #{i}" for i, name in enumerate(names)]
    return names


def cv_results_to_scores(
    frame: pd.DataFrame,
    metric: str | None = None,
    names: Callable[[dict], str] | Sequence[str] | None = None,
) -> pd.DataFrame:
    """Convert a ``cv_results_`` frame to a scores frame (models x splits).

    Rows become models named from the parameters that vary (or by ``names``,
    a callable ``params -> str`` or a list), columns the ``split<i>`` test
    scores of ``metric``. Candidates whose fits failed keep their NaN scores.
    HalvingGridSearchCV results, where a candidate appears in several
    iterations, name each row with its iteration.
    """
    metrics: dict[str, dict[int, str]] = {}
    for column in frame.columns:
        match = _SPLIT_COLUMN.match(column) if isinstance(column, str) else None
        if match:
            metrics.setdefault(match.group(2), {})[int(match.group(1))] = column
    if metric is None:
        if len(metrics) > 1:
            msg = (
                "This cv_results_ frame holds several metrics "
                f"({', '.join(repr(m) for m in metrics)}); choose one with `metric=`."
            )
            raise ValueError(msg)
        metric = next(iter(metrics))
    elif metric not in metrics:
        error = unknown_name_error("metric", metric, list(metrics), "metric")
        raise error
    columns = metrics[metric]
    ordered = [columns[i] for i in sorted(columns)]
    values = frame[ordered].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    params = list(frame["params"])
    if not all(isinstance(p, dict) for p in params):
        msg = "The `params` column of a cv_results_ frame must hold dicts of parameters."
        raise TypeError(msg)
    if names is None:
        model_names = _names_from_params(params)
        if "iter" in frame.columns and len(set(frame["iter"])) > 1:
            iterations = frame["iter"].tolist()
            model_names = [f"{n} (iter={i})" for n, i in zip(model_names, iterations, strict=True)]
        model_names = _deduplicated(model_names)
    elif callable(names):
        model_names = [names(dict(p)) for p in params]
    else:
        model_names = list(names)
        if len(model_names) != len(params):
            msg = (
                f"`names` has {len(model_names)} entries but the cv_results_ frame has "
                f"{len(params)} candidates; give one name per row."
            )
            raise ValueError(msg)
    scores = pd.DataFrame(
        values,
        index=pd.Index(model_names, name="model"),
        columns=pd.Index([f"split{i}" for i in sorted(columns)], name="split"),
    )
    _check_unique_names(scores.index, hint="pass `names=` to name the candidates")
    return scores


def _check_unique_names(index: pd.Index, hint: str) -> None:
    if not index.is_unique:
        duplicated = list(dict.fromkeys(index[index.duplicated()]))
        msg = f"Model names must be unique; {duplicated!r} appear more than once ({hint})."
        raise ValueError(msg)


def _numeric_values(frame: pd.DataFrame) -> np.ndarray:
    """The frame's values as float64, NaN for missing, after checking the dtypes."""
    bad = [
        c
        for c, dtype in frame.dtypes.items()
        if not (pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype))
    ]
    if bad:
        shown = ", ".join(repr(c) for c in bad[:5]) + (", ..." if len(bad) > 5 else "")
        msg = (
            f"Split columns must hold numeric scores; column(s) {shown} do not. A scores frame "
            "has one row per model and one numeric column per CV split; convert with "
            "`df.astype(float)` or drop the other columns (set model names as the index)."
        )
        raise TypeError(msg)
    # Nullable dtypes (Float64 with pd.NA) become NaN.
    return frame.to_numpy(dtype=float, na_value=np.nan)


def row_means(values: np.ndarray) -> np.ndarray:
    """Mean of each row over its non-missing entries; NaN for an all-missing row."""
    counts = np.sum(~np.isnan(values), axis=1)
    totals = np.nansum(values, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, totals / np.maximum(counts, 1), np.nan)


def validate_scores(frame: pd.DataFrame) -> np.ndarray:
    """Check a scores frame and return its values (models x splits) as float64."""
    if frame.shape[0] == 0 or frame.shape[1] == 0:
        msg = (
            f"The scores frame is empty (shape {frame.shape}); it needs one row per model "
            "and one column per CV split."
        )
        raise ValueError(msg)
    _check_unique_names(frame.index, hint="give each model its own index label")
    values = _numeric_values(frame)
    if frame.shape[1] < 2:
        msg = (
            f"The scores frame has {frame.shape[1]} split column; comparisons need the "
            "scores of at least 2 CV splits per model (models as rows, splits as columns). "
            "If models are columns, pass `df.T`."
        )
        raise ValueError(msg)
    infinite = np.isinf(values)
    if infinite.any():
        row, col = np.argwhere(infinite)[0]
        msg = (
            f"Scores must be finite; model {frame.index[row]!r} has {values[row, col]} in "
            f"split {frame.columns[col]!r}. Replace it with NaN if the fit failed."
        )
        raise ValueError(msg)
    return values


def rank_order(values: np.ndarray, greater_is_better: bool = True) -> np.ndarray:
    """Positions sorted best first by ``values`` (ties keep their order; NaN last)."""
    key = -values if greater_is_better else values
    key = np.where(np.isnan(key), np.inf, key)
    return np.argsort(key, kind="stable")


def index_of(names: pd.Index, name: Hashable, keyword: str) -> int:
    """Position of model ``name`` in ``names``, or a ValueError that suggests close names."""
    if isinstance(name, Hashable) and name in names:
        return int(names.get_loc(name))
    error = unknown_name_error("model", name, list(names), keyword)
    raise error


def select_pairs(
    names: pd.Index,
    values: np.ndarray,
    a: Any = None,
    b: Any = None,
    greater_is_better: bool = True,
) -> tuple[np.ndarray, np.ndarray, str]:
    """Positions ``(i, j)`` of the pairs a test compares, and the scope's name.

    ``(a, b)`` compares one pair ("pair"); ``a`` alone compares it with every
    other model ("one_vs_rest"); neither compares the best model with every
    other ("best_vs_rest"); ``a=ALL_PAIRS`` gives every pair ("all_pairs"),
    best first. ``values`` (the mean score of each model, or the metric on a
    predictions frame) decide what "best" and the rank order are.
    """
    if len(names) < 2:
        msg = f"Comparisons need at least 2 models; the frame has {len(names)}."
        raise ValueError(msg)
    order = rank_order(np.asarray(values, dtype=float), greater_is_better)
    if a is ALL_PAIRS:
        first, second = np.triu_indices(len(order), k=1)
        return order[first], order[second], "all_pairs"
    if a is None and b is not None:
        msg = "`b` needs `a`: pass `a=` too, or neither to compare the best with the rest."
        raise ValueError(msg)
    if a is not None and b is not None:
        i, j = index_of(names, a, "a"), index_of(names, b, "b")
        if i == j:
            msg = f"`a` and `b` are the same model ({a!r}); name two different models."
            raise ValueError(msg)
        return np.array([i]), np.array([j]), "pair"
    first = index_of(names, a, "a") if a is not None else int(order[0])
    others = order[order != first]
    scope = "one_vs_rest" if a is not None else "best_vs_rest"
    return np.full(len(others), first), others, scope


@dataclass(frozen=True)
class ScoresData:
    """A validated scores frame as arrays, with its design.

    Attributes
    ----------
    names : pd.Index
        Model names, in frame order.
    values : np.ndarray
        Scores, shape (models, splits), float64 with NaN for missing.
    splits : pd.Index
        The split column labels.
    design : Design
        The resolved CV design.
    """

    names: pd.Index
    values: np.ndarray
    splits: pd.Index
    design: Design

    @property
    def means(self) -> np.ndarray:
        """Mean score of each model over its non-missing splits."""
        return row_means(self.values)

    @property
    def order(self) -> np.ndarray:
        """Model positions, best first (by mean; ties keep frame order; NaN last)."""
        return rank_order(self.means, self.design.greater_is_better)

    def index_of(self, name: Hashable, keyword: str) -> int:
        """Position of model ``name``, or a ValueError that suggests close names."""
        return index_of(self.names, name, keyword)

    def pairs(self, a: Any = None, b: Any = None) -> tuple[np.ndarray, np.ndarray, str]:
        """Positions ``(i, j)`` of the pairs to compare and the scope (see `select_pairs`)."""
        return select_pairs(self.names, self.means, a, b, self.design.greater_is_better)

    def nan_pairs(self, i: np.ndarray, j: np.ndarray, nan_policy: str) -> np.ndarray:
        """Boolean mask of the pairs that involve a missing score, after the policy's checks.

        "raise" raises a ValueError naming the models; "propagate" warns (those
        pairs get NaN results); "omit" returns the mask silently.
        """
        check_option("nan_policy", nan_policy, NAN_POLICIES)
        has_nan = np.isnan(self.values).any(axis=1)
        mask = has_nan[i] | has_nan[j]
        if mask.any():
            models = [str(self.names[k]) for k in np.flatnonzero(has_nan)]
            if nan_policy == "raise":
                msg = (
                    f"Model(s) {models} have missing scores (NaN). Pass "
                    "`nan_policy='omit'` to drop the missing splits pair by pair, or "
                    "`nan_policy='propagate'` to give those pairs NaN results."
                )
                raise ValueError(msg)
            if nan_policy == "propagate":
                warn(
                    f"Model(s) {models} have missing scores (NaN): their comparisons are "
                    "NaN and left out of the correction. Pass `nan_policy='omit'` to drop "
                    "the missing splits instead."
                )
        return mask


def scores_frame(
    frame: pd.DataFrame,
    metric: str | None = None,
    names: Callable[[dict], str] | Sequence[str] | None = None,
) -> pd.DataFrame:
    """The scores frame for ``frame``: converted from ``cv_results_``, or a copy of it."""
    if is_cv_results(frame):
        scores = cv_results_to_scores(frame, metric=metric, names=names)
        meta = pdcompare_attrs(frame)
        return with_attrs(scores, meta) if meta else scores
    if metric is not None or names is not None:
        msg = (
            "`metric` and `names` apply to cv_results_ frames (with a `params` column and "
            "`split<i>_test_<metric>` columns); this frame is already a scores frame."
        )
        raise ValueError(msg)
    return frame.copy()


def scores_data(frame: pd.DataFrame, **keywords: Any) -> ScoresData:
    """Validate a scores (or ``cv_results_``) frame and resolve its design.

    ``keywords`` are the design keywords of the call (``cv``, ``test_size``,
    ``n_train``, ``n_test``, ``greater_is_better``); ``metric`` and ``names``
    select and name the candidates of a ``cv_results_`` frame.
    """
    metric = keywords.pop("metric", None)
    names = keywords.pop("names", None)
    if is_cv_results(frame):
        frame = cv_results_to_scores(frame, metric=metric, names=names)
        stored = pdcompare_attrs(frame).get("design")
    else:
        stored = None
    stored = stored or pdcompare_attrs(frame).get("design")
    values = validate_scores(frame)
    design = resolve_design(stored, **keywords)
    return ScoresData(names=frame.index, values=values, splits=frame.columns, design=design)


# --------------------------------------------------------------------------- predictions


@dataclass(frozen=True)
class PredictionsData:
    """A validated predictions frame: truth and one prediction column per model.

    Attributes
    ----------
    names : pd.Index
        Model names (the prediction columns).
    y_true : np.ndarray
        The truth, shape (n_samples,).
    y_pred : np.ndarray
        Predictions, shape (n_samples, n_models), in the truth's dtype where possible.
    missing : np.ndarray
        Boolean mask (n_samples, n_models + 1): missing truth (column 0) or prediction.
    """

    names: pd.Index
    y_true: np.ndarray
    y_pred: np.ndarray
    missing: np.ndarray


def predictions_data(
    frame: pd.DataFrame, y: Hashable = "y", models: Sequence[Hashable] | None = None
) -> PredictionsData:
    """Validate a predictions frame (truth column ``y``, one column per model)."""
    if frame.shape[0] == 0:
        msg = "The predictions frame is empty; it needs one row per test sample."
        raise ValueError(msg)
    if y not in frame.columns:
        shown = ", ".join(repr(c) for c in list(frame.columns)[:10])
        msg = (
            f"`y`: the predictions frame has no truth column {y!r}; its columns are "
            f"{shown}. Pass `y=` with the name of the column of true labels."
        )
        raise ValueError(msg)
    if not frame.columns.is_unique:
        msg = "Column names of a predictions frame must be unique (one column per model)."
        raise ValueError(msg)
    if models is None:
        model_columns = [c for c in frame.columns if c != y]
    else:
        model_columns = list(models)
        for m in model_columns:
            if m not in frame.columns or m == y:
                known = [c for c in frame.columns if c != y]
                error = unknown_name_error("model", m, known, "models")
                raise error
    if not model_columns:
        msg = f"The predictions frame has no model column besides the truth {y!r}."
        raise ValueError(msg)
    y_series = frame[y]
    preds = frame[model_columns]
    missing = np.column_stack([y_series.isna().to_numpy(), preds.isna().to_numpy()])
    columns = [_labels(preds[c]) for c in model_columns]
    if len({column.dtype for column in columns}) == 1:
        y_pred = np.column_stack(columns)
    else:
        # column_stack would cast mixed label types to a common one (ints to strings),
        # and a prediction 1 would no longer equal a truth 1.
        y_pred = np.empty((len(frame), len(columns)), dtype=object)
        for k, column in enumerate(columns):
            y_pred[:, k] = column
    return PredictionsData(
        names=pd.Index(model_columns),
        y_true=_labels(y_series),
        y_pred=y_pred,
        missing=missing,
    )


def _labels(series: pd.Series) -> np.ndarray:
    """Labels of any dtype as a numpy array: categoricals by value, nullable as object."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        series = series.astype(series.cat.categories.dtype)
    if pd.api.types.is_extension_array_dtype(series.dtype):
        return series.to_numpy(dtype=object, na_value=np.nan)
    return series.to_numpy()


# --------------------------------------------------------------------------- scikit-learn


def _attach_design(scores: pd.DataFrame, design: Design) -> pd.DataFrame:
    return with_attrs(scores, {"design": design.to_attrs()})


def from_search(
    search: Any,
    *,
    metric: str | None = None,
    names: Callable[[dict], str] | Sequence[str] | None = None,
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

    Returns
    -------
    pandas.DataFrame
        One row per candidate, one column per split; the design (from
        ``search.cv``, None meaning scikit-learn's default 5-fold) is stored in
        ``attrs["pdcompare"]["design"]``.

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
    scores = cv_results_to_scores(frame, metric=metric, names=names)
    cv = getattr(search, "cv", None)
    design = design_from_cv(5 if cv is None else cv)
    return _attach_design(scores, design)


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

"""``cv_results_`` frames: recognising them and turning them into scores frames.

A ``cv_results_`` frame is ``pd.DataFrame(search.cv_results_)``, live or read
back from a CSV or parquet file. In a saved file the ``params`` column is
text in whatever repr scikit-learn and numpy wrote (``np.float64(0.1)``,
estimator reprs), so the parameters are always read from the ``param_*``
columns, never by parsing ``params``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_unique_labels, unknown_name_error
from pdcompare.inputs.attrs import pdcompare_attrs, with_attrs

_SPLIT_COLUMN = re.compile(r"^split(\d+)_test_(.+)$")
#: An estimator's repr as a saved file holds it: ``LogisticRegression(C=10)``.
_ESTIMATOR_REPR = re.compile(r"^([A-Za-z_]\w*)\(.*\)$", re.DOTALL)


def is_cv_results(frame: pd.DataFrame) -> bool:
    """Whether ``frame`` looks like ``pd.DataFrame(search.cv_results_)``."""
    return "params" in frame.columns and bool(_split_columns(_Same(frame.columns)))


def _is_absent(value: Any) -> bool:
    return value is not None and not isinstance(value, str) and bool(np.all(pd.isna(value)))


def candidate_params(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The parameter dict of every candidate (row) of a ``cv_results_`` frame.

    Live frames keep their ``params`` dicts. Saved frames are read from the
    ``param_*`` columns: an empty cell means the parameter is absent for that
    candidate, except where the saved ``params`` text says it was ``None``
    (``to_csv`` writes None as an empty cell too).

    Examples
    --------
    >>> import pandas as pd
    >>> saved = pd.DataFrame({
    ...     "param_C": [0.1, float("nan")], "param_max_depth": [float("nan"), float("nan")],
    ...     "params": ["{'C': np.float64(0.1)}", "{'max_depth': None}"],
    ...     "split0_test_score": [0.8, 0.7]})
    >>> candidate_params(saved)
    [{'C': 0.1}, {'max_depth': None}]
    """
    params = frame["params"].tolist()
    if all(isinstance(p, dict) for p in params):
        return [dict(p) for p in params]
    keys = [
        c[len("param_") :] for c in frame.columns if isinstance(c, str) and c.startswith("param_")
    ]
    if not keys:
        msg = (
            "This saved cv_results_ frame has no `param_*` columns to read the candidates' "
            "parameters from; save the whole `pd.DataFrame(search.cv_results_)`, or pass "
            "`names=` with one name per row."
        )
        raise ValueError(msg)
    texts = [str(p) for p in params]
    rows: list[dict[str, Any]] = [{} for _ in params]
    for key in keys:
        said_none = f"'{key}': None"
        for row, value in enumerate(frame[f"param_{key}"].tolist()):
            if _is_absent(value):
                if said_none in texts[row]:
                    rows[row][key] = None
            else:
                rows[row][key] = value.item() if isinstance(value, np.generic) else value
    return rows


#: Significant digits of a float parameter value in a model name, unless names then collide.
NAME_DIGITS = 4


def _format_value(value: Any, digits: int = NAME_DIGITS) -> str:
    if isinstance(value, float | np.floating):
        value = float(value)
        if value.is_integer() and abs(value) < 1e15:
            digits = max(digits, len(str(int(abs(value)))))  # 10000, not 1e+04
        return f"{value:.{digits}g}"
    if isinstance(value, str):
        match = _ESTIMATOR_REPR.match(value)
        return match.group(1) if match else value
    if isinstance(value, int | bool | np.integer | np.bool_) or value is None:
        return str(value)
    if isinstance(value, type):
        return value.__name__
    if callable(value) or hasattr(value, "get_params"):
        return type(value).__name__
    return str(value)


def _step_prefix(keys: list[str]) -> int:
    """Length of the ``step__`` prefix shared by every key (0 when there is none)."""
    steps = [key.split("__")[:-1] for key in keys]
    if not keys or not all(steps):
        return 0
    shared = []
    for parts in zip(*steps, strict=False):
        if len(set(parts)) > 1:
            break
        shared.append(parts[0])
    shared = shared[: min(len(s) for s in steps)]
    return len("__".join(shared) + "__") if shared else 0


def names_from_params(params: Sequence[dict[str, Any]]) -> list[str]:
    """Short, unique, readable model names from the parameters that vary (DESIGN §2).

    Parameters that are the same for every candidate are left out; a step
    prefix shared by every varying parameter is dropped (``clf__C`` shows as
    ``C``); every value keeps its parameter name (``solver=lbfgs, C=0.1``),
    except a name made of one string value (``rbf``).

    Examples
    --------
    >>> names_from_params([{"clf__C": 0.1, "clf__solver": "lbfgs"},
    ...                    {"clf__C": 1.0, "clf__solver": "saga"}])
    ['C=0.1, solver=lbfgs', 'C=1, solver=saga']
    >>> names_from_params([{"kernel": "rbf"}, {"kernel": "poly", "degree": 2}])
    ['rbf', 'kernel=poly, degree=2']

    Float values keep :data:`NAME_DIGITS` (4) significant digits, more only
    when the names would otherwise collide:

    >>> names_from_params([{"C": 2.016637, "gamma": 0.09124512}, {"C": 0.5, "gamma": 0.1}])
    ['C=2.017, gamma=0.09125', 'C=0.5, gamma=0.1']
    >>> names_from_params([{"C": 1.00001}, {"C": 1.00002}, {"C": 10000.0}])
    ['C=1.00001', 'C=1.00002', 'C=10000']
    """
    for digits in range(NAME_DIGITS, 18):
        names = _names(params, digits)
        if len(set(names)) == len(names):
            return names
    return _deduplicated(names)


def _names(params: Sequence[dict[str, Any]], digits: int) -> list[str]:
    """The names of :func:`names_from_params`, floats with ``digits`` significant digits."""
    keys = list(dict.fromkeys(k for p in params for k in p))
    varying = [
        key
        for key in keys
        if len({_format_value(p[key], digits) if key in p else "\0absent" for p in params}) > 1
    ]
    cut = _step_prefix(varying)
    names = []
    for p in params:
        present = [k for k in varying if k in p]
        if len(present) == 1 and isinstance(p[present[0]], str):
            names.append(_format_value(p[present[0]], digits))
        elif present:
            names.append(", ".join(f"{k[cut:]}={_format_value(p[k], digits)}" for k in present))
        else:
            names.append("default")
    return names


def _deduplicated(names: list[str]) -> list[str]:
    """Number the names when some repeat (two estimator objects of one class, say)."""
    if len(set(names)) < len(names):
        return [f"{name} #{i}" for i, name in enumerate(names)]
    return names


def _iteration_rows(frame: pd.DataFrame, iteration: int | None) -> np.ndarray:
    """Positions of the rows to compare: one iteration of a successive-halving search."""
    if "iter" not in frame.columns:
        if iteration is not None:
            msg = (
                "`iteration` applies to successive-halving searches (an `iter` column); this "
                "cv_results_ frame has none."
            )
            raise ValueError(msg)
        return np.arange(len(frame))
    iterations = pd.to_numeric(frame["iter"], errors="coerce").to_numpy()
    counts = pd.Series(iterations).value_counts()
    if iteration is None:
        candidates = counts[counts >= 2]
        if candidates.empty:
            msg = "No iteration of this successive-halving search has two candidates to compare."
            raise ValueError(msg)
        iteration = int(candidates.index.max())
    elif iteration not in counts.index:
        known = ", ".join(str(int(i)) for i in sorted(counts.index))
        msg = f"`iteration` must be one of the search's iterations ({known}); got {iteration!r}."
        raise ValueError(msg)
    return np.flatnonzero(iterations == iteration)


def _split_scores(frame: pd.DataFrame, positions: list[int]) -> np.ndarray:
    """The split columns (by position) as one float array (text cells become NaN)."""
    block = frame.take(positions, axis=1)
    try:
        return block.to_numpy(dtype=float)
    except (TypeError, ValueError):
        flat = pd.to_numeric(pd.Series(block.to_numpy().ravel()), errors="coerce")
        return flat.to_numpy(dtype=float).reshape(block.shape)


class _Same:
    """A cache key that is one particular object (equal only to itself), held alive by the key.

    An Index never changes its labels, so what is read from them can be
    cached per Index object; holding it keeps its ``id`` from being reused.
    """

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __hash__(self) -> int:
        return id(self.obj)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Same) and other.obj is self.obj


@functools.lru_cache(maxsize=32)
def _split_columns(columns: _Same) -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """Per metric: the split numbers in order and the positions of their test-score columns.

    Cached per column Index (``_Same(frame.columns)``): a test on a
    ``cv_results_`` frame would otherwise read every label and match it
    against the pattern on every call (the returned dict is shared: read
    it, never change it).
    """
    found: dict[str, dict[int, int]] = {}  # metric -> split number -> column position
    # The labels read as one list: iterating an Arrow-backed Index makes a scalar per label.
    for position, column in enumerate(columns.obj.tolist()):
        match = _SPLIT_COLUMN.match(column) if isinstance(column, str) else None
        if match:
            found.setdefault(match.group(2), {})[int(match.group(1))] = position
    return {
        metric: (tuple(sorted(by_split)), tuple(by_split[k] for k in sorted(by_split)))
        for metric, by_split in found.items()
    }


@functools.lru_cache(maxsize=32)
def _split_labels(splits: tuple[int, ...]) -> pd.Index:
    """The columns of a scores frame, ``split0, split1, ...``, made once per set of splits."""
    return pd.Index([f"split{i}" for i in splits], name="split")


#: Parameter values that are immutable and hash by value: a search's names are cached by them.
_PLAIN = (str, int, float, np.generic)


def _param_names(params: list[dict[str, Any]]) -> pd.Index:
    """``names_from_params`` as an Index named "model", cached for plain parameter values.

    A search is usually compared many times (``summary``, ``pairwise``, a
    test, the report); its names are the same each time. The cache key is
    every parameter's name, type and value, so ``C=1`` and ``C=True`` (equal in
    Python) keep their own names; values that are not plain (estimators, lists)
    are named afresh on every call.
    """
    key = tuple(tuple((k, type(v), v) for k, v in p.items()) for p in params)
    if all(v is None or isinstance(v, _PLAIN) for row in key for _, _, v in row):
        # A new Index object on the same data (a caller may rename it; the data can't change).
        return _cached_param_names(key).view()
    return pd.Index(names_from_params(params), name="model")


@functools.lru_cache(maxsize=32)
def _cached_param_names(key: tuple) -> pd.Index:
    params = [{k: v for k, _, v in row} for row in key]
    return pd.Index(names_from_params(params), name="model")


@dataclass(frozen=True)
class Candidates:
    """The candidates of one metric (and iteration) of a ``cv_results_`` frame, as arrays.

    Attributes
    ----------
    names : pandas.Index
        Unique model names (named "model").
    values : numpy.ndarray
        Test scores, shape (candidates, splits), float64 with NaN for failed fits.
    splits : pandas.Index
        ``split0, split1, ...`` (named "split").
    params : list of dict
        Each candidate's parameters.
    rows : numpy.ndarray
        Each candidate's row in the frame.
    """

    names: pd.Index
    values: np.ndarray
    splits: pd.Index
    params: list
    rows: np.ndarray


def cv_results_candidates(
    frame: pd.DataFrame,
    metric: str | None = None,
    names: Callable[[dict], str] | Sequence[str] | None = None,
    iteration: int | None = None,
) -> Candidates:
    """The candidates of a ``cv_results_`` frame: names, split scores, parameters, rows.

    What :func:`cv_results_to_scores` puts in a frame, and what the tests read
    directly (no intermediate frame to build and check again).
    """
    metrics = _split_columns(_Same(frame.columns))
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
    splits, positions = metrics[metric]
    rows = _iteration_rows(frame, iteration)
    kept = frame.iloc[rows] if len(rows) < len(frame) else frame
    values = _split_scores(kept, list(positions))
    # The split labels made once per set of splits; a view, as a user may rename its axis.
    split_labels = _split_labels(splits).view()
    try:
        params = candidate_params(kept)
    except ValueError:
        if names is None or callable(names):
            raise
        params = [{} for _ in rows]  # names given: the parameters are only kept when known
    if names is None:
        # Unique by construction (names_from_params numbers repeats).
        return Candidates(_param_names(params), values, split_labels, params, rows)
    if callable(names):
        model_names = [names(dict(p)) for p in params]
    else:
        model_names = list(names)
        if len(model_names) == len(frame):
            model_names = [model_names[r] for r in rows]
        elif len(model_names) != len(rows):
            msg = (
                f"`names` has {len(model_names)} entries but the cv_results_ frame has "
                f"{len(frame)} candidates; give one name per row."
            )
            raise ValueError(msg)
    index = pd.Index(model_names, name="model")
    # Text names are checked as a set: hashing a fresh Arrow-backed Index costs more.
    if not all(isinstance(name, str) for name in model_names) or len(set(model_names)) < len(
        model_names
    ):
        check_unique_labels(index, hint="pass `names=` to name the candidates")
    return Candidates(index, values, split_labels, params, rows)


def cv_results_to_scores(
    frame: pd.DataFrame,
    metric: str | None = None,
    names: Callable[[dict], str] | Sequence[str] | None = None,
    iteration: int | None = None,
) -> pd.DataFrame:
    """Convert a ``cv_results_`` frame to a scores frame (models x splits).

    Rows become models named from the parameters that vary (or by ``names``,
    a callable ``params -> str`` or a list), columns the ``split<i>`` test
    scores of ``metric``. Candidates whose fits failed keep their NaN scores.
    Of a successive-halving search only one iteration is kept (``iteration``,
    by default the last with at least two candidates), since candidates of
    different iterations were fitted on different resources. The frame's
    ``attrs["pdcompare"]`` holds each model's parameters (``params``) and
    its row in ``frame`` (``rows``).
    """
    found = cv_results_candidates(frame, metric=metric, names=names, iteration=iteration)
    scores = pd.DataFrame(found.values, index=found.names, columns=found.splits)
    meta = pdcompare_attrs(frame)
    meta["params"] = dict(zip(found.names.tolist(), found.params, strict=True))
    meta["rows"] = found.rows.tolist()
    return with_attrs(scores, meta)

"""Result frames: tidy, one row per comparison, metadata in ``attrs``.

Every test returns a plain ``pd.DataFrame`` so that results chain (``query``,
``merge``, ``to_latex``); what the test was (name, alternative, alpha,
correction, rope, design) lives in ``result.attrs["pdcompare"]``, where
``result.cmp.style()``, ``.matrix()`` and ``.plot()`` read it. It holds
JSON-able values only (str, int, float, bool, None, lists and dicts of them;
tuples stored as lists: :func:`~pdcompare.inputs.attrs.with_attrs` converts
them), so a result written with ``to_parquet`` or pickled reads back whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.attrs import ATTRS_KEY, with_attrs
from pdcompare.inputs.frames import check_frame
from pdcompare.stats.multitest import adjust_pvalues


def result_meta(test: str, **fields: Any) -> dict[str, Any]:
    """The metadata dict stored in ``result.attrs["pdcompare"]``.

    Always has ``kind="result"`` and ``test``; other fields as given, for
    example ``scope``, ``alternative``, ``alpha``, ``correction``, ``rope``,
    ``ci``, ``design`` (a dict), ``greater_is_better`` and ``models`` (all
    model names, best first).
    """
    return {"kind": "result", "test": test, **fields}


def _frozen(value: Any) -> Any:
    """A read-only copy: mappings as mapping proxies, lists as tuples, all the way down."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    return value


@dataclass(frozen=True)
class ResultInfo:
    """What a frame's ``attrs["pdcompare"]`` says, as a frozen, typed view.

    Users read and write the plain dict; inside the package, presentation
    reads it through this view (built by :func:`result_info`), so a field has
    one name, one type and one default everywhere. Fields absent from the
    dict are None (``models`` and ``design`` empty); every other entry is in
    ``extra``, a read-only mapping of the stored values. The typed fields'
    mappings are read-only proxies and their lists tuples (``differences``
    aside: a table of numbers per pair and data set, kept as stored); what
    ``extra`` holds is the stored objects, not copies, not to be written.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> info = result_info(load_grid_search_scores().cmp.corrected_ttest())
    >>> info.test, info.correction, info.alpha, info.across_datasets, info.models[0]
    ('corrected_ttest', 'holm', 0.05, False, 'rbf')
    """

    # What the frame is, and the test that made it.
    kind: str | None = None
    test: str | None = None
    scope: str | None = None
    method: str | None = None
    value: str | None = None
    rule: str | None = None
    # The test's options.
    alternative: str | None = None
    asked_alternative: str | None = None
    alpha: float | None = None
    correction: str | None = None
    #: (low, high) of a test; select()'s rope is one half-width (a float).
    rope: tuple[float, float] | float | None = None
    ci: float | None = None
    coverage: float | None = None
    simultaneous: bool | None = None
    interval: str | None = None
    n_resamples: int | None = None
    covariance: str | None = None
    ties: str | None = None
    # The frame compared: its models, direction, design and units.
    greater_is_better: bool | None = None
    models: tuple = ()
    design: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    unit: str | None = None
    metric: str | None = None
    metrics: tuple | None = None
    score: str | None = None
    score_test: str | None = None
    lower_cost_is_better: bool | None = None
    n_datasets: int | None = None
    n_tasks: int | None = None
    n_items: int | None = None
    n_clusters: int | None = None
    clustered: bool | None = None
    n_obs: int | None = None
    n_runs_min: int | None = None
    n_runs_max: int | None = None
    bounds: tuple[float, float] | None = None
    # What the test found beyond its rows.
    mean_ranks: Mapping[Any, float] | None = None
    cd: float | None = None
    best: Any = None
    selected: Any = None
    symbol: str | None = None
    thresholds: Mapping[str, float] | None = None
    min_attainable_pvalue: float | None = None
    differences: Any = None
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    #: Every key the dict holds, a None value included ("correction": None says "no correction").
    stated: frozenset[str] = frozenset()

    @property
    def across_datasets(self) -> bool:
        """Whether the comparisons ran across data sets (a benchmark frame)."""
        return self.unit == "dataset"

    @property
    def direction(self) -> bool:
        """``greater_is_better``, from the result or its design (True when neither says)."""
        if self.greater_is_better is not None:
            return bool(self.greater_is_better)
        return bool(self.design.get("greater_is_better", True))

    @property
    def is_result(self) -> bool:
        """Whether the frame is a result of pdcompare (a test, a summary, a matrix)."""
        return self.kind == "result"

    @property
    def level_alpha(self) -> float:
        """``alpha``, or the package's 0.05 when the frame does not say."""
        return 0.05 if self.alpha is None else float(self.alpha)

    @property
    def requested_alternative(self) -> str:
        """The alternative the caller asked for (``asked_alternative``), else the test's."""
        return self.asked_alternative or self.alternative or "two-sided"

    def get(self, key: str, default: Any = None) -> Any:
        """An entry outside the typed fields (``extra``), ``default`` when absent or None."""
        value = self.extra.get(key)
        return default if value is None else value


_INFO_FIELDS = tuple(
    name for name in ResultInfo.__dataclass_fields__ if name not in ("extra", "stated")
)
_INFO_FIELD_SET = frozenset(_INFO_FIELDS)
#: Typed fields read as stored, not frozen: ``differences`` can hold a number per pair and
#: data set (tens of thousands), read by few callers.
_UNFROZEN = frozenset({"differences"})


def result_info(frame: pd.DataFrame) -> ResultInfo:
    """The frozen, typed view of ``frame.attrs["pdcompare"]`` (empty when absent).

    Anything but a DataFrame is refused (the TypeError of every function):
    a dict of metadata is read by :func:`info_from_meta`.

    Examples
    --------
    >>> import pandas as pd
    >>> result_info(pd.DataFrame()).test is None
    True
    """
    check_frame(frame)
    stored = frame.attrs.get(ATTRS_KEY)
    return info_from_meta(stored if isinstance(stored, dict) else {})


def info_from_meta(meta: Mapping[str, Any]) -> ResultInfo:
    """The :class:`ResultInfo` of a metadata dict (what ``attrs["pdcompare"]`` holds).

    Nothing is deep-copied: the typed fields' mappings and lists are frozen
    into read-only copies, other values shared.

    Examples
    --------
    >>> info = info_from_meta({"test": "wilcoxon", "correction": None, "tau": 0.2})
    >>> info.get("tau"), info.correction, "correction" in info.stated
    (0.2, None, True)
    """
    known = {
        name: value if name in _UNFROZEN else _frozen(value)
        for name, value in meta.items()
        if name in _INFO_FIELD_SET and value is not None
    }
    for name in ("rope", "bounds"):
        if isinstance(known.get(name), tuple | list | np.ndarray):
            known[name] = tuple(float(x) for x in known[name])
    extra = {key: value for key, value in meta.items() if key not in _INFO_FIELD_SET}
    # The rest is wrapped, not copied: it can be large (a search's parameters of every
    # candidate) and is read by few callers.
    return ResultInfo(**known, extra=MappingProxyType(extra), stated=frozenset(meta))


def column_values(frame: pd.DataFrame, name: Any, *, position: int | None = None) -> np.ndarray:
    """A column of a result frame as a read-only numpy array, without building a Series.

    Model names (categorical) and strings come as object arrays, missing ones
    as NaN; numbers and bools as stored (nullable ones as float and bool).
    For code that only reads a result: pandas builds a Series per column read,
    copying the frame's metadata (at 60 models, the names of all of them), and
    converts the Arrow-backed names of a categorical column again on each read;
    here the stored array is handed over as it is (pandas' ``_get_column_array``,
    ``iloc`` where a pandas version lacks it). ``position``: the column's
    position when the caller knows it (then ``name`` is not looked up).

    Examples
    --------
    >>> first, _ = model_columns(pd.Index(["rbf", "linear"]), np.array([0, 1]), np.array([1, 0]))
    >>> column_values(pd.DataFrame({"model_1": first, "x": [1.0, 2.0]}), "model_1").tolist()
    ['rbf', 'linear']
    """
    if position is None:
        # A list of the few labels: pandas' get_loc hashes a fresh frame's columns first.
        labels = frame.columns.tolist()
        if labels.count(name) != 1:
            if name in labels:
                msg = f"the result frame has the column {name!r} more than once"
                raise ValueError(msg)
            raise KeyError(name)
        position = labels.index(name)
    get = getattr(frame, "_get_column_array", None)
    array = get(position) if get is not None else frame.iloc[:, position].values
    if isinstance(array, pd.Categorical):
        # code -1 (missing) picks the NaN appended to the names
        values = np.append(array.categories.to_numpy(dtype=object), np.nan)[array.codes]
    elif isinstance(array, np.ndarray):
        values = array.view()
    elif pd.api.types.is_bool_dtype(array.dtype):
        values = array.to_numpy(dtype=bool, na_value=False)
    elif pd.api.types.is_numeric_dtype(array.dtype):
        values = array.to_numpy(dtype=float, na_value=np.nan)
    else:
        values = array.to_numpy(dtype=object, na_value=np.nan)
    values.flags.writeable = False
    return values


def model_columns(names: pd.Index | np.ndarray, i: np.ndarray, j: np.ndarray) -> tuple[Any, Any]:
    """The ``model_1`` and ``model_2`` columns: categoricals over the model names.

    A pair's names are codes into the (unique) model names, so no per-row
    string is built: on pandas 3 with pyarrow a string column of
    ``(names[i], names[j])`` is re-made and re-inferred per row, which costs
    more than the test itself on all pairs of many models. Both columns share
    one set of categories, every model name in sorted order where the names
    sort (so ``sort_values`` orders them as strings would), and compare equal
    to the names themselves (``result["model_1"] == "rbf"``, ``query``,
    ``merge``, ``to_csv`` as with strings). Names that cannot be categories
    (missing or duplicated labels) give plain object columns.

    Examples
    --------
    >>> first, second = model_columns(pd.Index(["rbf", "linear"]), np.array([0]), np.array([1]))
    >>> first.tolist(), second.tolist(), list(first.categories)
    (['rbf'], ['linear'], ['linear', 'rbf'])
    """
    labels = names if isinstance(names, pd.Index) else pd.Index(names)
    objects, position, dtype = _categories(labels)
    if dtype is None:
        return objects.take(i), objects.take(j)
    codes_1, codes_2 = np.asarray(i), np.asarray(j)
    if position is not None:
        codes_1, codes_2 = position.take(i), position.take(j)
    return (
        pd.Categorical.from_codes(codes_1, dtype=dtype, validate=False),  # positions: valid
        pd.Categorical.from_codes(codes_2, dtype=dtype, validate=False),
    )


#: The names last given to :func:`model_columns` and their categories: the tests of one
#: report (one frame's names, the same Index object: an Index never changes) share them.
_LAST_CATEGORIES: list[tuple[Any, ...]] = [(None,)]


def _categories(labels: pd.Index) -> tuple[np.ndarray, np.ndarray | None, Any]:
    """The names as objects, their positions when sorted, and the categorical dtype.

    The positions are None when the names come sorted (or do not sort); the
    dtype is None when the names cannot be categories (missing or repeated).
    """
    last = _LAST_CATEGORIES[0]
    if last[0] is labels:
        return last[1:]
    # On the names as Python objects: sorting and comparing a few names this way
    # costs microseconds, where pandas' hash checks on a fresh Arrow-backed Index
    # (the names of a cv_results_ frame are made per call) cost tens.
    objects = np.asarray(labels, dtype=object)
    try:
        order = np.argsort(objects, kind="stable")
    except TypeError:  # names of mixed types that do not sort: frame order
        order = None
    if order is None:
        unique = labels.is_unique
    else:
        ranked = objects[order]
        unique = not np.any(ranked[1:] == ranked[:-1])
    position, dtype = None, None
    if unique and not labels.hasnans:
        categories = labels
        if order is not None and np.any(order[1:] < order[:-1]):
            position = np.empty(len(labels), dtype=np.intp)
            position[order] = np.arange(len(labels))
            categories = labels.take(order)
        dtype = _categorical_dtype(categories)
    _LAST_CATEGORIES[0] = (labels, objects, position, dtype)
    return objects, position, dtype


def _categorical_dtype(categories: pd.Index) -> pd.CategoricalDtype:
    """``CategoricalDtype(categories)`` for categories known to be unique and not missing.

    pandas checks them again by hashing, which on a fresh Arrow-backed Index
    costs more than the rest of a typical test; its fast path skips that check
    (the public constructor where a pandas version lacks it).
    """
    fastpath = getattr(pd.CategoricalDtype, "_from_fastpath", None)
    if fastpath is None:
        return pd.CategoricalDtype(categories, ordered=False)
    return fastpath(categories, ordered=False)


def pair_result(
    names: pd.Index | np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    columns: Mapping[str, Any],
    meta: dict[str, Any],
    *,
    correction: str | None = None,
    alpha: float | None = None,
) -> pd.DataFrame:
    """Result frame with one row per pair ``(names[i], names[j])``.

    Columns are ``model_1, model_2``, then ``columns`` in their order. When
    ``alpha`` is given and ``columns`` has a ``pvalue``, the adjusted p-value
    (``correction`` over the rows, NaN left out of the family) and ``reject``
    (``pvalue_adj <= alpha``) are inserted right after it.
    """
    n_models = None
    if correction == "shaffer":
        # Shaffer's procedure counts on the logical relations among all k(k-1)/2 pairs.
        if meta.get("scope") != "all_pairs":
            msg = (
                "`correction='shaffer'` is Shaffer's procedure for all pairwise comparisons; "
                f"this result compares {meta.get('scope', 'some pairs')}. Use "
                "`pairwise(test=..., correction='shaffer')`, or another correction."
            )
            raise ValueError(msg)
        n_models = len(names)
    first, second = model_columns(names, i, j)
    data: dict[str, Any] = {"model_1": first, "model_2": second}
    for name, values in columns.items():
        data[name] = values
        if name == "pvalue" and alpha is not None:
            adjusted = adjust_pvalues(values, correction, alpha=alpha, n_models=n_models)
            data["pvalue_adj"] = adjusted
            with np.errstate(invalid="ignore"):
                data["reject"] = np.asarray(adjusted <= alpha, dtype=bool)
    # The columns are fresh arrays of this call: the frame takes them as they are
    # (no copy, no consolidation into one block), which on all pairs of many models
    # is a third of the peak memory. A column that shares memory with an earlier one
    # (the same array twice) is copied, so that no column writes through another.
    owners: set[int] = set()
    for name, values in data.items():
        if isinstance(values, np.ndarray):
            owner = id(values if values.base is None else values.base)
            if owner in owners:
                data[name] = values.copy()
            owners.add(owner)
    frame = pd.DataFrame(data, copy=False)
    return with_attrs(frame, meta)


def model_result(
    names: pd.Index, columns: Mapping[str, Any], meta: dict[str, Any]
) -> pd.DataFrame:
    """Result frame indexed by model (``summary``, ``bootstrap``, ``accuracy_ci``)."""
    frame = pd.DataFrame(dict(columns), index=pd.Index(names, name="model"))
    return with_attrs(frame, meta)

"""Arrow in: polars (eager or lazy), pyarrow and DuckDB tables reduced inside their engine.

The table readers (``from_items``, ``from_long``, ``from_battles``,
``from_predictions``, ``from_mlflow``) take these tables through narwhals (``pip install
pdcompare[arrow]``; imported here on first use, never by ``import
pdcompare``). Each reduces the rows to what its frame needs inside the
engine that holds them, and only that reduction is collected and handed to
pandas (a polars lazy frame by polars' streaming engine, which reads the rows
in batches):

- items: per model x item (x task) the mean score, the number of samples and
  their variance (ddof 1), and the distinct (item, cluster) pairs; of one
  task, the cells leave the engine as numbers (model and item codes by
  Arrow's dictionary encoding, :func:`coded_cells`), not as a frame of labels;
- battles: the number of battles per (model_a, model_b, winner);
- long tables (one row per cell already, predictions): the named columns.

Models and items come out sorted (an engine keeps no row order to take
"first appearance" from), so a frame read from a polars table has its rows
and columns in sorted order where the pandas path keeps the table's order.

A polars lazy frame of one task (the mean of its samples, text models) is
not grouped here: :mod:`pdcompare.inputs.polars_stream` streams its rows in
batches into dense per-cell arrays, a fraction of the memory of a group-by
in the engine.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

#: Modules whose tables go through narwhals (pandas and dask keep their own paths).
ENGINES = ("polars", "pyarrow", "duckdb", "narwhals")


def is_native(table: Any) -> bool:
    """Whether ``table`` is a polars, pyarrow or DuckDB table (or a narwhals frame).

    Examples
    --------
    >>> import pandas as pd
    >>> is_native(pd.DataFrame({"a": [1]}))
    False
    """
    return type(table).__module__.split(".")[0] in ENGINES


def _narwhals() -> Any:
    try:
        import narwhals
    except ImportError:
        msg = (
            "reading a polars, pyarrow or DuckDB table needs narwhals: "
            "pip install pdcompare[arrow]"
        )
        raise ImportError(msg) from None
    return narwhals


def _frame(table: Any) -> tuple[Any, dict[str, Any]]:
    """The narwhals frame of ``table`` and its schema (column -> dtype)."""
    nw = _narwhals()
    frame = nw.from_native(table)
    schema = frame.collect_schema() if isinstance(frame, nw.LazyFrame) else frame.schema
    return frame, dict(schema)


def _require(schema: Mapping[str, Any], keys: Mapping[str, Hashable | None]) -> None:
    """Refuse a missing key column in the words of ``inputs.long.require_columns``."""
    for keyword, column in keys.items():
        if column is not None and column not in schema:
            shown = ", ".join(repr(c) for c in list(schema)[:10])
            msg = (
                f"`{keyword}`: the table has no column {column!r}; its columns are {shown}. "
                f"Pass `{keyword}=` with the name of the column."
            )
            raise ValueError(msg)


def _require_numbers(schema: Mapping[str, Any], column: Hashable) -> None:
    dtype = schema[column]
    if not (dtype.is_numeric() or dtype == _narwhals().Boolean):
        msg = (
            f"`score`: column {column!r} must hold numbers (0/1 correctness or a graded "
            f"score); its type is {dtype}. Cast it to a number in the engine first."
        )
        raise TypeError(msg)


def _collected(frame: Any) -> Any:
    """A lazy frame collected (an eager one as it is); polars' by its streaming engine.

    The streaming engine (polars >= 1.23) reads the rows in batches, never all at once.
    """
    nw = _narwhals()
    if not isinstance(frame, nw.LazyFrame):
        return frame
    if frame.implementation is nw.Implementation.POLARS and _polars_streams():
        return frame.collect(engine="streaming")
    return frame.collect()


def _polars_streams() -> bool:
    """Whether the installed polars has the streaming engine (``engine="streaming"``, 1.23)."""
    import polars

    major, minor = (int(part) for part in polars.__version__.split(".")[:2])
    return (major, minor) >= (1, 23)


def _collect(frame: Any) -> pd.DataFrame:
    """The (reduced) frame as pandas: a lazy frame is collected here, and only here."""
    return _collected(frame).to_pandas()


def item_cells(
    table: Any,
    *,
    model: Hashable,
    item: Hashable,
    score: Hashable,
    sample: Hashable | None = None,
    cluster: Hashable | None = None,
    task: Hashable | None = None,
    binary: bool = False,
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Per-cell mean, count and variance of an items table, and its item clusters.

    With ``binary=True`` (pass@k, pass^k) the cells also count the scores
    that are not 0 or 1 (column ``off``), for ``from_items`` to refuse.

    Returns the cells (columns ``model, [task,] item, mean, count, var, rows``, in
    no order: ``from_items`` sorts the models and items, :func:`in_order`)
    and, with ``cluster``, the distinct ``[task,] item, cluster`` rows: what
    ``from_items`` builds its frame from.

    Examples
    --------
    >>> import pyarrow as pa
    >>> table = pa.table({"model": ["a", "a", "b"], "item": ["q", "q", "q"],
    ...                   "score": [1.0, 0.0, 1.0]})
    >>> cells, _ = item_cells(table, model="model", item="item", score="score")
    >>> cells.sort_values("model")[["model", "mean", "count"]].to_numpy().tolist()
    [['a', 0.5, 2], ['b', 1.0, 1]]
    """
    frame, cells = _cells_query(table, model, item, score, sample, cluster, task, binary=binary)
    clusters = _clusters(frame, item, cluster, task)
    return _collect(cells), clusters


def _cells_query(
    table: Any,
    model: Hashable,
    item: Hashable,
    score: Hashable,
    sample: Hashable | None,
    cluster: Hashable | None,
    task: Hashable | None,
    as_text: bool = True,
    binary: bool = False,
) -> tuple[Any, Any]:
    """The narwhals frame of ``table`` and its (lazy, where it is) per-cell reduction.

    ``as_text``: categorical keys cast to text (for pandas); without it they
    stay categorical (Arrow dictionaries, their codes read as they are).
    ``binary``: also count each cell's scores that are not 0 or 1 (``off``).
    """
    nw = _narwhals()
    frame, schema = _frame(table)
    keys = {"model": model, "item": item, "score": score, "sample": sample}
    _require(schema, {**keys, "cluster": cluster, "task": task})
    _require_numbers(schema, score)
    by = [model, *([task] if task is not None else []), item]
    # Missing scores (null or NaN) are nulls, which mean, count and var skip: no filter pass
    # over the rows; cells without a score and null keys are dropped after the reduction.
    value = nw.col(score).cast(nw.Float64).fill_nan(None)
    reductions = [
        nw.col(score).mean().alias("mean"),
        nw.col(score).count().alias("count"),
        nw.col(score).var(ddof=1).alias("var"),
        nw.len().alias("rows"),  # rows - count: the missing scores, named by from_items
    ]
    columns = [*by, value.alias(score)]
    if binary:  # a null score compares as null, which the sum skips
        off = (value != 0.0) & (value != 1.0)
        columns.append(off.cast(nw.Float64).alias("__off__"))
        reductions.append(nw.col("__off__").sum().alias("off"))
    cells = (
        frame.select(columns)
        .group_by(by)
        .agg(*reductions)
        .drop_nulls(subset=by)
    )
    text = [c for c in by if isinstance(schema[c], nw.Categorical | nw.Enum)]
    if text and as_text:  # categories as text: pandas gets labels, not a categorical of cells
        cells = cells.with_columns([nw.col(c).cast(nw.String) for c in text])
    return frame, cells


def _clusters(
    frame: Any, item: Hashable, cluster: Hashable | None, task: Hashable | None
) -> pd.DataFrame | None:
    """The distinct ``[task,] item, cluster`` rows of a table (None without ``cluster``)."""
    if cluster is None:
        return None
    keyed = [*([task] if task is not None else []), item]
    return _collect(frame.select([*keyed, cluster]).unique().sort(keyed))


@dataclass(frozen=True)
class CodedCells:
    """The cells of an items table as numbers: model and item codes (sorted labels), stats.

    What :func:`coded_cells` hands to ``from_items``: only these arrays and the
    distinct labels leave the engine, not a frame of the cells' labels.
    """

    model_codes: np.ndarray
    item_codes: np.ndarray
    models: pd.Index
    items: pd.Index
    mean: np.ndarray
    count: np.ndarray
    var: np.ndarray
    rows: np.ndarray
    clusters: pd.DataFrame | None


def coded_cells(
    table: Any,
    *,
    model: Hashable,
    item: Hashable,
    score: Hashable,
    sample: Hashable | None = None,
    cluster: Hashable | None = None,
) -> CodedCells:
    """Per-cell mean, count and variance of an items table (one task), keyed by codes.

    The reduction is collected once; the models and items are numbered by
    Arrow's dictionary encoding of the collected columns (codes renumbered to
    follow the sorted labels), and only the numbers and the distinct labels
    are converted: for 10⁷ cells, no pandas frame of 10⁷ labels to factorize.

    Examples
    --------
    >>> import pyarrow as pa
    >>> table = pa.table({"model": ["b", "b", "a"], "item": ["q", "q", "r"],
    ...                   "score": [1.0, 0.0, 1.0]})
    >>> cells = coded_cells(table, model="model", item="item", score="score")
    >>> order = cells.model_codes.argsort()  # the cells come in no order
    >>> cells.models.tolist(), cells.model_codes[order].tolist(), cells.mean[order].tolist()
    (['a', 'b'], [0, 1], [1.0, 0.5])
    """
    nw = _narwhals()
    frame, lazy = _cells_query(table, model, item, score, sample, cluster, None, as_text=False)
    clusters = _clusters(frame, item, cluster, None)
    cells = _collected(lazy)
    stats = cells.select(
        nw.col("mean").cast(nw.Float64).fill_null(float("nan")),
        nw.col("count").cast(nw.Int64),
        nw.col("var").cast(nw.Float64).fill_null(float("nan")),
        nw.col("rows").cast(nw.Int64),
    )
    model_codes, models = _encoded(cells[model])
    item_codes, items = _encoded(cells[item])

    def numbers(column: str, dtype: Any) -> np.ndarray:
        return np.asarray(stats[column].to_numpy(), dtype=dtype)

    return CodedCells(
        model_codes=model_codes,
        item_codes=item_codes,
        models=models.rename(model),
        items=items.rename(item),
        mean=numbers("mean", float),
        count=numbers("count", np.int64),
        var=numbers("var", float),
        rows=numbers("rows", np.int64),
        clusters=clusters,
    )


def _encoded(column: Any) -> tuple[np.ndarray, pd.Index]:
    """Codes of a key column and its distinct labels, sorted: Arrow's dictionary encoding.

    A hash pass in C++ over the column (no Python object per row, no sort of
    the rows; dense integer ids are their own codes, offset); only the
    distinct labels become pandas labels.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    values = column.to_arrow()
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if pa.types.is_integer(values.type) and len(values) and values.null_count == 0:
        ids = values.to_numpy()
        low, high = int(ids.min()), int(ids.max())
        if high - low < 4 * len(ids):  # dense integer ids: their offsets are the codes
            used = np.bincount(ids - low, minlength=high - low + 1) > 0
            codes = (np.cumsum(used) - 1)[ids - low]
            labels = np.arange(low, high + 1, dtype=ids.dtype)[used]
            return codes, pd.Index(labels)
    # a categorical column is encoded already: its codes are read as they are
    encoded = values if pa.types.is_dictionary(values.type) else pc.dictionary_encode(values)
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
    labels = pd.Index(encoded.dictionary.to_pandas())
    used = np.bincount(codes, minlength=len(labels)) > 0
    if not used.all():  # categories no cell has: not labels of the frame
        codes = (np.cumsum(used) - 1)[codes]
        labels = labels[used]
    return in_order(codes, labels)


def in_order(codes: np.ndarray, labels: pd.Index) -> tuple[np.ndarray, pd.Index]:
    """Codes and labels renumbered so that the labels are sorted (sorting labels, not rows).

    Examples
    --------
    >>> codes, labels = in_order(np.array([0, 1, 1, 2]), pd.Index(["b", "c", "a"]))
    >>> codes.tolist(), labels.tolist()
    ([1, 2, 2, 0], ['a', 'b', 'c'])
    """
    order = labels.argsort()
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[codes], labels[order]


def battle_counts(
    table: Any, *, model_a: Hashable, model_b: Hashable, winner: Hashable
) -> tuple[pd.DataFrame, np.ndarray]:
    """The distinct battles (model_a, model_b, winner) of a table and how often each was fought.

    Examples
    --------
    >>> import pyarrow as pa
    >>> table = pa.table({"a": ["x", "x", "y"], "b": ["y", "y", "x"], "w": ["a", "a", "tie"]})
    >>> rows, counts = battle_counts(table, model_a="a", model_b="b", winner="w")
    >>> rows.to_numpy().tolist(), counts.tolist()
    ([['x', 'y', 'a'], ['y', 'x', 'tie']], [2, 1])
    """
    nw = _narwhals()
    frame, schema = _frame(table)
    keys = [model_a, model_b, winner]
    _require(schema, {"model_a": model_a, "model_b": model_b, "winner": winner})
    counted = _collect(
        frame.select(keys).group_by(keys).agg(nw.len().alias("__count__")).sort(keys)
    )
    counts = counted.pop("__count__").to_numpy(dtype=np.int64)
    return counted, counts


def native_columns(table: Any) -> list[str]:
    """The column names of a polars, pyarrow or DuckDB table (its schema, nothing collected)."""
    return list(_frame(table)[1])


def long_columns(
    table: Any, keys: Mapping[str, Hashable | None], sort: Sequence[Hashable]
) -> pd.DataFrame:
    """The named columns of a long table (one row per cell already), sorted by ``sort``.

    Examples
    --------
    >>> import pyarrow as pa
    >>> table = pa.table({"model": ["b", "a"], "dataset": ["d", "d"], "score": [0.5, 0.7],
    ...                   "notes": ["x", "y"]})
    >>> long_columns(table, {"model": "model", "dataset": "dataset", "score": "score"},
    ...              ["model", "dataset"]).to_numpy().tolist()
    [['a', 'd', 0.7], ['b', 'd', 0.5]]
    """
    frame, schema = _frame(table)
    _require(schema, keys)
    columns = list(dict.fromkeys(c for c in keys.values() if c is not None))
    frame = frame.select(columns)
    order = [c for c in sort if c is not None]
    return _collect(frame.sort(order) if order else frame)

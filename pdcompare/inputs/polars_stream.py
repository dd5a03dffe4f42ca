"""A polars lazy frame of an items table, reduced batch by batch to dense cells.

``from_items`` on a ``polars.LazyFrame`` of one task (DESIGN section 32):
polars numbers the keys and streams the rows in batches
(``collect_batches``, its streaming engine), and each batch is merged into
running per-cell count, mean and variance arrays
(:mod:`pdcompare.stats.cell_moments`), one block of items per model. Its
memory is those arrays (24 bytes a model x item cell) and the batches in
flight, where a group-by in the engine holds a hash table of every cell
with its running state (about seven times as much: section 32's bound of
twice the output plus one row group). Two passes over the rows: the
distinct items (sorted), then the batches.

The models are numbered as they come (a categorical's codes are stable
across batches); the items by the first pass: integer ids by their offsets
(or a binary search when sparse), text by polars' Enum of the sorted
labels. Tables of other key types, several tasks, pass@k, or a polars
without ``collect_batches`` take the engine's group-by
(:func:`pdcompare.inputs.arrow.coded_cells`).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.arrow import _clusters, _frame, _require, _require_numbers
from pdcompare.stats.cell_moments import CellMoments


@dataclass(frozen=True)
class DenseCells:
    """Per-cell count, mean and variance (ddof 1) of an items table, models x items.

    ``var`` is None when every score was 0 or 1 (a cell's variance is then
    ``count / (count - 1) * mean * (1 - mean)``, not kept twice); ``missing``
    counts the rows whose score is missing (None when none is); ``clusters``
    holds the distinct ``item, cluster`` rows (None without ``cluster=``).
    Cells without a scored row have count 0 and mean NaN.
    """

    models: pd.Index
    items: pd.Index
    mean: np.ndarray
    count: np.ndarray
    var: np.ndarray | None
    missing: np.ndarray | None
    clusters: pd.DataFrame | None


def streams(table: Any, *, model: Hashable, item: Hashable) -> bool:
    """Whether ``from_items`` streams ``table``: a polars lazy frame it can number in batches.

    The model column must be text (String, Categorical or Enum), the item
    column text or integers, and polars must have ``collect_batches``.

    Examples
    --------
    >>> import polars as pl
    >>> lazy = pl.LazyFrame({"model": ["a"], "item": [1], "score": [1.0]})
    >>> streams(lazy, model="model", item="item")
    True
    >>> streams(lazy.collect(), model="model", item="item")  # eager: in memory already
    False
    """
    native = _native_lazy(table)
    if native is None or not _has_batches():
        return False
    import polars as pl

    schema = native.collect_schema()
    if model not in schema or item not in schema:
        return False  # refused by the engine's path, in its words
    text = (pl.String, pl.Categorical, pl.Enum)
    return isinstance(schema[model], text) and (
        isinstance(schema[item], text) or schema[item].is_integer()
    )


def _native_lazy(table: Any) -> Any:
    """The polars LazyFrame of ``table`` (itself or behind narwhals), or None."""
    if type(table).__module__.split(".")[0] == "narwhals":
        table = table.to_native()
    if type(table).__module__.split(".")[0] != "polars":
        return None
    import polars as pl

    return table if isinstance(table, pl.LazyFrame) else None


def _has_batches() -> bool:
    """Whether polars streams a lazy frame's batches (``collect_batches``: polars 2, not 1.33).

    Categorical codes are stable across batches from 1.32 on (one global set of categories).
    """
    import polars as pl

    major, minor = (int(part) for part in pl.__version__.split(".")[:2])
    return (major, minor) >= (1, 32) and hasattr(pl.LazyFrame, "collect_batches")


def streamed_cells(
    table: Any,
    *,
    model: Hashable,
    item: Hashable,
    score: Hashable,
    sample: Hashable | None = None,
    cluster: Hashable | None = None,
) -> DenseCells:
    """The dense per-cell count, mean and variance of a polars lazy frame, batch by batch.

    Models and items come out sorted (as from the engine's group-by).

    Examples
    --------
    >>> import polars as pl
    >>> lazy = pl.LazyFrame({"model": ["b", "b", "a", "a"], "item": [7, 7, 7, 9],
    ...                      "score": [1.0, 0.0, 1.0, 0.5]})
    >>> cells = streamed_cells(lazy, model="model", item="item", score="score")
    >>> cells.models.tolist(), cells.items.tolist()
    (['a', 'b'], [7, 9])
    >>> cells.mean.tolist(), cells.count.tolist()
    ([[1.0, 0.5], [0.5, nan]], [[1.0, 1.0], [2.0, 0.0]])
    """
    import polars as pl

    frame, schema = _frame(table)
    keys = {"model": model, "item": item, "score": score, "sample": sample}
    _require(schema, {**keys, "cluster": cluster})
    _require_numbers(schema, score)
    lazy = _native_lazy(table)
    types = lazy.collect_schema()
    distinct_items, distinct_models = pl.collect_all(
        [lazy.select(pl.col(item).unique()), lazy.select(pl.col(model).unique())],
        engine="streaming",
    )
    items = _ItemCodes(distinct_items.to_series().drop_nulls(), types[item])
    models = _ModelCodes(distinct_models.to_series().drop_nulls(), types[model])
    size = len(items.labels)
    running = CellMoments(len(models.labels) * size)  # model-major: a model's items together
    query = lazy.select(
        pl.col(model).alias("model"),
        models.expression(model).alias("model_code"),
        items.expression(item).alias("item"),
        pl.col(score).cast(pl.Float64).alias("score"),
    )
    for batch in query.collect_batches():  # in order: the same sums, to the bit, every run
        if batch.height == 0:
            continue
        rows = models.codes(batch["model"], batch["model_code"])
        columns = items.codes(batch["item"])
        values = batch["score"].to_numpy()
        keyed = (rows >= 0) & (columns >= 0)
        if not keyed.all():  # a missing model or item: the row is no cell's (as in a group-by)
            rows, columns, values = rows[keyed], columns[keyed], values[keyed]
        running.add(rows * size + columns, values)
    return _dense(
        running, models.labels, items.labels, model, item, _clusters(frame, item, cluster, None)
    )


def _dense(
    running: CellMoments,
    models: pd.Index,
    items: pd.Index,
    model: Hashable,
    item: Hashable,
    clusters: pd.DataFrame | None,
) -> DenseCells:
    """The running arrays as models x items ones, in place (no copy of a cell's numbers)."""
    shape = (len(models), len(items))
    binary = running.binary
    var = None if binary else running.variance(out=running.m2)
    running.empty_as_nan()
    mean, count = running.mean.reshape(shape), running.count.reshape(shape)
    var = None if var is None else var.reshape(shape)
    missing = None if running.missing is None else running.missing.reshape(shape)
    if shape[0] and shape[1]:
        seen = (count > 0).any(axis=0) if missing is None else ((count + missing) > 0).any(axis=0)
        if not seen.all():  # items of rows without a model: no cell of the frame
            mean, count = mean[:, seen], count[:, seen]
            var = None if var is None else var[:, seen]
            missing = None if missing is None else missing[:, seen]
            items = items[seen]
    return DenseCells(
        models=models.rename(model),
        items=items.rename(item),
        mean=mean,
        count=count,
        var=var,
        missing=missing,
        clusters=clusters,
    )


class _ModelCodes:
    """Models numbered by their sorted labels; a categorical's stable codes mapped as they come."""

    def __init__(self, distinct: Any, dtype: Any) -> None:
        self.dtype = dtype
        labels = _text_labels(distinct)
        self.labels = labels[labels.argsort()]
        self._position = {label: code for code, label in enumerate(self.labels)}
        self._lookup = np.full(0, -1, dtype=np.int64)

    def expression(self, column: Hashable) -> Any:
        """The engine's codes of the column: a categorical's own (text cast to one)."""
        import polars as pl

        values = pl.col(column)
        if not isinstance(self.dtype, pl.Categorical | pl.Enum):
            values = values.cast(pl.Categorical)
        return values.to_physical().cast(pl.Int64)

    def codes(self, labels: Any, physical: Any) -> np.ndarray:
        """The batch's model codes (-1 where the model is missing)."""
        absent = physical.is_null().to_numpy() if physical.null_count() else None
        raw = physical.fill_null(0).to_numpy() if absent is not None else physical.to_numpy()
        top = int(raw.max())
        if top >= self._lookup.size:
            grown = np.full(max(top + 1, 2 * self._lookup.size), -1, dtype=np.int64)
            grown[: self._lookup.size] = self._lookup
            self._lookup = grown
        codes = self._lookup[raw]
        unknown = codes < 0 if absent is None else (codes < 0) & ~absent
        if unknown.any():  # an engine code first seen: its label's place among the sorted ones
            for code in np.unique(raw[unknown]):
                label = labels[int(np.flatnonzero(raw == code)[0])]
                if label not in self._position:
                    msg = (
                        f"model {label!r} appeared in the table between its two reads (the "
                        "distinct models, then the rows): read a table that does not change."
                    )
                    raise ValueError(msg)
                self._lookup[code] = self._position[label]
            codes = self._lookup[raw]
        if absent is not None:
            codes[absent] = -1
        return codes


def _text_labels(distinct: Any) -> pd.Index:
    """Distinct text (or categorical) labels as pandas labels, through Arrow."""
    import polars as pl

    return pd.Index(distinct.cast(pl.String).to_arrow().to_pandas())


class _ItemCodes:
    """Items numbered by a first pass over the rows: their distinct values, sorted."""

    def __init__(self, distinct: Any, dtype: Any) -> None:
        self.dtype = dtype
        self.integer = dtype.is_integer()
        if self.integer:
            values = np.sort(distinct.to_numpy().astype(np.int64))
            self.labels = pd.Index(values)
            self._low = int(values[0]) if values.size else 0
            self._lookup = None
            span = int(values[-1]) - self._low + 1 if values.size else 0
            if span <= 2 * values.size + 1024:  # dense ids: a table of their offsets
                self._lookup = np.full(span, -1, dtype=np.int64)
                self._lookup[values - self._low] = np.arange(values.size)
            self._sorted = values
        else:
            labels = _text_labels(distinct)
            self.labels = labels[labels.argsort()]

    def expression(self, column: Hashable) -> Any:
        """The column as the engine hands it over: integers as they are, text as codes."""
        import polars as pl

        if self.integer:
            return pl.col(column).cast(pl.Int64)
        labels = pl.Enum(list(self.labels))
        values = pl.col(column)
        if self.dtype == pl.String or isinstance(self.dtype, pl.Enum):
            values = values.cast(pl.String)
        return values.cast(labels).to_physical().cast(pl.Int64)

    def codes(self, values: Any) -> np.ndarray:
        """The batch's item codes (-1 where the item is missing)."""
        absent = values.is_null().to_numpy() if values.null_count() else None
        raw = values.fill_null(self._low if self.integer else 0).to_numpy()
        if not self.integer:
            codes = raw
        elif self._lookup is not None:
            codes = self._lookup[raw - self._low]
        else:
            codes = np.searchsorted(self._sorted, raw)
        if absent is not None:
            codes = codes.copy() if codes is raw else codes
            codes[absent] = -1
        return codes

"""The rows of a result frame as numpy arrays, each column read once: what the words read.

A report writes a few dozen lines from five result frames, reading most of
their columns several times (the shown pairs, the pairs against the best, the
effect sizes of the significant ones). Read through pandas, each read builds
a Series (copying the frame's metadata) and each categorical model column
turns its Arrow-backed names into Python objects again: at 60 models that was
half of a report's time. :func:`rows_of` reads a column the first time the
words ask for it, as a plain numpy array (``results.column_values``: model
names as an object array), and keeps it; :meth:`Rows.take` selects rows of
every column at once. Nothing here writes to the frame.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.frames import check_frame
from pdcompare.results import column_values, result_info


class Rows:
    """The columns of (some rows of) a result frame as read-only numpy arrays, read on demand.

    ``rows["pvalue"]`` is the column as a numpy array (categorical and string
    columns as object arrays of their values, missing ones as NaN); ``rows.info``
    is the frame's pdcompare metadata as a :class:`~pdcompare.results.ResultInfo`,
    read once and shared by the rows taken from these. Use :func:`rows_of` to
    make one.

    Examples
    --------
    >>> frame = pd.DataFrame({"model_1": pd.Categorical(["a", "a"]), "pvalue": [0.01, 0.5]})
    >>> rows = rows_of(frame)
    >>> rows["model_1"].tolist(), rows.take(rows["pvalue"] < 0.05)["pvalue"].tolist()
    (['a', 'a'], [0.01])
    """

    __slots__ = ("_cache", "_frame", "_positions", "_select", "_source", "columns", "info")

    def __init__(
        self, frame: pd.DataFrame, source: Rows | None = None, select: np.ndarray | None = None
    ) -> None:
        self._frame = frame
        self._source = source
        self._select = select
        self._cache: dict[Any, np.ndarray] = {}
        if source is None:
            self.columns = frame.columns.tolist()
            self._positions = {name: k for k, name in enumerate(self.columns)}
            self.info = result_info(frame)
        else:
            self.columns, self._positions, self.info = source.columns, None, source.info

    def __len__(self) -> int:
        return len(self._frame) if self._select is None else len(self._select)

    def __contains__(self, name: Any) -> bool:
        return name in self.columns

    def __getitem__(self, name: Any) -> np.ndarray:
        found = self._cache.get(name)
        if found is None:
            if self._source is None:
                if name not in self._positions:
                    msg = f"the result frame has no column {name!r}; it has {self.columns}"
                    raise KeyError(msg)
                found = column_values(self._frame, name, position=self._positions[name])
            else:
                found = self._source[name][self._select]
                found.flags.writeable = False
            self._cache[name] = found
        return found

    @property
    def index(self) -> np.ndarray:
        """The row labels (for ``summary``, the model names, best first) as an object array."""
        found = self._cache.get(_INDEX)
        if found is None:
            found = (
                _readonly(self._frame.index.to_numpy(dtype=object))
                if self._source is None
                else self._source.index[self._select]
            )
            self._cache[_INDEX] = found
        return found

    def take(self, rows: np.ndarray) -> Rows:
        """These rows only (a boolean mask or positions), every column read alike."""
        select = np.asarray(rows)
        if select.dtype == bool:
            select = np.flatnonzero(select)
        return Rows(self._frame, self, select)


_INDEX = object()  # the cache's key of the index (a key no column can have)


def in_names(values: np.ndarray, names: Any) -> np.ndarray:
    """Whether each of ``values`` is one of ``names`` (``np.isin`` by hashing, for object arrays).

    Examples
    --------
    >>> in_names(np.array(["a", "c"], dtype=object), ["a", "b"]).tolist()
    [True, False]
    """
    known = set(names)
    return np.fromiter((value in known for value in values), dtype=bool, count=len(values))


def rows_of(frame: pd.DataFrame | Rows) -> Rows:
    """The :class:`Rows` of a result frame (the same object when given one).

    Examples
    --------
    >>> rows = rows_of(pd.DataFrame({"x": [1.0, 2.0]}, index=["a", "b"]))
    >>> rows.index.tolist(), len(rows), "x" in rows
    (['a', 'b'], 2, True)
    """
    if isinstance(frame, Rows):
        return frame
    check_frame(frame)
    return Rows(frame)


def _readonly(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view

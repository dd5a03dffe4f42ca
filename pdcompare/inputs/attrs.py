"""pdcompare's metadata in ``DataFrame.attrs``: read as a copy, written on new frames only."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.frames import check_frame

#: Key of pdcompare's metadata in ``DataFrame.attrs``.
ATTRS_KEY = "pdcompare"


def pdcompare_attrs(frame: pd.DataFrame) -> dict[str, Any]:
    """A deep copy of the frame's pdcompare metadata (empty dict when absent).

    The first thing most functions read of their frame: a TypeError naming the
    fix when it is not a DataFrame.
    """
    check_frame(frame)
    stored = frame.attrs.get(ATTRS_KEY)
    return copy.deepcopy(stored) if isinstance(stored, dict) else {}


def stored_attr(frame: pd.DataFrame, key: str, default: Any = None) -> Any:
    """A deep copy of one entry of the frame's pdcompare metadata (``default`` when absent).

    Cheaper than :func:`pdcompare_attrs` when the metadata holds large entries
    (the parameters of every candidate of a search) that the caller does not read.
    """
    check_frame(frame)
    stored = frame.attrs.get(ATTRS_KEY)
    if not isinstance(stored, dict) or key not in stored:
        return default
    return copy.deepcopy(stored[key])


#: The Python types a JSON document holds, stored as they are.
_PLAIN = frozenset({str, int, float, bool, type(None)})


def jsonable(value: Any) -> Any:
    """``value`` as JSON can hold it: what ``attrs["pdcompare"]`` stores (DESIGN section 34).

    numpy scalars become Python numbers, arrays, tuples and Index objects
    lists, mappings dicts (with their keys converted the same way), all the
    way down, so that a frame written with ``to_parquet`` (which stores its
    ``attrs`` as JSON) or pickled reads back with the same metadata. Frames
    and Series are refused (a TypeError): a table in the metadata is stored
    as lists of its rows (what :func:`pdcompare.shrinkage` reads). Other
    objects (a search's estimators among its parameters) are kept as they are.

    Examples
    --------
    >>> jsonable({"rope": (-0.01, 0.01), "n": np.int64(3), "x": np.array([1.5, np.nan])})
    {'rope': [-0.01, 0.01], 'n': 3, 'x': [1.5, nan]}
    """
    kind = type(value)
    if kind in _PLAIN or kind is _SharedMetadata or kind is _SharedList:
        return value  # shared ones were made JSON-able when they were built
    if kind is list or kind is tuple:
        if _PLAIN.issuperset(map(type, value)):  # a row of numbers or names: no recursion
            return list(value)
        return [jsonable(item) for item in value]
    if isinstance(value, Mapping):
        return {jsonable(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, np.ndarray | pd.Index):
        return jsonable(value.tolist())
    if isinstance(value, np.generic):
        return jsonable(value.item())
    if isinstance(value, pd.DataFrame | pd.Series):
        msg = (
            "pdcompare's metadata holds JSON-able values only (it must survive to_parquet); "
            f"got a {kind.__name__}: store its values as lists."
        )
        raise TypeError(msg)
    if isinstance(value, str):  # a str enum: its text (str() would give the member's name)
        return str.__str__(value)
    for plain in (bool, int, float):  # subclasses (np.float64, an int enum) as the base type
        if isinstance(value, plain):
            return plain(value)
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    return value


def with_attrs(frame: pd.DataFrame, meta: dict[str, Any]) -> pd.DataFrame:
    """Return ``frame`` with ``meta`` stored as its pdcompare metadata (frame is new).

    The metadata is stored in the JSON-able form of :func:`jsonable`: tuples as
    lists, numpy numbers as Python ones; a frame or Series in it is refused.
    """
    frame.attrs = {**frame.attrs, ATTRS_KEY: jsonable(meta)}
    return frame


class _SharedMetadata(dict):
    """Metadata that pandas' copies of a frame share instead of deep-copying (read only).

    A plain dict to JSON (``to_parquet`` stores it as one, and reads back a
    dict); ``view`` may hold what a reader built from it, shared as well.
    """

    view: Any = None

    def __deepcopy__(self, memo: dict) -> _SharedMetadata:
        return self


class _SharedList(list):
    """A list of metadata that pandas' copies of a frame share (read only); JSON's list."""

    def __deepcopy__(self, memo: dict) -> _SharedList:
        return self


def shared(meta: dict[str, Any] | list) -> dict[str, Any] | list:
    """``meta``, JSON-able, as a dict or list that pandas' copies of a frame share (read only).

    For large entries of a frame's metadata (an items frame's sample counts
    per cell, a result's values per pair and data set, posterior draws):
    pandas deep-copies ``attrs`` into every frame it derives (every column
    read), and these are not copied. They equal a plain dict or list of the
    same entries, JSON writes them as one (and reads back a plain one), and
    :func:`with_attrs` keeps them as they are.

    Examples
    --------
    >>> design = shared({"models": ("a", "b")})
    >>> copy.deepcopy(design) is design, design == {"models": ["a", "b"]}
    (True, True)
    >>> rows = shared([np.array([0.5, 1.0])])
    >>> copy.deepcopy(rows) is rows, rows == [[0.5, 1.0]]
    (True, True)
    """
    if isinstance(meta, Mapping):
        return _SharedMetadata(jsonable(meta))
    return _SharedList(jsonable(meta))


def read_only(frame: pd.DataFrame) -> pd.DataFrame:
    """A view of ``frame`` whose pdcompare metadata its derived frames share.

    pandas deep-copies ``attrs`` into every frame or column derived from a
    frame (``result["pvalue"]``, ``result.loc[rows]``); for a result of 60
    models, whose metadata lists their names, that copying was a third of a
    report's time. The frames derived from this view share one metadata
    dict, and :func:`pdcompare_attrs` returns it without a copy: for code
    that only reads (the report's words), never for a frame given to a user.

    Examples
    --------
    >>> frame = with_attrs(pd.DataFrame({"x": [1.0]}), {"models": ["a", "b"]})
    >>> view = read_only(frame)
    >>> pdcompare_attrs(view["x"].to_frame()) is view.attrs[ATTRS_KEY]
    True
    >>> pdcompare_attrs(frame) == pdcompare_attrs(view), frame.attrs is not view.attrs
    (True, True)
    """
    view = frame.copy(deep=False)
    stored = frame.attrs.get(ATTRS_KEY)
    if isinstance(stored, dict):
        view.attrs = {**frame.attrs, ATTRS_KEY: _SharedMetadata(stored)}
    return view

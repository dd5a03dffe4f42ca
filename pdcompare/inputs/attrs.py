"""pdcompare's metadata in ``DataFrame.attrs``: read as a copy, written on new frames only."""

from __future__ import annotations

import copy
from typing import Any

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


def with_attrs(frame: pd.DataFrame, meta: dict[str, Any]) -> pd.DataFrame:
    """Return ``frame`` with ``meta`` stored as its pdcompare metadata (frame is new)."""
    frame.attrs = {**frame.attrs, ATTRS_KEY: meta}
    return frame

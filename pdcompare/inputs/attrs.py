"""pdcompare's metadata in ``DataFrame.attrs``: read as a copy, written on new frames only."""

from __future__ import annotations

import copy
from typing import Any

import pandas as pd

#: Key of pdcompare's metadata in ``DataFrame.attrs``.
ATTRS_KEY = "pdcompare"


def pdcompare_attrs(frame: pd.DataFrame) -> dict[str, Any]:
    """A deep copy of the frame's pdcompare metadata (empty dict when absent)."""
    stored = frame.attrs.get(ATTRS_KEY)
    return copy.deepcopy(stored) if isinstance(stored, dict) else {}


def with_attrs(frame: pd.DataFrame, meta: dict[str, Any]) -> pd.DataFrame:
    """Return ``frame`` with ``meta`` stored as its pdcompare metadata (frame is new)."""
    frame.attrs = {**frame.attrs, ATTRS_KEY: meta}
    return frame

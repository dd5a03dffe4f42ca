"""Plots of scores frames and result frames: Axes-level, matplotlib conventions.

Every function draws on ``ax`` (the current Axes when None), returns the Axes,
never calls ``plt.show()`` and changes no global style. matplotlib is imported
only when a plot is drawn. Kinds register themselves with ``_scores_kind``
(pictures of a scores frame, chosen by name) or ``_result_kind`` (the picture
of a result frame, chosen by the test that made it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from pdcompare._validation import check_option
from pdcompare.frames import pdcompare_attrs

_SCORES_KINDS: dict[str, Callable[..., Any]] = {}
_RESULT_KINDS: dict[str, Callable[..., Any]] = {}


def _scores_kind(name: str):
    def register(function):
        _SCORES_KINDS[name] = function
        return function

    return register


def _result_kind(*tests: str):
    def register(function):
        for test in tests:
            _RESULT_KINDS[test] = function
        return function

    return register


def _axes(ax):
    """The Axes to draw on: ``ax`` or the current one."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.gca()


def plot(frame: pd.DataFrame, kind: str | None = None, *, ax=None, **options: Any):
    """Draw ``kind`` for a scores frame, or the suitable picture of a result frame."""
    meta = pdcompare_attrs(frame)
    if meta.get("kind") == "result":
        test = meta.get("test")
        if kind is not None and kind in _SCORES_KINDS:
            msg = f"`kind`: {kind!r} draws a scores frame; a result frame draws with kind=None."
            raise ValueError(msg)
        if test not in _RESULT_KINDS:
            msg = f"No plot for results of {test!r}; plot the scores frame instead."
            raise ValueError(msg)
        return _RESULT_KINDS[test](frame, ax=ax, **options)
    if kind is None:
        msg = f"`kind` is needed for a scores frame: one of {', '.join(map(repr, _SCORES_KINDS))}."
        raise ValueError(msg)
    check_option("kind", kind, tuple(_SCORES_KINDS))
    return _SCORES_KINDS[kind](frame, ax=ax, **options)


# ============================================================ scores frames (presentation)


# ============================================================ Bayesian comparison


# ============================================================ bootstrap on predictions


# ============================================================ end of plot kinds

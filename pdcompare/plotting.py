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


def _interval_segments(point, low, high):
    """Finite ends of intervals: an infinite (one-sided) end is drawn up to the point."""
    import numpy as np

    point = np.asarray(point, dtype=float)
    low = np.where(np.isinf(low), point, np.asarray(low, dtype=float))
    high = np.where(np.isinf(high), point, np.asarray(high, dtype=float))
    return low, high


@_result_kind("bootstrap", "accuracy_ci")
def plot_model_intervals(frame: pd.DataFrame, *, ax=None, **kwargs: Any):
    """Each model's score with its confidence interval, best model on top.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of ``bootstrap`` or ``accuracy_ci`` (indexed by model).
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    **kwargs
        Passed to ``Axes.hlines`` (the interval lines).

    Returns
    -------
    matplotlib.axes.Axes
        One horizontal line per model (``ax.collections[0]``), its point
        estimate as markers (``ax.lines[0]``), models as y tick labels (the
        best on top), the score's name as the x label.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> preds = pd.DataFrame({"y": [0, 1, 1, 0, 1], "a": [0, 1, 1, 0, 0], "b": [0, 1, 0, 0, 0]})
    >>> ax = preds.cmp.bootstrap(random_state=0, n_resamples=100).cmp.plot()
    >>> [t.get_text() for t in ax.get_yticklabels()], ax.get_xlabel()
    (['b', 'a'], 'accuracy')
    """
    import numpy as np

    meta = pdcompare_attrs(frame)
    value = "accuracy" if meta.get("test") == "accuracy_ci" else "estimate"
    ordered = frame.sort_values(
        value, ascending=not meta.get("greater_is_better", True), kind="stable"
    )
    ax = _axes(ax)
    # Drawn bottom-up from the worst model, so that the best one is on top.
    ordered = ordered.iloc[::-1]
    positions = np.arange(len(ordered))
    low, high = _interval_segments(ordered[value], ordered["ci_low"], ordered["ci_high"])
    ax.hlines(positions, low, high, **{"linewidth": 2, **kwargs})
    ax.plot(ordered[value].to_numpy(dtype=float), positions, "o", color="black")
    ax.set_yticks(positions, labels=[str(name) for name in ordered.index])
    ax.set_ylim(-0.5, len(ordered) - 0.5)
    ax.set_xlabel(str(meta.get("score", value)))
    ax.set_ylabel("model")
    return ax


@_result_kind("bootstrap_diff")
def plot_differences(frame: pd.DataFrame, *, ax=None, **kwargs: Any):
    """Bootstrap difference of each pair with its interval, and a line at zero.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of ``bootstrap_diff`` (one row per pair).
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    **kwargs
        Passed to ``Axes.hlines`` (the interval lines).

    Returns
    -------
    matplotlib.axes.Axes
        One horizontal line per pair (``ax.collections[0]``, a one-sided
        interval drawn up to the point), the differences as markers
        (``ax.lines[0]``), a dashed vertical line at 0 (``ax.lines[1]``), pairs
        "model_1 − model_2" as y tick labels, the first row on top.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> preds = pd.DataFrame({"y": [0, 1, 1, 0, 1], "a": [0, 1, 1, 0, 0], "b": [0, 1, 0, 0, 0]})
    >>> ax = preds.cmp.bootstrap_diff(random_state=0, n_resamples=100).cmp.plot()
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a − b']
    """
    import numpy as np

    meta = pdcompare_attrs(frame)
    ax = _axes(ax)
    # Drawn bottom-up from the last row, so that the first row is on top.
    frame = frame.iloc[::-1]
    positions = np.arange(len(frame))
    low, high = _interval_segments(frame["mean_diff"], frame["ci_low"], frame["ci_high"])
    ax.hlines(positions, low, high, **{"linewidth": 2, **kwargs})
    ax.plot(frame["mean_diff"].to_numpy(dtype=float), positions, "o", color="black")
    ax.axvline(0.0, color="0.4", linestyle="--", linewidth=1)
    pairs = zip(frame["model_1"], frame["model_2"], strict=True)
    labels = [f"{first} − {second}" for first, second in pairs]
    ax.set_yticks(positions, labels=labels)
    ax.set_ylim(-0.5, len(frame) - 0.5)
    ax.set_xlabel(f"difference in {meta.get('score', 'score')}")
    ax.set_ylabel("pair")
    return ax


# ============================================================ end of plot kinds

"""Pictures of bootstrap results: per-model intervals and paired differences."""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare.inputs.attrs import pdcompare_attrs
from pdcompare.plotting._base import (
    _annotate_pvalues,
    _axes,
    _figure_title,
    _interval_segments,
    _result_kind,
)


@_result_kind("bootstrap", "accuracy_ci")
def plot_model_intervals(frame: pd.DataFrame, *, ax=None, title: str | None = None, **kwargs: Any):
    """Each model's score with its confidence interval, best model on top.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of ``bootstrap`` or ``accuracy_ci`` (indexed by model).
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    title : str, optional
        The Axes title; by default it names the interval and its level.
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
    level = f"{meta['ci']:.0%} " if meta.get("ci") is not None else ""
    if meta.get("test") == "accuracy_ci":
        default = f"Accuracy with {level}{meta.get('method', 'binomial')} interval"
    else:
        default = f"Bootstrap {level}{meta.get('method', 'percentile')} interval per model"
    _figure_title(ax, title, default)
    return ax


@_result_kind("bootstrap_diff")
def plot_differences(frame: pd.DataFrame, *, ax=None, title: str | None = None, **kwargs: Any):
    """Bootstrap difference of each pair with its interval, and a line at zero.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of ``bootstrap_diff`` (one row per pair).
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    title : str, optional
        The Axes title; by default it names the paired bootstrap and its level.
    **kwargs
        Passed to ``Axes.hlines`` (the interval lines).

    Returns
    -------
    matplotlib.axes.Axes
        One horizontal line per pair (``ax.collections[0]``, a one-sided
        interval drawn up to the point), the differences as markers
        (``ax.lines[0]``), a dashed vertical line at 0 (``ax.lines[1]``), pairs
        "model_1 − model_2" as y tick labels, the first row on top, and each
        pair's (adjusted) p-value written at the right.

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
    adjusted = "pvalue_adj" in frame.columns
    _annotate_pvalues(ax, positions, frame["pvalue_adj" if adjusted else "pvalue"], adjusted)
    level = f"{meta['ci']:.0%} " if meta.get("ci") is not None else ""
    _figure_title(ax, title, f"Paired bootstrap: differences with {level}intervals")
    return ax

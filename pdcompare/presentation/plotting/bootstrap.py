"""Pictures of bootstrap results: per-model intervals and paired differences."""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare.presentation.plotting._base import (
    _axes,
    _figure_title,
    _interval_segments,
    _result_kind,
    matplotlib_options,
    model_colours,
    require_columns,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.plotting.results import (
    _draw_forest,
    _forest_figure,
    plot_pvalue_dots,
)
from pdcompare.presentation.shown import result_models, top_models, top_pairs
from pdcompare.results import result_info


@_result_kind("bootstrap", "accuracy_ci")
def plot_model_intervals(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Each model's score with its confidence interval, best model on top, in its colour.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of ``bootstrap`` or ``accuracy_ci`` (indexed by model).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Show the best ``top`` models; by default all up to 20, the best 20
        beyond, as the title says.
    title : str, optional
        The Axes title; by default it names the interval and its level.
    **kwargs
        Passed to ``Axes.hlines`` (the interval lines).

    Returns
    -------
    matplotlib.axes.Axes
        One horizontal line per model (``ax.collections[0]``), its point
        estimate as markers (``ax.collections[1]``), each in the model's
        colour, models as y tick labels (the best on top), the score's name
        as the x label.

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

    info = result_info(frame)
    value = "accuracy" if info.test == "accuracy_ci" else "estimate"
    require_columns(frame, (value, "ci_low", "ci_high"), "An interval plot")
    ordered = frame.sort_values(value, ascending=not info.direction, kind="stable")
    colours = model_colours(ordered.index.tolist())
    shown, note = top_models(ordered.index.tolist(), top)
    # Drawn bottom-up from the worst model, so that the best one is on top.
    ordered = ordered.loc[shown].iloc[::-1]
    names = [str(name) for name in ordered.index]
    ax = _axes(ax, figsize=row_figsize(len(ordered), max(map(len, names), default=1)))
    positions = np.arange(len(ordered))
    low, high = _interval_segments(ordered[value], ordered["ci_low"], ordered["ci_high"])
    row_colours = [colours[name] for name in ordered.index]
    with matplotlib_options("the interval plot", "Axes.hlines", kwargs):
        ax.hlines(positions, low, high, **{"linewidth": 2, "colors": row_colours, **kwargs})
    ax.scatter(
        ordered[value].to_numpy(dtype=float),
        positions,
        c=row_colours,
        edgecolors="black",
        linewidths=0.5,
        zorder=3,
    )
    ax.set_yticks(positions, labels=names, fontsize=row_fontsize(ax, len(ordered)))
    ax.set_ylim(-0.5, len(ordered) - 0.5)
    ax.set_xlabel(str(value if info.score is None else info.score))
    ax.set_ylabel("model")
    ax.grid(axis="x", alpha=0.3)
    level = f"{info.ci:.0%} " if info.ci is not None else ""
    if info.test == "accuracy_ci":
        default = f"Accuracy with {level}{(info.method or 'binomial')} interval"
    else:
        default = f"Bootstrap {level}{(info.method or 'percentile')} interval per model"
    _figure_title(ax, title, default, note)
    return ax


@_result_kind("bootstrap_diff")
def plot_differences(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Forest plot of a paired bootstrap: each pair's difference with its interval.

    Drawn like the t-test forest plot
    (:func:`pdcompare.presentation.plotting.results.plot_forest`):
    one row per pair ``model_1 − model_2``, the first row on top, interval
    and marker in ``model_2``'s colour, filled when the pair is significant,
    a dashed line at 0 and each pair's (adjusted) p-value at the right. The
    bootstrap intervals are not adjusted for multiple comparisons; the x
    label says so when the p-values are.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of ``bootstrap_diff`` (one row per pair).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Show the comparisons among the best ``top`` models (see
        :func:`pdcompare.presentation.shown.top_pairs`).
    title : str, optional
        The Axes title; by default it names the paired bootstrap and its level.
    **kwargs
        Passed to ``Axes.errorbar`` (the interval lines).

    Returns
    -------
    matplotlib.axes.Axes
        One ``errorbar`` container for the significant pairs and one for the
        others (``ax.containers``), the markers as scatter collections, a
        dashed vertical line at 0, pairs "model_1 − model_2" as y tick labels.

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
    require_columns(
        frame, ("model_1", "model_2", "mean_diff", "ci_low", "ci_high", "pvalue"), "A forest plot"
    )
    info = result_info(frame)
    colours = model_colours(result_models(frame))
    rows, note = top_pairs(frame, top)
    ax, fontsize = _forest_figure(ax, rows)
    low, high = (rows[c].to_numpy(dtype=float) for c in ("ci_low", "ci_high"))
    _draw_forest(ax, rows, low, high, colours=colours, fontsize=fontsize, kwargs=kwargs)
    level = f"{info.ci:.0%} " if info.ci is not None else ""
    sided = info.alternative or "two-sided"
    sided_text = "" if sided in (None, "two-sided") else f", one-sided ({sided})"
    label = f"difference in {(info.score or 'score')} with {level}interval{sided_text}"
    correction = info.correction
    if correction and "pvalue_adj" in frame:
        label = f"{label}\n(interval unadjusted; markers and p-values {correction}-adjusted)"
    ax.set_xlabel(label)
    _figure_title(ax, title, f"Paired bootstrap: differences with {level}intervals", note)
    return ax


@_result_kind("mcnemar")
def plot_mcnemar(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """McNemar's test: each pair's difference of accuracies with its interval, or its p-value.

    With the interval columns (``mcnemar``'s default ``interval="tango"``,
    or ``"newcombe"``, ``"wald"``) a forest plot like
    :func:`plot_differences`: one row per pair ``model_1 − model_2``, the
    difference of the two accuracies and its interval, the (adjusted)
    p-value at the right. Without them (``interval=None``) the p-value dots
    of :func:`pdcompare.presentation.plotting.results.plot_pvalue_dots`.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of ``mcnemar``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Show the comparisons among the best ``top`` models.
    title : str, optional
        The Axes title; by default it names the test and the interval.
    **kwargs
        Passed to ``Axes.errorbar`` (the interval lines), or to
        ``Axes.scatter`` for the p-value dots.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> items = pd.DataFrame([[1, 1, 1, 0, 1, 1], [1, 0, 1, 0, 0, 1]], index=["a", "b"])
    >>> ax = items.cmp.set_design(items=True).cmp.mcnemar().cmp.plot()
    >>> [t.get_text() for t in ax.get_yticklabels()], ax.get_title()
    (['a − b'], "McNemar's test: differences of accuracy with Tango's 95% intervals")
    """
    if not {"mean_diff", "ci_low", "ci_high"} <= set(frame.columns):
        return plot_pvalue_dots(frame, ax=ax, top=top, title=title, **kwargs)
    info = result_info(frame)
    colours = model_colours(result_models(frame))
    rows, note = top_pairs(frame, top)
    ax, fontsize = _forest_figure(ax, rows)
    low, high = (rows[c].to_numpy(dtype=float) for c in ("ci_low", "ci_high"))
    _draw_forest(ax, rows, low, high, colours=colours, fontsize=fontsize, kwargs=kwargs)
    level = f"{info.ci:.0%} " if info.ci is not None else ""
    method = {"tango": "Tango's", "newcombe": "Newcombe's", "wald": "Wald"}.get(
        str(info.interval), ""
    )
    label = f"difference of accuracy with {method} {level}interval".replace("  ", " ")
    if info.correction and "pvalue_adj" in frame:
        label = f"{label}\n(interval unadjusted; markers and p-values {info.correction}-adjusted)"
    ax.set_xlabel(label)
    default = f"McNemar's test: differences of accuracy with {method} {level}intervals"
    _figure_title(ax, title, default.replace("  ", " "), note)
    return ax

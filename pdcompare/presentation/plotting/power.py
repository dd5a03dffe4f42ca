"""The picture of a ``power`` result: what each pair's design could detect, against ``delta``."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.plotting._base import (
    _figure_title,
    _result_kind,
    matplotlib_options,
    require_columns,
)
from pdcompare.presentation.plotting.pair_rows import (
    column,
    draw_points,
    legend_with_colours,
    marker_handles,
    pair_rows,
    rows_axes,
)
from pdcompare.results import ResultInfo, result_info


def power_text(power: float) -> str:
    """A power written beside its row: ``power 0.12``, ``power >0.99``, blank when missing.

    Examples
    --------
    >>> power_text(0.1153), power_text(0.9999), power_text(float("nan"))
    ('power 0.12', 'power >0.99', '')
    """
    if not np.isfinite(power):
        return ""
    return "power >0.99" if power > 0.99 else f"power {power:.2f}"


def power_test(result: pd.DataFrame, info: ResultInfo) -> str:
    """The test whose power a result gives, in words, from its unit and columns.

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> power_test(pd.DataFrame(columns=["n_splits"]), info_from_meta({}))
    'the corrected t-test'
    >>> power_test(pd.DataFrame(), info_from_meta({"unit": "item", "clustered": True}))
    'the paired t-test over items, clustered'

    """
    unit = info.unit
    if unit == "dataset":
        return "a paired t-test across data sets"
    if unit in ("item", "cluster means"):
        return "the paired t-test over items" + (", clustered" if info.clustered else "")
    if "n_runs_1" in result or unit == "run":
        return "Welch's t-test over runs"
    return "the corrected t-test"


@_result_kind("power")
def plot_power(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """The smallest difference each pair's design finds with the target power, against ``delta``.

    A power analysis is about the design, not about the observed difference
    (the power "at the observed difference" only restates the p-value), so
    the picture shows, per pair, the minimal detectable difference ``mdd``
    (found with probability ``target``, 0.8 by default) as a marker and the
    ``delta`` asked about as a dashed line: a pair whose marker lies left
    of the line (filled) is found at ``delta`` with at least the target
    power; its power at ``delta`` is written at the right. Where the result
    has ``mdd_limit`` (a scores frame), a grey bar marks the floor that no
    number of repeats passes. Markers take ``model_2``'s colour.

    Parameters
    ----------
    result : pandas.DataFrame
        Result of ``power`` (any frame kind, any scope).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the rows.
    top : int, optional
        Show the pairs among the best ``top`` models; by default 20 models,
        or 10 of an all-pairs result, as the title says.
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.scatter`` of the markers.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> result = load_grid_search_scores().cmp.power(delta=0.01)
    >>> ax = result.cmp.plot()
    >>> ax.get_xlabel()
    'smallest difference found with power 0.8 (mdd), in score units'
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    require_columns(result, ("model_1", "model_2", "power", "mdd"), "A power plot")
    info = result_info(result)
    shown = pair_rows(result, top, "A power plot")
    ax, fontsize = rows_axes(ax, shown)
    mdd = column(shown.rows, "mdd")
    power = column(shown.rows, "power")
    floor = column(shown.rows, "mdd_limit")
    delta = float(info.get("delta", np.nan))
    target = float(info.get("target", 0.8))
    ends = np.concatenate([mdd, floor, [delta, 0.0]])
    ends = ends[np.isfinite(ends)]
    right = 1.12 * ends.max() if ends.size and ends.max() > 0 else 1.0
    ax.set_xlim(0.0, right)
    handles, labels = marker_handles(
        f"power ≥ {target:g} at delta", f"power < {target:g} at delta"
    )
    drawn = np.isfinite(floor)
    if drawn.any():
        ax.scatter(floor[drawn], shown.positions[drawn], marker="|", s=120, color="0.55",
                   zorder=2)
        from matplotlib.lines import Line2D

        handles.append(Line2D([], [], marker="|", linestyle="none", color="0.55",
                              markersize=10))
        labels.append("floor: no number of repeats finds less")
    ax.hlines(shown.positions, 0.0, np.nan_to_num(mdd), color="0.88", zorder=1)
    with matplotlib_options("the power plot", "Axes.scatter", kwargs):
        draw_points(ax, mdd, shown, np.asarray(power >= target), **kwargs)
    if np.isfinite(delta):
        handles.append(ax.axvline(delta, color="C3", linestyle="--", linewidth=1))
        labels.append(f"delta = {delta:g}")
    for position, value in zip(shown.positions, power, strict=True):
        ax.annotate(power_text(value), xy=(1.01, position), xycoords=("axes fraction", "data"),
                    va="center", fontsize=fontsize)
    ax.set_xlabel(f"smallest difference found with power {target:g} (mdd), in score units")
    legend_with_colours(ax, shown, handles, labels)
    alpha = info.alpha
    at = f" at alpha = {alpha:g}" if alpha is not None else ""
    default = f"What the design could detect ({power_test(result, info)}{at})"
    _figure_title(ax, title, default, shown.note)
    return ax

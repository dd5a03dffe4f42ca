"""The picture of an ``equivalence`` (TOST) result: each pair's interval against the margins."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.labels import alpha_label, rope_text
from pdcompare.presentation.plotting._base import (
    _annotate_pvalues,
    _figure_title,
    _result_kind,
    matplotlib_options,
    require_columns,
)
from pdcompare.presentation.plotting.pair_rows import (
    column,
    draw_bars,
    draw_points,
    flags,
    legend_with_colours,
    marker_handles,
    pair_rows,
    rows_axes,
)
from pdcompare.results import result_info


@_result_kind("equivalence")
def plot_equivalence(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Each pair's 1 − 2·alpha interval of the difference against the equivalence margins.

    Two one-sided tests at ``alpha`` call a pair equivalent exactly when its
    1 − 2·alpha interval lies inside the margins (the shaded band): one row
    per pair, the marker at the mean difference, the bar the interval, filled
    where the pair is equivalent (``reject``, after the correction when there
    is one). The (adjusted) TOST p-value is written at the right. Markers take
    ``model_2``'s colour, as in every picture of the frame.

    Parameters
    ----------
    result : pandas.DataFrame
        Result of ``equivalence`` (any scope).
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
    >>> result = load_grid_search_scores().cmp.equivalence(rope=0.05)
    >>> ax = result.cmp.plot()
    >>> ax.get_title().splitlines()[0]
    'Equivalence test (TOST) within ±0.05, holm correction'
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    require_columns(
        result, ("model_1", "model_2", "mean_diff", "ci_low", "ci_high"), "An equivalence plot"
    )
    info = result_info(result)
    shown = pair_rows(result, top, "An equivalence plot")
    ax, fontsize = rows_axes(ax, shown)
    estimate = column(shown.rows, "mean_diff")
    low, high = column(shown.rows, "ci_low"), column(shown.rows, "ci_high")
    margin_low, margin_high = info.rope or (np.nan, np.nan)
    ends = np.concatenate([estimate, low, high, [margin_low, margin_high, 0.0]])
    ends = ends[np.isfinite(ends)]
    span = float(np.ptp(ends)) or 1.0
    ax.set_xlim(ends.min() - 0.1 * span, ends.max() + 0.1 * span)
    band = None
    if np.isfinite([margin_low, margin_high]).all():
        band = ax.axvspan(margin_low, margin_high, color="0.9", zorder=0, linewidth=0)
    ax.axvline(0.0, color="0.5", linestyle="--", linewidth=1)
    draw_bars(ax, low, high, shown)
    equivalent = flags(shown.rows, "reject")
    with matplotlib_options("the equivalence plot", "Axes.scatter", kwargs):
        draw_points(ax, estimate, shown, equivalent, **kwargs)
    correction = info.correction
    pvalue = "pvalue_adj" if "pvalue_adj" in shown.rows and correction else "pvalue"
    if pvalue in shown.rows:
        _annotate_pvalues(
            ax, shown.positions, column(shown.rows, pvalue), pvalue == "pvalue_adj", fontsize
        )
    alpha = info.level_alpha
    label = f"mean difference model_1 − model_2 with {1 - 2 * alpha:.0%} interval (1 − 2·alpha)"
    if correction:
        label += f"\n(interval unadjusted; verdicts and p-values {correction}-adjusted)"
    ax.set_xlabel(label)
    handles, labels = marker_handles(
        f"equivalent at {alpha_label(info)}", "not shown equivalent"
    )
    if band is not None:
        handles.append(band)
        labels.append(f"margins {rope_text(info.rope)}")
    legend_with_colours(ax, shown, handles, labels)
    margins = f" within {rope_text(info.rope)}" if band is not None else ""
    correction_text = f", {correction} correction" if correction else ""
    default = f"Equivalence test (TOST){margins}{correction_text}"
    _figure_title(ax, title, default, shown.note)
    return ax

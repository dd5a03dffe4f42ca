"""The picture of an ``aso`` result: each pair's violation ratio and its bound against ``tau``."""

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
    draw_bars,
    draw_points,
    flags,
    legend_with_colours,
    marker_handles,
    pair_rows,
    rows_axes,
)
from pdcompare.results import result_info


@_result_kind("aso")
def plot_aso(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Each pair's ``eps_min`` against ``tau``: almost stochastic order, pair by pair.

    One row per pair on the scale of the violation ratio (0: model_1 better
    at every quantile, 0.5: no order, 1: model_2 better at every quantile):
    the small tick is the violation ratio ε of the runs, the marker its
    bootstrap upper bound ``eps_min`` (joined by a bar), the dashed line
    ``tau``. A marker left of ``tau`` (filled) is a pair where model_1
    almost stochastically dominates model_2 (``reject``). Markers take
    ``model_2``'s colour, as in every picture of the frame.

    Parameters
    ----------
    result : pandas.DataFrame
        Result of ``aso`` (any scope).
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
    >>> import numpy as np, pandas as pd
    >>> values = np.random.default_rng(0).normal(0.8, 0.02, (3, 8)) + [[0.05], [0], [0]]
    >>> runs = pd.DataFrame(values, index=["a", "b", "c"]).cmp.set_design(paired=False)
    >>> ax = runs.cmp.aso(random_state=0, n_bootstrap=200).cmp.plot()
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['c', 'b']
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    require_columns(result, ("model_1", "model_2", "eps_min"), "An ASO plot")
    info = result_info(result)
    shown = pair_rows(result, top, "An ASO plot")
    ax, _ = rows_axes(ax, shown)
    eps_min = column(shown.rows, "eps_min")
    ratio = column(shown.rows, "violation_ratio")
    tau = float(info.get("tau", 0.2))
    ax.axvspan(0.0, tau, color="0.93", zorder=0, linewidth=0)
    ax.axvline(0.5, color="0.6", linestyle=":", linewidth=1)
    draw_bars(ax, ratio, eps_min, shown, linewidth=1.2)
    drawn = np.isfinite(ratio)
    if drawn.any():
        ax.scatter(ratio[drawn], shown.positions[drawn], marker="|", s=90,
                   c=shown.colours[drawn], zorder=3)
    with matplotlib_options("the ASO plot", "Axes.scatter", kwargs):
        draw_points(ax, eps_min, shown, flags(shown.rows, "reject"), **kwargs)
    tau_line = ax.axvline(tau, color="C3", linestyle="--", linewidth=1)
    ax.set_xlim(-0.02, 1.02)
    level = info.get("confidence_adj", info.get("confidence_level"))
    bound = f"upper bound at {level:.1%}" if level is not None else "upper bound"
    ax.set_xlabel(
        f"violation ratio ε (tick) and eps_min, its {bound} (marker)\n"
        "0: model_1 better at every quantile · 0.5: no order · 1: model_2 better"
    )
    from matplotlib.lines import Line2D

    handles, labels = marker_handles("eps_min < tau: model_1 almost dominates", "no order shown")
    handles += [tau_line, Line2D([], [], marker="|", linestyle="none", color="0.35")]
    labels += [f"tau = {tau:g}", "violation ratio ε"]
    legend_with_colours(ax, shown, handles, labels)
    _figure_title(ax, title, "Almost stochastic order per pair", shown.note)
    return ax

"""The picture of a trade-off: score against cost, the front joined, every status marked."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.compare.figure_inputs import pareto_inputs
from pdcompare.presentation.plotting._base import (
    _axes,
    _figure_title,
    _legend_above,
    _result_kind,
    _scores_kind,
    require_columns,
)
from pdcompare.results import result_info

#: How each status is drawn: marker, face colour, label.
STYLE = {
    "front": ("o", "tab:blue", "front: worth its cost"),
    "ambiguous": ("D", "tab:orange", "ambiguous: cannot tell"),
    "dominated": ("x", "tab:grey", "dominated"),
}

#: Beyond this many models only the front models are named.
NAMED_UP_TO = 20


@_result_kind("pareto")
def pareto_plot(
    frame: pd.DataFrame,
    *,
    ax=None,
    log_cost: bool | None = None,
    names: bool | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Score (y) against cost (x) of a ``pareto`` result: intervals, the front joined, statuses.

    Every model is a marker at its mean cost and score with its score
    interval (``ci_low``, ``ci_high``); the front models (significantly
    better than every cheaper front model, dominated by none) are joined in
    order of cost; ambiguous models are diamonds, dominated ones grey
    crosses. Up to 20 models every model is named; beyond, the front and
    ambiguous ones (the front only when those are more than 30): at 1,000
    models the markers stay and the names of the undecided tell.

    Parameters
    ----------
    frame : pandas.DataFrame
        The result of ``pareto``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure.
    log_cost : bool, optional
        A logarithmic cost axis; by default when the costs are positive and
        span more than two decades.
    names : bool, optional
        Name every model (True), the front only (False); by default every
        model up to 20.
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.errorbar``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np, pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> scores = pd.DataFrame(0.8 + rng.normal(0, 0.01, (3, 10)) + [[0.05], [0.02], [0.0]],
    ...                       index=["big", "mid", "small"])
    >>> result = scores.cmp.pareto(pd.Series({"big": 900.0, "mid": 30.0, "small": 1.0}), cv=10)
    >>> ax = result.cmp.plot()
    >>> ax.get_xscale()
    'log'
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    require_columns(frame, ["score", "cost", "status", "ci_low", "ci_high"], "pareto")
    info = result_info(frame)
    cost = frame["cost"].to_numpy(dtype=float)
    score = frame["score"].to_numpy(dtype=float)
    low, high = frame["ci_low"].to_numpy(dtype=float), frame["ci_high"].to_numpy(dtype=float)
    status = frame["status"].astype(str).to_numpy()
    n = len(frame)
    ax = _axes(ax, figsize=(7.0, 4.8) if n <= NAMED_UP_TO else (8.0, 5.6))
    if log_cost is None:
        positive = cost[np.isfinite(cost)]
        spread = positive.max() / positive.min() if positive.size and positive.min() > 0 else 0
        log_cost = bool(spread > 100)
    if log_cost:
        ax.set_xscale("log")
    small = n > 60
    for name, (marker, colour, label) in STYLE.items():
        shown = status == name
        if not shown.any():
            continue
        ax.errorbar(
            cost[shown], score[shown],
            yerr=np.vstack([score[shown] - low[shown], high[shown] - score[shown]]),
            fmt=marker, color=colour, ecolor=colour, alpha=0.5 if name == "dominated" else 0.9,
            markersize=3 if small else 6, elinewidth=0.6 if small else 1.0, capsize=0,
            label=f"{label} ({int(shown.sum())})", **kwargs,
        )  # fmt: skip
    front = np.flatnonzero(status == "front")
    lower_is_better = info.lower_cost_is_better is None or bool(info.lower_cost_is_better)
    order = front[np.argsort(cost[front] if lower_is_better else -cost[front], kind="stable")]
    if order.size > 1:
        ax.step(cost[order], score[order], where="post", color="tab:blue", linewidth=1.0,
                alpha=0.7)  # fmt: skip
    named = (n <= NAMED_UP_TO) if names is None else names
    undecided = np.flatnonzero(status != "dominated")
    # Beyond 20 models: the front, and the ambiguous ones too while they stay few.
    label_rows = np.arange(n) if named else undecided if undecided.size <= 30 else front
    fontsize = "small" if len(label_rows) <= NAMED_UP_TO else "x-small"
    for k in label_rows:
        ax.annotate(
            str(frame.index[k]), (cost[k], score[k]), xytext=(4, 3), textcoords="offset points",
            fontsize=fontsize, color="black" if status[k] == "front" else "dimgrey",
        )  # fmt: skip
    direction = "lower" if lower_is_better else "higher"
    ax.set_xlabel(f"cost ({direction} is better){' — log scale' if log_cost else ''}")
    better = "higher" if info.direction else "lower"
    ax.set_ylabel(f"score ({better} is better), {1 - info.level_alpha:.0%} interval")
    _legend_above(ax, ncols=3)
    shown = "front and ambiguous" if undecided.size <= 30 else "front"
    note = "" if named or n <= NAMED_UP_TO else f"{shown} named; {n} models"
    test = "the frame's test" if info.score_test is None else info.score_test
    alpha = info.level_alpha
    _figure_title(ax, title, f"Worth its cost? one-sided {test}, alpha {alpha:g}", note)
    return ax


@_scores_kind("pareto")
def pareto_frame_plot(
    frame: pd.DataFrame,
    cost: Any = None,
    *,
    ax=None,
    log_cost: bool | None = None,
    names: bool | None = None,
    title: str | None = None,
    **options: Any,
):
    """``plot("pareto", cost=...)`` of a frame: its ``pareto`` result drawn by :func:`pareto_plot`.

    ``options`` are those of ``pareto`` (``lower_cost_is_better``, ``alpha``,
    ``correction``, the design keywords; on a ``cv_results_`` frame ``cost``
    may name one of its columns, such as ``"mean_fit_time"``).
    """
    if cost is None:
        msg = (
            '`plot("pareto")` needs `cost=`: one cost per model (a Series), per-split costs '
            '(a frame), or on a cv_results_ frame the name of a column ("mean_fit_time").'
        )
        raise TypeError(msg)
    result = pareto_inputs(frame, cost, **options)
    return pareto_plot(result, ax=ax, log_cost=log_cost, names=names, title=title)

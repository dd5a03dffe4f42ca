"""The picture of a trade-off: score against cost, the front joined, every status marked."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.compare.figure_inputs import pareto_inputs
from pdcompare.presentation.labels import TEST_LABELS, plural
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

#: Where a name may sit beside its marker (offset in points, horizontal alignment), in order.
_SPOTS = (
    (4, 3, "left"), (4, -9, "left"), (-4, 3, "right"), (-4, -9, "right"),
    (4, 12, "left"), (-4, 12, "right"), (4, -18, "left"), (-4, -18, "right"),
    (0, 20, "center"), (0, -26, "center"),
)  # fmt: skip


def _test_words(info) -> str:
    """The score test in words for the title ("corrected t-test (Nadeau–Bengio)")."""
    test = info.score_test
    if test is None:
        return "the frame's test"
    if test == "ttest" and info.unit in ("item", "cluster means"):
        return "paired t-test over items"
    return TEST_LABELS.get(test, str(test))


def place_names(ax, x, y, texts, colours, fontsize) -> int:
    """Name the markers at (x, y) where the names overlap no other name; returns those left out.

    Greedy, in the order given (the front first): each name takes the first of
    ``_SPOTS`` whose box (its width estimated from the font size) meets no box
    already placed nor a marker other than its own; a name with no free spot
    is left out, the markers and the result table still show it.
    """
    from matplotlib.font_manager import FontProperties

    ax.autoscale_view()
    size = FontProperties(size=fontsize).get_size_in_points()
    to_pixels = ax.figure.dpi / 72.0
    points = ax.transData.transform(np.column_stack([x, y]))
    boxes: list[tuple[float, float, float, float]] = []
    pad = 1.5 * to_pixels
    left_out = 0
    for k, text in enumerate(texts):
        width = 0.6 * size * len(text) * to_pixels
        height = size * to_pixels
        for dx, dy, align in _SPOTS:
            shift = {"left": 0.0, "right": width, "center": width / 2}[align]
            x0 = points[k, 0] + dx * to_pixels - shift
            y0 = points[k, 1] + dy * to_pixels
            box = (x0 - pad, y0 - pad, x0 + width + pad, y0 + height + pad)
            others = np.delete(points, k, axis=0)
            hits_marker = np.any(
                (others[:, 0] > box[0]) & (others[:, 0] < box[2])
                & (others[:, 1] > box[1]) & (others[:, 1] < box[3])
            )  # fmt: skip
            hits_name = any(
                box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in boxes
            )
            if not hits_marker and not hits_name:
                boxes.append(box)
                ax.annotate(
                    text, (x[k], y[k]), xytext=(dx, dy), textcoords="offset points",
                    ha=align, va="bottom", fontsize=fontsize, color=colours[k],
                )  # fmt: skip
                break
        else:
            left_out += 1
    return left_out


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
    models the markers stay and the names of the undecided tell. Names are
    placed where they overlap no other name nor marker (the front's first);
    a name with no free spot is left out and counted under the title.

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
    # The front first, then the ambiguous, then the rest: the names that matter get a spot.
    rank = {"front": 0, "ambiguous": 1, "dominated": 2}
    label_rows = sorted(label_rows, key=lambda k: (rank.get(status[k], 3), -score[k]))
    colours = ["black" if status[k] == "front" else "dimgrey" for k in label_rows]
    left_out = place_names(
        ax, cost[label_rows], score[label_rows], [str(frame.index[k]) for k in label_rows],
        colours, fontsize,
    )  # fmt: skip
    direction = "lower" if lower_is_better else "higher"
    ax.set_xlabel(f"cost ({direction} is better){' — log scale' if log_cost else ''}")
    better = "higher" if info.direction else "lower"
    ax.set_ylabel(f"score ({better} is better), {1 - info.level_alpha:.0%} interval")
    _legend_above(ax, ncols=3)
    shown = "front and ambiguous" if undecided.size <= 30 else "front"
    notes = [] if named or n <= NAMED_UP_TO else [f"{shown} models named, of {n}"]
    if left_out:
        notes.append(
            f"{plural(left_out, 'name', 'names')} left out where it would overlap"
            if left_out == 1
            else f"{left_out} names left out where they would overlap"
        )
    alpha = info.level_alpha
    heading = (
        "Worth its cost? Score against cost\n"
        f"against cheaper models: one-sided {_test_words(info)}, alpha {alpha:g}"
    )
    _figure_title(ax, title, heading, "; ".join(notes))
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

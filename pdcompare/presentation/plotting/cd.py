"""Critical-difference diagram drawn from a pairwise result over several data sets.

The picture is made from the result frame itself: mean ranks from
``attrs["pdcompare"]["mean_ranks"]`` and the verdicts from its ``reject``
column, so the bars always agree with the test (``pdcompare.stats.cd``). The
layout is Demšar's (2006): a rank axis with rank 1 at the left, each model at
its mean rank with a line to its name, the better half named on the left and
the rest on the right, thick bars joining models that are not significantly
different, and for Nemenyi the critical difference drawn to scale.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.compare.figure_inputs import cd_inputs
from pdcompare.inputs.benchmark import means
from pdcompare.presentation.plotting._base import _scores_kind
from pdcompare.presentation.shown import top_models
from pdcompare.results import ResultInfo, result_info
from pdcompare.stats.cd import cd_groups, rejected_matrix

__all__ = ["cd_layout", "plot_cd", "plot_cd_of_benchmark"]

_TESTS = {
    "nemenyi": "Nemenyi",
    "conover": "Conover",
    "wilcoxon": "Wilcoxon signed-rank",
    "sign_test": "sign",
    "ttest": "paired t",
}

#: Height of one row of names, in inches, when the figure is sized here.
_ROW_INCHES = 0.21
#: Width of the rank axis per model, in inches, when the figure is sized here (clipped).
_RANK_INCHES = 0.32
#: Font size of the names when the figure is sized here, in points.
_FONT_POINTS = 9.0


def _info(result: pd.DataFrame) -> ResultInfo:
    info = result_info(result)
    if not info.stated:
        msg = (
            "`result` must be a pairwise result over several data sets: its "
            "attrs['pdcompare'] is missing."
        )
        raise ValueError(msg)
    if not isinstance(info.mean_ranks, Mapping) or not info.mean_ranks:
        msg = (
            "`result` has no attrs['pdcompare']['mean_ranks'] (model -> mean rank): a "
            "critical-difference diagram needs a result over several data sets."
        )
        raise ValueError(msg)
    _refuse_holes(info.get("n_missing", 0))
    missing = [c for c in ("model_1", "model_2", "reject") if c not in result.columns]
    if missing:
        msg = f"`result` lacks the column(s) {', '.join(map(repr, missing))}."
        raise ValueError(msg)
    return info


def _refuse_holes(holes: int) -> None:
    """Refuse a benchmark with missing cells, naming the two analyses that take it."""
    if holes:
        msg = (
            f"A critical-difference diagram needs every model on every data set, and this "
            f"benchmark has {holes} missing cell(s) (models that did not run on some data "
            "sets), so its mean ranks would compare unlike sets: test all models with "
            "`friedman(nan_policy='skillings_mack')` and show who may be the best with "
            "`ranks()` (or `plot('ranks')`), which use each model's data sets."
        )
        raise ValueError(msg)


def cd_layout(result: pd.DataFrame) -> dict[str, Any]:
    """What the diagram shows, without drawing: names, mean ranks, groups and caption.

    Parameters
    ----------
    result : pandas.DataFrame
        A pairwise result over several data sets (see ``plot_cd``).

    Returns
    -------
    dict
        ``names`` (models by mean rank, best first), ``ranks`` (their mean
        ranks), ``groups`` (list of ``(low, high)`` mean-rank extents of the
        bars, each joining every model whose mean rank lies in it), ``members``
        (the names of each group), ``cd`` (float or None) and ``caption``.

    Examples
    --------
    >>> import pandas as pd
    >>> result = pd.DataFrame({"model_1": ["a", "a", "b"], "model_2": ["b", "c", "c"],
    ...                        "reject": [False, True, False]})
    >>> result.attrs["pdcompare"] = {"test": "wilcoxon", "correction": "holm",
    ...     "alpha": 0.05, "n_datasets": 12, "mean_ranks": {"a": 1.5, "b": 2.0, "c": 2.5}}
    >>> layout = cd_layout(result)
    >>> layout["members"]
    [['a', 'b'], ['b', 'c']]
    >>> layout["caption"]
    'Wilcoxon signed-rank test, holm correction, alpha = 0.05, 12 data sets'
    """
    info = _info(result)
    mean_ranks = info.mean_ranks
    names = list(mean_ranks)
    ranks = np.array([float(mean_ranks[name]) for name in names])
    position = {name: k for k, name in enumerate(names)}
    unknown = sorted(
        {str(m) for m in pd.concat([result["model_1"], result["model_2"]]) if m not in position}
    )
    if unknown:
        msg = (
            f"`result` compares model(s) {'; '.join(unknown)} that have no mean rank in "
            "attrs['pdcompare']['mean_ranks']."
        )
        raise ValueError(msg)
    i = result["model_1"].map(position).to_numpy(dtype=np.intp)
    j = result["model_2"].map(position).to_numpy(dtype=np.intp)
    reject = result["reject"].eq(True).to_numpy(dtype=bool, na_value=False)
    groups = cd_groups(ranks, rejected_matrix(len(names), i, j, reject))
    order = np.argsort(ranks, kind="stable")
    test = info.test
    cd = info.cd if test == "nemenyi" else None
    return {
        "names": [names[k] for k in order],
        "ranks": ranks[order],
        "groups": [(float(ranks[g].min()), float(ranks[g].max())) for g in groups],
        "members": [[names[k] for k in g] for g in groups],
        "cd": None if cd is None or not math.isfinite(float(cd)) else float(cd),
        "caption": _caption(info),
    }


def _caption(info: ResultInfo) -> str:
    test = info.test
    parts = [f"{_TESTS.get(test, str(test))} test"]
    correction = info.correction
    if correction not in (None, "none"):
        parts.append(f"{correction} correction")
    else:
        parts.append("family-wise p-values" if test == "nemenyi" else "no correction")
    if info.alpha is not None:
        parts.append(f"alpha = {info.alpha:g}")
    if info.n_datasets is not None:
        parts.append(f"{info.n_datasets} data sets")
    caption = ", ".join(parts)
    floor, alpha = info.min_attainable_pvalue, info.level_alpha
    if floor is not None and floor > alpha:
        # A bar over every model would otherwise read as "all equal" (DESIGN section 14).
        caption += f"\nno pair can be significant: smallest attainable p {floor:.2g} > {alpha:g}"
    return caption


def _text_width(text: str, size: float) -> float:
    """Width of ``text`` at font size ``size``, in points (no renderer needed)."""
    from matplotlib.textpath import TextPath

    return float(TextPath((0, 0), text, size=size).get_extents().width)


def _bar_rows(groups: list[tuple[float, float]], gap: float) -> list[int]:
    """Row of each bar: the first row where it does not touch the previous bar."""
    ends: list[float] = []
    rows = []
    for low, high in groups:
        for row, end in enumerate(ends):
            if low > end + gap:
                ends[row] = high
                rows.append(row)
                break
        else:
            ends.append(high)
            rows.append(len(ends) - 1)
    return rows


def _top_layout(layout: dict[str, Any], top: int | None) -> tuple[dict[str, Any], str]:
    """The layout of the best ``top`` models (default 20): their bars, and the note saying so.

    A bar keeps the shown models it joined; bars left with one model, or
    inside another bar, are dropped.
    """
    shown, note = top_models(layout["names"], top)
    if not note:
        return layout, note
    keep = set(shown)
    rank = dict(zip(layout["names"], layout["ranks"], strict=True))
    members = [[m for m in group if m in keep] for group in layout["members"]]
    extents = sorted(
        {
            (float(min(rank[m] for m in g)), float(max(rank[m] for m in g)))
            for g in members
            if len(g) >= 2
        }
    )
    groups = [
        (low, high)
        for low, high in extents
        if not any(
            o_low <= low and high <= o_high and (o_low, o_high) != (low, high)
            for o_low, o_high in extents
        )
    ]
    return {
        **layout,
        "names": shown,
        "ranks": np.asarray(layout["ranks"][: len(shown)]),
        "groups": groups,
        "members": [[m for m in shown if low <= rank[m] <= high] for low, high in groups],
    }, note


def _draw_rank_axis(ax, low_rank: float, high_rank: float, size: float, line: dict) -> None:
    """The rank axis, its ticks and their labels (every rank up to 20, then rounder steps)."""
    span = high_rank - low_rank
    ax.plot([low_rank, high_rank], [0, 0], gid="cd-axis", **line)
    steps = [(20, 1), (40, 2), (100, 5), (200, 10)]
    step = next((size for limit, size in steps if span <= limit), 50)
    first = int(low_rank)
    ticks = [first, *range((first // step + 1) * step, int(high_rank) + 1, step)]
    ticks = sorted(set(ticks) | {int(high_rank)})
    for tick in ticks:
        ax.plot([tick, tick], [0, -0.25], **line)
        ax.text(tick, -0.35, str(tick), ha="center", va="bottom", fontsize=size * 0.9)


def _draw_bars(ax, groups, ys, ranks: np.ndarray, span: float, kwargs: dict) -> None:
    """The bars: each joins the models whose mean ranks lie in [low, high], at its height."""
    # A bar reaches a little beyond its end models (so that tied ones show),
    # never halfway to the next model outside it.
    distinct = np.unique(ranks)
    lows, highs = [], []
    for low, high in groups:
        outside = np.abs(distinct[(distinct < low) | (distinct > high)] - (low + high) / 2)
        room = (outside.min() - (high - low) / 2) if outside.size else np.inf
        reach = min(0.012 * span + 0.03, 0.45 * room)
        lows.append(low - reach)
        highs.append(high + reach)
    bar_style = {"color": "black", "linewidth": 3.0, "capstyle": "butt"} | kwargs
    ax.hlines(ys, lows, highs, gid="cd-groups", **bar_style)


def _draw_critical_difference(
    ax, cd: float, low_rank: float, span: float, size: float, line: dict
) -> None:
    """Nemenyi's critical difference to scale, from the axis's first rank (said if wider)."""
    y = -1.7
    if cd > span:
        # Wider than the ranks drawn (the best few of many models): said, not drawn.
        ax.text(
            low_rank,
            y,
            f"CD = {cd:.2f} (wider than this axis)",
            ha="left",
            va="bottom",
            fontsize=size * 0.9,
        )
        return
    ax.plot([low_rank, low_rank + cd], [y, y], gid="cd-segment", **(line | {"linewidth": 1.2}))
    for x in (low_rank, low_rank + cd):
        ax.plot([x, x], [y - 0.15, y + 0.15], **line)
    ax.text(
        low_rank + cd / 2,
        y - 0.25,
        f"CD = {cd:.2f}",
        ha="center",
        va="bottom",
        fontsize=size * 0.9,
    )


def plot_cd(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    fontsize: float | None = None,
    **kwargs: Any,
):
    """Critical-difference diagram of a pairwise result over several data sets.

    Parameters
    ----------
    result : pandas.DataFrame
        Pairwise result with columns ``model_1, model_2, reject`` (and usually
        ``rank_diff, statistic, pvalue, pvalue_adj``) and
        ``attrs["pdcompare"]`` with ``mean_ranks`` (model -> mean rank),
        ``test``, ``correction``, ``alpha``, ``n_datasets`` and, for Nemenyi,
        ``cd``. Any pairwise test works (Nemenyi, Conover, Wilcoxon, ...):
        the bars follow its ``reject`` column.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Draw the best ``top`` models (by mean rank); by default all up to 20,
        the best 20 beyond, as the title says. The bars are those of the
        test on all the models, restricted to the ones drawn.
    fontsize : float, optional
        Font size of the names; by default 9 points on a new figure, and what
        fits the rows on a given ``ax``.
    **kwargs
        Passed to the ``Axes.hlines`` call that draws the group bars (for
        example ``color``, ``linewidth``).

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    Models sit at their mean ranks on an axis with rank 1 at the left. A bar
    joins the models of a maximal interval of mean ranks with no rejected
    pair among them, so a bar never spans a rejected pair, even when
    non-significance is not transitive (``pdcompare.stats.cd.cd_groups``).
    For Nemenyi the critical difference is drawn to scale above the axis.
    The caption names the test, the correction, alpha and the number of
    data sets. Nothing global changes (no rcParams, no ``plt.show()``).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> result = pd.DataFrame({"model_1": ["a", "a", "b"], "model_2": ["b", "c", "c"],
    ...                        "reject": [False, True, False]})
    >>> result.attrs["pdcompare"] = {"test": "nemenyi", "correction": None, "alpha": 0.05,
    ...     "n_datasets": 20, "cd": 0.741, "mean_ranks": {"a": 1.3, "b": 2.0, "c": 2.7}}
    >>> ax = plot_cd(result)
    >>> ax.get_title()
    'Nemenyi test, family-wise p-values, alpha = 0.05, 20 data sets'
    """
    layout, note = _top_layout(cd_layout(result), top)
    names, ranks, groups = layout["names"], layout["ranks"], layout["groups"]
    k = len(names)
    n_left = (k + 1) // 2
    labels = [
        f"{name} ({rank:.2f})" if position < n_left else f"({rank:.2f}) {name}"
        for position, (name, rank) in enumerate(zip(names, ranks, strict=True))
    ]
    if note:
        # The best `top` of more models: the axis spans their mean ranks only.
        low_rank = float(math.floor(ranks.min()))
        high_rank = float(max(math.ceil(ranks.max()), low_rank + 1))
    else:
        low_rank, high_rank = 1.0, float(max(k, math.ceil(ranks.max())))
    span = high_rank - low_rank
    gap = 0.01 * span  # bars closer than this share no row
    bar_rows = _bar_rows(groups, gap)
    n_bar_rows = max(bar_rows, default=-1) + 1
    # Vertical layout in row units, downwards: axis at 0, CD and tick labels above.
    top_row = -2.6 if layout["cd"] is not None else -1.4
    bar_y0, bar_pitch = 0.55, 0.4
    names_y0 = bar_y0 + bar_pitch * n_bar_rows + 0.5
    n_rows = max(n_left, k - n_left)
    bottom = names_y0 + n_rows - 0.4
    total_rows = bottom - top_row

    size = _FONT_POINTS if fontsize is None else float(fontsize)
    label_points = max(_text_width(label, size) for label in labels) + 12.0
    if ax is None:
        import matplotlib.pyplot as plt

        axis_inches = min(max(3.0, _RANK_INCHES * span), 7.0)
        title_lines = [*layout["caption"].splitlines(), *([f"({note})"] if note else [])]
        width = max(
            axis_inches + 2.0 * (label_points / 72.0 + 0.35),
            max(_text_width(line, size) for line in title_lines) / 72.0 + 0.3,
        )
        title_inches = 0.35 + 0.17 * max(len(title_lines) - 2, 0)
        height = total_rows * _ROW_INCHES * (size / _FONT_POINTS) + 0.15 + title_inches
        fig = plt.figure(figsize=(width, height))
        ax = fig.add_axes((0.02, 0.02, 0.96, 1.0 - 0.04 - title_inches / height))
    else:
        box = ax.get_window_extent().transformed(ax.figure.dpi_scale_trans.inverted())
        if fontsize is None:
            row_points = box.height * 72.0 / total_rows
            size = max(min(_FONT_POINTS, 0.75 * row_points), 1.0)
            label_points = max(_text_width(label, size) for label in labels) + 12.0
    box = ax.get_window_extent().transformed(ax.figure.dpi_scale_trans.inverted())
    # Horizontal layout: the names take label_points on each side, the axis the rest.
    elbow = 0.06 * span + 0.15  # how far the name lines reach beyond the axis, in ranks
    share = min((label_points / 72.0) / max(box.width, 1e-6), 0.42)
    data_width = (span + 2.0 * elbow) / (1.0 - 2.0 * share)
    pad = share * data_width
    ax.set_xlim(low_rank - elbow - pad, high_rank + elbow + pad)
    ax.set_ylim(bottom, top_row)  # y grows downwards
    ax.set_axis_off()

    line = {"color": "0.2", "linewidth": 0.8, "solid_capstyle": "butt"}
    _draw_rank_axis(ax, low_rank, high_rank, size, line)
    # Each model: a line down from its mean rank, then out to its name.
    for position, (rank, label) in enumerate(zip(ranks, labels, strict=True)):
        if position < n_left:
            row, end, align = position, low_rank - elbow, "right"
        else:
            row, end, align = k - 1 - position, high_rank + elbow, "left"
        y = names_y0 + row
        ax.plot([rank, rank, end], [0, y, y], gid="cd-model", **line)
        ax.annotate(
            label,
            (end, y),
            xytext=(-3 if align == "right" else 3, 0),
            textcoords="offset points",
            ha=align,
            va="center",
            fontsize=size,
            gid="cd-name",
        )
    if groups:
        ys = [bar_y0 + bar_pitch * row for row in bar_rows]
        _draw_bars(ax, groups, ys, ranks, span, kwargs)
    if layout["cd"] is not None:
        _draw_critical_difference(ax, layout["cd"], low_rank, span, size, line)
    caption = f"{layout['caption']}\n({note})" if note else layout["caption"]
    ax.set_title(caption, fontsize=size)
    return ax


@_scores_kind("cd")
def plot_cd_of_benchmark(
    frame: pd.DataFrame,
    *,
    ax=None,
    test: str = "nemenyi",
    alpha: float = 0.05,
    correction: str | None = "default",
    nan_policy: str = "propagate",
    **kwargs: Any,
):
    """Critical-difference diagram of a benchmark frame: ``pairwise(test)``, then :func:`plot_cd`.

    Parameters
    ----------
    frame : pandas.DataFrame
        A benchmark frame (models x data sets).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    test : {"nemenyi", "conover", "wilcoxon", "sign_test", "ttest"}, default "nemenyi"
        The all-pairs test whose verdicts the bars follow.
    alpha : float, default 0.05
        Significance level.
    correction : str or None, default "default"
        The test's default correction (None for Nemenyi, "holm" otherwise),
        or any other (see ``pairwise``).
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Data sets where some model has no score.
    **kwargs
        Passed to :func:`plot_cd`.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np, pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> table = pd.DataFrame(rng.random((4, 10)) + np.arange(4)[:, None] / 4,
    ...                      index=list("abcd"),
    ...                      columns=pd.Index(range(10), name="dataset"))
    >>> ax = table.cmp.plot("cd")
    >>> ax.get_title()
    'Nemenyi test, family-wise p-values, alpha = 0.05, 10 data sets'
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    _refuse_holes(int(means(frame).isna().to_numpy().sum()))
    result = cd_inputs(frame, test=test, alpha=alpha, correction=correction, nan_policy=nan_policy)
    return plot_cd(result, ax=ax, **kwargs)

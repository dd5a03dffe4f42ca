"""The forest plot of ``random_effects``: the data sets, the pooled difference, the prediction."""

from __future__ import annotations

from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.compare.hierarchical import shrinkage
from pdcompare.presentation.labels import alpha_label
from pdcompare.presentation.plotting._base import (
    _annotate_pvalues,
    _axes,
    _figure_title,
    _legend_above,
    _result_kind,
    matplotlib_options,
    require_columns,
    row_figsize,
    row_fontsize,
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

#: Data sets a forest plot draws by default; beyond, the most precise ones, and the title says so.
DEFAULT_DATASETS = 40
#: Colour of the data sets and the pooled estimate (one colour: the rows are data sets).
INK = "0.2"
#: Colour of the prediction interval.
PREDICTION = "C3"


def _pair_row(result: pd.DataFrame, a: Any, b: Any) -> int:
    """Position of the row ``model_1 == a`` (and ``model_2 == b``); ValueError naming them."""
    matches = np.flatnonzero(
        ((result["model_1"] == a) | (a is None)) & ((result["model_2"] == b) | (b is None))
    )
    if matches.size == 0:
        msg = f"`a`, `b`: the result has no row with model_1={a!r} and model_2={b!r}."
        raise ValueError(msg)
    return int(matches[0])


def forest_rows(result: pd.DataFrame, row: int) -> pd.DataFrame:
    """One pair's data sets: ``estimate``, ``se`` and ``weight`` (share of the pooled weight).

    The weights are the random-effects ones, ``1 / (se² + tau2)``, normalised to
    sum to 1 over the data sets used (missing ones are dropped).

    Examples
    --------
    >>> from pdcompare.datasets import load_benchmark
    >>> result = load_benchmark().cmp.random_effects("svc_rbf", "knn")
    >>> rows = forest_rows(result, 0)
    >>> len(rows), round(float(rows["weight"].sum()), 6)
    (22, 1.0)
    """
    info = result_info(result)
    if not {"differences", "differences_se"} <= info.stated:
        msg = (
            "The forest plot of a `random_effects` result needs its per-data-set differences "
            "(attrs['pdcompare']['differences'] and ['differences_se']); this result has none: "
            "run random_effects again, and plot the result it returns."
        )
        raise ValueError(msg)
    pair = shrinkage(result.iloc[[row]])
    estimate = pd.Series(pair["before"].to_numpy(), index=pd.Index(pair["dataset"]))
    se = pd.Series(pair["se"].to_numpy(), index=estimate.index)
    kept = estimate.notna() & se.notna()
    tau2 = float(result["tau2"].iloc[row]) if "tau2" in result else 0.0
    weight = 1.0 / (se[kept] ** 2 + (tau2 if np.isfinite(tau2) else 0.0))
    return pd.DataFrame(
        {"estimate": estimate[kept], "se": se[kept], "weight": weight / weight.sum()}
    )


def _draw_datasets(ax, rows: pd.DataFrame, z: float, fontsize: float) -> None:
    positions = np.arange(len(rows))[::-1] + 2.0
    estimate = rows["estimate"].to_numpy(dtype=float)
    half = z * rows["se"].to_numpy(dtype=float)
    ax.hlines(positions, estimate - half, estimate + half, color=INK, linewidth=1.2)
    sizes = 15.0 + 160.0 * rows["weight"].to_numpy(dtype=float) / rows["weight"].max()
    ax.scatter(estimate, positions, s=sizes, marker="s", color=INK, zorder=3)


def _draw_pooled(ax, mean: float, low: float, high: float) -> Any:
    from matplotlib.patches import Polygon

    diamond = Polygon(
        [(low, 1.0), (mean, 1.3), (high, 1.0), (mean, 0.7)], closed=True, color=INK, zorder=3
    )
    ax.add_patch(diamond)
    return diamond


def plot_pair_forest(result: pd.DataFrame, row: int, *, ax=None, top=None, title=None, **kwargs):
    """The forest plot of one pair (row ``row``): each data set, the pooled difference, the PI."""
    info = result_info(result)
    rows = forest_rows(result, row)
    limit = DEFAULT_DATASETS if top is None else int(top)
    left_out = max(len(rows) - limit, 0)
    if left_out:
        rows = rows.loc[rows["weight"].sort_values(ascending=False).index[:limit]]
        rows = rows.loc[[d for d in info.get("datasets", ()) if d in rows.index]]
    names = [str(d) for d in rows.index]
    total = len(rows) + 2
    ax = _axes(ax, figsize=row_figsize(total + 2, max(map(len, names), default=8), 1.0))
    fontsize = row_fontsize(ax, total + 2)
    alpha = info.level_alpha
    z = NormalDist().inv_cdf(1 - alpha / 2)  # no scipy at import time
    with matplotlib_options("the forest plot", "Axes.scatter", kwargs):
        _draw_datasets(ax, rows, z, fontsize)
    mean = float(result["mean_diff"].iloc[row])
    low, high = float(result["ci_low"].iloc[row]), float(result["ci_high"].iloc[row])
    diamond = _draw_pooled(ax, mean, low, high)
    pi_low, pi_high = (float(result[c].iloc[row]) for c in ("pi_low", "pi_high"))
    (prediction,) = ax.plot(
        [pi_low, pi_high], [0.0, 0.0], color=PREDICTION, linewidth=2.5, solid_capstyle="butt"
    )
    ax.axvline(0.0, color="0.5", linestyle="--", linewidth=1)
    ax.axvline(mean, color=INK, linestyle=":", linewidth=0.8)
    positions = [*(np.arange(len(rows))[::-1] + 2.0), 1.0, 0.0]
    labels = [*names, "pooled", "prediction interval"]
    ax.set_yticks(positions, labels=labels, fontsize=fontsize)
    ax.set_ylim(-0.7, total - 0.3)
    level = f"{1 - alpha:.0%}"
    model_1, model_2 = result["model_1"].iloc[row], result["model_2"].iloc[row]
    ax.set_xlabel(f"{model_1} − {model_2}: mean fold difference per data set, {level} intervals")
    ax.grid(axis="x", alpha=0.3)
    from matplotlib.lines import Line2D

    square = Line2D([], [], marker="s", linestyle="-", color=INK, markersize=6)
    _legend_above(
        ax,
        [square, diamond, prediction],
        [
            "data set (size: its weight)",
            f"pooled, {level} CI",
            f"{level} prediction interval: a new data set",
        ],
        ncols=2,
    )
    ax._pdcompare_title_pad = 34.0
    notes = []
    if len(result) > 1:
        notes.append(f"pair {row + 1} of {len(result)}; a=, b= choose another")
    if left_out:
        notes.append(f"the {len(rows)} most precise of {len(rows) + left_out} data sets")
    tau2 = float(result["tau2"].iloc[row]) if "tau2" in result else np.nan
    default = f"Random-effects meta-analysis: {model_1} vs {model_2}"
    if np.isfinite(tau2):
        default += f" (tau² = {tau2:.2g})"
    _figure_title(ax, title, default, "; ".join(notes))
    return ax


def plot_pairs_summary(result: pd.DataFrame, *, ax=None, top=None, title=None, **kwargs):
    """One row per pair: the pooled difference, its confidence and its prediction interval."""
    info = result_info(result)
    shown = pair_rows(result, top, "A random-effects plot")
    ax, fontsize = rows_axes(ax, shown)
    pi_low, pi_high = column(shown.rows, "pi_low"), column(shown.rows, "pi_high")
    drawn = np.isfinite(pi_low) & np.isfinite(pi_high)
    ax.hlines(
        shown.positions[drawn],
        pi_low[drawn],
        pi_high[drawn],
        color=PREDICTION,
        linewidth=1.0,
        alpha=0.7,
        zorder=1,
    )
    draw_bars(
        ax, column(shown.rows, "ci_low"), column(shown.rows, "ci_high"), shown, linewidth=3.0
    )
    with matplotlib_options("the random-effects plot", "Axes.scatter", kwargs):
        draw_points(
            ax, column(shown.rows, "mean_diff"), shown, flags(shown.rows, "reject"), **kwargs
        )
    ax.axvline(0.0, color="0.5", linestyle="--", linewidth=1)
    correction = info.correction
    pvalue = "pvalue_adj" if "pvalue_adj" in shown.rows and correction else "pvalue"
    _annotate_pvalues(
        ax, shown.positions, column(shown.rows, pvalue), pvalue == "pvalue_adj", fontsize
    )
    alpha = info.level_alpha
    ax.set_xlabel(
        f"pooled difference model_1 − model_2 across data sets, {1 - alpha:.0%} CI (thick)"
    )
    ax.grid(axis="x", alpha=0.3)
    from matplotlib.lines import Line2D

    handles, labels = marker_handles(
        f"significant at {alpha_label(info)}", "not significant"
    )
    handles.append(Line2D([], [], color=PREDICTION, linewidth=1.0))
    labels.append("prediction interval (a new data set)")
    legend_with_colours(ax, shown, handles, labels)
    correction_text = f", {correction} correction" if correction else ""
    notes = [shown.note] if shown.note else []
    notes.append("a=, b= draw one pair's data sets")
    _figure_title(ax, title, f"Random-effects meta-analysis{correction_text}", "; ".join(notes))
    return ax


@_result_kind("random_effects")
def plot_random_effects(
    result: pd.DataFrame,
    *,
    a: Any = None,
    b: Any = None,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Forest plot of a random-effects meta-analysis across data sets.

    For one pair (a one-pair result, or ``a=``/``b=`` naming a row): one row
    per data set, its mean fold difference ``model_1 − model_2`` with its
    ``1 − alpha`` interval (square sized by its random-effects weight), then
    the pooled difference as a diamond spanning its confidence interval and,
    in red, the prediction interval: where the difference on a new data set
    would fall. All rows are one colour (they are data sets, not models);
    the legend names each mark. For a result of several pairs without
    ``a``/``b``: one row per pair, the pooled difference with its confidence
    interval (thick, model_2's colour, filled when significant) and its
    prediction interval (thin, red), p-values at the right.

    Parameters
    ----------
    result : pandas.DataFrame
        Result of ``random_effects``.
    a, b : model name, optional
        The pair whose data sets to draw (``model_1`` and ``model_2`` of a row).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the rows.
    top : int, optional
        One pair: at most this many data sets, the most precise (40 by
        default). Several pairs: the pairs among the best ``top`` models.
        The title says what is left out.
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
    >>> from pdcompare.datasets import load_benchmark
    >>> result = load_benchmark().cmp.random_effects("svc_rbf", "knn")
    >>> ax = result.cmp.plot()
    >>> [t.get_text() for t in ax.get_yticklabels()][-2:]
    ['pooled', 'prediction interval']
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    require_columns(
        result,
        ("model_1", "model_2", "mean_diff", "ci_low", "ci_high", "pi_low", "pi_high"),
        "A random-effects plot",
    )
    if len(result) == 1 or a is not None or b is not None:
        row = _pair_row(result, a, b)
        return plot_pair_forest(result, row, ax=ax, top=top, title=title, **kwargs)
    return plot_pairs_summary(result, ax=ax, top=top, title=title, **kwargs)

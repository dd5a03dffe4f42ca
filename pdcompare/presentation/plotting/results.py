"""Pictures of frequentist result frames: forest plots, p-value dots and matrices."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.labels import (
    alpha_label,
    format_pvalue,
    method_label,
    score_noun,
    value_label,
)
from pdcompare.presentation.plotting._base import (
    _annotate_pvalues,
    _annotated_heatmap,
    _axes,
    _figure_title,
    _legend_above,
    _result_kind,
    heatmap_figsize,
    matplotlib_options,
    model_colours,
    require_columns,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.plotting.pair_rows import colour_legend_entry
from pdcompare.presentation.shown import result_models, top_models, top_pairs
from pdcompare.results import ResultInfo, result_info

#: Corrections whose adjusted p-values have matching simultaneous intervals.
SIMULTANEOUS = ("bonferroni", "sidak")


def forest_data(result: pd.DataFrame) -> pd.DataFrame:
    """Rows of a t-test result ready for a forest plot: label, estimate, interval, p-value.

    Examples
    --------
    >>> import pandas as pd
    >>> result = pd.DataFrame({"model_1": ["a"], "model_2": ["b"], "mean_diff": [0.1],
    ...                        "ci_low": [0.05], "ci_high": [float("inf")],
    ...                        "pvalue_adj": [0.01], "reject": [True]})
    >>> forest_data(result)[["label", "estimate", "low", "high", "reject"]]
        label  estimate   low  high  reject
    0  a − b       0.1  0.05   inf    True
    """
    require_columns(result, ("model_1", "model_2", "mean_diff"), "A forest plot")
    if "pvalue_adj" not in result and "pvalue" not in result:
        require_columns(result, ("pvalue",), "A forest plot")
    pvalues = result["pvalue_adj"] if "pvalue_adj" in result else result["pvalue"]
    reject = result["reject"] if "reject" in result else pd.Series(False, index=result.index)
    nan = pd.Series(np.nan, index=result.index)
    return pd.DataFrame(
        {
            "label": result["model_1"].astype(str) + " − " + result["model_2"].astype(str),
            "estimate": result["mean_diff"].astype(float),
            "low": result["ci_low"].astype(float) if "ci_low" in result else nan,
            "high": result["ci_high"].astype(float) if "ci_high" in result else nan,
            "pvalue": pvalues.astype(float),
            "reject": reject.eq(True).to_numpy(dtype=bool, na_value=False),
        }
    )


def forest_intervals(result: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, bool]:
    """The intervals a forest plot draws: ``(low, high, adjusted)``.

    With a Bonferroni or Šidák correction, the simultaneous intervals that
    agree with the adjusted p-values: each at level ``1 - alpha/m``
    (Bonferroni) or ``(1 - alpha)**(1/m)`` (Šidák), ``m`` the number of
    p-values of the result, from the stored ``1 - alpha`` interval and its
    ``df`` (the half-width scales by ``t_{df}(1 - alpha_m/2) / t_{df}(1 - alpha/2)``,
    one-sided ``1 - alpha_m`` over ``1 - alpha``). A pair is then rejected
    exactly when its interval excludes 0. Other corrections have no such
    interval: the stored unadjusted ones are returned, with ``adjusted`` False.

    Examples
    --------
    >>> result = pd.DataFrame({"model_1": ["a", "a"], "model_2": ["b", "c"],
    ...     "mean_diff": [1.0, 2.0], "df": [9.0, 9.0], "pvalue": [0.01, 0.2],
    ...     "ci_low": [0.5, 1.0], "ci_high": [1.5, 3.0]})
    >>> result.attrs["pdcompare"] = {"alpha": 0.05, "correction": "bonferroni"}
    >>> low, high, adjusted = forest_intervals(result)
    >>> from scipy import stats
    >>> scale = stats.t.ppf(1 - 0.025 / 2, 9) / stats.t.ppf(1 - 0.05 / 2, 9)
    >>> bool(np.allclose(high - low, [1.0 * scale, 2.0 * scale])), adjusted
    (True, True)
    """
    info = result_info(result)
    missing = np.full(len(result), np.nan)
    low = result["ci_low"].to_numpy(dtype=float) if "ci_low" in result else missing
    high = result["ci_high"].to_numpy(dtype=float) if "ci_high" in result else missing
    correction = info.correction
    alpha = info.alpha
    if correction not in SIMULTANEOUS or alpha is None or "df" not in result:
        return low, high, False
    from scipy import stats

    pvalues = result["pvalue"].to_numpy(dtype=float)
    m = max(int(np.sum(~np.isnan(pvalues))), 1)
    each = alpha / m if correction == "bonferroni" else 1.0 - (1.0 - alpha) ** (1.0 / m)
    tails = 2.0 if info.alternative in (None, "two-sided") else 1.0
    df = result["df"].to_numpy(dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = stats.t.ppf(1 - each / tails, df) / stats.t.ppf(1 - alpha / tails, df)
        estimate = result["mean_diff"].to_numpy(dtype=float)
        return estimate - (estimate - low) * scale, estimate + (high - estimate) * scale, True


def _draw_forest(
    ax, result: pd.DataFrame, low, high, *, colours: dict, fontsize: float, kwargs: dict
) -> None:
    """Rows ``model_1 − model_2``: interval bar and marker in model_2's colour, filled if rejected.

    One ``errorbar`` container for the rejected rows, then one for the others.
    """
    info = result_info(result)
    data = forest_data(result)
    positions = np.arange(len(data))[::-1]
    estimate = data["estimate"].to_numpy()
    finite_ends = np.concatenate([estimate, low, high])
    finite_ends = finite_ends[np.isfinite(finite_ends)]
    span = np.ptp(finite_ends) if finite_ends.size else 1.0
    span = span if span > 0 else 1.0
    left = min(finite_ends.min(initial=0.0), 0.0) - 0.15 * span
    right = max(finite_ends.max(initial=0.0), 0.0) + 0.15 * span
    row_colours = np.array(
        [colours.get(m, (0.35, 0.35, 0.35, 1.0)) for m in result["model_2"]], dtype=float
    ).reshape(-1, 4)
    for reject, name in ((True, "significant"), (False, "not significant")):
        rows = data["reject"].to_numpy() == reject
        if not rows.any():
            continue
        low_r = np.clip(low[rows], left, right)
        high_r = np.clip(high[rows], left, right)
        est = estimate[rows]
        errors = np.vstack(
            [
                np.where(np.isnan(low_r), 0, est - low_r),
                np.where(np.isnan(high_r), 0, high_r - est),
            ]
        )
        with matplotlib_options("the forest plot", "Axes.errorbar", kwargs):
            container = ax.errorbar(
                est,
                positions[rows],
                xerr=errors,
                fmt="none",
                ecolor="0.35",
                capsize=3,
                elinewidth=1.5,
                label=f"{name} at {alpha_label(info)}",
                **kwargs,
            )
        for collection in container.lines[2]:
            collection.set_color(row_colours[rows])
        for cap in container.lines[1]:
            cap.set_color("0.35")
        ax.scatter(
            est,
            positions[rows],
            s=36,
            marker="o",
            c=row_colours[rows] if reject else "white",
            edgecolors=row_colours[rows],
            linewidths=1.5,
            zorder=3,
        )
    # Unbounded one-sided intervals: an arrow at the edge instead of a cap.
    for position, lo, hi in zip(positions, low, high, strict=True):
        if np.isinf(hi):
            ax.plot([right], [position], marker=">", color="0.35", linestyle="none")
        if np.isinf(lo):
            ax.plot([left], [position], marker="<", color="0.35", linestyle="none")
    ax.axvline(0.0, color="0.5", linestyle="--", linewidth=1)
    ax.set_xlim(left, right)
    ax.set_ylim(-0.6, len(data) - 0.4)
    ax.set_yticks(positions, labels=data["label"].tolist(), fontsize=fontsize)
    _annotate_pvalues(
        ax, positions, data["pvalue"], adjusted="pvalue_adj" in result, fontsize=fontsize
    )
    ax.grid(axis="x", alpha=0.3)
    _forest_legend(ax, info, row_colours)


def _forest_legend(ax, info: ResultInfo, row_colours: np.ndarray) -> None:
    """Filled / open markers: significant or not, and what the colours mean; above the Axes."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], marker="o", linestyle="none", color="0.35", markerfacecolor="0.35"),
        Line2D([], [], marker="o", linestyle="none", color="0.35", markerfacecolor="white"),
    ]
    labels = [
        f"significant at {alpha_label(info)}",
        "not significant",
    ]
    handle, handler, label = colour_legend_entry(row_colours, one_model=False)
    _legend_above(ax, [*handles, handle], [*labels, label], ncols=2, handler_map={handle: handler})
    ax._pdcompare_title_pad = 34.0  # above the legend's two rows


def _forest_figure(ax, rows: pd.DataFrame):
    labels = (rows["model_1"].astype(str) + " − " + rows["model_2"].astype(str)).tolist()
    longest = max(map(len, labels), default=1)
    ax = _axes(ax, figsize=row_figsize(len(rows) + 3, longest, extra_width=1.2))
    return ax, row_fontsize(ax, len(rows) + 3)


@_result_kind("corrected_ttest", "ttest", "welch_ttest")
def plot_forest(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Forest plot of a t-test result: mean difference and its CI per pair, p-values aside.

    Each row is one comparison ``model_1 − model_2``; the marker is the mean
    difference, the bar its confidence interval at level 1 − alpha (an arrow
    where a one-sided interval is unbounded), the dashed line no difference.
    Bar and marker take the colour of ``model_2`` (its colour in every
    picture, as the legend says); rejected hypotheses are drawn filled, the
    others open; the (adjusted) p-value is written at the right.

    With a Bonferroni or Šidák correction the intervals are the simultaneous
    ones that agree with the markers (:func:`forest_intervals`); with any
    other correction they are unadjusted, and the x label says so.

    Parameters
    ----------
    result : pandas.DataFrame
        Result of ``corrected_ttest`` or ``ttest`` (any scope).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Show the comparisons among the best ``top`` models (see
        :func:`top_pairs`): one model and its best ``top - 1`` opponents, or
        the pairs among the best ``top`` models of an all-pairs result; by
        default 20 models, or the 10 of an all-pairs result, as the title says.
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.errorbar``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    require_columns(
        result, ("model_1", "model_2", "mean_diff", "pvalue", "ci_low", "ci_high"), "A forest plot"
    )
    info = result_info(result)
    colours = model_colours(result_models(result))
    low, high, adjusted = forest_intervals(result)
    rows, note = top_pairs(result, top)
    keep = result.index.get_indexer(rows.index) if result.index.is_unique else None
    if keep is None:
        msg = "`result` has duplicate index labels; plot one result at a time."
        raise ValueError(msg)
    ax, fontsize = _forest_figure(ax, rows)
    _draw_forest(
        ax, rows, low[keep], high[keep], colours=colours, fontsize=fontsize, kwargs=kwargs
    )
    alpha = info.alpha
    ci_text = f"{1 - alpha:.0%} CI" if alpha is not None else "CI"
    sided = info.alternative or "two-sided"
    sided_text = "" if sided in (None, "two-sided") else f", one-sided ({sided})"
    correction = info.correction
    what = f"{score_noun(info, '')} difference" if score_noun(info, "") else "mean difference"
    label = f"{what} model_1 − model_2 with {ci_text}{sided_text}"  # "pass@5 difference ..."
    if adjusted:
        label = f"{label}\n(simultaneous, {correction}-adjusted like the p-values)"
    elif correction:
        label = f"{label}\n(interval unadjusted; markers and p-values {correction}-adjusted)"
    ax.set_xlabel(label)
    correction_text = f", {correction} correction" if correction else ""
    _figure_title(
        ax, title, f"{method_label(info, capital=True)}{correction_text}", note
    )
    return ax


@_result_kind(
    "wilcoxon",
    "sign_test",
    "ttest_5x2cv",
    "ftest_5x2cv",
    "proportions_ztest",
    "mannwhitney",
    "permutation_test",
    "diebold_mariano",
)
def plot_pvalue_dots(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """P-value of each comparison on a log scale, with the significance level marked.

    These tests give no confidence interval of the difference, so the picture
    is the (adjusted) p-value per pair: left of the alpha line is significant.
    Each dot takes the colour of ``model_2``, filled when significant.

    Parameters
    ----------
    result : pandas.DataFrame
        Result of ``wilcoxon``, ``sign_test``, the 5x2cv tests, ``mcnemar``
        (``interval=None``) or ``proportions_ztest``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Show the comparisons among the best ``top`` models (see
        :func:`top_pairs`).
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.scatter``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    require_columns(result, ("model_1", "model_2", "pvalue"), "A p-value plot")
    info = result_info(result)
    colours = model_colours(result_models(result))
    result, note = top_pairs(result, top)
    column = "pvalue_adj" if "pvalue_adj" in result else "pvalue"
    pvalues = result[column].to_numpy(dtype=float)
    alpha = info.level_alpha
    reject = (
        result["reject"].eq(True).to_numpy(dtype=bool, na_value=False)
        if "reject" in result
        else np.asarray(pvalues <= alpha)
    )
    first = result["model_1"].astype(str)
    one_model = len(result) > 0 and bool((first == first.iloc[0]).all())
    # One model against the others: the rows name the others, the axis names the model.
    labels = (
        result["model_2"].astype(str).tolist()
        if one_model
        else (first + " vs " + result["model_2"].astype(str)).tolist()
    )
    ax = _axes(ax, figsize=row_figsize(len(result) + 3, max(map(len, labels), default=1), 1.2))
    if one_model:
        ax.set_ylabel(f"{first.iloc[0]} vs")
    fontsize = row_fontsize(ax, len(result) + 3)
    positions = np.arange(len(result))[::-1]
    row_colours = np.array(
        [colours.get(m, (0.35, 0.35, 0.35, 1.0)) for m in result["model_2"]], dtype=float
    ).reshape(-1, 4)
    # A p-value of 0 cannot sit on a log axis: it is drawn a decade below the
    # smallest positive p-value (or alpha), and its label says "<0.001".
    positive = pvalues[pvalues > 0]
    floor = min(positive.min(initial=1.0), alpha) / 10
    shown = np.clip(np.nan_to_num(pvalues, nan=1.0), floor, 1.0)
    for rows, name in ((reject, "significant"), (~reject, "not significant")):
        if rows.any():
            with matplotlib_options("the p-value plot", "Axes.scatter", kwargs):
                ax.scatter(
                    shown[rows],
                    positions[rows],
                    c=row_colours[rows] if name == "significant" else "white",
                    edgecolors=row_colours[rows],
                    linewidths=1.5,
                    s=40,
                    label=f"{name} at {alpha_label(info)}",
                    zorder=3,
                    **kwargs,
                )
    ax.hlines(positions, shown, 1.0, color="0.85", zorder=1)
    alpha_line = ax.axvline(alpha, color="C3", linestyle="--", linewidth=1)
    ax.set_xscale("log")
    ax.set_xlim(floor / 2, 1.5)
    ax.set_ylim(-0.6, len(result) - 0.4)
    _annotate_pvalues(ax, positions, pvalues, adjusted=column == "pvalue_adj", fontsize=fontsize)
    ax.set_yticks(positions, labels=labels, fontsize=fontsize)
    adjusted = column == "pvalue_adj" and info.correction
    ax.set_xlabel(
        f"p-value, {info.correction}-adjusted (log scale)"
        if adjusted
        else "p-value (log scale)"
    )
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], marker="o", linestyle="none", color="0.35", markerfacecolor="0.35"),
        Line2D([], [], marker="o", linestyle="none", color="0.35", markerfacecolor="white"),
        alpha_line,
    ]
    labels = [
        f"significant at {alpha_label(info)}",
        "not significant",
        f"alpha = {alpha:g}",
    ]
    _legend_above(ax, handles, labels, ncols=2)
    ax._pdcompare_title_pad = 34.0  # above the legend's two rows
    _figure_title(ax, title, method_label(info, capital=True), note)
    return ax


def plot_matrix(
    matrix: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    cmap: str | None = None,
    annot: bool | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Heatmap of a ``result.cmp.matrix(value)`` table, values written where they fit.

    Drawn by ``matrix.cmp.plot()``. p-values and probabilities use the fixed
    range 0 to 1; signed values (``mean_diff``, statistics) a diverging
    colormap centred on 0.

    Parameters
    ----------
    matrix : pandas.DataFrame
        The square table of ``matrix``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Show the best ``top`` models; by default all up to 20, the best 20 beyond.
    cmap : str, optional
        Colormap; "viridis" for p-values and probabilities, "RdBu_r" otherwise.
    annot : bool, optional
        Write each value in its cell: by default only where it fits.
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.imshow``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> table = load_grid_search_scores().cmp.pairwise().cmp.matrix("mean_diff")
    >>> ax = table.cmp.plot()  # the same as plot_matrix(table)
    >>> ax.get_images()[0].get_array().shape
    (4, 4)
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    info = result_info(matrix)
    value = str(info.value or "value")
    shown, note = top_models(matrix.index.tolist(), top)
    table = matrix.loc[shown, shown]
    if pd.api.types.is_bool_dtype(table.values.dtype) or table.dtypes.eq(object).any():
        table = table.astype("float64")
    values = table.to_numpy(dtype=float, na_value=np.nan)
    if value in ("pvalue", "pvalue_adj", "prob_better", "prob_worse", "prob_rope", "reject"):
        vmin, vmax, default_cmap = 0.0, 1.0, "viridis"
    else:
        bound = float(np.nanmax(np.abs(values))) if np.isfinite(values).any() else 1.0
        vmin, vmax, default_cmap = -bound, bound, "RdBu_r"
    fmt = format_pvalue if value.startswith("pvalue") else (lambda v: f"{v:.2g}")
    ax = _axes(ax, figsize=heatmap_figsize(shown))
    with matplotlib_options("the matrix plot", "Axes.imshow", kwargs):
        _annotated_heatmap(
            ax,
            table,
            cmap=cmap or default_cmap,
            vmin=vmin,
            vmax=vmax,
            fmt=fmt,
            label=value_label(value, info),
            annot=annot,
            **kwargs,
        )
    ax.set_xlabel("model_2")
    ax.set_ylabel("model_1")
    default = f"{value} of model_1 (row) vs model_2 (column)"
    if info.test is not None:
        default = f"{method_label(info, capital=True)}: {default}"
    _figure_title(ax, title, default, note)
    return ax

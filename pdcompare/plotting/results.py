"""Pictures of frequentist result frames: forest plots and p-value dots."""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare.inputs.attrs import pdcompare_attrs
from pdcompare.plotting._base import (
    _alpha_label,
    _annotate_pvalues,
    _axes,
    _figure_title,
    _result_kind,
    _test_label,
)


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
    import numpy as np

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


@_result_kind("corrected_ttest", "ttest")
def plot_forest(result: pd.DataFrame, *, ax=None, title: str | None = None, **kwargs: Any):
    """Forest plot of a t-test result: mean difference and its CI per pair, p-values aside.

    Each row is one comparison ``model_1 − model_2``; the dot is the mean
    difference, the bar its confidence interval at level 1 − alpha (an arrow
    where a one-sided interval is unbounded), the dashed line no difference.
    Rejected hypotheses are drawn filled and in colour; the adjusted p-value
    is written at the right.

    Parameters
    ----------
    result : pandas.DataFrame
        Result of ``corrected_ttest`` or ``ttest`` (any scope).
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.errorbar``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import numpy as np

    meta = pdcompare_attrs(result)
    data = forest_data(result)
    ax = _axes(ax)
    positions = np.arange(len(data))[::-1]
    estimate = data["estimate"].to_numpy()
    finite_ends = np.concatenate([estimate, data["low"].to_numpy(), data["high"].to_numpy()])
    finite_ends = finite_ends[np.isfinite(finite_ends)]
    span = np.ptp(finite_ends) if finite_ends.size else 1.0
    span = span if span > 0 else 1.0
    left = min(finite_ends.min(initial=0.0), 0.0) - 0.15 * span
    right = max(finite_ends.max(initial=0.0), 0.0) + 0.15 * span
    for reject, color, marker_face, name in (
        (True, "C3", "C3", "significant"),
        (False, "0.35", "white", "not significant"),
    ):
        rows = data["reject"].to_numpy() == reject
        if not rows.any():
            continue
        low = np.clip(data["low"].to_numpy()[rows], left, right)
        high = np.clip(data["high"].to_numpy()[rows], left, right)
        est = estimate[rows]
        errors = np.vstack(
            [np.where(np.isnan(low), 0, est - low), np.where(np.isnan(high), 0, high - est)]
        )
        ax.errorbar(
            est,
            positions[rows],
            xerr=errors,
            fmt="o",
            color=color,
            ecolor=color,
            markerfacecolor=marker_face,
            capsize=4,
            label=f"{name} at {_alpha_label(meta)}",
            **kwargs,
        )
    # Unbounded one-sided intervals: an arrow at the edge instead of a cap.
    for position, low, high in zip(positions, data["low"], data["high"], strict=True):
        if np.isinf(high):
            ax.plot([right], [position], marker=">", color="0.35", linestyle="none")
        if np.isinf(low):
            ax.plot([left], [position], marker="<", color="0.35", linestyle="none")
    ax.axvline(0.0, color="0.5", linestyle="--", linewidth=1)
    ax.set_xlim(left, right)
    ax.set_ylim(-0.6, len(data) - 0.4)
    ax.set_yticks(positions)
    ax.set_yticklabels(data["label"].tolist())
    _annotate_pvalues(ax, positions, data["pvalue"], adjusted="pvalue_adj" in result)
    ci_level = 1 - meta["alpha"] if meta.get("alpha") is not None else None
    ci_text = f"{ci_level:.0%} CI" if ci_level is not None else "CI"
    sided = meta.get("alternative", "two-sided")
    sided_text = "" if sided in (None, "two-sided") else f", one-sided ({sided})"
    ax.set_xlabel(f"mean difference model_1 − model_2 with {ci_text}{sided_text}")
    ax.legend(fontsize="small", loc="best")
    correction = meta.get("correction")
    correction_text = f", {correction} correction" if correction else ""
    _figure_title(ax, title, f"{_test_label(meta, capital=True)}{correction_text}")
    return ax


@_result_kind(
    "wilcoxon", "sign_test", "ttest_5x2cv", "ftest_5x2cv", "mcnemar", "proportions_ztest"
)
def plot_pvalue_dots(result: pd.DataFrame, *, ax=None, title: str | None = None, **kwargs: Any):
    """P-value of each comparison on a log scale, with the significance level marked.

    These tests give no confidence interval of the difference, so the picture
    is the (adjusted) p-value per pair: left of the alpha line is significant.

    Parameters
    ----------
    result : pandas.DataFrame
        Result of ``wilcoxon``, ``sign_test``, the 5x2cv tests, ``mcnemar`` or
        ``proportions_ztest``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.scatter``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import numpy as np

    meta = pdcompare_attrs(result)
    column = "pvalue_adj" if "pvalue_adj" in result else "pvalue"
    pvalues = result[column].to_numpy(dtype=float)
    alpha = meta.get("alpha", 0.05)
    reject = (
        result["reject"].eq(True).to_numpy(dtype=bool, na_value=False)
        if "reject" in result
        else np.asarray(pvalues <= alpha)
    )
    labels = (result["model_1"].astype(str) + " vs " + result["model_2"].astype(str)).tolist()
    ax = _axes(ax)
    positions = np.arange(len(result))[::-1]
    # A p-value of 0 cannot sit on a log axis: it is drawn a decade below the
    # smallest positive p-value (or alpha), and its label says "<0.001".
    positive = pvalues[pvalues > 0]
    floor = min(positive.min(initial=1.0), alpha) / 10
    shown = np.clip(np.nan_to_num(pvalues, nan=1.0), floor, 1.0)
    for rows, color, face, name in (
        (reject, "C3", "C3", "significant"),
        (~reject, "0.35", "white", "not significant"),
    ):
        if rows.any():
            ax.scatter(
                shown[rows],
                positions[rows],
                color=face,
                edgecolors=color,
                s=40,
                label=f"{name} at {_alpha_label(meta)}",
                zorder=3,
                **kwargs,
            )
    ax.hlines(positions, shown, 1.0, color="0.8", zorder=1)
    ax.axvline(alpha, color="C3", linestyle="--", linewidth=1, label=f"alpha = {alpha:g}")
    ax.set_xscale("log")
    ax.set_xlim(floor / 2, 1.5)
    ax.set_ylim(-0.6, len(result) - 0.4)
    _annotate_pvalues(ax, positions, pvalues, adjusted=column == "pvalue_adj")
    ax.set_yticks(positions)
    ax.set_yticklabels(labels)
    adjusted = column == "pvalue_adj" and meta.get("correction")
    ax.set_xlabel(
        f"p-value, {meta['correction']}-adjusted (log scale)"
        if adjusted
        else "p-value (log scale)"
    )
    ax.legend(fontsize="small", loc="best")
    _figure_title(ax, title, _test_label(meta, capital=True))
    return ax

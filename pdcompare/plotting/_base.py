"""What every plot shares: the kind registries, the Axes to draw on, titles and p-value labels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

_SCORES_KINDS: dict[str, Callable[..., Any]] = {}
_RESULT_KINDS: dict[str, Callable[..., Any]] = {}


def _scores_kind(name: str):
    def register(function):
        _SCORES_KINDS[name] = function
        return function

    return register


def _result_kind(*tests: str):
    def register(function):
        for test in tests:
            _RESULT_KINDS[test] = function
        return function

    return register


def _axes(ax):
    """The Axes to draw on: ``ax`` or the current one."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.gca()


def _figure_title(ax, title: str | None, default: str) -> None:
    ax.set_title(default if title is None else title)


def _annotated_heatmap(
    ax, matrix: pd.DataFrame, *, cmap, vmin, vmax, fmt, label, bold=None, **kwargs
):
    """``imshow`` of a square table with each cell's value written in it, and a colorbar.

    ``bold`` (a boolean array like the table) marks the cells written in bold.
    """
    import numpy as np

    values = matrix.to_numpy(dtype=float)
    image = ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax, **kwargs)
    ax.set_xticks(np.arange(values.shape[1]))
    ax.set_yticks(np.arange(values.shape[0]))
    ax.set_xticklabels([str(c) for c in matrix.columns], rotation=30, ha="right")
    ax.set_yticklabels([str(i) for i in matrix.index])
    norm = image.norm
    for (row, col), value in np.ndenumerate(values):
        if np.isnan(value):
            continue
        # Dark text on light cells, light text on dark cells.
        rgba = image.cmap(norm(value))
        luminance = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2]
        color = "black" if luminance > 0.5 else "white"
        weight = "bold" if bold is not None and bold[row, col] else "normal"
        ax.text(
            col,
            row,
            fmt(value),
            ha="center",
            va="center",
            color=color,
            fontsize="small",
            fontweight=weight,
        )
    colorbar = ax.figure.colorbar(image, ax=ax)
    colorbar.set_label(label)
    return image


def _short_pvalue(value: float) -> str:
    from pdcompare.styling import format_pvalue

    return format_pvalue(value, 3)


def _p_text(name: str, value: float) -> str:
    """``p_adj = 0.455`` or ``p_adj < 0.001``."""
    text = _short_pvalue(value)
    return f"{name} < {text[1:]}" if text.startswith("<") else f"{name} = {text}"


_TEST_LABELS = {
    "corrected_ttest": "corrected t-test (Nadeau–Bengio)",
    "ttest": "paired t-test (uncorrected)",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign_test": "sign test",
    "ttest_5x2cv": "5x2cv paired t-test",
    "ftest_5x2cv": "5x2cv combined F-test",
    "mcnemar": "McNemar's test",
    "proportions_ztest": "two-proportion z-test",
    "bootstrap_diff": "paired bootstrap",
}


def _annotate_pvalues(ax, positions, pvalues, adjusted: bool) -> None:
    """Write each row's p-value (``p_adj`` when adjusted) just right of the Axes."""
    name = "p_adj" if adjusted else "p"
    for position, pvalue in zip(positions, pvalues, strict=True):
        ax.annotate(
            _p_text(name, pvalue),
            xy=(1.01, position),
            xycoords=("axes fraction", "data"),
            va="center",
            fontsize="small",
        )


def _test_label(meta: dict[str, Any], capital: bool = False) -> str:
    label = _TEST_LABELS.get(meta.get("test"), str(meta.get("test")))
    return label[:1].upper() + label[1:] if capital else label


def _value_label(value: str, meta: dict[str, Any]) -> str:
    if value == "pvalue_adj":
        correction = meta.get("correction")
        return f"p-value, {correction}-adjusted" if correction else "p-value (no correction)"
    return value.replace("_", " ")


def _alpha_label(meta: dict[str, Any]) -> str:
    alpha = meta.get("alpha")
    return f"alpha = {alpha:g}" if alpha is not None else "alpha"


def _interval_segments(point, low, high):
    """Finite ends of intervals: an infinite (one-sided) end is drawn up to the point."""
    import numpy as np

    point = np.asarray(point, dtype=float)
    low = np.where(np.isinf(low), point, np.asarray(low, dtype=float))
    high = np.where(np.isinf(high), point, np.asarray(high, dtype=float))
    return low, high

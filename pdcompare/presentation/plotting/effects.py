"""The picture of ``effect_size``: each pair's effect, its interval, the magnitude bands."""

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
    legend_with_colours,
    marker_handles,
    pair_rows,
    rows_axes,
)
from pdcompare.results import result_info

#: Magnitude names, from the centre out, and the grey of their band.
BANDS = (("negligible", "0.985"), ("small", "0.955"), ("medium", "0.925"), ("large", "0.895"))


def magnitude_bands(thresholds: dict[str, Any]) -> tuple[float, list[tuple[str, float, float]]]:
    """The centre (0, or 0.5 for probabilities) and each magnitude's distance band from it.

    Examples
    --------
    >>> centre, bands = magnitude_bands({"small": 0.2, "medium": 0.5, "large": 0.8,
    ...                                  "of": "|effect_size|"})
    >>> centre, bands[0], bands[-1]
    (0.0, ('negligible', 0.0, 0.2), ('large', 0.8, inf))
    """
    centre = 0.5 if "0.5" in str(thresholds.get("of", "")) else 0.0
    cuts = [0.0, *(float(thresholds[k]) for k in ("small", "medium", "large")), np.inf]
    return centre, [(name, cuts[k], cuts[k + 1]) for k, (name, _) in enumerate(BANDS)]


def _shade_bands(ax, thresholds: dict[str, Any], left: float, right: float) -> float:
    """Grey bands of the magnitudes on both sides of the centre, each named once; the centre."""
    centre, bands = magnitude_bands(thresholds)
    width = right - left
    for (name, inner, outer), (_, grey) in zip(bands, BANDS, strict=True):
        pieces = []
        for sign in (-1.0, 1.0) if inner > 0 else (1.0,):
            ends = (centre + sign * inner, centre + sign * min(outer, 1e9))
            if inner == 0:  # the negligible band is one band across the centre
                ends = (centre - outer, centre + outer)
            lo, hi = max(min(ends), left), min(max(ends), right)
            if hi > lo:
                ax.axvspan(lo, hi, color=grey, zorder=0, linewidth=0)
                pieces.append((hi - lo, lo, hi))
        widest = max(pieces, default=None)
        if widest is not None and widest[0] > 0.07 * width * (len(name) / 6):
            ax.text(
                (widest[1] + widest[2]) / 2,
                1.0,
                name,
                transform=ax.get_xaxis_transform(),
                ha="center",
                va="top",
                fontsize="x-small",
                color="0.3",
            )
    return centre


@_result_kind("effect_size")
def plot_effect_sizes(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Each pair's effect size, with its interval when the result has one, on magnitude bands.

    One row per pair (``model_1`` against ``model_2``, best pairs first): the
    marker is the effect size, the bar its interval (``effect_size(ci=...)``),
    the grey bands the conventional magnitudes of the measure (negligible,
    small, medium, large: the result's ``thresholds``), the dashed line no
    effect. A marker is filled when its magnitude is at least "small".
    Markers take ``model_2``'s colour, as in every picture of the frame.

    Parameters
    ----------
    result : pandas.DataFrame
        Result of ``effect_size`` (any scope).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the rows.
    top : int, optional
        Show the pairs among the best ``top`` models (one model and its best
        ``top - 1`` opponents); by default 20 models, or 10 of an all-pairs
        result, as the title says.
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
    >>> result = load_grid_search_scores().cmp.effect_size(ci=0.95)
    >>> ax = result.cmp.plot()
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['linear', '3_poly', '2_poly']
    >>> ax.get_xlabel()
    'd_z (cohen_dz) of model_1 − model_2, with 95% interval'
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    require_columns(result, ("model_1", "model_2", "effect_size"), "An effect-size plot")
    info = result_info(result)
    shown = pair_rows(result, top, "An effect-size plot")
    ax, _ = rows_axes(ax, shown)
    effect = column(shown.rows, "effect_size")
    low, high = column(shown.rows, "ci_low"), column(shown.rows, "ci_high")
    thresholds = info.thresholds or {"small": 0.2, "medium": 0.5, "large": 0.8}
    centre, _ = magnitude_bands(thresholds)
    ends = np.concatenate([effect, low, high, [centre]])
    ends = ends[np.isfinite(ends)]
    span = max(float(np.ptp(ends)), 2 * float(thresholds["small"]))
    left, right = ends.min() - 0.12 * span, ends.max() + 0.12 * span
    if centre == 0.5:  # probabilities stay in [0, 1]
        left, right = max(left, 0.0), min(right, 1.0)
    _shade_bands(ax, thresholds, left, right)
    ax.axvline(centre, color="0.45", linestyle="--", linewidth=1)
    draw_bars(ax, low, high, shown)
    small = np.abs(effect - centre) >= float(thresholds["small"])
    with matplotlib_options("the effect-size plot", "Axes.scatter", kwargs):
        draw_points(ax, effect, shown, small, **kwargs)
    ax.set_xlim(left, right)
    symbol = info.symbol or "effect size"
    measure = info.get("measure")
    ci = info.ci
    label = f"{symbol} ({measure}) of model_1 − model_2" if measure else f"{symbol}"
    if ci is not None and np.isfinite(low).any():
        label += f", with {ci:.0%} interval"
    ax.set_xlabel(label)
    handles, labels = marker_handles("small or larger", "negligible")
    legend_with_colours(ax, shown, handles, labels, ncols=3)
    _figure_title(ax, title, f"Effect size {symbol} per pair", shown.note)
    return ax

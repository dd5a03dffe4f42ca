"""One row per pair: the rows a result picture shows, their labels, the Axes sized to them.

The pictures of effect sizes, equivalence, power and almost stochastic order
draw each compared pair as one row (best pairs first, at most the best 20
models as :func:`pdcompare.presentation.shown.top_pairs` chooses, the title
saying so). Against one model the rows name the other models and the y label
names the one; otherwise each row reads ``model_1 vs model_2``. Each row's
marker takes ``model_2``'s colour, as in every picture of the frame, and the
legend says so (:func:`colour_legend_entry`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.plotting._base import (
    _axes,
    _legend_above,
    model_colours,
    require_columns,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.shown import result_models, top_pairs

#: Colour of a row whose model_2 has no colour of its own.
GREY = (0.35, 0.35, 0.35, 1.0)


@dataclass(frozen=True)
class PairRows:
    """The rows of a result a picture draws, top to bottom, and what labels them."""

    rows: pd.DataFrame
    labels: list[str]
    positions: np.ndarray
    colours: np.ndarray
    note: str
    against: str | None  # the one model every row compares with, if any


def pair_rows(result: pd.DataFrame, top: int | None, what: str) -> PairRows:
    """The pairs of ``result`` a picture shows (see ``top_pairs``), labelled and coloured.

    Examples
    --------
    >>> result = pd.DataFrame({"model_1": ["a", "a"], "model_2": ["b", "c"]})
    >>> result.attrs["pdcompare"] = {"models": ["a", "b", "c"]}
    >>> shown = pair_rows(result, None, "A picture")
    >>> shown.labels, shown.positions.tolist(), shown.against
    (['b', 'c'], [1, 0], 'a')
    """
    require_columns(result, ("model_1", "model_2"), what)
    colours = model_colours(result_models(result))
    rows, note = top_pairs(result, top)
    first = rows["model_1"].astype(str)
    against = str(first.iloc[0]) if len(rows) and bool((first == first.iloc[0]).all()) else None
    second = rows["model_2"].astype(str)
    labels = second.tolist() if against is not None else (first + " vs " + second).tolist()
    row_colours = np.array([colours.get(m, GREY) for m in rows["model_2"]], dtype=float)
    return PairRows(
        rows=rows,
        labels=labels,
        positions=np.arange(len(rows))[::-1],
        colours=row_colours.reshape(-1, 4),
        note=note,
        against=against,
    )


def rows_axes(ax, shown: PairRows, extra_width: float = 1.2) -> tuple[Any, float]:
    """The Axes (a new figure sized to the rows unless ``ax``), rows labelled; the font size."""
    longest = max(map(len, shown.labels), default=1)
    ax = _axes(ax, figsize=row_figsize(len(shown.labels) + 3, longest, extra_width))
    fontsize = row_fontsize(ax, len(shown.labels) + 3)
    ax.set_yticks(shown.positions, labels=shown.labels, fontsize=fontsize)
    ax.set_ylim(-0.6, len(shown.labels) - 0.4)
    if shown.against is not None:
        ax.set_ylabel(f"{shown.against} vs")
    return ax, fontsize


def column(rows: pd.DataFrame, name: str) -> np.ndarray:
    """A column of the shown rows as floats (NaN where the result lacks it)."""
    if name not in rows:
        return np.full(len(rows), np.nan)
    return rows[name].to_numpy(dtype=float, na_value=np.nan)


def flags(rows: pd.DataFrame, name: str) -> np.ndarray:
    """A boolean column of the shown rows (missing values and absent columns are False)."""
    if name not in rows:
        return np.zeros(len(rows), dtype=bool)
    return rows[name].eq(True).to_numpy(dtype=bool, na_value=False)


def draw_points(ax, x, shown: PairRows, filled: np.ndarray, **kwargs: Any) -> None:
    """Each row's marker at ``x`` in model_2's colour: filled where ``filled``, open elsewhere."""
    x = np.asarray(x, dtype=float)
    for mask in (filled, ~filled):
        if mask.any():
            ax.scatter(
                x[mask],
                shown.positions[mask],
                **{
                    "s": 40,
                    "c": shown.colours[mask] if mask is filled else "white",
                    "edgecolors": shown.colours[mask],
                    "linewidths": 1.5,
                    "zorder": 3,
                    **kwargs,
                },
            )


def draw_bars(ax, low, high, shown: PairRows, **kwargs: Any) -> None:
    """Each row's interval from ``low`` to ``high`` in model_2's colour (NaN ends: no bar)."""
    low = np.asarray(low, dtype=float)
    high = np.asarray(high, dtype=float)
    drawn = np.isfinite(low) & np.isfinite(high)
    if drawn.any():
        ax.hlines(
            shown.positions[drawn],
            low[drawn],
            high[drawn],
            colors=shown.colours[drawn],
            **{"linewidth": 1.8, "zorder": 2, **kwargs},
        )


def marker_handles(filled_label: str, open_label: str) -> tuple[list, list[str]]:
    """Legend handles of a filled and an open grey marker, with their labels."""
    from matplotlib.lines import Line2D

    handles = [
        Line2D([], [], marker="o", linestyle="none", color="0.35", markerfacecolor="0.35"),
        Line2D([], [], marker="o", linestyle="none", color="0.35", markerfacecolor="white"),
    ]
    return handles, [filled_label, open_label]


def colour_legend_entry(colours: np.ndarray, one_model: bool) -> tuple[Any, Any, str]:
    """A legend entry saying what a row's colour means: model_2's colour in every picture.

    ``colours`` are the rows' colours, top row first (result order); the handle
    shows the first few of them side by side. Returns the handle, its
    handler (for ``handler_map``) and the label.
    """
    from matplotlib.legend_handler import HandlerTuple
    from matplotlib.lines import Line2D

    seen: dict[tuple, tuple] = {}
    for colour in np.asarray(colours, dtype=float).reshape(-1, 4):
        seen.setdefault(tuple(np.round(colour, 6)), tuple(colour))
    handle = tuple(
        Line2D([], [], marker="s", linestyle="none", color=c, markersize=6)
        for c in list(seen.values())[:4]
    ) or (Line2D([], [], marker="s", linestyle="none", color=GREY),)
    colour_of = "the model's" if one_model else "model_2's"
    label = f"colour: {colour_of}"
    return handle, HandlerTuple(ndivide=None, pad=0.0), label


def legend_with_colours(ax, shown: PairRows, handles: list, labels: list[str], ncols: int = 2):
    """The legend above the Axes: ``handles`` and the entry saying what the colours mean."""
    handle, handler, label = colour_legend_entry(shown.colours, shown.against is not None)
    legend = _legend_above(
        ax, [*handles, handle], [*labels, label], ncols=ncols, handler_map={handle: handler}
    )
    rows = -(-(len(handles) + 1) // ncols)
    ax._pdcompare_title_pad = 10.0 + 12.0 * rows
    return legend

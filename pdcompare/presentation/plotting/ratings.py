"""The picture of Bradley–Terry ratings: each model's rating and interval, best first."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.plotting._base import (
    _axes,
    _result_kind,
    matplotlib_options,
    require_columns,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.shown import top_models
from pdcompare.results import result_info


@_result_kind("bradley_terry")
def ratings_plot(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Each model's Bradley–Terry rating with its bootstrap interval, best first.

    For the result of ``bradley_terry``: one row per model, the best at the
    top, a point at the rating and a bar over the interval; the rank
    confidence set (``rank_low``–``rank_high``) is written right of the Axes.

    Parameters
    ----------
    frame : pandas.DataFrame
        The result of ``bradley_terry``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the number of models.
    top : int, optional
        Draw the best ``top`` models; by default all up to 20, the best 20
        beyond, as the title says.
    title : str, optional
        Title of the Axes; by default the level and the number of battles.
    **kwargs
        Passed to ``Axes.errorbar``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> import pdcompare
    >>> wins = pd.DataFrame([[0, 6, 7], [4, 0, 6], [3, 4, 0]], index=list("ABC"),
    ...                     columns=list("ABC"))
    >>> ax = pdcompare.bradley_terry(wins, n_resamples=200, random_state=0).cmp.plot()
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['A', 'B', 'C']
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    columns = ["rating", "ci_low", "ci_high", "rank_low", "rank_high", "n_battles"]
    require_columns(frame, columns, "The ratings plot")
    info = result_info(frame)
    best_first = frame.sort_values("rating", ascending=False, kind="stable")
    shown, note = top_models(best_first.index.tolist(), top)
    rows = best_first.iloc[: len(shown)]
    n = len(rows)
    names = [str(m) for m in rows.index]
    ax = _axes(ax, figsize=row_figsize(n, max(map(len, names)), extra_width=0.9))
    positions = np.arange(n)[::-1]  # the best at the top
    rating = rows["rating"].to_numpy(dtype=float)
    low = rows["ci_low"].to_numpy(dtype=float)
    high = rows["ci_high"].to_numpy(dtype=float)
    error = np.vstack(
        [
            rating - np.where(np.isfinite(low), low, rating),
            np.where(np.isfinite(high), high, rating) - rating,
        ]
    )
    options = {"fmt": "o", "color": "C0", "ecolor": "C0", "capsize": 2, "markersize": 4, **kwargs}
    with matplotlib_options("bradley_terry", "Axes.errorbar", options):
        ax.errorbar(rating, positions, xerr=error, **options)
    fontsize = row_fontsize(ax, n)
    ax.set_yticks(positions)
    ax.set_yticklabels(names, fontsize=fontsize)
    ax.set_ylim(-0.7, n - 0.3)
    sets = [
        f"{a}" if a == b else f"{a}–{b}"
        for a, b in zip(rows["rank_low"], rows["rank_high"], strict=True)
    ]
    transform = ax.get_yaxis_transform()
    ax.text(1.02, n - 0.3, "rank set", transform=transform, fontsize=fontsize, va="bottom")
    for position, text in zip(positions, sets, strict=True):
        ax.text(1.02, position, text, transform=transform, va="center", fontsize=fontsize)
    ax.grid(axis="x", alpha=0.3)
    level = float(0.95 if info.ci is None else info.ci)
    ties = info.ties or "half"
    ax.set_xlabel(f"rating ({level:.0%} bootstrap interval; ties: {ties})")
    default = f"Bradley–Terry ratings from {int(frame['n_battles'].sum() // 2):,} battles"
    if note:
        default += f"\n({note})"
    ax.set_title(title if title is not None else default, fontsize=11)
    return ax

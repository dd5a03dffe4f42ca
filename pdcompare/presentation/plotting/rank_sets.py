"""The picture of rank confidence sets: each model's set of ranks, best first."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.compare.figure_inputs import ranks_inputs
from pdcompare.presentation.labels import join_names
from pdcompare.presentation.plotting._base import (
    _axes,
    _figure_title,
    _result_kind,
    _scores_kind,
    model_colours,
    require_columns,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.shown import check_top
from pdcompare.results import ResultInfo, result_info

#: Up to this many models every one gets a named row; beyond, the picture is compressed.
NAMED_ROWS = 60
#: Names of the possibly-best models listed in the title of a compressed picture.
LISTED = 2


def _set_words(info: ResultInfo) -> str:
    coverage = float(0.95 if info.coverage is None else info.coverage)
    kind = "simultaneous" if info.simultaneous in (None, True) else "marginal"
    return f"{coverage:.0%} {kind} rank sets"


@_result_kind("ranks")
def rank_sets_plot(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Each model's rank confidence set as a segment, best first, the rank as a dot.

    For the result of ``ranks``. Up to 60 models each has a named row; beyond,
    every model is a thin segment at its position (1 = best estimate) and
    the title names the models that may be the best. ``top`` draws the best
    ``top`` models with their names.

    Parameters
    ----------
    frame : pandas.DataFrame
        The result of ``ranks`` (columns ``rank, rank_low, rank_high``).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the number of rows.
    top : int, optional
        Draw the best ``top`` models, named; by default every model (named up
        to 60).
    title : str, optional
        Title of the Axes; by default the coverage, the kind of sets and the
        models that may be the best.
    **kwargs
        Passed to ``Axes.hlines`` (the sets).

    Returns
    -------
    matplotlib.axes.Axes
        The sets are ``ax.collections[0]``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pdcompare
    >>> result = pdcompare.datasets.load_grid_search_scores().cmp.ranks(random_state=0)
    >>> ax = rank_sets_plot(result)
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['rbf', 'linear', '3_poly', '2_poly']
    >>> print(ax.get_title())
    95% simultaneous rank sets
    3 of 4 models may be the best
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    require_columns(frame, ["rank", "rank_low", "rank_high"], "The rank-sets plot")
    info = result_info(frame)
    top = check_top(top)
    m = len(frame)
    best = frame.index[frame["rank_low"].to_numpy() <= 1].tolist()
    shown = frame if top is None else frame.iloc[:top]
    n = len(shown)
    named = n <= NAMED_ROWS
    names = [str(k) for k in shown.index]
    figsize = row_figsize(n, max(map(len, names))) if named else (8.0, 6.0)
    ax = _axes(ax, figsize=figsize)
    positions = np.arange(1, n + 1)
    low = shown["rank_low"].to_numpy(dtype=float)
    high = shown["rank_high"].to_numpy(dtype=float)
    rank = shown["rank"].to_numpy(dtype=float)
    if named:
        colours = model_colours(frame.index.tolist())
        options = {"colors": [colours[k] for k in shown.index], "linewidth": 2.5, **kwargs}
        # A set of one rank is a point: draw each set from rank_low - 0.3 to rank_high + 0.3.
        ax.hlines(positions, low - 0.3, high + 0.3, **options)
        ax.scatter(rank, positions, s=16, color="black", zorder=3)
    else:
        # Too many rows to tell apart: the sets as one band, the estimates' ranks as a line.
        options = {"colors": "C0", "linewidth": 0.6, "alpha": 0.5, **kwargs}
        ax.hlines(positions, low - 0.5, high + 0.5, **options)
        ax.plot(rank, positions, color="black", linewidth=0.8, zorder=3)
    ax.set_xlim(0.3, max(float(high.max()), n) + 0.7)  # the ranks the drawn sets reach
    ax.set_ylim(n + 0.6, 0.4)  # the best at the top
    if named:
        ax.set_yticks(positions, labels=names, fontsize=row_fontsize(ax, n))
        ax.set_ylabel("model")
    else:
        ax.set_ylabel("model, by estimate (1 = best)")
    if m <= 30:
        ax.set_xticks(np.arange(1, m + 1))
    mark = "dot" if named else "line"
    ax.set_xlabel(f"rank (1 = best): the set, and the rank of the estimate ({mark})")
    ax.grid(axis="x", alpha=0.3)
    default = f"{_set_words(info)}\n{len(best)} of {m} models may be the best"
    holes = info.get("n_missing", 0)
    if holes and info.covariance != "across data sets":  # each model's own data sets
        default += f" ({holes} cells missing)"
    if n < m:
        default += f" (best {n} drawn)"
    if not named or len(best) > n:
        listed = join_names(best[:LISTED])
        more = f" and {len(best) - LISTED} more" if len(best) > LISTED else ""
        default += f":\n{listed}{more}"
    _figure_title(ax, title, default)
    return ax


@_scores_kind("ranks")
def plot_ranks(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    coverage: float = 0.95,
    simultaneous: bool = True,
    n_draws: int = 10000,
    random_state: Any = 0,
    title: str | None = None,
    **design: Any,
):
    """The rank confidence sets of a frame's models (``ranks``), drawn best first.

    Parameters
    ----------
    frame : pandas.DataFrame
        Any frame ``ranks`` takes (scores with their design, benchmark, runs).
    ax : matplotlib.axes.Axes, optional
        Where to draw.
    top : int, optional
        Draw the best ``top`` models, named.
    coverage, simultaneous, n_draws, random_state
        As ``ranks`` (``random_state=0`` by default: the same picture twice).
    title : str, optional
        Title of the Axes.
    **design
        Design keywords passed to ``ranks`` (``cv=``, ...).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pdcompare
    >>> ax = pdcompare.datasets.load_benchmark().cmp.plot("ranks")
    >>> ax.get_yticklabels()[0].get_text()
    'svc_rbf'
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    result = ranks_inputs(
        frame,
        coverage=coverage,
        simultaneous=simultaneous,
        n_draws=n_draws,
        random_state=random_state,
        **design,
    )
    return rank_sets_plot(result, ax=ax, top=top, title=title)

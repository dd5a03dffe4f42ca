"""The runs of every model: a strip of its runs over a box of their quartiles, best first."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.data import scores_data
from pdcompare.presentation.plotting._base import (
    _axes,
    _figure_title,
    _scores_kind,
    matplotlib_options,
    model_colours,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.shown import top_models


def runs_data(frame: pd.DataFrame, **design: Any) -> tuple[list, list[np.ndarray], bool]:
    """Models best first, each model's present runs, and the design's direction.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> runs = pd.DataFrame([[0.1, 0.2, np.nan], [0.5, 0.6, 0.7]], index=["a", "b"])
    >>> names, samples, greater = runs_data(runs)
    >>> names, [s.tolist() for s in samples], greater
    (['b', 'a'], [[0.5, 0.6, 0.7], [0.1, 0.2]], True)
    """
    data = scores_data(frame, **design)
    samples = [row[~np.isnan(row)] for row in data.values[data.order]]
    return data.ranked_names, samples, data.design.greater_is_better


@_scores_kind("runs")
def runs_plot(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    xlabel: str = "score",
    random_state: int = 0,
    **kwargs: Any,
):
    """Every run of every model: a strip of points over a box of their quartiles, best first.

    The picture of a runs frame (``set_design(paired=False)``): how far the
    seeds spread each model, and how much two models' runs overlap, which is
    what ``welch_ttest``, ``mannwhitney`` and ``aso`` judge.

    Parameters
    ----------
    frame : pandas.DataFrame
        A runs frame (models as rows, runs as columns; NaN = absent run), or
        any scores frame (its splits drawn as runs), or a benchmark frame
        (its per-data-set means).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the number of models.
    top : int, optional
        Draw the best ``top`` models (by mean, in the design's direction);
        by default all up to 20 models, the best 20 beyond, as the title says.
    title : str, optional
        Title; by default it says how many runs each model has.
    xlabel : str, default "score"
        Label of the score axis (the metric's name, say); the direction is added.
    random_state : int, default 0
        Seed of the vertical jitter of the points (the same picture every time).
    **kwargs
        Passed to the ``Axes.scatter`` call that draws the runs.

    Returns
    -------
    matplotlib.axes.Axes
        One row per model, best at the top, each in its model's colour
        (the colours of every other picture of the frame): a box from the
        first to the third quartile with the median as a black line,
        whiskers to the lowest and highest run, every run as a point
        (``ax.collections[-2]``) and the mean, which orders the rows, as a
        white diamond (``ax.collections[-1]``).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> runs = pd.DataFrame(rng.normal(0.8, 0.02, (3, 5)), index=["a", "b", "c"])
    >>> ax = runs_plot(runs.cmp.set_design(paired=False))
    >>> [t.get_text() for t in ax.get_yticklabels()]  # best (highest mean) first, at the top
    ['b', 'a', 'c']
    >>> runs.mean(axis=1).sort_values(ascending=False).index.tolist()
    ['b', 'a', 'c']
    >>> len(ax.collections[-2].get_offsets())  # 15 runs
    15
    >>> plt.close("all")
    """
    from matplotlib.collections import LineCollection

    order, samples, greater = runs_data(frame)
    shown, note = top_models(order, top)
    colours = model_colours(order)
    samples = samples[: len(shown)]
    names = [str(m) for m in shown]
    ax = _axes(ax, figsize=row_figsize(len(shown), max(map(len, names))))
    # Best at the top: row k at height n - 1 - k.
    heights = np.arange(len(shown))[::-1].astype(float)
    quartiles = np.array(
        [np.percentile(s, [0, 25, 50, 75, 100]) if s.size else [np.nan] * 5 for s in samples]
    )
    colour_list = [colours[m] for m in shown]
    ax.barh(
        heights,
        quartiles[:, 3] - quartiles[:, 1],
        left=quartiles[:, 1],
        height=0.6,
        color=[(*c[:3], 0.25) for c in colour_list],
        edgecolor=colour_list,
        linewidth=1.0,
        zorder=1,
    )
    whiskers = [
        [((q[0], h), (q[1], h)), ((q[3], h), (q[4], h))]
        for q, h in zip(quartiles, heights, strict=True)
    ]
    ax.add_collection(
        LineCollection(
            [segment for pair in whiskers for segment in pair],
            colors=[c for c in colour_list for _ in range(2)],
            linewidths=1.0,
            zorder=1,
        )
    )
    ax.add_collection(
        LineCollection(
            [((q[2], h - 0.3), (q[2], h + 0.3)) for q, h in zip(quartiles, heights, strict=True)],
            colors="black",
            linewidths=1.5,
            zorder=2,
        )
    )
    rng = np.random.default_rng(random_state)
    counts = np.array([s.size for s in samples])
    x = np.concatenate(samples) if samples else np.array([])
    y = np.repeat(heights, counts) + rng.uniform(-0.22, 0.22, int(counts.sum()))
    point_colours = np.repeat(np.array(colour_list), counts, axis=0)
    size = float(np.clip(400.0 / max(len(shown), 1), 6.0, 30.0))
    options = {"s": size, "edgecolors": "black", "linewidths": 0.3, "zorder": 3, **kwargs}
    with matplotlib_options('plot("runs")', "Axes.scatter", kwargs):
        ax.scatter(x, y, c=point_colours, **options)
    # The mean, which orders the rows, as a white diamond on the median's line.
    means = np.array([s.mean() if s.size else np.nan for s in samples])
    ax.scatter(
        means,
        heights,
        marker="D",
        s=size * 1.2,
        c="white",
        edgecolors="black",
        linewidths=0.8,
        zorder=4,
    )
    ax.set_yticks(heights, labels=names, fontsize=row_fontsize(ax, len(shown)))
    ax.set_ylim(-0.6, len(shown) - 0.4)
    ax.grid(axis="x", alpha=0.3)
    ax.set_axisbelow(True)
    direction = "higher is better" if greater else "lower is better"
    ax.set_xlabel(f"{xlabel} of each run ({direction})\n◇ mean, | median, box: quartiles")
    low, high = (int(counts.min()), int(counts.max())) if counts.size else (0, 0)
    each = f"{low} runs each" if low == high else f"{low} to {high} runs per model"
    _figure_title(ax, title, f"Runs per model, best first ({each})", note)
    return ax

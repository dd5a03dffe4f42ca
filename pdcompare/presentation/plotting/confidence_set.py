"""The picture of a model confidence set: MCS p-values, best first, the level drawn."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.labels import format_significant
from pdcompare.presentation.plotting._base import (
    _axes,
    _result_kind,
    require_columns,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.shown import top_models
from pdcompare.results import result_info


@_result_kind("confidence_set")
def confidence_set_plot(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """The MCS p-value of every model as a bar, best first, with the level ``alpha``.

    For the result of ``confidence_set``: the models run from the best (top,
    the last eliminated) down the elimination order; the models in the set
    (``pvalue > alpha``) are drawn in colour, the eliminated ones in grey;
    the dashed line is ``alpha``. Each bar is labelled with the model's mean
    loss.

    Parameters
    ----------
    frame : pandas.DataFrame
        The result of ``confidence_set``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the number of models.
    top : int, optional
        Draw the best ``top`` models (the last ones eliminated); by default
        all up to 20, the best 20 beyond, as the title says.
    title : str, optional
        Title of the Axes; by default the level, the method and the number
        of models in the set.
    **kwargs
        Passed to ``Axes.barh``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> import pandas as pd
    >>> import pdcompare
    >>> rng = np.random.default_rng(0)
    >>> y = rng.normal(size=300)
    >>> preds = pd.DataFrame({"y": y, "a": y + rng.normal(0, 1, 300),
    ...                       "b": y + rng.normal(0, 1.05, 300), "c": y + rng.normal(0, 2, 300)})
    >>> ax = confidence_set_plot(preds.cmp.confidence_set(random_state=0))
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['b', 'a', 'c']
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    require_columns(frame, ["mean_loss", "pvalue", "in_set"], "The confidence-set plot")
    info = result_info(frame)
    alpha = float(0.10 if info.alpha is None else info.alpha)
    best_first = frame.iloc[::-1]
    shown, note = top_models(best_first.index.tolist(), top)
    rows = best_first.iloc[: len(shown)]
    n = len(rows)
    names = [str(m) for m in rows.index]
    ax = _axes(ax, figsize=row_figsize(n, max(map(len, names)), extra_width=0.8))
    positions = np.arange(n)[::-1]  # the best at the top
    pvalue = rows["pvalue"].to_numpy(dtype=float)
    in_set = rows["in_set"].to_numpy(dtype=bool)
    colours = np.where(in_set, "C0", "0.7")
    ax.barh(positions, pvalue, color=colours, **kwargs)
    ax.axvline(alpha, color="C3", linestyle="--", linewidth=1, label=f"alpha = {alpha:g}")
    fontsize = row_fontsize(ax, n)
    for position, value, loss in zip(positions, pvalue, rows["mean_loss"], strict=True):
        ax.text(
            min(value, 1.0) + 0.01,
            position,
            format_significant(loss, 4),
            va="center",
            fontsize=fontsize,
        )
    ax.set_yticks(positions)
    ax.set_yticklabels(names, fontsize=fontsize)
    ax.set_xlim(0, 1.15)
    ax.set_xlabel("MCS p-value (label: mean loss)")
    # outside the bars: inside, it covered the last bar's label
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    method = info.method or "R"
    kept = int(frame["in_set"].sum())
    default = (
        f"Model confidence set at {1 - alpha:.0%} ({method} statistic): "
        f"{kept} of {len(frame)} models"
    )
    if note:
        default += f"\n({note})"
    ax.set_title(title if title is not None else default, fontsize=11)
    return ax

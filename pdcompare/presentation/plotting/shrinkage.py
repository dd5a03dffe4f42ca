"""Shrinkage of the hierarchical test: each data set's difference before and after."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.compare.hierarchical import shrinkage
from pdcompare.presentation.plotting._base import _axes, _result_kind, row_figsize
from pdcompare.results import result_info

#: Data sets drawn by default; beyond, those the model moved most, and the title says so.
DEFAULT_TOP = 40


@_result_kind("hierarchical")
def shrinkage_plot(
    frame: pd.DataFrame,
    *,
    a: Any = None,
    b: Any = None,
    ax=None,
    top: int | None = None,
    **kwargs: Any,
):
    """Draw one pair's per-data-set differences before and after the hierarchical model.

    For every data set, an open circle at the mean of its fold differences
    (``model_1 - model_2``) and a dot at the posterior mean of its ``δ_i``,
    joined by an arrow: how far the model pulled it towards the common
    difference, drawn as a vertical line (the posterior mean of ``δ0``),
    with the ROPE shaded. Data sets measured on few or noisy folds move
    most. A result of several pairs draws one of them (the first unless
    ``a``/``b`` choose), and its title says which pair of how many.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of :func:`pdcompare.hierarchical` (or
        ``pairwise(test="hierarchical")``).
    a, b : model name, optional
        The pair to draw (model_1 and model_2 of a row); the first row by default.
    ax : matplotlib.axes.Axes, optional
        Where to draw; a new figure sized to the data sets otherwise.
    top : int, optional
        Draw at most this many data sets, those the model moved most (all
        of them up to 40 by default); the title says how many are left out.
    **kwargs
        Passed to the ``Axes.scatter`` of the shrunk estimates.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> from pdcompare.datasets import load_benchmark
    >>> bench = load_benchmark()
    >>> res = bench.cmp.hierarchical("svc_rbf", "forest", n_samples=2000, random_state=0)
    >>> ax = shrinkage_plot(res)
    >>> len(ax.get_yticklabels())
    22
    """
    info = result_info(frame)
    if info.test != "hierarchical" or "shrunk" not in info.stated:
        msg = (
            "`shrinkage_plot` draws a result of `hierarchical` (its attrs hold the shrunk "
            "per-data-set differences); got a frame without them."
        )
        raise ValueError(msg)
    if a is None and b is None:
        row = 0
    else:
        matches = np.flatnonzero(
            ((frame["model_1"] == a) | (a is None)) & ((frame["model_2"] == b) | (b is None))
        )
        if matches.size == 0:
            msg = f"`a`, `b`: the result has no row with model_1={a!r} and model_2={b!r}."
            raise ValueError(msg)
        row = int(matches[0])
    pair = shrinkage(frame.iloc[[row]])
    kept = pair["before"].notna() & pair["after"].notna()
    start = pd.Series(pair["before"].to_numpy()[kept], index=pair["dataset"][kept])
    after = pd.Series(pair["after"].to_numpy()[kept], index=pair["dataset"][kept])
    limit = DEFAULT_TOP if top is None else int(top)
    moved = (after - start).abs()
    left_out = max(len(after) - limit, 0)
    if left_out:
        chosen = moved.sort_values(ascending=False).index[:limit]
        after, start = after[chosen], start[chosen]
    order = start.sort_values().index
    after, start = after[order], start[order]
    labels = [str(d) for d in order]
    ax = _axes(ax, row_figsize(len(labels), max((len(s) for s in labels), default=1)))
    y = np.arange(len(labels))
    centre = float(frame["mean_diff"].iloc[row])
    low, high = info.rope or (0.0, 0.0)
    if high > low:
        ax.axvspan(low, high, color="0.9", zorder=0, label="ROPE")
    ax.axvline(centre, color="0.3", linestyle="--", linewidth=1, label="mean difference δ0")
    for k in range(len(labels)):
        ax.annotate(
            "",
            xy=(after.iloc[k], y[k]),
            xytext=(start.iloc[k], y[k]),
            arrowprops={"arrowstyle": "->", "color": "0.55", "linewidth": 0.8},
        )
    ax.scatter(start, y, facecolors="none", edgecolors="C0", label="mean of the folds", zorder=3)
    ax.scatter(
        after, y, **{"color": "C1", "label": "shrunk (posterior mean)", "zorder": 4, **kwargs}
    )
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(labels) - 0.3)
    model_1, model_2 = frame["model_1"].iloc[row], frame["model_2"].iloc[row]
    ax.set_xlabel(f"{model_1} − {model_2} per data set")
    title = f"Hierarchical model: {model_1} vs {model_2}"
    notes = []
    if len(frame) > 1:
        notes.append(f"pair {row + 1} of {len(frame)}; a=, b= choose another")
    if left_out:
        notes.append(f"the {len(labels)} data sets moved most; {left_out} more not shown")
    if notes:
        title += f"\n({'; '.join(notes)})"
    ax.set_title(title, fontsize="medium")
    ax.legend(fontsize="small", loc="best")
    return ax

"""The picture of a sequential result: each pair's running difference and confidence sequence."""

from __future__ import annotations

import numpy as np
import pandas as pd

from pdcompare.presentation.plotting._base import (
    _axes,
    _figure_title,
    _result_kind,
    position_colour,
)
from pdcompare.presentation.shown import check_top, top_pairs
from pdcompare.results import result_info

#: Without ``top``, the pairs among this many best models are drawn (6 pairs).
DEFAULT_MODELS = 4
#: Up to this many pairs the sequences are bands; beyond, thin lines at their bounds.
BANDS_UP_TO = 3

_BOUNDARY_WORDS = {
    "normal_mixture": "normal mixture",
    "betting": "betting",
    "evalue": "discordant-pair e-process",
}


def _paths(result: pd.DataFrame, rows: pd.DataFrame) -> dict[str, np.ndarray]:
    """The stored paths of the pairs in ``rows`` (positions of ``result``'s rows)."""
    path = result_info(result).get("path")
    positions = result.index.get_indexer(rows.index)
    return {
        "n": np.asarray(path["n"], dtype=float),
        **{
            key: np.asarray(path[key], dtype=float)[positions]
            for key in ("mean_diff", "cs_low", "cs_high")
        },
    }


def _zoom(ax, paths: dict[str, np.ndarray]) -> None:
    """Heights from the twentieth of the looks on: the first few, very wide, are cut at the top."""
    start = paths["n"].size // 20
    low = paths["cs_low"][:, start:]
    high = paths["cs_high"][:, start:]
    if low.size and np.isfinite(low).any():
        bottom, top = min(np.nanmin(low), 0.0), max(np.nanmax(high), 0.0)
        pad = 0.08 * (top - bottom or 1.0)
        ax.set_ylim(bottom - pad, top + pad)


@_result_kind("sequential")
def plot_sequential(
    result: pd.DataFrame, *, ax=None, top: int | None = None, title: str | None = None
):
    """Each pair's running mean difference with its confidence sequence, and where it was decided.

    One line per pair (model_1 − model_2) over the units read, its
    confidence sequence as a band, a dot where the pair was decided; a dashed
    line at 0 (and dotted ones at ±margin). Up to 3 pairs the sequences are
    bands, beyond thin lines; the heights are those of the looks from the
    twentieth on (the first, widest, are cut). With many models, the pairs
    among the best ``top`` (default 4: 6 pairs) are drawn and the title
    says so.

    Parameters
    ----------
    result : pandas.DataFrame
        A result of :func:`pdcompare.sequential`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure.
    top : int, optional
        The pairs among the best ``top`` models (or, for one model against
        the others, its best ``top − 1`` opponents).
    title : str, optional
        Title of the Axes.

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
    >>> wide = pd.DataFrame((rng.random((3, 300)) < [[0.8], [0.6], [0.55]]).astype(float),
    ...                     index=["a", "b", "c"])
    >>> ax = wide.cmp.set_design(items=True).cmp.sequential().cmp.plot()
    >>> ax.get_title()
    'Confidence sequences of 3 pairs (normal mixture)'
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    info = result_info(result)
    rows, note = top_pairs(result, DEFAULT_MODELS if check_top(top) is None else top)
    paths = _paths(result, rows)
    n = paths["n"]
    longest = max((len(f"{a} − {b}") for a, b in zip(rows["model_1"], rows["model_2"],
                                                          strict=True)), default=10)  # fmt: skip
    ax = _axes(ax, (6.0 + 0.075 * longest, 4.4))
    handles, labels = [], []
    decided_at = rows["decided_at"].to_numpy(dtype=float)
    for position in range(len(rows) - 1, -1, -1):  # the first pair drawn last, on top
        colour = position_colour(position)
        mean = paths["mean_diff"][position]
        if len(rows) <= BANDS_UP_TO:
            ax.fill_between(n, paths["cs_low"][position], paths["cs_high"][position],
                            color=colour, alpha=0.15, lw=0)  # fmt: skip
        else:  # many pairs: the bounds as thin lines, so that the means stay readable
            for bound in ("cs_low", "cs_high"):
                ax.plot(n, paths[bound][position], color=colour, lw=0.7, alpha=0.6)
        label = f"{rows['model_1'].iloc[position]} − {rows['model_2'].iloc[position]}"
        (line,) = ax.plot(n, mean, color=colour, lw=1.5, label=label)
        if np.isfinite(decided_at[position]) and n.size:
            at = int(np.searchsorted(n, decided_at[position]))
            at = min(at, n.size - 1)
            ax.plot(n[at], mean[at], "o", color=colour, ms=6, mec="black", mew=0.6, zorder=4)
        handles.insert(0, line)
        labels.insert(0, label)
    ax.axhline(0.0, color="black", lw=0.8, ls="--")
    margin = info.get("margin")
    if margin:
        for value in (-margin, margin):
            ax.axhline(value, color="grey", lw=0.8, ls=":")
    unit = "clusters" if info.get("look_unit") == "cluster" else "items"
    ax.set_xlabel(f"{unit} read")
    ax.set_ylabel("mean difference (model_1 − model_2)")
    _zoom(ax, paths)
    if handles:
        ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                  fontsize="small", frameon=False, title="model_1 − model_2")  # fmt: skip
    boundary = _BOUNDARY_WORDS.get(info.get("boundary"), str(info.get("boundary")))
    pairs = f"{len(rows)} pair" + ("" if len(rows) == 1 else "s")
    default = f"Confidence sequences of {pairs} ({boundary})"
    _figure_title(ax, title, default, note)
    return ax

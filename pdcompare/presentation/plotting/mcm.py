"""The Multiple Comparison Matrix of a benchmark frame, drawn as a heatmap of its cells."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.compare.figure_inputs import mcm_inputs
from pdcompare.presentation.labels import format_pvalue
from pdcompare.presentation.plotting._base import (
    _axes,
    _figure_title,
    _heatmap_ticks,
    _result_kind,
    _scores_kind,
    annotation_points,
    cell_points,
    cell_text_colour,
    heatmap_figsize,
    matplotlib_options,
)
from pdcompare.presentation.shown import top_models
from pdcompare.results import result_info

#: Below this font size (points) the cells stay unwritten: the colour still tells.
_MIN_POINTS = 5.0
#: The three lines of a cell are written from this size; below, the difference alone.
_FULL_POINTS = 7.0


def _cell_texts(cell: float, texts: list[str], annot: bool | None) -> tuple[list, float, str]:
    """What the cells hold, by the room they have: three lines, the difference, or marks.

    Returns the texts, their size in points and which: ``"full"`` (difference,
    wins/ties/losses and p), ``"short"`` (the difference alone: about 20
    models), ``"marks"`` (a dot in the significant cells) or ``"none"``.
    """
    # Three lines of text: the height allows a third of the single-line size.
    full = min(annotation_points(cell, [line for t in texts for line in t.split("\n")]),
               0.28 * cell)  # fmt: skip
    if annot or (annot is None and full >= _FULL_POINTS):
        return texts, full, "full"
    if annot is False:
        return texts, full, "none"
    shorts = [t.split("\n")[0] for t in texts]
    short = min(annotation_points(cell, shorts), 0.8 * cell)
    if short >= _FULL_POINTS:
        return shorts, short, "short"
    mark = min(0.8 * cell, 9.0)
    if mark >= _MIN_POINTS / 2:
        return ["•"] * len(texts), mark, "marks"
    return [""] * len(texts), mark, "none"


@_result_kind("mcm")
def plot_mcm(
    cells: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    cmap: str = "RdBu",
    annot: bool | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Draw the Multiple Comparison Matrix: one cell per ordered pair of models.

    Each cell (row model vs column model) is coloured by the mean difference
    in the design's direction (blue: the row model is better) and, where it
    fits, says the mean difference, wins / ties / losses over the data sets
    and the Wilcoxon p-value (the report's: scipy's defaults, zero
    differences dropped); a p-value below alpha is in bold. Models are
    ordered best first as the report orders them (by mean rank); beyond 20
    models the best 20 (``top=`` chooses), as the title says. A cell depends
    on its two models only.

    Parameters
    ----------
    cells : pandas.DataFrame
        The result of ``matrix(kind="mcm")`` on a benchmark frame.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Number of best models shown.
    cmap : str, default "RdBu"
        A diverging colormap, centred on no difference.
    annot : bool, optional
        Write the cells: by default only where the text fits.
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.imshow``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_benchmark
    >>> ax = load_benchmark().cmp.plot("mcm")
    >>> ax.get_title().splitlines()[0]
    'Multiple Comparison Matrix, 22 data sets'
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    info = result_info(cells)
    if info.test != "mcm":
        msg = 'plot_mcm draws the result of `matrix(kind="mcm")` on a benchmark frame.'
        raise ValueError(msg)
    shown, note = top_models(list(info.models), top)
    position = {model: k for k, model in enumerate(shown)}
    rows = cells[cells["model_1"].isin(position) & cells["model_2"].isin(position)]
    r = rows["model_1"].map(position).to_numpy(dtype=int)
    c = rows["model_2"].map(position).to_numpy(dtype=int)
    n = len(shown)
    sign = 1.0 if info.direction else -1.0
    colour = np.full((n, n), np.nan)
    colour[r, c] = sign * rows["mean_diff"].to_numpy(dtype=float)
    limit = np.nanmax(np.abs(colour)) if np.isfinite(colour).any() else 1.0
    limit = limit if limit > 0 else 1.0
    # Cells of about 0.9 inch hold their three lines up to a dozen models.
    width, height = heatmap_figsize(shown)
    grow = max(min(0.9 * n, 12.0) - min(max(0.5 * n, 3.5), 11.0), 0.0)
    ax = _axes(ax, figsize=(max(width + grow, 7.5), height + grow))
    with matplotlib_options('plot("mcm")', "Axes.imshow", kwargs):
        image = ax.imshow(
            np.ma.masked_invalid(colour), cmap=cmap, vmin=-limit, vmax=limit, **kwargs
        )
    cell = cell_points(ax, n, n)
    _heatmap_ticks(ax, shown, shown, cell)
    pcolumn = "pvalue_adj" if "pvalue_adj" in rows.columns else "pvalue"
    pvalues = rows[pcolumn].to_numpy(dtype=float)
    texts = [
        f"{d:+.3f}\n{w}/{t}/{lo}\np {format_pvalue(p)}"
        for d, w, t, lo, p in zip(
            rows["mean_diff"].to_numpy(dtype=float),
            rows["wins"].to_numpy(dtype=int),
            rows["ties"].to_numpy(dtype=int),
            rows["losses"].to_numpy(dtype=int),
            pvalues,
            strict=True,
        )
    ]
    alpha = info.level_alpha
    texts, size, what = _cell_texts(cell, texts, annot)
    for row, col, text, p in zip(r, c, texts, pvalues, strict=True):
        if not text or (what == "marks" and not p < alpha):
            continue
        ax.text(
            col,
            row,
            text,
            ha="center",
            va="center",
            fontsize=size,
            color=cell_text_colour(image, colour[row, col]),
            fontweight="bold" if p < alpha else "normal",
            linespacing=1.1,
        )
    colorbar = ax.figure.colorbar(image, ax=ax, shrink=0.8)
    colorbar.set_label("mean difference, row − column\n(positive: row model better)")
    ax.set_xlabel("column model")
    ax.set_ylabel("row model")
    n_datasets = info.n_datasets
    correction = f", {info.correction}-adjusted" if info.correction else ", no correction"
    cells_words = {
        "full": "row − column mean difference, wins/ties/losses,\nWilcoxon p",
        "short": "row − column mean difference (wins/ties/losses and\nWilcoxon p in "
        "matrix(kind='mcm'))",
        "marks": "• Wilcoxon p",
    }
    mark = {"full": "bold: p", "short": "bold: p", "marks": "p"}
    lines = [
        f"Multiple Comparison Matrix, {n_datasets} data sets",
        f"cells: {cells_words[what]}{correction} ({mark[what]} < {alpha:g})"
        if what != "none"
        else f"colour: row − column mean difference (Wilcoxon p{correction} in "
        "matrix(kind='mcm'))",
    ]
    _figure_title(ax, title, "\n".join(lines), note)
    return ax


@_scores_kind("mcm")
def plot_mcm_of_benchmark(
    frame: pd.DataFrame,
    *,
    ax=None,
    correction: str | None = None,
    alpha: float = 0.05,
    greater_is_better: bool | None = None,
    **kwargs: Any,
):
    """The Multiple Comparison Matrix of a benchmark frame: ``matrix(kind="mcm")``, drawn.

    Parameters
    ----------
    frame : pandas.DataFrame
        A benchmark frame (models x data sets).
    ax : matplotlib.axes.Axes, optional
        Where to draw.
    correction : str, optional
        Correction over the unique pairs (none by default: each cell stands alone).
    alpha : float, default 0.05
        Cells with a p-value below it are written in bold.
    greater_is_better : bool, optional
        The design's direction, when the frame does not say it.
    **kwargs
        Passed to :func:`plot_mcm` (``top``, ``cmap``, ``annot``, ``title``).

    Returns
    -------
    matplotlib.axes.Axes
    """
    design = {} if greater_is_better is None else {"greater_is_better": greater_is_better}
    cells = mcm_inputs(frame, correction=correction, alpha=alpha, **design)
    return plot_mcm(cells, ax=ax, **kwargs)

"""What every plot shares: the kind registries, the Axes to draw on, titles and p-value labels.

Also what keeps the pictures readable at any size: the best-first order of the
models and one colour per model (:func:`model_colours`), the default cap of
:data:`pdcompare.presentation.shown.DEFAULT_TOP` models, figures sized to their content, heatmap
annotations only where the cells fit, and clear errors for matplotlib options
that do not exist.
"""

from __future__ import annotations

import contextlib
import difflib
import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.data import scores_data
from pdcompare.presentation.labels import p_text

_SCORES_KINDS: dict[str, Callable[..., Any]] = {}
_RESULT_KINDS: dict[str, Callable[..., Any]] = {}

#: Smallest font size (points) of a heatmap annotation; smaller cells are left blank.
MIN_ANNOTATION_POINTS = 6.0


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


def _axes(ax, figsize: tuple[float, float] = (6.4, 4.8)):
    """The Axes to draw on: ``ax``, or one on a new figure of ``figsize`` inches.

    The new figure uses matplotlib's constrained layout, so that labels,
    colorbars and legends placed outside the Axes stay inside the figure.
    """
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    fig = plt.figure(figsize=figsize, layout="constrained")
    return fig.add_subplot()


def figure_size(ax) -> tuple[float, float]:
    """Width and height (inches) of the figure that holds ``ax``.

    The root figure's, also for an Axes in a ``SubFigure`` (which has no size
    of its own; ``ax.get_position()`` is a fraction of the root figure too).
    """
    root = ax.figure.figure  # a Figure is its own root; a SubFigure's is its parent's
    return root.get_figwidth(), root.get_figheight()


def _figure_title(ax, title: str | None, default: str, note: str = "") -> None:
    """Set ``title``, or ``default`` with ``note`` (such as "best 20 of 60 models") below it.

    When a legend sits on top of the Axes (:func:`_legend_above`), the title
    is raised above it.
    """
    if title is None:
        title = f"{default}\n({note})" if note else default
    pad = getattr(ax, "_pdcompare_title_pad", None)
    ax.set_title(title, **({} if pad is None else {"pad": pad}))


def _legend_above(ax, *args: Any, **kwargs: Any):
    """A one-row legend just above the Axes (never over the data), the title raised above it."""
    legend = ax.legend(
        *args,
        loc="lower left",
        bbox_to_anchor=(0.0, 1.0),
        fontsize="small",
        frameon=False,
        borderaxespad=0.2,
        **kwargs,
    )
    ax._pdcompare_title_pad = 22.0
    return legend


def ranked_models(frame: pd.DataFrame, **design: Any) -> list:
    """Model names of a scores or benchmark frame, best first (as ``summary`` orders them).

    By mean score on a scores frame; by mean rank (ties broken by the better
    mean) on a benchmark frame.
    """
    data = scores_data(frame, **design)
    return data.ranked_names


def model_colours(models: Sequence[Hashable]) -> dict:
    """One colour per model from its position in the best-first order.

    The first 10 models take matplotlib's "tab10" colours, the next 10 the
    light colours of "tab20", and the rest hues spaced by the golden angle, so
    a colour depends only on the model's position: the same model has the
    same colour in every picture of the same frame (and of its results).

    Parameters
    ----------
    models : sequence
        Model names, best first (all of them, not only the ones drawn).

    Returns
    -------
    dict
        ``{model: (r, g, b, a)}``.

    Examples
    --------
    >>> colours = model_colours(["rbf", "linear"])
    >>> import matplotlib.colors as mcolors
    >>> mcolors.to_hex(colours["rbf"]), mcolors.to_hex(colours["linear"])
    ('#1f77b4', '#ff7f0e')
    """
    return {model: position_colour(k) for k, model in enumerate(models)}


def position_colour(position: int) -> tuple[float, float, float, float]:
    """Colour of the model at ``position`` (0 = best) in the best-first order."""
    import matplotlib as mpl
    from matplotlib.colors import hsv_to_rgb, to_rgba

    if position < 10:
        return to_rgba(mpl.colormaps["tab10"].colors[position])
    if position < 20:
        return to_rgba(mpl.colormaps["tab20"].colors[2 * (position - 10) + 1])
    hue = (0.11 + 0.618033988749895 * (position - 20)) % 1.0
    value = 0.55 if (position - 20) % 2 else 0.8
    return to_rgba(hsv_to_rgb((hue, 0.75, value)))


def require_columns(frame: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    """ValueError naming the columns ``what`` needs that ``frame`` lacks."""
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        shown = ", ".join(map(repr, missing))
        msg = (
            f"{what} needs the column(s) {shown}, which the frame lacks (it has "
            f"{', '.join(map(repr, map(str, frame.columns)))}); plot the whole result, "
            "not a selection of its columns."
        )
        raise ValueError(msg)


def _artist_properties() -> set[str]:
    """Every property (and alias) a Line2D, a collection, an image or a text can set."""
    from matplotlib.artist import ArtistInspector
    from matplotlib.collections import LineCollection, PathCollection
    from matplotlib.image import AxesImage
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon
    from matplotlib.text import Text

    names: set[str] = set()
    for artist in (Line2D, LineCollection, PathCollection, AxesImage, Polygon, Text):
        inspector = ArtistInspector(artist)
        names.update(inspector.get_setters())
        for aliases in inspector.aliasd.values():
            names.update(aliases)
    return names


@contextlib.contextmanager
def matplotlib_options(kind: str, call: str, options: dict[str, Any]):
    """Turn matplotlib's error about an unknown keyword into one naming the option.

    ``options`` are the keywords the picture passes on to ``call`` (such as
    ``Axes.plot``); an unknown one, such as ``colour``, raises a ValueError
    that names it and suggests the closest matplotlib property.
    """
    try:
        yield
    except (AttributeError, TypeError) as error:
        text = str(error)
        bad = [key for key in options if f"'{key}'" in text]
        if "unexpected keyword argument" not in text or not bad:
            raise
        key = bad[0]
        close = difflib.get_close_matches(key, sorted(_artist_properties()), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else "."
        msg = (
            f"`{key}` is neither an option of {kind} nor a matplotlib property of "
            f"{call}, which gets the extra keywords; got {key}={options[key]!r}{hint}"
        )
        raise ValueError(msg) from error


def heatmap_figsize(labels: Sequence[Any]) -> tuple[float, float]:
    """Size (inches) of a new figure for a square heatmap of ``labels``: cells and names fit."""
    n = len(labels)
    longest = max((len(str(label)) for label in labels), default=1)
    side = min(max(0.5 * n, 3.5), 11.0)
    label_inches = min(0.075 * longest, 3.0)
    return side + label_inches + 1.8, side + 0.75 * label_inches + 1.0


def cell_points(ax, n_rows: int, n_cols: int) -> float:
    """Side of one heatmap cell in points (before the layout; the colorbar takes ~20%)."""
    box = ax.get_position()
    figure_width, figure_height = figure_size(ax)
    width = box.width * figure_width * 0.8 / max(n_cols, 1)
    height = box.height * figure_height / max(n_rows, 1)
    return 72.0 * min(width, height)


def annotation_points(cell: float, texts: Sequence[str]) -> float:
    """Font size (points) at which the longest of ``texts`` fits in a cell of ``cell`` points.

    A character is about 0.6 of the font size wide; the text may take 85% of
    the cell's width and 60% of its height, and at most 8 points.

    Examples
    --------
    >>> annotation_points(30.0, ["0.95", "-0.12"])
    8.0
    >>> round(annotation_points(10.0, ["0.95", "-0.12"]), 2)
    2.83
    """
    chars = max((len(t) for t in texts), default=1)
    return float(min(8.0, 0.85 * cell / (0.6 * max(chars, 1)), 0.6 * cell))


def cell_text_colour(image: Any, value: float) -> str:
    """Dark text on a light cell of ``image`` (an ``AxesImage``), light text on a dark one."""
    rgba = image.cmap(image.norm(value))
    luminance = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2]
    return "black" if luminance > 0.5 else "white"


def _annotated_heatmap(
    ax, matrix: pd.DataFrame, *, cmap, vmin, vmax, fmt, label, bold=None, annot=None, **kwargs
):
    """``imshow`` of a square table, each cell's value written in it where it fits, a colorbar.

    ``bold`` (a boolean array like the table) marks the cells written in bold.
    ``annot``: None writes the values when they fit at
    :data:`MIN_ANNOTATION_POINTS` or more, True always, False never. Tick
    labels shrink with the cells; below 5 points only every k-th is written.
    """
    values = matrix.to_numpy(dtype=float)
    image = ax.imshow(np.ma.masked_invalid(values), cmap=cmap, vmin=vmin, vmax=vmax, **kwargs)
    n_rows, n_cols = values.shape
    cell = cell_points(ax, n_rows, n_cols)
    _heatmap_ticks(ax, matrix.index, matrix.columns, cell)
    finite = np.argwhere(~np.isnan(values))
    texts = [fmt(values[row, col]) for row, col in finite]
    size = annotation_points(cell, texts)
    if annot or (annot is None and size >= MIN_ANNOTATION_POINTS):
        for (row, col), text in zip(finite, texts, strict=True):
            ax.text(
                col,
                row,
                text,
                ha="center",
                va="center",
                color=cell_text_colour(image, values[row, col]),
                fontsize=size,
                fontweight="bold" if bold is not None and bold[row, col] else "normal",
            )
    colorbar = ax.figure.colorbar(image, ax=ax, shrink=0.8)
    colorbar.set_label(label)
    return image


def _heatmap_ticks(ax, rows: Sequence[Any], columns: Sequence[Any], cell: float) -> None:
    """Tick labels sized to the cells; every k-th one when even 5 points do not fit."""
    size = min(9.0, 0.7 * cell)
    step = 1 if size >= 5.0 else math.ceil(5.0 / max(size, 1e-3))
    size = max(size, 5.0)
    x = np.arange(len(columns))[::step]
    y = np.arange(len(rows))[::step]
    ax.set_xticks(x, labels=[str(columns[k]) for k in x], rotation=45, ha="right",
                  rotation_mode="anchor", fontsize=size)
    ax.set_yticks(y, labels=[str(rows[k]) for k in y], fontsize=size)


def _annotate_pvalues(ax, positions, pvalues, adjusted: bool, fontsize="small") -> None:
    """Write each row's p-value (``p_adj`` when adjusted) just right of the Axes."""
    name = "p_adj" if adjusted else "p"
    for position, pvalue in zip(positions, pvalues, strict=True):
        ax.annotate(
            p_text(name, pvalue),
            xy=(1.01, position),
            xycoords=("axes fraction", "data"),
            va="center",
            fontsize=fontsize,
        )


def _interval_segments(point, low, high):
    """Finite ends of intervals: an infinite (one-sided) end is drawn up to the point."""
    point = np.asarray(point, dtype=float)
    low = np.where(np.isinf(low), point, np.asarray(low, dtype=float))
    high = np.where(np.isinf(high), point, np.asarray(high, dtype=float))
    return low, high


def row_figsize(n_rows: int, longest_label: int, extra_width: float = 0.0) -> tuple[float, float]:
    """Size (inches) of a new figure with one row per item: 0.26 inch a row, room for names."""
    height = min(max(2.6, 1.5 + 0.26 * n_rows), 60.0)
    width = 5.0 + min(0.07 * longest_label, 4.0) + extra_width
    return width, height


def row_fontsize(ax, n_rows: int) -> float:
    """Font size (points) of per-row labels that fit ``n_rows`` rows in the Axes (5 to 9)."""
    box = ax.get_position()
    height = box.height * figure_size(ax)[1] * 72.0 / max(n_rows, 1)
    return float(min(max(0.7 * height, 5.0), 9.0))

"""Pictures of battles results: ratings with intervals, win probabilities, pairs of ratings.

``bradley_terry``: each model's rating and interval, best first;
``win_probability``: the heatmap of P(row beats column) among the best
``top`` models; ``pairwise()`` of a battles frame (``bradley_terry_z``): a
forest of the pairs' rating differences with their normal intervals.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.labels import alpha_label
from pdcompare.presentation.plotting._base import (
    _annotated_heatmap,
    _axes,
    _figure_title,
    _result_kind,
    heatmap_figsize,
    matplotlib_options,
    model_colours,
    require_columns,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.plotting.results import SIMULTANEOUS, _draw_forest, _forest_figure
from pdcompare.presentation.shown import result_models, top_models, top_pairs
from pdcompare.results import result_info
from pdcompare.stats import _special as special


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
    label = f"rating ({level:.0%} bootstrap interval; ties: {ties})"
    if "interval" in rows and (rows["interval"] == "fisher").any():
        fisher = ", ".join(str(m) for m in rows.index[rows["interval"] == "fisher"][:5])
        label += f"\nnormal intervals (Fisher information, pairs unanimous): {fisher}"
        if (rows["interval"] == "fisher").sum() > 5:
            label += " and more"
    ax.set_xlabel(label)
    default = f"Bradley–Terry ratings from {int(frame['n_battles'].sum() // 2):,} battles"
    if note:
        default += f"\n({note})"
    ax.set_title(title if title is not None else default, fontsize=11)
    return ax


@_result_kind("win_probability")
def win_probability_plot(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    cmap: str = "RdBu_r",
    annot: bool | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Heatmap of the probability that the row's model beats the column's, best first.

    For the result of ``win_probability``: the square table of ``prob``
    (``result.cmp.matrix("prob")``) among the best ``top`` models, coloured
    from 0 to 1 around ½ and written in the cells where it fits.

    Parameters
    ----------
    result : pandas.DataFrame
        The result of ``win_probability``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        The best ``top`` models; by default all up to 20, the best 20 beyond,
        as the title says (like the comparison matrix).
    cmap : str, default "RdBu_r"
        A diverging colormap: ½ in its middle.
    annot : bool, optional
        Write each probability in its cell: by default only where it fits.
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
    >>> import pandas as pd
    >>> import pdcompare
    >>> wins = pd.DataFrame([[0, 6, 7], [4, 0, 6], [3, 4, 0]], index=list("ABC"),
    ...                     columns=list("ABC"))
    >>> ax = pdcompare.win_probability(wins, n_resamples=100, random_state=0).cmp.plot()
    >>> ax.get_images()[0].get_array().shape
    (3, 3)
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    require_columns(result, ["model_1", "model_2", "prob"], "The win-probability heatmap")
    shown, note = top_models(result_models(result), top)
    table = result.pivot_table(index="model_1", columns="model_2", values="prob", observed=True)
    table = table.reindex(index=shown, columns=shown)
    table.index.name, table.columns.name = "model", "opponent"
    ax = _axes(ax, figsize=heatmap_figsize(shown))
    with matplotlib_options("the win-probability heatmap", "Axes.imshow", kwargs):
        _annotated_heatmap(
            ax, table, cmap=cmap, vmin=0.0, vmax=1.0, fmt=lambda v: f"{v:.2f}",
            label="P(row beats column)", annot=annot, **kwargs,
        )  # fmt: skip
    ax.set_xlabel("opponent")
    ax.set_ylabel("model")
    _figure_title(ax, title, "Bradley–Terry probability of winning", note)
    return ax


def pair_intervals(result: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, bool]:
    """The normal intervals of a ``bradley_terry_z`` result: ``(low, high, simultaneous)``.

    rating_diff ± z·se at level 1 − alpha; with a Bonferroni or Šidák
    correction the simultaneous level over the pairs (agreeing with the
    adjusted p-values), else unadjusted.

    Examples
    --------
    >>> result = pd.DataFrame({"model_1": ["a"], "model_2": ["b"], "rating_diff": [100.0],
    ...                        "se": [50.0], "pvalue": [0.0455]})
    >>> result.attrs["pdcompare"] = {"alpha": 0.05, "correction": None}
    >>> low, high, simultaneous = pair_intervals(result)
    >>> round(float(low[0]), 2), round(float(high[0]), 2), simultaneous
    (2.0, 198.0, False)
    """
    info = result_info(result)
    alpha = 0.05 if info.alpha is None else float(info.alpha)
    m = max(int(result["pvalue"].notna().sum()), 1)
    each = alpha
    if info.correction in SIMULTANEOUS:
        each = alpha / m if info.correction == "bonferroni" else 1 - (1 - alpha) ** (1 / m)
    half = special.ndtri(1 - each / 2) * result["se"].to_numpy(dtype=float)
    diff = result["rating_diff"].to_numpy(dtype=float)
    return diff - half, diff + half, info.correction in SIMULTANEOUS


@_result_kind("bradley_terry_z")
def rating_pairs_plot(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Forest of the pairs' rating differences (model_1 − model_2) with their normal intervals.

    For ``pairwise()`` of a battles frame: one row per pair among the best
    ``top`` models, the marker at the rating difference (filled when the z
    test rejects), the bar rating_diff ± z·se from the Fisher information
    (simultaneous with a Bonferroni or Šidák correction), the adjusted
    p-value at the right; bar and marker in model_2's colour.

    Parameters
    ----------
    result : pandas.DataFrame
        ``pairwise()`` of a battles frame.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        The pairs among the best ``top`` models; by default the best 10 (45
        pairs), as the title says.
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.errorbar``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pdcompare
    >>> from pdcompare.datasets import load_battles
    >>> battles = pdcompare.from_battles(load_battles())
    >>> ax = battles.cmp.pairwise().cmp.plot(top=3)
    >>> len(ax.get_yticklabels()), ax.get_title().splitlines()[1]
    (3, '(pairs among the best 3 of 12 models)')
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    columns = ["model_1", "model_2", "rating_diff", "se", "pvalue"]
    require_columns(result, columns, "The forest of rating differences")
    info = result_info(result)
    colours = model_colours(result_models(result))
    low, high, simultaneous = pair_intervals(result)
    rows, note = top_pairs(result, top)
    keep = result.index.get_indexer(rows.index)
    rows = rows.rename(columns={"rating_diff": "mean_diff"})
    ax, fontsize = _forest_figure(ax, rows)
    _draw_forest(
        ax, rows, low[keep], high[keep], colours=colours, fontsize=fontsize, kwargs=kwargs
    )
    level = f"{1 - (info.alpha or 0.05):.0%}"
    label = f"rating difference model_1 − model_2, {level} normal interval (Fisher information)"
    if simultaneous:
        label += f"\n(simultaneous, {info.correction}-adjusted like the p-values)"
    elif info.correction:
        label += f"\n(interval unadjusted; markers and p-values {info.correction}-adjusted)"
    ax.set_xlabel(label)
    correction = f", {info.correction} correction" if info.correction else ""
    default = f"Pairs of Bradley–Terry ratings: z tests at {alpha_label(info)}{correction}"
    _figure_title(ax, title, default, note)
    return ax

"""Pictures of a scores frame: fold dependence, correlation, intervals and p-value matrices."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_option, check_positive_int
from pdcompare.compare.figure_inputs import intervals_inputs, pvalue_inputs
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.kinds import frame_kind
from pdcompare.presentation.labels import (
    alpha_label,
    attempts_each,
    format_pvalue,
    method_label,
    score_noun,
    value_label,
)
from pdcompare.presentation.plotting._base import (
    _annotated_heatmap,
    _axes,
    _figure_title,
    _scores_kind,
    cell_points,
    figure_size,
    heatmap_figsize,
    matplotlib_options,
    model_colours,
    ranked_models,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.shown import top_models
from pdcompare.results import ResultInfo, result_info


def folds_data(
    frame: pd.DataFrame, n_splits: int | None = 30, greater_is_better: bool | None = None
) -> pd.DataFrame:
    """The scores to draw in ``"folds"``: models best first, the first ``n_splits`` splits.

    Best first in the frame's direction: ``greater_is_better`` given, else
    the stored design's (higher is better by default), so that a loss frame's
    best model (the lowest mean) comes first.

    Examples
    --------
    >>> import pandas as pd
    >>> scores = pd.DataFrame([[0.1, 0.2, 0.3], [0.5, 0.6, 0.7]], index=["a", "b"])
    >>> folds_data(scores, n_splits=2)
           0    1
    model
    b    0.5  0.6
    a    0.1  0.2
    """
    data = scores_data(frame, greater_is_better=greater_is_better)
    if n_splits is not None:
        n_splits = check_positive_int("n_splits", n_splits)
    shown = slice(None) if n_splits is None else slice(0, n_splits)
    return pd.DataFrame(
        data.values[data.order][:, shown],
        index=pd.Index(data.names[data.order], name="model"),
        columns=data.splits[shown],
    )


@_scores_kind("folds")
def plot_folds(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    n_splits: int | None = 30,
    title: str | None = None,
    ylabel: str = "score",
    greater_is_better: bool | None = None,
    **kwargs: Any,
):
    """Score of every model on each CV split: lines that move together show fold dependence.

    On a benchmark frame, the mean score of every model on each data set (the
    folds of a ``(dataset, split)`` frame averaged), as the title says.

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores frame, models as rows, splits as columns.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Draw the best ``top`` models (by mean score); by default all up to
        20 models, the best 20 beyond, as the title says.
    n_splits : int or None, default 30
        Draw the first ``n_splits`` splits only (None: all), so that a frame of
        100 splits stays readable.
    title : str, optional
        Title; by default it says how many splits (and models) are shown.
    ylabel : str, default "score"
        Label of the y axis (the metric's name, say).
    greater_is_better : bool, optional
        Whether higher scores are better (by default the stored design's,
        else True): the best model, drawn and listed first, is the one with
        the lowest mean when False.
    **kwargs
        Passed to every ``Axes.plot`` call.

    Returns
    -------
    matplotlib.axes.Axes
        One line per model, best first, each in its model's colour
        (:func:`~pdcompare.presentation.plotting._base.model_colours`); the legend, outside
        the Axes at the right, lists them best first with their means.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> ax = load_grid_search_scores().cmp.plot("folds", ax=ax)
    >>> len(ax.get_lines()), ax.get_xlabel()
    (4, 'CV split')
    >>> plt.close(fig)
    """
    full = folds_data(frame, n_splits=None, greater_is_better=greater_is_better)
    unit, units = (
        ("data set", "data sets") if frame_kind(frame).has_datasets else ("CV split", "splits")
    )
    order = full.index.tolist()
    shown, note = top_models(order, top)
    colours = model_colours(order)
    # The frame is read once (its warnings said once); the first n_splits columns of it.
    if n_splits is not None:
        n_splits = check_positive_int("n_splits", n_splits)
    table = full.loc[shown].iloc[:, :n_splits]
    means = full.loc[shown].mean(axis=1)
    labels = [f"{name} (mean {means[name]:.3f})" for name in shown]
    ax = _axes(ax, figsize=folds_figsize(len(shown), max(len(label) for label in labels)))
    positions = np.arange(table.shape[1])
    with matplotlib_options('plot("folds")', "Axes.plot", kwargs):
        for name, label in zip(shown, labels, strict=True):
            style = {"marker": "o", "markersize": 3, "color": colours[name], **kwargs}
            ax.plot(positions, table.loc[name].to_numpy(dtype=float), label=label, **style)
    total = full.shape[1]
    n_shown = table.shape[1]
    ax.set_xlabel(unit)
    ax.set_ylabel(ylabel)
    step = max(1, int(np.ceil(n_shown / 8)))
    ax.set_xticks(positions[::step])
    ax.set_xticklabels([str(c) for c in table.columns[::step]], rotation=30, ha="right")
    # Outside the Axes: inside, it would hide the splits where a model drops. In
    # more columns when the models would not fit in the height of the Axes.
    rows = max(_legend_rows(ax), 1)
    ax.legend(
        title=f"model (mean over\nall {units})",
        fontsize="small",
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        ncols=int(np.ceil(len(shown) / rows)),
    )
    ax.grid(axis="y", alpha=0.3)
    subset = f"first {n_shown} of {total} {units}" if n_shown < total else f"all {total} {units}"
    what = f"Score per CV split ({subset})"
    if unit == "data set":
        averaged = "; the folds of each averaged" if frame.columns.nlevels > 1 else ""
        what = f"{'Mean score' if averaged else 'Score'} per data set ({subset}{averaged})"
    _figure_title(ax, title, what, note)
    return ax


def folds_figsize(n_models: int, longest_label: int) -> tuple[float, float]:
    """Size (inches) of a new figure for ``"folds"``: the Axes and the legend beside it."""
    return 7.5 + min(0.075 * longest_label, 4.0), max(4.8, 1.8 + 0.19 * n_models)


def overview_figure(frame: pd.DataFrame, *, top: int | None = None, **design: Any):
    """The folds, their correlation and the intervals of the best models, side by side.

    The three panels show the same models, best first in the design's
    direction (``greater_is_better``), each model in one colour in the
    folds and the intervals; beyond ``top`` models (default 20) each panel's
    title says "best 20 of 60 models". Each panel is as wide and as tall as
    it would be drawn alone (its model names, legend and colour bar
    included), so long names do not run into the next panel. What ``pdcompare FILE --plot`` saves.

    Parameters
    ----------
    frame : pandas.DataFrame
        A scores frame, every model of it (the panels choose the best ``top``).
    top : int, optional
        Show the best ``top`` models; by default all up to 20, the best 20
        beyond.
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=``, and
        ``greater_is_better=`` (the order of every panel).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> figure = overview_figure(load_grid_search_scores(), cv=10)
    >>> [panel.axes[0].get_title() for panel in figure.subfigs]  # doctest: +NORMALIZE_WHITESPACE
    ['Score per CV split (first 30 of 100 splits)', 'Correlation across 100 CV splits',
     'Mean score per model']
    >>> import matplotlib.pyplot as plt
    >>> plt.close(figure)
    """
    import matplotlib.pyplot as plt

    shown, _ = top_models(ranked_models(frame, **design), top)  # what each panel draws
    longest = max(len(str(name)) for name in shown)
    mean_label = len(" (mean 0.000)")
    sizes = [
        folds_figsize(len(shown), longest + mean_label),
        heatmap_figsize(shown),
        row_figsize(len(shown), longest),
    ]
    figure = plt.figure(
        figsize=(sum(width for width, _ in sizes), max(height for _, height in sizes)),
        layout="constrained",
    )
    panels = figure.subfigures(1, 3, width_ratios=[width for width, _ in sizes])
    direction = {"greater_is_better": design.get("greater_is_better")}
    plot_folds(frame, ax=panels[0].add_subplot(), top=top, **direction)
    plot_corr(frame, ax=panels[1].add_subplot(), top=top, **direction)
    plot_intervals(frame, ax=panels[2].add_subplot(), top=top, **design)
    return figure


def _legend_rows(ax) -> int:
    """How many legend entries (small font, about 0.17 inch each) fit the Axes' height."""
    box = ax.get_position()
    return int((box.height * figure_size(ax)[1] - 0.3) / 0.17)


@_scores_kind("corr")
def plot_corr(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    method: str = "pearson",
    cmap: str = "RdBu_r",
    annot: bool | None = None,
    title: str | None = None,
    greater_is_better: bool | None = None,
    **kwargs: Any,
):
    """Correlation of the models' scores across CV splits, as a heatmap.

    High correlations mean the splits affect all models alike: the scores are
    not independent samples, which is why plain tests are too optimistic.

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores frame, models as rows, splits as columns.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Show the best ``top`` models (by mean score); by default all up to
        20 models, the best 20 beyond, as the title says.
    method : {"pearson", "spearman", "kendall"}, default "pearson"
        Correlation coefficient (``DataFrame.corr``; missing scores are left
        out pair by pair).
    cmap : str, default "RdBu_r"
        Colormap, on the fixed range -1 to 1.
    annot : bool, optional
        Write the correlation in each cell: by default only when it fits the
        cell at 6 points or more.
    title : str, optional
        Title of the Axes.
    greater_is_better : bool, optional
        Whether higher scores are better (by default the stored design's,
        else True): the models run best first in that direction.
    **kwargs
        Passed to ``Axes.imshow``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> ax = load_grid_search_scores().cmp.plot("corr", ax=ax)
    >>> ax.get_images()[0].get_array().shape
    (4, 4)
    >>> plt.close(fig)
    """
    check_option("method", method, ("pearson", "spearman", "kendall"))
    table = folds_data(frame, n_splits=None, greater_is_better=greater_is_better)
    shown, note = top_models(table.index.tolist(), top)
    corr = table.loc[shown].T.corr(method=method)
    ax = _axes(ax, figsize=heatmap_figsize(shown))
    with matplotlib_options('plot("corr")', "Axes.imshow", kwargs):
        _annotated_heatmap(
            ax,
            corr,
            cmap=cmap,
            vmin=-1.0,
            vmax=1.0,
            fmt=lambda v: f"{v:.2f}",
            label=f"{method.capitalize()} correlation",
            annot=annot,
            **kwargs,
        )
    _figure_title(ax, title, f"Correlation across {table.shape[1]} CV splits", note)
    return ax


@_scores_kind("intervals")
def plot_intervals(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    ci: float = 0.95,
    title: str | None = None,
    xlabel: str = "mean score",
    **design: Any,
):
    """Mean score and confidence interval per model, best at the top, from ``summary``.

    The interval is Nadeau and Bengio's corrected one when the CV design is
    known (stored or given as ``cv=``, ``test_size=``, ``n_train=``/``n_test=``);
    otherwise the plain t interval, which is too narrow, and the axis label
    says so.

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores frame, models as rows, splits as columns.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Show the best ``top`` models (by mean score, or by mean rank on a
        benchmark frame, as ``summary`` orders them); by default all up to
        20 models, the best 20 beyond, as the title says.
    ci : float, default 0.95
        Confidence level.
    title : str, optional
        Title of the Axes.
    xlabel : str, default "mean score"
        Start of the x label; the kind of interval is appended.
    **design
        Design keywords passed to ``summary``.

    Returns
    -------
    matplotlib.axes.Axes
        The intervals (``ax.collections[0]``) and the means (``ax.collections[1]``),
        each in its model's colour, best model at the top.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> ax = load_grid_search_scores().cmp.plot("intervals", ax=ax)
    >>> print(ax.get_xlabel())
    mean score, 95% CI
    (Nadeau–Bengio corrected)
    >>> plt.close(fig)
    """
    summary = intervals_inputs(frame, ci=ci, **design)
    return draw_intervals(summary, ax=ax, top=top, ci=ci, title=title, xlabel=xlabel)


def draw_intervals(
    summary: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    ci: float = 0.95,
    title: str | None = None,
    xlabel: str = "mean score",
):
    """Draw the intervals of a ``summary`` frame (best first), as ``plot("intervals")`` does.

    For outputs that already hold the summary (the HTML report), so that no
    test runs twice.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> ax = draw_intervals(load_grid_search_scores().cmp.summary())
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['rbf', 'linear', '3_poly', '2_poly']
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    info = result_info(summary)
    corrected = info.interval == "nadeau-bengio"
    order = summary.index.tolist()
    colours = model_colours(order)
    shown, note = top_models(order, top)
    summary = summary.loc[shown]
    names = [str(m) for m in shown]
    ax = _axes(ax, figsize=row_figsize(len(shown), max(map(len, names))))
    positions = np.arange(len(summary))[::-1]  # best model at the top
    items = info.unit == "item"
    if "ci_low" in summary:
        low, high = summary["ci_low"].to_numpy(dtype=float), summary["ci_high"].to_numpy(float)
        kind = "Nadeau–Bengio corrected" if corrected else "plain t, design unknown: too narrow"
        if items:  # questions of an evaluation: t over items, clustered when they are
            corrected = True
            kind = _items_interval_words(info)
            if info.get("estimand_label") and xlabel == "mean score":  # pass@k, pass^k
                xlabel = f"{score_noun(info)}, {attempts_each(info)}"
        elif info.unit == "run":  # independent runs: the plain t interval is right
            corrected = True
            kind = "t interval over independent runs"
        label = f"{xlabel}, {ci:.0%} CI\n({kind})"
        value = "mean"
    else:
        # A benchmark frame: the mean score over data sets, no interval.
        value = "mean" if "mean" in summary else summary.columns[0]
        low = high = summary[value].to_numpy(dtype=float)
        label = f"{xlabel} over data sets (models ordered by mean rank)"
        corrected = True
    ax.hlines(positions, low, high, colors=[colours[m] for m in shown], linewidth=2)
    ax.scatter(
        summary[value].to_numpy(dtype=float),
        positions,
        c=[colours[m] for m in shown],
        edgecolors="black",
        linewidths=0.5,
        zorder=3,
    )
    ax.set_yticks(positions, labels=names, fontsize=row_fontsize(ax, len(shown)))
    ax.set_ylim(-0.6, len(shown) - 0.4)
    ax.set_xlabel(label)
    ax.set_ylabel("model")
    ax.grid(axis="x", alpha=0.3)
    noun = score_noun(info, "")  # "pass@5 per model" on a pass@k items frame
    default = f"{noun} per model" if noun else "Mean score per model"
    default += "" if corrected else " (CV design unknown)"
    _figure_title(ax, title, default, note)
    return ax


def _items_interval_words(info: ResultInfo) -> str:
    """The interval of an items frame's summary in words: its items and clusters."""
    n_items, n_clusters = info.n_items, info.n_clusters
    judged = info.get("estimator_words")  # a judge's scores and human labels (DESIGN 31)
    if judged:
        return f"t; {judged}, {n_items} items"
    if info.clustered:
        kind = str(info.get("se_type", "")).split(" ")[0]  # "CR2" or "CR1" (none when older)
        # short: it shares a line with the axis label of each panel
        return f"t{f' ({kind})' if kind else ''}, {n_items} items in {n_clusters} clusters"
    return f"t over {n_items} items"


def _mark_significant(ax, significant: np.ndarray) -> bool:
    """A white dot in each significant cell of a heatmap too small for its numbers."""
    rows, columns = np.nonzero(significant)
    diameter = 0.4 * cell_points(ax, *significant.shape)  # points
    ax.scatter(columns, rows, s=diameter**2, c="white", edgecolors="black", linewidths=0.5)
    return len(rows) > 0


@_scores_kind("pvalues")
def plot_pvalues(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    test: str = "corrected_ttest",
    value: str = "pvalue_adj",
    cmap: str = "viridis",
    annot: bool | None = None,
    title: str | None = None,
    **options: Any,
):
    """Heatmap of the pairwise p-values (``pairwise`` then ``matrix``).

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores frame, models as rows, splits as columns.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Show the best ``top`` models; by default all up to 20 models, the
        best 20 beyond, as the title says. The p-values are those of
        ``pairwise`` on all the models (adjusted over all pairs).
    test : str, default "corrected_ttest"
        The test of ``pairwise``.
    value : str, default "pvalue_adj"
        The result column shown (``"pvalue"`` for the uncorrected p-values).
    cmap : str, default "viridis"
        Colormap on the range 0 to 1.
    annot : bool, optional
        Write the p-value in each cell: by default only when it fits the cell
        at 6 points or more.
    title : str, optional
        Title of the Axes.
    **options
        Passed to ``pairwise`` (``correction``, ``alpha``, ``alternative``,
        design keywords).

    Returns
    -------
    matplotlib.axes.Axes
    """
    result, full, reject = pvalue_inputs(frame, test=test, value=value, **options)
    shown, note = top_models(full.index.tolist(), top)
    matrix = full.loc[shown, shown]
    info = result_info(result)
    bold = None
    if reject is not None:
        bold = reject.loc[shown, shown].eq(True).to_numpy(dtype=bool, na_value=False)
    ax = _axes(ax, figsize=heatmap_figsize(shown))
    _annotated_heatmap(
        ax,
        matrix,
        cmap=cmap,
        vmin=0.0,
        vmax=1.0,
        fmt=format_pvalue,
        label=value_label(value, info),
        bold=bold,
        annot=annot,
    )
    ax.set_xlabel("model")
    ax.set_ylabel("model")
    sided = info.alternative or "two-sided"
    lines = [f"Pairwise {method_label(info)}"]
    if sided not in (None, "two-sided"):
        # Pairs run best-first: each p-value is of the higher-ranked model vs the lower.
        lines.append(f"one-sided ({sided}): higher- vs lower-ranked model")
    if bold is not None and ax.texts:
        lines.append(f"bold: significant at {alpha_label(info)}")
    elif bold is not None and annot is None and _mark_significant(ax, bold):
        lines.append(f"dot: significant at {alpha_label(info)} (the p-values: matrix())")
    if note:
        n_pairs = len(result)
        note = f"{note}; adjusted over all {n_pairs} pairs" if value == "pvalue_adj" else note
    _figure_title(ax, title, "\n".join(lines), note)
    return ax

"""Pictures of a scores frame: fold dependence, correlation, intervals and p-value matrices."""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare._validation import check_option
from pdcompare.inputs.attrs import pdcompare_attrs
from pdcompare.plotting._base import (
    _alpha_label,
    _annotated_heatmap,
    _axes,
    _figure_title,
    _scores_kind,
    _short_pvalue,
    _test_label,
    _value_label,
)


def folds_data(frame: pd.DataFrame, n_splits: int | None = 30) -> pd.DataFrame:
    """The scores to draw in ``"folds"``: models best first, the first ``n_splits`` splits.

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
    from pdcompare._validation import check_positive_int
    from pdcompare.inputs.scores import scores_data

    data = scores_data(frame)
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
    n_splits: int | None = 30,
    title: str | None = None,
    ylabel: str = "score",
    **kwargs: Any,
):
    """Score of every model on each CV split: lines that move together show fold dependence.

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores frame, models as rows, splits as columns.
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    n_splits : int or None, default 30
        Draw the first ``n_splits`` splits only (None: all), so that a frame of
        100 splits stays readable.
    title : str, optional
        Title; by default it says how many splits are shown.
    ylabel : str, default "score"
        Label of the y axis (the metric's name, say).
    **kwargs
        Passed to every ``Axes.plot`` call.

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
    >>> ax = load_grid_search_scores().cmp.plot("folds", ax=ax)
    >>> len(ax.get_lines()), ax.get_xlabel()
    (4, 'CV split')
    >>> plt.close(fig)
    """
    import numpy as np

    table = folds_data(frame, n_splits)
    ax = _axes(ax)
    positions = np.arange(table.shape[1])
    means = folds_data(frame, n_splits=None).mean(axis=1)
    for name, row in table.iterrows():
        label = f"{name} (mean {means[name]:.3f})"
        ax.plot(positions, row.to_numpy(), marker="o", markersize=3, label=label, **kwargs)
    total = frame.shape[1]
    shown = table.shape[1]
    ax.set_xlabel("CV split")
    ax.set_ylabel(ylabel)
    step = max(1, int(np.ceil(shown / 10)))
    ax.set_xticks(positions[::step])
    ax.set_xticklabels([str(c) for c in table.columns[::step]], rotation=30, ha="right")
    # Outside the Axes: inside, it would hide the splits where a model drops.
    ax.legend(
        title="model (mean over\nall splits)",
        fontsize="small",
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
    )
    ax.grid(axis="y", alpha=0.3)
    subset = f"first {shown} of {total} splits" if shown < total else f"all {total} splits"
    _figure_title(ax, title, f"Score per CV split ({subset})")
    return ax


@_scores_kind("corr")
def plot_corr(
    frame: pd.DataFrame,
    *,
    ax=None,
    method: str = "pearson",
    cmap: str = "RdBu_r",
    title: str | None = None,
    **kwargs: Any,
):
    """Correlation of the models' scores across CV splits, as an annotated heatmap.

    High correlations mean the splits affect all models alike: the scores are
    not independent samples, which is why plain tests are too optimistic.

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores frame, models as rows, splits as columns.
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    method : {"pearson", "spearman", "kendall"}, default "pearson"
        Correlation coefficient (``DataFrame.corr``; missing scores are left
        out pair by pair).
    cmap : str, default "RdBu_r"
        Colormap, on the fixed range -1 to 1.
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
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> ax = load_grid_search_scores().cmp.plot("corr", ax=ax)
    >>> ax.get_images()[0].get_array().shape
    (4, 4)
    >>> plt.close(fig)
    """
    check_option("method", method, ("pearson", "spearman", "kendall"))
    table = folds_data(frame, n_splits=None)
    corr = table.T.corr(method=method)
    ax = _axes(ax)
    _annotated_heatmap(
        ax,
        corr,
        cmap=cmap,
        vmin=-1.0,
        vmax=1.0,
        fmt=lambda v: f"{v:.2f}",
        label=f"{method.capitalize()} correlation",
        **kwargs,
    )
    _figure_title(ax, title, f"Correlation across {table.shape[1]} CV splits")
    return ax


@_scores_kind("intervals")
def plot_intervals(
    frame: pd.DataFrame,
    *,
    ax=None,
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
        Where to draw; the current Axes when None.
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
    import numpy as np

    from pdcompare.compare.summary import summary_table

    summary = summary_table(frame, ci=ci, **design)
    corrected = pdcompare_attrs(summary).get("interval") == "nadeau-bengio"
    ax = _axes(ax)
    positions = np.arange(len(summary))[::-1]  # best model at the top
    means = summary["mean"].to_numpy(dtype=float)
    errors = np.vstack(
        [means - summary["ci_low"].to_numpy(dtype=float), summary["ci_high"].to_numpy() - means]
    )
    ax.errorbar(
        means,
        positions,
        xerr=errors,
        fmt="o",
        color="C0",
        ecolor="C0",
        capsize=4,
        label=f"mean with {ci:.0%} CI",
    )
    ax.set_yticks(positions)
    ax.set_yticklabels([str(m) for m in summary.index])
    kind = "Nadeau–Bengio corrected" if corrected else "plain t, design unknown: too narrow"
    ax.set_xlabel(f"{xlabel}, {ci:.0%} CI\n({kind})")
    ax.set_ylabel("model")
    ax.grid(axis="x", alpha=0.3)
    default = "Mean score per model" + ("" if corrected else " (pass cv= for corrected CIs)")
    _figure_title(ax, title, default)
    return ax


@_scores_kind("pvalues")
def plot_pvalues(
    frame: pd.DataFrame,
    *,
    ax=None,
    test: str = "corrected_ttest",
    value: str = "pvalue_adj",
    cmap: str = "viridis",
    title: str | None = None,
    **options: Any,
):
    """Heatmap of the pairwise p-values (``pairwise`` then ``matrix``).

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores frame, models as rows, splits as columns.
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    test : str, default "corrected_ttest"
        The test of ``pairwise``.
    value : str, default "pvalue_adj"
        The result column shown (``"pvalue"`` for the uncorrected p-values).
    cmap : str, default "viridis"
        Colormap on the range 0 to 1.
    title : str, optional
        Title of the Axes.
    **options
        Passed to ``pairwise`` (``correction``, ``alpha``, ``alternative``,
        design keywords).

    Returns
    -------
    matplotlib.axes.Axes
    """
    result = frame.cmp.pairwise(test=test, **options)
    matrix = result.cmp.matrix(value)
    meta = pdcompare_attrs(result)
    bold = None
    if "reject" in result.columns:
        bold = result.cmp.matrix("reject").eq(True).to_numpy(dtype=bool, na_value=False)
    ax = _axes(ax)
    _annotated_heatmap(
        ax,
        matrix,
        cmap=cmap,
        vmin=0.0,
        vmax=1.0,
        fmt=_short_pvalue,
        label=_value_label(value, meta),
        bold=bold,
    )
    ax.set_xlabel("model")
    ax.set_ylabel("model")
    sided = meta.get("alternative", "two-sided")
    lines = [f"Pairwise {_test_label(meta)}"]
    if sided not in (None, "two-sided"):
        # Pairs run best-first: each p-value is of the higher-ranked model vs the lower.
        lines.append(f"one-sided ({sided}): higher- vs lower-ranked model")
    if bold is not None:
        lines.append(f"bold: significant at {_alpha_label(meta)}")
    default = "\n".join(lines)
    _figure_title(ax, title, default)
    return ax

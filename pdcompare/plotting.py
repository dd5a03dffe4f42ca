"""Plots of scores frames and result frames: Axes-level, matplotlib conventions.

Every function draws on ``ax`` (the current Axes when None), returns the Axes,
never calls ``plt.show()`` and changes no global style. matplotlib is imported
only when a plot is drawn. Kinds register themselves with ``_scores_kind``
(pictures of a scores frame, chosen by name) or ``_result_kind`` (the picture
of a result frame, chosen by the test that made it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from pdcompare._validation import check_option
from pdcompare.frames import pdcompare_attrs

_SCORES_KINDS: dict[str, Callable[..., Any]] = {}
_RESULT_KINDS: dict[str, Callable[..., Any]] = {}


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


def _axes(ax):
    """The Axes to draw on: ``ax`` or the current one."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.gca()


def plot(frame: pd.DataFrame, kind: str | None = None, *, ax=None, **options: Any):
    """Draw ``kind`` for a scores frame, or the suitable picture of a result frame."""
    meta = pdcompare_attrs(frame)
    if meta.get("kind") == "result":
        test = meta.get("test")
        if kind is not None and kind in _SCORES_KINDS:
            msg = f"`kind`: {kind!r} draws a scores frame; a result frame draws with kind=None."
            raise ValueError(msg)
        if test not in _RESULT_KINDS:
            msg = f"No plot for results of {test!r}; plot the scores frame instead."
            raise ValueError(msg)
        return _RESULT_KINDS[test](frame, ax=ax, **options)
    if kind is None:
        msg = f"`kind` is needed for a scores frame: one of {', '.join(map(repr, _SCORES_KINDS))}."
        raise ValueError(msg)
    check_option("kind", kind, tuple(_SCORES_KINDS))
    return _SCORES_KINDS[kind](frame, ax=ax, **options)


# ============================================================ scores frames (presentation)


def _figure_title(ax, title: str | None, default: str) -> None:
    ax.set_title(default if title is None else title)


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
    from pdcompare.frames import scores_data

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


def _annotated_heatmap(
    ax, matrix: pd.DataFrame, *, cmap, vmin, vmax, fmt, label, bold=None, **kwargs
):
    """``imshow`` of a square table with each cell's value written in it, and a colorbar.

    ``bold`` (a boolean array like the table) marks the cells written in bold.
    """
    import numpy as np

    values = matrix.to_numpy(dtype=float)
    image = ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax, **kwargs)
    ax.set_xticks(np.arange(values.shape[1]))
    ax.set_yticks(np.arange(values.shape[0]))
    ax.set_xticklabels([str(c) for c in matrix.columns], rotation=30, ha="right")
    ax.set_yticklabels([str(i) for i in matrix.index])
    norm = image.norm
    for (row, col), value in np.ndenumerate(values):
        if np.isnan(value):
            continue
        # Dark text on light cells, light text on dark cells.
        rgba = image.cmap(norm(value))
        luminance = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2]
        color = "black" if luminance > 0.5 else "white"
        weight = "bold" if bold is not None and bold[row, col] else "normal"
        ax.text(
            col,
            row,
            fmt(value),
            ha="center",
            va="center",
            color=color,
            fontsize="small",
            fontweight=weight,
        )
    colorbar = ax.figure.colorbar(image, ax=ax)
    colorbar.set_label(label)
    return image


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

    summary = frame.cmp.summary(ci=ci, **design)
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


def _short_pvalue(value: float) -> str:
    from pdcompare.styling import format_pvalue

    return format_pvalue(value, 3)


def _p_text(name: str, value: float) -> str:
    """``p_adj = 0.455`` or ``p_adj < 0.001``."""
    text = _short_pvalue(value)
    return f"{name} < {text[1:]}" if text.startswith("<") else f"{name} = {text}"


_TEST_LABELS = {
    "corrected_ttest": "corrected t-test (Nadeau–Bengio)",
    "ttest": "paired t-test (uncorrected)",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign_test": "sign test",
    "ttest_5x2cv": "5x2cv paired t-test",
    "ftest_5x2cv": "5x2cv combined F-test",
    "mcnemar": "McNemar's test",
    "proportions_ztest": "two-proportion z-test",
    "bootstrap_diff": "paired bootstrap",
}


def _annotate_pvalues(ax, positions, pvalues, adjusted: bool) -> None:
    """Write each row's p-value (``p_adj`` when adjusted) just right of the Axes."""
    name = "p_adj" if adjusted else "p"
    for position, pvalue in zip(positions, pvalues, strict=True):
        ax.annotate(
            _p_text(name, pvalue),
            xy=(1.01, position),
            xycoords=("axes fraction", "data"),
            va="center",
            fontsize="small",
        )


def _test_label(meta: dict[str, Any], capital: bool = False) -> str:
    label = _TEST_LABELS.get(meta.get("test"), str(meta.get("test")))
    return label[:1].upper() + label[1:] if capital else label


def _value_label(value: str, meta: dict[str, Any]) -> str:
    if value == "pvalue_adj":
        correction = meta.get("correction")
        return f"p-value, {correction}-adjusted" if correction else "p-value (no correction)"
    return value.replace("_", " ")


def forest_data(result: pd.DataFrame) -> pd.DataFrame:
    """Rows of a t-test result ready for a forest plot: label, estimate, interval, p-value.

    Examples
    --------
    >>> import pandas as pd
    >>> result = pd.DataFrame({"model_1": ["a"], "model_2": ["b"], "mean_diff": [0.1],
    ...                        "ci_low": [0.05], "ci_high": [float("inf")],
    ...                        "pvalue_adj": [0.01], "reject": [True]})
    >>> forest_data(result)[["label", "estimate", "low", "high", "reject"]]
        label  estimate   low  high  reject
    0  a − b       0.1  0.05   inf    True
    """
    import numpy as np

    pvalues = result["pvalue_adj"] if "pvalue_adj" in result else result["pvalue"]
    reject = result["reject"] if "reject" in result else pd.Series(False, index=result.index)
    nan = pd.Series(np.nan, index=result.index)
    return pd.DataFrame(
        {
            "label": result["model_1"].astype(str) + " − " + result["model_2"].astype(str),
            "estimate": result["mean_diff"].astype(float),
            "low": result["ci_low"].astype(float) if "ci_low" in result else nan,
            "high": result["ci_high"].astype(float) if "ci_high" in result else nan,
            "pvalue": pvalues.astype(float),
            "reject": reject.eq(True).to_numpy(dtype=bool, na_value=False),
        }
    )


def _alpha_label(meta: dict[str, Any]) -> str:
    alpha = meta.get("alpha")
    return f"alpha = {alpha:g}" if alpha is not None else "alpha"


@_result_kind("corrected_ttest", "ttest")
def plot_forest(result: pd.DataFrame, *, ax=None, title: str | None = None, **kwargs: Any):
    """Forest plot of a t-test result: mean difference and its CI per pair, p-values aside.

    Each row is one comparison ``model_1 − model_2``; the dot is the mean
    difference, the bar its confidence interval at level 1 − alpha (an arrow
    where a one-sided interval is unbounded), the dashed line no difference.
    Rejected hypotheses are drawn filled and in colour; the adjusted p-value
    is written at the right.

    Parameters
    ----------
    result : pandas.DataFrame
        Result of ``corrected_ttest`` or ``ttest`` (any scope).
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.errorbar``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import numpy as np

    meta = pdcompare_attrs(result)
    data = forest_data(result)
    ax = _axes(ax)
    positions = np.arange(len(data))[::-1]
    estimate = data["estimate"].to_numpy()
    finite_ends = np.concatenate([estimate, data["low"].to_numpy(), data["high"].to_numpy()])
    finite_ends = finite_ends[np.isfinite(finite_ends)]
    span = np.ptp(finite_ends) if finite_ends.size else 1.0
    span = span if span > 0 else 1.0
    left = min(finite_ends.min(initial=0.0), 0.0) - 0.15 * span
    right = max(finite_ends.max(initial=0.0), 0.0) + 0.15 * span
    for reject, color, marker_face, name in (
        (True, "C3", "C3", "significant"),
        (False, "0.35", "white", "not significant"),
    ):
        rows = data["reject"].to_numpy() == reject
        if not rows.any():
            continue
        low = np.clip(data["low"].to_numpy()[rows], left, right)
        high = np.clip(data["high"].to_numpy()[rows], left, right)
        est = estimate[rows]
        errors = np.vstack(
            [np.where(np.isnan(low), 0, est - low), np.where(np.isnan(high), 0, high - est)]
        )
        ax.errorbar(
            est,
            positions[rows],
            xerr=errors,
            fmt="o",
            color=color,
            ecolor=color,
            markerfacecolor=marker_face,
            capsize=4,
            label=f"{name} at {_alpha_label(meta)}",
            **kwargs,
        )
    # Unbounded one-sided intervals: an arrow at the edge instead of a cap.
    for position, low, high in zip(positions, data["low"], data["high"], strict=True):
        if np.isinf(high):
            ax.plot([right], [position], marker=">", color="0.35", linestyle="none")
        if np.isinf(low):
            ax.plot([left], [position], marker="<", color="0.35", linestyle="none")
    ax.axvline(0.0, color="0.5", linestyle="--", linewidth=1)
    ax.set_xlim(left, right)
    ax.set_ylim(-0.6, len(data) - 0.4)
    ax.set_yticks(positions)
    ax.set_yticklabels(data["label"].tolist())
    _annotate_pvalues(ax, positions, data["pvalue"], adjusted="pvalue_adj" in result)
    ci_level = 1 - meta["alpha"] if meta.get("alpha") is not None else None
    ci_text = f"{ci_level:.0%} CI" if ci_level is not None else "CI"
    sided = meta.get("alternative", "two-sided")
    sided_text = "" if sided in (None, "two-sided") else f", one-sided ({sided})"
    ax.set_xlabel(f"mean difference model_1 − model_2 with {ci_text}{sided_text}")
    ax.legend(fontsize="small", loc="best")
    correction = meta.get("correction")
    correction_text = f", {correction} correction" if correction else ""
    _figure_title(ax, title, f"{_test_label(meta, capital=True)}{correction_text}")
    return ax


@_result_kind(
    "wilcoxon", "sign_test", "ttest_5x2cv", "ftest_5x2cv", "mcnemar", "proportions_ztest"
)
def plot_pvalue_dots(result: pd.DataFrame, *, ax=None, title: str | None = None, **kwargs: Any):
    """P-value of each comparison on a log scale, with the significance level marked.

    These tests give no confidence interval of the difference, so the picture
    is the (adjusted) p-value per pair: left of the alpha line is significant.

    Parameters
    ----------
    result : pandas.DataFrame
        Result of ``wilcoxon``, ``sign_test``, the 5x2cv tests, ``mcnemar`` or
        ``proportions_ztest``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.scatter``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import numpy as np

    meta = pdcompare_attrs(result)
    column = "pvalue_adj" if "pvalue_adj" in result else "pvalue"
    pvalues = result[column].to_numpy(dtype=float)
    alpha = meta.get("alpha", 0.05)
    reject = (
        result["reject"].eq(True).to_numpy(dtype=bool, na_value=False)
        if "reject" in result
        else np.asarray(pvalues <= alpha)
    )
    labels = (result["model_1"].astype(str) + " vs " + result["model_2"].astype(str)).tolist()
    ax = _axes(ax)
    positions = np.arange(len(result))[::-1]
    # A p-value of 0 cannot sit on a log axis: it is drawn a decade below the
    # smallest positive p-value (or alpha), and its label says "<0.001".
    positive = pvalues[pvalues > 0]
    floor = min(positive.min(initial=1.0), alpha) / 10
    shown = np.clip(np.nan_to_num(pvalues, nan=1.0), floor, 1.0)
    for rows, color, face, name in (
        (reject, "C3", "C3", "significant"),
        (~reject, "0.35", "white", "not significant"),
    ):
        if rows.any():
            ax.scatter(
                shown[rows],
                positions[rows],
                color=face,
                edgecolors=color,
                s=40,
                label=f"{name} at {_alpha_label(meta)}",
                zorder=3,
                **kwargs,
            )
    ax.hlines(positions, shown, 1.0, color="0.8", zorder=1)
    ax.axvline(alpha, color="C3", linestyle="--", linewidth=1, label=f"alpha = {alpha:g}")
    ax.set_xscale("log")
    ax.set_xlim(floor / 2, 1.5)
    ax.set_ylim(-0.6, len(result) - 0.4)
    _annotate_pvalues(ax, positions, pvalues, adjusted=column == "pvalue_adj")
    ax.set_yticks(positions)
    ax.set_yticklabels(labels)
    adjusted = column == "pvalue_adj" and meta.get("correction")
    ax.set_xlabel(
        f"p-value, {meta['correction']}-adjusted (log scale)"
        if adjusted
        else "p-value (log scale)"
    )
    ax.legend(fontsize="small", loc="best")
    _figure_title(ax, title, _test_label(meta, capital=True))
    return ax


# ============================================================ Bayesian comparison


@_scores_kind("posterior")
def posterior_plot(
    frame: pd.DataFrame,
    *,
    a: Any = None,
    b: Any = None,
    rope: float | tuple[float, float] = 0.0,
    nan_policy: str = "raise",
    ax=None,
    **options: Any,
) -> Any:
    """Posterior density of the mean difference of two models, with the ROPE shaded.

    Drawn by ``df.cmp.plot("posterior", a=..., b=..., rope=...)``. The areas
    of the density beyond the ROPE are filled and labelled with the
    probability that each model is better; the ROPE is shaded and labelled
    with the probability that the two are practically equivalent (see
    :meth:`pdcompare.accessor.CompareAccessor.bayes`).

    Parameters
    ----------
    frame : pandas.DataFrame
        A scores frame (models x splits).
    a, b : model name, optional
        The pair: the density is that of ``mu = mean(a - b)``. Without ``b``,
        ``a`` is compared with the best other model; without either, the best
        model with the runner-up (the first row of ``bayes(a, b)``).
    rope : float or (float, float), default 0.0
        Region of practical equivalence, a half-width or a ``(low, high)`` pair.
    nan_policy : {"raise", "omit"}, default "raise"
        What to do with missing scores of the two models.
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    **options
        Design keywords (``cv=``, ``test_size=``, ``n_train=``, ``n_test=``,
        ``greater_is_better=``); the rest go to ``ax.plot`` for the density line.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.

    Notes
    -----
    A constant difference (a point-mass posterior) is drawn as a vertical
    line at that difference.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> ax = load_grid_search_scores().cmp.plot("posterior", a="rbf", b="linear", rope=0.01)
    >>> for text in ax.get_legend().get_texts():
    ...     print(text.get_text())
    posterior density
    P(rbf better) = 0.500
    P(linear better) = 0.068
    ROPE [-0.01, 0.01]: P(equivalent) = 0.432
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    import warnings

    import numpy as np

    from pdcompare._validation import PdcompareWarning
    from pdcompare.design import DESIGN_KEYWORDS

    design = {
        key: options.pop(key) for key in (*DESIGN_KEYWORDS, "greater_is_better") if key in options
    }
    check_option("nan_policy", nan_policy, ("raise", "omit"))
    result = frame.cmp.bayes(a, b, rope=rope, nan_policy=nan_policy, **design)
    row = result.iloc[0]
    model_1, model_2 = row["model_1"], row["model_2"]
    with warnings.catch_warnings():
        # bayes has already warned about a point mass.
        warnings.simplefilter("ignore", PdcompareWarning)
        posterior = frame.cmp.posterior(model_1, model_2, nan_policy=nan_policy, **design)
    low, high = pdcompare_attrs(result)["rope"]
    greater_is_better = pdcompare_attrs(result)["greater_is_better"]
    # Which model each side of the ROPE favours, with its probability.
    above = (model_1, row["prob_better"]) if greater_is_better else (model_2, row["prob_worse"])
    below = (model_2, row["prob_worse"]) if greater_is_better else (model_1, row["prob_better"])
    ax = _axes(ax)
    loc = float(row["mean_diff"])
    if row["ci_low"] == row["ci_high"]:
        ax.axvline(loc, label=f"point mass at {loc:.4g}", **options)
        ax.plot([], [], " ", label=f"P({above[0]} better) = {above[1]:.3f}")
        ax.plot([], [], " ", label=f"P({below[0]} better) = {below[1]:.3f}")
        span = max(abs(loc), high - low, 1e-3)
        left, right = min(loc, low) - 0.1 * span, max(loc, high) + 0.1 * span
    else:
        left = min(float(posterior.ppf(0.0005)), low)
        right = max(float(posterior.ppf(0.9995)), high)
        pad = 0.05 * (right - left)
        left, right = left - pad, right + pad
        x = np.linspace(left, right, 512)
        density = posterior.pdf(x)
        ax.plot(x, density, label="posterior density", **options)
        color = ax.get_lines()[-1].get_color()
        ax.fill_between(
            x,
            density,
            where=x >= high,
            color=color,
            alpha=0.45,
            label=f"P({above[0]} better) = {above[1]:.3f}",
        )
        ax.fill_between(
            x,
            density,
            where=x <= low,
            color=color,
            alpha=0.15,
            label=f"P({below[0]} better) = {below[1]:.3f}",
        )
    if high > low:
        ax.axvspan(
            low,
            high,
            color="0.6",
            alpha=0.3,
            label=f"ROPE [{low:g}, {high:g}]: P(equivalent) = {row['prob_rope']:.3f}",
        )
    else:
        ax.axvline(low, color="0.4", linestyle="--", linewidth=1, label=f"no ROPE ({low:g})")
    ax.set_xlim(left, right)
    ax.set_ylim(bottom=0.0)
    ax.set_xlabel(f"mean score difference {model_1} − {model_2}")
    ax.set_ylabel("posterior density")
    ax.set_title(f"Bayesian correlated t-test: {model_1} vs {model_2}")
    ax.legend()
    return ax


@_result_kind("bayes")
def bayes_matrix_plot(
    result: pd.DataFrame,
    *,
    ax=None,
    cmap: str = "viridis",
    annot: bool | None = None,
    fmt: str = ".2f",
    **kwargs: Any,
) -> Any:
    """Heatmap of ``prob_better`` of a Bayesian result: P(row model better than column model).

    Drawn by ``result.cmp.plot()`` on a result of ``bayes`` or
    ``pairwise(test="bayes")``. The cell (row ``r``, column ``c``) is the
    posterior probability that ``r`` is better than ``c`` by more than the
    ROPE: ``prob_better`` of the pair ``(r, c)``, or ``prob_worse`` of the pair
    ``(c, r)``. Pairs the result does not hold are blank; models are ordered
    best first.

    Parameters
    ----------
    result : pandas.DataFrame
        A result frame of ``bayes``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    cmap : str, default "viridis"
        Colormap of probabilities from 0 to 1.
    annot : bool, optional
        Write the probability in each cell; by default when at most 20 models.
    fmt : str, default ".2f"
        Format of the annotations.
    **kwargs
        Passed to ``ax.imshow``.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on (a colorbar is added next to it).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> from pdcompare.frames import ALL_PAIRS
    >>> result = load_grid_search_scores().cmp.bayes(ALL_PAIRS, rope=0.01)
    >>> ax = result.cmp.plot()
    >>> [label.get_text() for label in ax.get_yticklabels()]
    ['rbf', 'linear', '3_poly', '2_poly']
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    import numpy as np

    meta = pdcompare_attrs(result)
    present = pd.unique(pd.concat([result["model_1"], result["model_2"]], ignore_index=True))
    known = [name for name in meta.get("models", []) if name in set(present)]
    order = pd.Index(known + [name for name in present if name not in set(known)])
    rows = order.get_indexer(result["model_1"])
    columns = order.get_indexer(result["model_2"])
    matrix = np.full((len(order), len(order)), np.nan)
    matrix[rows, columns] = result["prob_better"].to_numpy(dtype=float)
    matrix[columns, rows] = result["prob_worse"].to_numpy(dtype=float)
    ax = _axes(ax)
    image = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, vmin=0.0, vmax=1.0, **kwargs)
    ax.figure.colorbar(image, ax=ax, label="P(row model better than column model)")
    ticks = np.arange(len(order))
    ax.set_xticks(ticks, labels=[str(name) for name in order], rotation=45, ha="right")
    ax.set_yticks(ticks, labels=[str(name) for name in order])
    ax.set_xlabel("compared with")
    ax.set_ylabel("model")
    low, high = meta.get("rope", (0.0, 0.0))
    ax.set_title(f"P(row better than column), ROPE [{low:g}, {high:g}]")
    if annot or (annot is None and len(order) <= 20):
        colormap = image.get_cmap()
        for r, c in zip(*np.nonzero(~np.isnan(matrix)), strict=True):
            value = matrix[r, c]
            # Dark text on light cells and light text on dark ones.
            red, green, blue, _ = colormap(value)
            light = 0.299 * red + 0.587 * green + 0.114 * blue > 0.5
            ax.text(
                c,
                r,
                format(value, fmt),
                ha="center",
                va="center",
                color="black" if light else "white",
            )
    return ax


# ============================================================ bootstrap on predictions


def _interval_segments(point, low, high):
    """Finite ends of intervals: an infinite (one-sided) end is drawn up to the point."""
    import numpy as np

    point = np.asarray(point, dtype=float)
    low = np.where(np.isinf(low), point, np.asarray(low, dtype=float))
    high = np.where(np.isinf(high), point, np.asarray(high, dtype=float))
    return low, high


@_result_kind("bootstrap", "accuracy_ci")
def plot_model_intervals(frame: pd.DataFrame, *, ax=None, title: str | None = None, **kwargs: Any):
    """Each model's score with its confidence interval, best model on top.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of ``bootstrap`` or ``accuracy_ci`` (indexed by model).
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    title : str, optional
        The Axes title; by default it names the interval and its level.
    **kwargs
        Passed to ``Axes.hlines`` (the interval lines).

    Returns
    -------
    matplotlib.axes.Axes
        One horizontal line per model (``ax.collections[0]``), its point
        estimate as markers (``ax.lines[0]``), models as y tick labels (the
        best on top), the score's name as the x label.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> preds = pd.DataFrame({"y": [0, 1, 1, 0, 1], "a": [0, 1, 1, 0, 0], "b": [0, 1, 0, 0, 0]})
    >>> ax = preds.cmp.bootstrap(random_state=0, n_resamples=100).cmp.plot()
    >>> [t.get_text() for t in ax.get_yticklabels()], ax.get_xlabel()
    (['b', 'a'], 'accuracy')
    """
    import numpy as np

    meta = pdcompare_attrs(frame)
    value = "accuracy" if meta.get("test") == "accuracy_ci" else "estimate"
    ordered = frame.sort_values(
        value, ascending=not meta.get("greater_is_better", True), kind="stable"
    )
    ax = _axes(ax)
    # Drawn bottom-up from the worst model, so that the best one is on top.
    ordered = ordered.iloc[::-1]
    positions = np.arange(len(ordered))
    low, high = _interval_segments(ordered[value], ordered["ci_low"], ordered["ci_high"])
    ax.hlines(positions, low, high, **{"linewidth": 2, **kwargs})
    ax.plot(ordered[value].to_numpy(dtype=float), positions, "o", color="black")
    ax.set_yticks(positions, labels=[str(name) for name in ordered.index])
    ax.set_ylim(-0.5, len(ordered) - 0.5)
    ax.set_xlabel(str(meta.get("score", value)))
    ax.set_ylabel("model")
    level = f"{meta['ci']:.0%} " if meta.get("ci") is not None else ""
    if meta.get("test") == "accuracy_ci":
        default = f"Accuracy with {level}{meta.get('method', 'binomial')} interval"
    else:
        default = f"Bootstrap {level}{meta.get('method', 'percentile')} interval per model"
    _figure_title(ax, title, default)
    return ax


@_result_kind("bootstrap_diff")
def plot_differences(frame: pd.DataFrame, *, ax=None, title: str | None = None, **kwargs: Any):
    """Bootstrap difference of each pair with its interval, and a line at zero.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of ``bootstrap_diff`` (one row per pair).
    ax : matplotlib.axes.Axes, optional
        Where to draw; the current Axes when None.
    title : str, optional
        The Axes title; by default it names the paired bootstrap and its level.
    **kwargs
        Passed to ``Axes.hlines`` (the interval lines).

    Returns
    -------
    matplotlib.axes.Axes
        One horizontal line per pair (``ax.collections[0]``, a one-sided
        interval drawn up to the point), the differences as markers
        (``ax.lines[0]``), a dashed vertical line at 0 (``ax.lines[1]``), pairs
        "model_1 − model_2" as y tick labels, the first row on top, and each
        pair's (adjusted) p-value written at the right.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> preds = pd.DataFrame({"y": [0, 1, 1, 0, 1], "a": [0, 1, 1, 0, 0], "b": [0, 1, 0, 0, 0]})
    >>> ax = preds.cmp.bootstrap_diff(random_state=0, n_resamples=100).cmp.plot()
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['a − b']
    """
    import numpy as np

    meta = pdcompare_attrs(frame)
    ax = _axes(ax)
    # Drawn bottom-up from the last row, so that the first row is on top.
    frame = frame.iloc[::-1]
    positions = np.arange(len(frame))
    low, high = _interval_segments(frame["mean_diff"], frame["ci_low"], frame["ci_high"])
    ax.hlines(positions, low, high, **{"linewidth": 2, **kwargs})
    ax.plot(frame["mean_diff"].to_numpy(dtype=float), positions, "o", color="black")
    ax.axvline(0.0, color="0.4", linestyle="--", linewidth=1)
    pairs = zip(frame["model_1"], frame["model_2"], strict=True)
    labels = [f"{first} − {second}" for first, second in pairs]
    ax.set_yticks(positions, labels=labels)
    ax.set_ylim(-0.5, len(frame) - 0.5)
    ax.set_xlabel(f"difference in {meta.get('score', 'score')}")
    ax.set_ylabel("pair")
    adjusted = "pvalue_adj" in frame.columns
    _annotate_pvalues(ax, positions, frame["pvalue_adj" if adjusted else "pvalue"], adjusted)
    level = f"{meta['ci']:.0%} " if meta.get("ci") is not None else ""
    _figure_title(ax, title, f"Paired bootstrap: differences with {level}intervals")
    return ax


# ============================================================ end of plot kinds

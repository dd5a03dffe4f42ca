"""Pictures of the Bayesian comparison: the posterior density and the probability matrix."""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare.compare import hierarchical, signed_rank_bayes
from pdcompare.compare.figure_inputs import posterior_inputs, simplex_inputs
from pdcompare.inputs.design import DESIGN_KEYWORDS
from pdcompare.presentation.plotting._base import (
    MIN_ANNOTATION_POINTS,
    _axes,
    _figure_title,
    _heatmap_ticks,
    _result_kind,
    _scores_kind,
    annotation_points,
    cell_points,
    figure_size,
    heatmap_figsize,
    matplotlib_options,
    model_colours,
    require_columns,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.shown import check_top, result_models, top_models, top_pairs
from pdcompare.results import result_info

#: Colours of the three posterior masses of a stacked bar: better, practically equivalent, worse.
MASS_COLOURS = ("#2166ac", "#bababa", "#b2182b")
#: A mass narrower than this (a fraction of the bar) is not written in its segment.
MIN_WRITTEN_MASS = 0.07


@_scores_kind("posterior")
def posterior_plot(
    frame: pd.DataFrame,
    *,
    a: Any = None,
    b: Any = None,
    rope: float | tuple[float, float] = 0.0,
    nan_policy: str = "propagate",
    ax=None,
    top: int | None = None,
    **options: Any,
) -> Any:
    """Posterior density of the mean difference of two models, with the ROPE shaded.

    Drawn by ``df.cmp.plot("posterior", a=..., b=..., rope=...)``. The areas
    of the density beyond the ROPE are filled and labelled with the
    probability that each model is better, each in that model's colour (the
    colour it has in every picture); the ROPE is shaded and labelled with the
    probability that the two are practically equivalent (see
    :meth:`pdcompare.accessor.CompareAccessor.bayes`). The legend sits right
    of the Axes, never on the curve.

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
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        What to do with missing scores of the two models, as in ``bayes``:
        "propagate" and "raise" refuse to draw a pair with missing scores
        (its posterior is undefined), "omit" leaves those splits out.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure.
    top : int, optional
        Accepted for the sake of a uniform ``plot(kind, top=...)``; the
        picture always shows the two models.
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
    import numpy as np

    check_top(top)
    design = {
        key: options.pop(key) for key in (*DESIGN_KEYWORDS, "greater_is_better") if key in options
    }
    result, posterior = posterior_inputs(frame, a, b, rope=rope, nan_policy=nan_policy, **design)
    row = result.iloc[0]
    model_1, model_2 = row["model_1"], row["model_2"]
    info = result_info(result)
    low, high = info.rope
    greater_is_better = info.direction
    colours = model_colours(info.models)
    # Which model each side of the ROPE favours, with its probability.
    above = (model_1, row["prob_better"]) if greater_is_better else (model_2, row["prob_worse"])
    below = (model_2, row["prob_worse"]) if greater_is_better else (model_1, row["prob_better"])
    ax = _axes(ax, figsize=(9.6, 4.8))
    loc = float(row["mean_diff"])
    with matplotlib_options('plot("posterior")', "Axes.plot", options):
        if row["ci_low"] == row["ci_high"]:
            ax.axvline(loc, label=f"point mass at {loc:.4g}", **{"color": "0.2", **options})
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
            ax.plot(x, density, label="posterior density", **{"color": "0.2", **options})
            for (name, probability), side in ((above, x >= high), (below, x <= low)):
                ax.fill_between(
                    x,
                    density,
                    where=side,
                    color=colours.get(name, "0.5"),
                    alpha=0.5,
                    label=f"P({name} better) = {probability:.3f}",
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
    # Right of the Axes: never on the curve or the ROPE.
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
    return ax


@_result_kind("bayes")
def bayes_matrix_plot(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    cmap: str = "viridis",
    annot: bool | None = None,
    fmt: str = ".2f",
    title: str | None = None,
    **kwargs: Any,
) -> Any:
    """Heatmap of ``prob_better`` of a Bayesian result: P(row model better than column model).

    Drawn by ``result.cmp.plot()`` on a result of ``bayes`` or
    ``pairwise(test="bayes")`` that compares several models with each other;
    a result of one model against the others (the best against the rest, say)
    is drawn by :func:`bayes_bars_plot` instead. The cell (row ``r``, column ``c``) is the
    posterior probability that ``r`` is better than ``c`` by more than the
    ROPE: ``prob_better`` of the pair ``(r, c)``, or ``prob_worse`` of the pair
    ``(c, r)``. Pairs the result does not hold are blank; models are ordered
    best first.

    Parameters
    ----------
    result : pandas.DataFrame
        A result frame of ``bayes``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Show the best ``top`` models; by default all up to 20, the best 20
        beyond, as the title says.
    cmap : str, default "viridis"
        Colormap of probabilities from 0 to 1.
    annot : bool, optional
        Write the probability in each cell; by default only when it fits the
        cell at 6 points or more.
    fmt : str, default ".2f"
        Format of the annotations.
    title : str, optional
        Title of the Axes.
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
    >>> from pdcompare.inputs.scores import ALL_PAIRS
    >>> result = load_grid_search_scores().cmp.bayes(ALL_PAIRS, rope=0.01)
    >>> ax = result.cmp.plot()
    >>> [label.get_text() for label in ax.get_yticklabels()]
    ['rbf', 'linear', '3_poly', '2_poly']
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    import numpy as np

    require_columns(result, ("model_1", "model_2", "prob_better", "prob_worse"), "A Bayes plot")
    if len(result) > 1 and (result["model_1"] == result["model_1"].iloc[0]).all():
        return bayes_bars_plot(result, ax=ax, top=top, title=title, **kwargs)
    info = result_info(result)
    models, note = top_models(result_models(result), top)
    order = pd.Index(models)
    keep = (result["model_1"].isin(order) & result["model_2"].isin(order)).to_numpy()
    kept = result[keep]
    rows = order.get_indexer(kept["model_1"])
    columns = order.get_indexer(kept["model_2"])
    matrix = np.full((len(order), len(order)), np.nan)
    matrix[rows, columns] = kept["prob_better"].to_numpy(dtype=float)
    matrix[columns, rows] = kept["prob_worse"].to_numpy(dtype=float)
    ax = _axes(ax, figsize=heatmap_figsize(models))
    with matplotlib_options("the Bayes plot", "Axes.imshow", kwargs):
        image = ax.imshow(np.ma.masked_invalid(matrix), cmap=cmap, vmin=0.0, vmax=1.0, **kwargs)
    ax.figure.colorbar(image, ax=ax, shrink=0.8, label="P(row model better than column model)")
    cell = cell_points(ax, len(order), len(order))
    _heatmap_ticks(ax, list(order), list(order), cell)
    ax.set_xlabel("compared with")
    ax.set_ylabel("model")
    low, high = (0.0, 0.0) if info.rope is None else info.rope
    _figure_title(ax, title, f"P(row better than column), ROPE [{low:g}, {high:g}]", note)
    cells = np.argwhere(~np.isnan(matrix))
    texts = [format(matrix[r, c], fmt) for r, c in cells]
    size = annotation_points(cell, texts)
    if annot or (annot is None and size >= MIN_ANNOTATION_POINTS):
        colormap = image.get_cmap()
        for (r, c), text in zip(cells, texts, strict=True):
            # Dark text on light cells and light text on dark ones.
            red, green, blue, _ = colormap(matrix[r, c])
            light = 0.299 * red + 0.587 * green + 0.114 * blue > 0.5
            ax.text(
                c,
                r,
                text,
                ha="center",
                va="center",
                fontsize=size,
                color="black" if light else "white",
            )
    return ax


def bayes_bars_plot(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
) -> Any:
    """One model against the others: a stacked bar of its three posterior masses per opponent.

    Each bar splits 1 into ``prob_better`` (the model of every row,
    ``model_1``, better by more than the ROPE), ``prob_rope`` (practically
    equivalent) and ``prob_worse`` (the opponent better), left to right,
    each mass written in its segment when it is at least
    :data:`MIN_WRITTEN_MASS` wide. The opponents run best first from the
    top; the best ``top - 1`` of them are drawn (``top`` models in all).

    Parameters
    ----------
    result : pandas.DataFrame
        A result of ``bayes`` whose rows share ``model_1`` (``bayes()`` of
        the best model against the others, or ``bayes(a=...)``).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content.
    top : int, optional
        Show ``model_1`` and its best ``top - 1`` opponents; by default 20
        models, as the title says.
    title : str, optional
        Title of the Axes.
    **kwargs
        Passed to ``Axes.barh``.

    Returns
    -------
    matplotlib.axes.Axes
        Three ``BarContainer`` (``ax.containers``: better, rope, worse), the
        opponents as y tick labels, best on top.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> ax = load_grid_search_scores().cmp.bayes(rope=0.01).cmp.plot()
    >>> [label.get_text() for label in ax.get_yticklabels()]
    ['linear', '3_poly', '2_poly']
    >>> [round(float(bar.get_width()), 3) for bar in ax.containers[0]]  # P(rbf better)
    [0.5, 0.882, 1.0]
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    import numpy as np

    require_columns(
        result, ("model_1", "model_2", "prob_better", "prob_rope", "prob_worse"), "A Bayes plot"
    )
    info = result_info(result)
    rows, note = top_pairs(result, top)
    order = [m for m in result_models(rows) if m in set(rows["model_2"])]
    rows = rows.set_index("model_2").loc[order]
    first = result["model_1"].iloc[0]
    masses = rows[["prob_better", "prob_rope", "prob_worse"]].to_numpy(dtype=float)
    names = [str(m) for m in order]
    width, height = row_figsize(len(names), max(map(len, names)), extra_width=1.0)
    ax = _axes(ax, figsize=(width, height + 0.8))  # and the legend below
    positions = np.arange(len(names))[::-1]  # the best opponent at the top
    low, high = info.rope if info.rope is not None else (0.0, 0.0)
    labels = (
        f"{first} better",
        f"practically equivalent (ROPE [{low:g}, {high:g}])",
        "the other model better",
    )
    size = row_fontsize(ax, len(names))
    left = np.zeros(len(names))
    with matplotlib_options("the Bayes plot", "Axes.barh", kwargs):
        for k, (colour, label) in enumerate(zip(MASS_COLOURS, labels, strict=True)):
            width = np.nan_to_num(masses[:, k])
            bars = ax.barh(
                positions, width, left=left, height=0.8, color=colour, label=label, **kwargs
            )
            for bar, mass in zip(bars, masses[:, k], strict=True):
                if mass >= MIN_WRITTEN_MASS:
                    ax.text(
                        bar.get_x() + bar.get_width() / 2.0,
                        bar.get_y() + bar.get_height() / 2.0,
                        f"{mass:.2f}",
                        ha="center",
                        va="center",
                        fontsize=size,
                        color="black" if k == 1 else "white",
                    )
            left = left + width
    ax.set_yticks(positions, labels=names, fontsize=size)
    ax.set_ylim(-0.6, len(names) - 0.4)
    ax.set_xlim(0.0, 1.0)
    ax.set_ylabel("compared with")
    # Below the tick labels (0.25 inch), one entry a line: the model names may be long.
    below = 0.25 / max(ax.get_position().height * figure_size(ax)[1], 0.1)
    ax.legend(
        title="posterior probability",
        loc="upper center",
        bbox_to_anchor=(0.5, -below),
        fontsize="small",
        title_fontsize="small",
        frameon=False,
    )
    _figure_title(ax, title, f"Bayesian comparison of {first}\nwith each other model", note)
    # Right-aligned: a long name may then run over the tick labels, not off the figure.
    ax.title.set_horizontalalignment("right")
    ax.title.set_x(1.0)
    return ax


def draw_simplex(
    result: pd.DataFrame, samples: Any, *, ax=None, top: int | None = None, **kwargs: Any
) -> Any:
    """The posterior of a one-pair Bayesian result across data sets in the barycentric triangle.

    The result is of the Bayesian signed-rank test (``bayes`` on a benchmark
    frame) or of the hierarchical test (``hierarchical``). Each point is one
    posterior sample of the masses (model_1 better,
    practically equivalent, model_2 better), drawn at the corners "better"
    (bottom left), "rope" (top) and "worse" (bottom right), as baycomp's
    ``plot_simplex``; the dashed lines split the triangle where each mass is
    the largest, and each point takes the colour of its winner. The
    probabilities at the corners are the result's, from all its samples.

    Parameters
    ----------
    result : pandas.DataFrame
        A one-pair result of ``bayes`` on a benchmark frame, or of ``hierarchical``.
    samples : numpy.ndarray, shape (n, 3)
        Posterior samples of its masses (better, rope, worse), from
        :func:`pdcompare.compare.signed_rank_bayes.simplex_samples` or
        :func:`pdcompare.compare.hierarchical.simplex_samples`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure.
    top : int, optional
        Accepted as by every result plot; one pair is always drawn whole.
    **kwargs
        Passed to ``Axes.scatter``.

    Returns
    -------
    matplotlib.axes.Axes
    """
    import numpy as np

    check_top(top)
    info = result_info(result)
    row = result.iloc[0]
    first, second = row["model_1"], row["model_2"]
    rope = float(info.rope[1])
    height = np.sqrt(3.0) / 2.0
    x = 0.5 * samples[:, 1] + samples[:, 2]
    y = height * samples[:, 1]
    colours = model_colours(result_models(result))
    palette = np.array([colours.get(first, "C0"), "0.55", colours.get(second, "C1")], dtype=object)
    winner = np.argmax(samples, axis=1)
    ax = _axes(ax, figsize=(6.0, 5.6))
    ax.plot([0, 1, 0.5, 0], [0, 0, height, 0], color="black", linewidth=1)
    centre = (0.5, height / 3.0)
    for edge in ((0.5, 0.0), (0.25, height / 2.0), (0.75, height / 2.0)):
        ax.plot(
            [centre[0], edge[0]], [centre[1], edge[1]], color="0.4", linestyle="--", linewidth=0.8
        )
    with matplotlib_options("the simplex plot", "Axes.scatter", kwargs):
        ax.scatter(
            x,
            y,
            s=kwargs.pop("s", 4),
            c=list(palette[winner]),
            alpha=kwargs.pop("alpha", 0.35),
            linewidths=0,
            **kwargs,
        )
    labels = (
        (0.0, -0.05, f"{first} better\nP = {row['prob_better']:.3f}", "center", "top"),
        (0.5, height + 0.03, f"rope ±{rope:g}\nP = {row['prob_rope']:.3f}", "center", "bottom"),
        (1.0, -0.05, f"{second} better\nP = {row['prob_worse']:.3f}", "center", "top"),
    )
    for px, py, text, ha, va in labels:
        ax.text(px, py, text, ha=ha, va=va, fontsize="small")
    ax.set_xlim(-0.2, 1.2)
    ax.set_ylim(-0.2, height + 0.18)
    ax.set_aspect("equal")
    ax.axis("off")
    if info.test == "hierarchical":
        n_datasets = int(hierarchical.shrinkage(result.iloc[[0]])["before"].notna().sum())
        name, kept = "Hierarchical Bayesian test", ", their folds kept"
    else:
        n_datasets = sum(d is not None and not np.isnan(d) for d in info.differences)
        name, kept = "Bayesian signed-rank test", ""
    _figure_title(
        ax,
        None,
        f"{name}: {first} vs {second}",
        # Two lines: one would run past a figure of the triangle's width.
        f"{n_datasets} data sets{kept};\nposterior samples, each coloured by its largest region",
    )
    return ax


@_scores_kind("simplex")
def simplex_plot(
    frame: pd.DataFrame,
    *,
    a: Any = None,
    b: Any = None,
    rope: float = 0.0,
    test: str = "signed_rank",
    prior: float | None = None,
    n_samples: int | None = None,
    random_state: Any = 0,
    nan_policy: str = "propagate",
    ax=None,
    top: int | None = None,
    **kwargs: Any,
) -> Any:
    """A Bayesian test of two models across data sets, in a triangle.

    Drawn by ``bench.cmp.plot("simplex", a=..., b=..., rope=...)`` on a
    benchmark frame (several data sets); the picture of
    :func:`draw_simplex` for the result of ``bench.cmp.bayes(a, b, ...)``,
    or with ``test="hierarchical"`` of ``bench.cmp.hierarchical(a, b, ...)``.

    Parameters
    ----------
    frame : pandas.DataFrame
        A benchmark frame.
    a, b : model name, optional
        The pair. Without ``b``, ``a`` against the best other model; without
        either, the best model against the runner-up.
    rope : float, default 0.0
        Half-width of the region of practical equivalence.
    test : {"signed_rank", "hierarchical"}, default "signed_rank"
        The Bayesian signed-rank test of the per-data-set means (``bayes``),
        or the hierarchical test that keeps every data set's folds
        (``hierarchical``: a ``(dataset, split)`` frame with its CV design).
    prior, n_samples, random_state, nan_policy
        As for ``bayes`` on a benchmark frame (``prior`` for the signed-rank
        test only) or ``hierarchical``; ``random_state`` defaults to 0 so
        that the picture is the same on every call.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure.
    top : int, optional
        Ignored (the picture shows two models).
    **kwargs
        Passed to ``Axes.scatter``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_benchmark
    >>> ax = load_benchmark().cmp.plot("simplex", a="svc_rbf", b="forest", rope=0.01)
    >>> ax.get_title().splitlines()[0]
    'Bayesian signed-rank test: svc_rbf vs forest'
    >>> ax = load_benchmark().cmp.plot("simplex", test="hierarchical", a="svc_rbf",
    ...                                b="forest", rope=0.01, n_samples=1000)
    >>> ax.get_title().splitlines()[0]
    'Hierarchical Bayesian test: svc_rbf vs forest'
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    result = simplex_inputs(
        frame,
        a,
        b,
        rope=rope,
        test=test,
        prior=prior,
        n_samples=n_samples,
        random_state=random_state,
        nan_policy=nan_policy,
    )
    module = hierarchical if test == "hierarchical" else signed_rank_bayes
    return draw_simplex(result, module.simplex_samples(result), ax=ax, **kwargs)

"""Pictures of the Bayesian comparison: the posterior density and the probability matrix."""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare._validation import check_option
from pdcompare.inputs.attrs import pdcompare_attrs
from pdcompare.plotting._base import _axes, _result_kind, _scores_kind


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
    from pdcompare.inputs.design import DESIGN_KEYWORDS

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
    >>> from pdcompare.inputs.scores import ALL_PAIRS
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

"""The picture of a model choice: means in complexity order, the rule's threshold, the choice."""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare.presentation.plotting._base import _axes, _result_kind, row_figsize
from pdcompare.presentation.shown import top_models
from pdcompare.results import ResultInfo, result_info

_RULES = {
    "best": "best mean",
    "one_se": "one corrected standard error",
    "not_worse": "not worse (one-sided corrected t-test)",
    "equivalent": "practically equivalent (Bayesian, ROPE)",
}


def _draw_best_and_choice(
    ax, result: pd.DataFrame, info: ResultInfo, means, positions, selected
) -> None:
    """The best model (a star), the selected one (a ring) and the rule's threshold (dashed)."""
    import numpy as np

    best = info.best
    is_best = np.array([m == best for m in result.index])
    ax.scatter(
        means[is_best],
        positions[is_best],
        marker="*",
        s=220,
        color="C1",
        zorder=3,
        label=f"best mean ({best})",
    )
    ax.scatter(
        means[selected],
        positions[selected],
        marker="o",
        s=260,
        facecolors="none",
        edgecolors="C3",
        linewidths=2,
        zorder=3,
        label=f"selected ({info.selected})",
    )
    threshold = info.get("threshold")
    if threshold is not None and best in result.index:
        best_mean = float(result.loc[best, "mean"])
        line = best_mean - threshold if info.direction else (best_mean + threshold)
        what = "one corrected SE" if info.rule == "one_se" else "ROPE"
        ax.axvline(
            line,
            color="C3",
            linestyle="--",
            linewidth=1,
            label=f"best mean {'-' if info.direction else '+'} {what} ({threshold:.3g})",
        )


@_result_kind("select")
def plot_select(
    result: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    **kwargs: Any,
):
    """Means with their corrected intervals in complexity order, the best and the choice marked.

    Drawn by ``result.cmp.plot()`` on the result of ``select``. The models
    run from the simplest (top) to the most complex; the models the rule
    accepts are drawn in colour, the others in grey; the best model is a
    star, the selected one a large ring with its name in bold; the rule's
    threshold (one standard error, or the ROPE, below the best mean) is a
    dashed line.

    Parameters
    ----------
    result : pandas.DataFrame
        The result of ``select``.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the number of models.
    top : int, optional
        Draw the best ``top`` models by mean (and always the best and the
        selected one), still in complexity order; by default all up to 20,
        the best 20 beyond, as the title says.
    title : str, optional
        Title of the Axes; by default the rule and the reason of the choice.
    **kwargs
        Passed to ``Axes.errorbar`` (the intervals).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import pandas as pd
    >>> import pdcompare
    >>> scores = pd.DataFrame(
    ...     [[0.80, 0.84, 0.82, 0.78, 0.81], [0.86, 0.84, 0.85, 0.83, 0.87],
    ...      [0.90, 0.84, 0.88, 0.83, 0.85]], index=["C=0.01", "C=1", "C=100"])
    >>> choice = pdcompare.select(scores, by=["C=0.01", "C=1", "C=100"], cv=5)
    >>> ax = choice.cmp.plot()
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['C=0.01', 'C=1', 'C=100']
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    import numpy as np

    info = result_info(result)
    missing = [c for c in ("mean", "eligible", "selected", "ci_low", "ci_high") if c not in result]
    if missing:
        msg = f"The select result lacks column(s) {missing}; plot the whole result of `select`."
        raise ValueError(msg)
    ranked = result["mean"].sort_values(ascending=not info.direction, kind="stable")
    shown, note = top_models(ranked.index.tolist(), top)
    keep = set(shown) | {info.best, info.selected}
    result = result[result.index.isin(keep)]
    n = len(result)
    names = [str(m) for m in result.index]
    longest = max(map(len, names))
    # The legend beside the Axes names the best and the selected model.
    legend_width = 0.6 + min(0.06 * (len("best mean ()") + longest), 5.0)
    ax = _axes(ax, figsize=row_figsize(n, longest, extra_width=legend_width))
    positions = np.arange(n)[::-1]  # simplest at the top
    means = result["mean"].to_numpy(dtype=float)
    low = result["ci_low"].to_numpy(dtype=float)
    high = result["ci_high"].to_numpy(dtype=float)
    eligible = result["eligible"].to_numpy(dtype=bool)
    selected = result["selected"].to_numpy(dtype=bool)
    level = 1 - float(info.level_alpha)
    for mask, colour, label in (
        (eligible, "C0", "accepted by the rule"),
        (~eligible, "0.6", "not accepted"),
    ):
        if mask.any():
            ax.errorbar(
                means[mask],
                positions[mask],
                xerr=np.vstack([means[mask] - low[mask], high[mask] - means[mask]]),
                fmt="o",
                color=colour,
                ecolor=colour,
                capsize=3,
                label=label,
                **kwargs,
            )
    _draw_best_and_choice(ax, result, info, means, positions, selected)
    ax.set_yticks(positions)
    ax.set_yticklabels(names, fontsize=9 if n <= 40 else 6)
    for label, chosen in zip(ax.get_yticklabels(), selected, strict=True):
        if chosen:
            label.set_fontweight("bold")
    direction = "higher" if info.direction else "lower"
    ax.set_xlabel(f"mean score ({direction} is better), {level:.0%} corrected CI")
    by = info.get("by")
    ax.set_ylabel(f"models, simplest first{f' (by {by})' if by else ''}")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, frameon=False)
    rule = _RULES.get(info.rule, str(info.rule))
    default = f"Choosing a model: {rule}" + (f"\n({note})" if note else "")
    ax.set_title(title if title is not None else default, fontsize=11)
    return ax

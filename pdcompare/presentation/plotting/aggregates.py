"""Runs over tasks: rliable's interval plot, performance profiles, probabilities of improvement.

Each picture draws a result frame (``aggregate``, ``performance_profile``
with ``ci``, ``prob_improvement``) or, by kind, a runs-over-tasks frame (the
result computed first: ``plot("aggregate")``, ``plot("profile")``,
``plot("prob_improvement")``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare.compare.aggregates import aggregate, performance_profile, prob_improvement
from pdcompare.presentation.plotting._base import (
    _axes,
    _figure_title,
    _result_kind,
    _scores_kind,
    matplotlib_options,
    model_colours,
    row_figsize,
    row_fontsize,
)
from pdcompare.presentation.shown import top_models
from pdcompare.results import ResultInfo, result_info

#: The metrics of rliable's interval plot; the IQM first, as it orders the rows.
PLOT_METRICS = ("iqm", "median", "mean", "optimality_gap")

_METRIC_TITLES = {
    "mean": "Mean",
    "median": "Median",
    "iqm": "IQM",
    "optimality_gap": "Optimality gap",
}


def _is_result(frame: pd.DataFrame, test: str) -> bool:
    info = result_info(frame)
    return info.kind == "result" and info.test == test


@_scores_kind("aggregate")
@_result_kind("aggregate")
def aggregate_plot(
    frame: pd.DataFrame,
    *,
    ax=None,
    metrics: Any = PLOT_METRICS,
    top: int | None = None,
    title: str | None = None,
    n_resamples: int = 10000,
    random_state: int = 0,
    **kwargs: Any,
):
    """The interval plot of rliable: each model's estimate and interval, one panel per metric.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of ``aggregate``, or a runs-over-tasks frame (``aggregate``
        is run first with ``metrics``, ``n_resamples`` and ``random_state``).
    ax : matplotlib.axes.Axes, optional
        Where to draw one metric; by default a new figure with one panel per
        metric side by side (models share the rows).
    metrics : str or list of str
        On a runs-over-tasks frame, the metrics (rliable's four by default,
        the IQM first: the first metric orders the rows).
    top : int, optional
        Draw the best ``top`` models (by the first metric); by default all up
        to 20, the best 20 beyond, as the title says.
    title : str, optional
        Title of the figure.
    n_resamples, random_state
        Of the stratified bootstrap, on a runs-over-tasks frame.
    **kwargs
        Passed to the ``Axes.barh`` call that draws the intervals.

    Returns
    -------
    matplotlib.axes.Axes
        The first panel; ``ax.figure.axes`` holds one per metric. Each model
        is a bar from ``ci_low`` to ``ci_high`` in its colour, with a black
        tick at the estimate; models best first, at the top.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from pdcompare.datasets import load_rl_runs
    >>> ax = aggregate_plot(load_rl_runs(), n_resamples=500)
    >>> [a.get_title() for a in ax.figure.axes]
    ['IQM', 'Median', 'Mean', 'Optimality gap']
    >>> [t.get_text() for t in ax.get_yticklabels()][:2]
    ['rainbow', 'iqn']
    >>> plt.close("all")
    """
    if not _is_result(frame, "aggregate"):
        frame = aggregate(frame, metrics, n_resamples=n_resamples, random_state=random_state)
    info = result_info(frame)
    metrics = list(info.metrics or ())
    if ax is not None and len(metrics) > 1:
        msg = (
            f"`ax` takes one panel, and this result has {len(metrics)} metrics; draw one with "
            "`metrics=` (on a runs-over-tasks frame) or leave `ax` out."
        )
        raise ValueError(msg)
    shown, note = top_models(list(frame.index), top)
    names = [str(m) for m in shown]
    colours = model_colours(list(frame.index))
    if ax is None:
        import matplotlib.pyplot as plt

        _, height = row_figsize(len(shown), max(map(len, names)))
        _, axes = plt.subplots(
            1,
            len(metrics),
            figsize=(min(2.0 + 2.6 * len(metrics), 16.0), height),
            sharey=True,
            layout="constrained",
            squeeze=False,
        )
        axes = list(axes[0])
    else:
        axes = [ax]
    heights = np.arange(len(shown))[::-1].astype(float)
    colour_list = [colours[m] for m in shown]
    for panel, name in zip(axes, metrics, strict=True):
        part = frame.loc[shown, name] if len(metrics) > 1 else frame.loc[shown]
        estimate, low, high = (
            part[c].to_numpy(dtype=float) for c in ("estimate", "ci_low", "ci_high")
        )
        options = {"height": 0.6, "color": [(*c[:3], 0.55) for c in colour_list], **kwargs}
        with matplotlib_options('plot("aggregate")', "Axes.barh", kwargs):
            panel.barh(heights, high - low, left=low, **options)
        panel.vlines(estimate, heights - 0.3, heights + 0.3, colors="black", linewidth=1.5)
        panel.set_title(_METRIC_TITLES[name])
        panel.grid(axis="x", alpha=0.3)
        panel.set_axisbelow(True)
        panel.set_ylim(-0.6, len(shown) - 0.4)
    axes[0].set_yticks(heights, labels=names, fontsize=row_fontsize(axes[0], len(shown)))
    level = 0.95 if info.ci is None else info.ci
    method = "BCa" if info.method == "bca" else "percentile"
    runs = _runs_text(info)
    caption = (
        f"{level:.0%} stratified bootstrap intervals ({method}), {info.n_tasks} tasks, {runs}"
    )
    if note:
        caption += f"; {note}"
    figure = axes[0].figure
    if ax is None:
        figure.supxlabel("normalised score (optimality gap: lower is better)", fontsize="small")
        figure.suptitle(title or caption, fontsize="medium")
    else:
        panel.set_xlabel(caption, fontsize="small")
        if title is not None:
            panel.set_title(title)
    return axes[0]


def _runs_text(info: ResultInfo) -> str:
    low, high = info.n_runs_min, info.n_runs_max
    return f"{low} runs per task" if low == high else f"{low} to {high} runs per task"


@_scores_kind("profile")
@_result_kind("performance_profile")
def profile_plot(
    frame: pd.DataFrame,
    *,
    ax=None,
    taus: Any = None,
    ci: float = 0.95,
    top: int | None = None,
    title: str | None = None,
    n_resamples: int = 2000,
    random_state: int = 0,
    **kwargs: Any,
):
    """Performance profiles: the share of runs above each threshold, with bootstrap bands.

    Parameters
    ----------
    frame : pandas.DataFrame
        A runs-over-tasks frame (the profile and its bands are computed with
        ``taus``, ``ci``, ``n_resamples`` and ``random_state``; by default
        ``taus`` runs from the lowest score to the 99th percentile of the
        scores, past which the curves are flat near 0), or a result of
        ``performance_profile`` (with or without ``ci``).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure.
    top : int, optional
        Draw the best ``top`` models (by IQM); by default at most 8. Bands
        are drawn for at most 5 curves (the title says when they are left
        out); on a runs-over-tasks frame only the drawn models are
        bootstrapped.
    title : str, optional
        Title; by default it names the bands.
    **kwargs
        Passed to the ``Axes.plot`` call of each curve.

    Returns
    -------
    matplotlib.axes.Axes
        One step curve per model in its colour (``ax.lines``), its band shaded.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from pdcompare.datasets import load_rl_runs
    >>> ax = profile_plot(load_rl_runs(), n_resamples=200)
    >>> len(ax.lines), ax.get_legend().get_texts()[0].get_text()
    (5, 'rainbow')
    >>> plt.close("all")
    """
    order, left_out = None, False
    if not _is_result(frame, "performance_profile"):
        frame, order, left_out = _profile_of_shown(frame, taus, ci, top, n_resamples, random_state)
    info = result_info(frame)
    profile = frame["profile"] if frame.columns.nlevels == 2 else frame
    models = order or list(profile.columns)
    shown, note = top_models(models, PROFILE_TOP if top is None else top)
    banded = frame.columns.nlevels == 2 and len(shown) <= BANDS_UP_TO
    colours = model_colours(models)
    longest = max(len(str(m)) for m in shown)
    ax = _axes(ax, figsize=(6.4 + min(0.07 * longest, 3.0) * (1 + len(shown) // 12), 4.6))
    taus_values = profile.index.to_numpy(dtype=float)
    for model in shown:
        colour = colours[model]
        with matplotlib_options('plot("profile")', "Axes.plot", kwargs):
            ax.plot(taus_values, profile[model], color=colour, label=str(model), **kwargs)
        if banded:
            ax.fill_between(
                taus_values,
                frame["ci_low"][model],
                frame["ci_high"][model],
                color=colour,
                alpha=0.2,
                linewidth=0,
            )
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("normalised score τ")
    ax.set_ylabel("fraction of runs with score > τ")
    ax.grid(alpha=0.3)
    ax.legend(
        fontsize="small", ncols=1 + len(shown) // 12, loc="upper left", bbox_to_anchor=(1.01, 1)
    )
    bands = f", {info.ci:.0%} stratified bootstrap bands" if banded else ""
    if (frame.columns.nlevels == 2 and not banded) or left_out:
        note = ", ".join(x for x in (note, f"bands drawn for at most {BANDS_UP_TO} curves") if x)
    _figure_title(ax, title, f"Performance profiles{bands}", note)
    return ax


#: Curves a performance profile draws by default (``top=`` draws more), and bands up to.
PROFILE_TOP = 8
BANDS_UP_TO = 5
#: The default thresholds end at this quantile of the scores: beyond it the curves are flat.
PROFILE_QUANTILE = 0.99


def _profile_of_shown(frame, taus, ci, top, n_resamples, random_state):
    """The profile of the models drawn of a runs-over-tasks frame, with bands for few.

    Returns the profile, every model best first, and whether bands asked
    for were left out (too many curves).

    The order (best first by IQM) comes from every model; the thresholds and
    the stratified bootstrap from the models drawn, and only when their bands
    are drawn, so 60 agents take as long as their best eight.
    """
    order = list(performance_profile(frame).columns)  # best first by IQM
    shown, _ = top_models(order, PROFILE_TOP if top is None else top)
    picked = frame.loc[shown]
    if taus is None:  # the drawn models' scores, up to a high quantile: the tail is flat
        values = picked.to_numpy(dtype=float)
        values = values[np.isfinite(values)]
        low, high = float(values.min()), float(np.quantile(values, PROFILE_QUANTILE))
        taus = np.linspace(low, high if high > low else float(values.max()), 101)
    left_out = ci is not None and len(shown) > BANDS_UP_TO
    if ci is None or left_out:
        curves = performance_profile(picked, taus)
    else:
        curves = performance_profile(
            picked, taus, ci=ci, n_resamples=n_resamples, random_state=random_state
        )
    return curves, order, left_out


@_scores_kind("prob_improvement")
@_result_kind("prob_improvement")
def prob_improvement_plot(
    frame: pd.DataFrame,
    *,
    ax=None,
    top: int | None = None,
    title: str | None = None,
    n_resamples: int = 10000,
    random_state: int = 0,
    **kwargs: Any,
):
    """Each pair's probability of improvement P(model_1 > model_2) with its interval.

    Parameters
    ----------
    frame : pandas.DataFrame
        A result of ``prob_improvement``, or a runs-over-tasks frame (the best
        model by IQM against every other is computed first).
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the number of pairs.
    top : int, optional
        Draw the first ``top`` pairs; by default at most 20.
    title : str, optional
        Title; by default it names the interval.
    **kwargs
        Passed to the ``Axes.barh`` call that draws the intervals.

    Returns
    -------
    matplotlib.axes.Axes
        One row per pair ("model_1 vs model_2"), a bar from ``ci_low`` to
        ``ci_high`` in model_2's colour, a black tick at the estimate, and a
        dashed line at 0.5 (no improvement either way).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> from pdcompare.datasets import load_rl_runs
    >>> ax = prob_improvement_plot(load_rl_runs(), n_resamples=500)
    >>> [t.get_text() for t in ax.get_yticklabels()][0]
    'rainbow vs iqn'
    >>> plt.close("all")
    """
    if not _is_result(frame, "prob_improvement"):
        frame = prob_improvement(frame, n_resamples=n_resamples, random_state=random_state)
    info = result_info(frame)
    labels = [f"{a} vs {b}" for a, b in zip(frame["model_1"], frame["model_2"], strict=True)]
    shown, note = top_models(labels, top)
    note = note.replace("models", "pairs").replace("best ", "first ")
    n = len(shown)
    rows = frame.iloc[:n]
    colours = model_colours(list(info.models) or list(pd.unique(frame["model_2"])))
    colour_list = [colours.get(m, (0.4, 0.4, 0.4, 1.0)) for m in rows["model_2"]]
    ax = _axes(ax, figsize=row_figsize(n, max(map(len, shown))))
    heights = np.arange(n)[::-1].astype(float)
    low = rows["ci_low"].to_numpy(dtype=float)
    high = rows["ci_high"].to_numpy(dtype=float)
    options = {"height": 0.6, "color": [(*c[:3], 0.55) for c in colour_list], **kwargs}
    with matplotlib_options('plot("prob_improvement")', "Axes.barh", kwargs):
        ax.barh(heights, high - low, left=low, **options)
    estimate = rows["prob_improvement"].to_numpy(dtype=float)
    ax.vlines(estimate, heights - 0.3, heights + 0.3, colors="black", linewidth=1.5)
    ax.axvline(0.5, color="grey", linestyle="--", linewidth=1.0)
    ax.set_yticks(heights, labels=shown, fontsize=row_fontsize(ax, n))
    ax.set_ylim(-0.6, n - 0.4)
    ax.set_xlim(min(0.0, float(np.nanmin(low)) - 0.02), max(1.0, float(np.nanmax(high)) + 0.02))
    ax.grid(axis="x", alpha=0.3)
    ax.set_axisbelow(True)
    ax.set_xlabel("P(model_1 better than model_2), averaged over tasks")
    level = 0.95 if info.ci is None else info.ci
    _figure_title(
        ax, title, f"Probability of improvement\n{level:.0%} stratified bootstrap intervals", note
    )
    return ax

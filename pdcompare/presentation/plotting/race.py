"""The picture of a race: each candidate's running mean and interval per split, and its exit."""

from __future__ import annotations

from typing import Any

import numpy as np

from pdcompare.inputs.cv_results import names_from_params
from pdcompare.presentation.plotting._base import _axes, _figure_title, position_colour
from pdcompare.presentation.shown import top_models
from pdcompare.results import result_info
from pdcompare.stats._common import nadeau_bengio_variance, t_confidence_interval

#: Up to this many named candidates the intervals are bands; beyond, one bar at each line's end.
BANDS_UP_TO = 5


def is_race(search: Any) -> bool:
    """Whether ``search`` is a fitted race (``pdcompare.RaceSearchCV``; duck-typed)."""
    return hasattr(search, "race_") and hasattr(search, "cv_results_")


def race_paths(search: Any) -> dict[str, Any]:
    """What the picture draws: per candidate, the running mean and interval over its splits.

    Returns a dict with ``names`` (best first: the race's ranks), ``mean``,
    ``low`` and ``high`` (arrays of shape candidates × splits, NaN after a
    candidate's last split), ``dropped_at`` and ``min_splits``. The interval
    after ``k`` splits is the 95 % corrected t interval of the candidate's
    mean score (Nadeau–Bengio, ``k − 1`` degrees of freedom): what the race
    knows of it then.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from pdcompare.scale import RaceSearchCV
    >>> X, y = make_classification(n_samples=200, random_state=0)
    >>> race = RaceSearchCV(DecisionTreeClassifier(random_state=0),
    ...                     {"max_depth": [1, 4]}, cv=6).fit(X, y)
    >>> paths = race_paths(race)
    >>> paths["names"], paths["mean"].shape
    (['max_depth=1', 'max_depth=4'], (2, 6))
    """
    info = result_info(search.race_)
    metric = info.metric or "score"
    results = search.cv_results_
    n_splits = int(search.n_splits_)
    scores = np.column_stack([results[f"split{s}_test_{metric}"] for s in range(n_splits)])
    order = np.argsort(results[f"rank_test_{metric}"], kind="stable")
    names = names_from_params(list(results["params"]))
    k = np.arange(1, n_splits + 1)
    ran = np.isfinite(scores)
    total = np.cumsum(np.where(ran, scores, 0.0), axis=1)
    mean = np.where(ran, total / k, np.nan)
    square = np.cumsum(np.where(ran, scores**2, 0.0), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = np.maximum(square - k * mean**2, 0.0) / (k - 1)
        ratio = info.design.get("test_train_ratio") or 0.0
        se = np.sqrt(nadeau_bengio_variance(variance, k, ratio))
        low, high = t_confidence_interval(mean, se, k - 1, 0.95, "two-sided")
    low[:, 0] = high[:, 0] = np.nan  # one split: no interval
    return {
        "names": [names[j] for j in order],
        "mean": mean[order],
        "low": low[order],
        "high": high[order],
        "dropped_at": np.asarray(results["dropped_at"], dtype=float)[order],
        "min_splits": int(info.get("min_splits", 1)),
        "metric": metric,
    }


def plot_race(search: Any, *, ax=None, top: int | None = None, title: str | None = None):
    """Each candidate's running mean and interval per split, and a cross where it was dropped.

    Candidates best first (running ones by mean, then the dropped ones,
    latest first); the best ``top`` (default 20) are named in the legend, in
    the colours of every other picture, with their 95 % corrected intervals
    (bands up to 5 candidates; beyond, one bar at the split each line ends);
    beyond them the others are thin grey lines, and the title says so. A
    dotted line marks the first look (``min_splits``).

    Parameters
    ----------
    search : RaceSearchCV or RaceRandomizedSearchCV
        A fitted race.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure.
    top : int, optional
        How many candidates to name (default 20).
    title : str, optional
        Title of the Axes.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from pdcompare.scale import RaceSearchCV
    >>> X, y = make_classification(n_samples=600, n_informative=4, random_state=0)
    >>> race = RaceSearchCV(DecisionTreeClassifier(random_state=0),
    ...                     {"max_depth": [1, 2, 4, 8]}, cv=10).fit(X, y)
    >>> ax = plot_race(race)
    >>> ax.get_title()
    'A race of 4 candidates: running mean per split'
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    paths = race_paths(search)
    names = paths["names"]
    named, note = top_models(names, top)
    n_named = len(named)
    n_splits = paths["mean"].shape[1]
    ax = _axes(ax, (8.0 + (1.6 if n_named > 10 else 0.8), max(4.2, 1.2 + 0.2 * n_named)))
    x = np.arange(1, n_splits + 1)
    bands = n_named <= BANDS_UP_TO
    ends = np.where(np.isfinite(paths["dropped_at"]), paths["dropped_at"], n_splits).astype(int)
    handles = {}
    for position in range(len(names) - 1, -1, -1):  # the best drawn last, on top
        mean, low, high = (paths[key][position] for key in ("mean", "low", "high"))
        shown = position < n_named
        colour = position_colour(position) if shown else (0.6, 0.6, 0.6, 0.5)
        (line,) = ax.plot(
            x, mean, color=colour, lw=1.6 if shown else 0.7, zorder=3 if shown else 2
        )
        at = ends[position] - 1
        if shown:
            handles[position] = line
            if bands:
                ax.fill_between(x, low, high, color=colour, alpha=0.18, lw=0, zorder=1)
            else:  # many candidates: each interval once, at its last split, spread apart
                same = np.flatnonzero(ends[:n_named] == ends[position])
                shift = 0.3 * (np.searchsorted(same, position) / max(len(same) - 1, 1) - 0.5)
                shift = shift if len(same) > 1 else 0.0
                ax.errorbar(
                    x[at] + shift, mean[at], yerr=[[mean[at] - low[at]], [high[at] - mean[at]]],
                    color=colour, lw=1.0, capsize=2, zorder=3, fmt="none",
                )  # fmt: skip
        if np.isfinite(paths["dropped_at"][position]):
            ax.plot(
                x[at], mean[at], marker="x", ms=7 if shown else 4, mew=2 if shown else 1,
                color=colour, zorder=4, ls="none",
            )  # fmt: skip
    ax.axvline(paths["min_splits"], color="0.4", ls=":", lw=1, zorder=0)
    ax.annotate(
        "first look", xy=(paths["min_splits"], 1.0), xycoords=("data", "axes fraction"),
        xytext=(3, -3), textcoords="offset points", va="top", fontsize="small", color="0.3",
    )  # fmt: skip
    ax.set_xlim(0.7, n_splits + 0.3)
    ax.set_xticks(x)
    ax.set_xlabel("splits run (x: dropped)")
    metric = paths["metric"]
    ax.set_ylabel("running mean score" if metric == "score" else f"running mean {metric}")
    # Limits from every mean and the intervals from the first look on (two splits give
    # intervals too wide to read the race by).
    first = max(min(paths["min_splits"], n_splits) - 1, 0)
    values = np.concatenate(
        [paths["mean"].ravel(), *(paths[key][:n_named, first:].ravel() for key in ("low", "high"))]
    )
    values = values[np.isfinite(values)]
    if values.size:
        low, high = values.min(), values.max()
        pad = 0.05 * (high - low or 1.0)
        ax.set_ylim(low - pad, high + pad)
    ax.legend(
        [handles[p] for p in range(n_named)],
        named,
        loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small" if n_named <= 10 else 7,
        frameon=False, borderaxespad=0.0,
    )  # fmt: skip
    note = f"{note.replace(' models', ' candidates')}, the others grey" if note else ""
    _figure_title(ax, title, f"A race of {len(names)} candidates: running mean per split", note)
    return ax

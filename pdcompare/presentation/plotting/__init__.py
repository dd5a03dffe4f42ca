"""Plots of scores frames and result frames: Axes-level, matplotlib conventions.

Every function draws on ``ax`` (by default on a new figure sized to the
content, as ``DataFrame.plot`` does), returns the Axes, never calls
``plt.show()`` and changes no global style. Models are ordered best first,
each in one colour in every picture (``_base.model_colours``); beyond 20
models a picture shows the best 20 (``top=`` chooses) and says so. matplotlib is imported
only when a plot is drawn. Kinds register themselves in ``_base`` with
``_scores_kind`` (pictures of a scores frame, chosen by name) or
``_result_kind`` (the picture of a result frame, chosen by the test that made it).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare._validation import check_option
from pdcompare.compare.registry import BY_NAME
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.scores import converted_search
from pdcompare.presentation.plotting import (  # noqa: F401  (register kinds)
    aggregates,
    agreement,
    aso,
    auc,
    bayes,
    bootstrap,
    cd,
    confidence_set,
    effects,
    equivalence,
    forest,
    mcm,
    pareto,
    power,
    race,
    rank_sets,
    ratings,
    results,
    runs,
    scores,
    select,
    sequential,
    shrinkage,
)
from pdcompare.presentation.plotting._base import _RESULT_KINDS, _SCORES_KINDS
from pdcompare.presentation.plotting.bayes import draw_simplex
from pdcompare.presentation.plotting.results import forest_data, plot_matrix
from pdcompare.presentation.plotting.scores import folds_data
from pdcompare.presentation.shown import is_matrix
from pdcompare.results import result_info

__all__ = ["folds_data", "forest_data", "is_matrix", "plot"]


def plot(frame: pd.DataFrame, kind: str | None = None, *, ax=None, **options: Any):
    """Draw a picture of the frame and return the matplotlib ``Axes``.

    Parameters
    ----------
    frame : pandas.DataFrame
        A scores frame (or ``cv_results_`` frame, converted first), or a result frame.
    kind : str, optional
        On a scores frame, the picture to draw: "folds" (score per split per
        model), "corr" (correlation of models across splits), "intervals"
        (mean and interval per model), "posterior" (``a=``, ``b=``, ``rope=``),
        "pvalues" (pairwise matrix), "ranks" (each model's rank confidence
        set) or "pareto" (score against ``cost=``, the front joined). On a
        result frame, leave it out: the picture that suits the test is drawn
        (a one-pair ``hierarchical`` result draws its posterior in the
        triangle, "shrinkage" its data sets). ``pdcompare.plot`` also draws a
        fitted race (``pdcompare.RaceSearchCV`` in place of the frame): kind
        None or "race", each candidate's running mean and where it left.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure sized to the content (two calls
        give two figures).
    **options
        Options of the picture (see the functions of ``pdcompare.presentation.plotting``),
        among them ``top=``: the best ``top`` models (by mean score, or mean
        rank on a benchmark frame); by default at most 20. On a
        ``cv_results_`` frame also ``metric=``, ``names=`` and ``iteration=``
        (as in ``scores``).

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on. ``plt.show()`` is never called.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> ax = load_grid_search_scores().cmp.plot("intervals")
    >>> ax.get_title()
    'Mean score per model'
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")
    """
    if race.is_race(frame):  # a fitted RaceSearchCV: its race, split by split
        if kind not in (None, "race"):
            msg = f"`kind`: a fitted race draws kind=None or 'race'; got {kind!r}."
            raise ValueError(msg)
        return race.plot_race(frame, ax=ax, **options)
    if kind == "race":
        msg = (
            "`kind='race'` draws a fitted race: pass the `pdcompare.RaceSearchCV` (or "
            f"RaceRandomizedSearchCV) itself, not a {type(frame).__name__}."
        )
        raise TypeError(msg)
    if kind != "pareto":  # pareto reads its cost from a cv_results_ frame's own columns
        frame, options = converted_search(frame, options)
    if kind is None and is_matrix(frame):
        return plot_matrix(frame, ax=ax, **options)
    match frame_kind(frame):
        case FrameKind.RESULT:
            return _plot_result(frame, kind, ax, options)
        case FrameKind.ITEMS if kind is None:
            kind = "intervals"  # an items frame's picture: each model's clustered interval
    if kind is None:
        msg = f"`kind` is needed for a scores frame: one of {', '.join(map(repr, _SCORES_KINDS))}."
        raise ValueError(msg)
    check_option("kind", kind, tuple(_SCORES_KINDS))
    return _SCORES_KINDS[kind](frame, ax=ax, **options)


def _plot_result(frame: pd.DataFrame, kind: str | None, ax: Any, options: dict[str, Any]):
    """The picture that suits a result frame's test."""
    info = result_info(frame)
    test = info.test
    # One pair of a Bayesian test across data sets: its posterior in the triangle
    # (kind="shrinkage" draws a hierarchical result's data sets).
    samples_of = None
    if info.method == "signed_rank" and info.scope == "pair":
        from pdcompare.compare.signed_rank_bayes import simplex_samples as samples_of
    elif test == "hierarchical" and (kind == "simplex" or (kind is None and len(frame) == 1)):
        from pdcompare.compare.hierarchical import simplex_samples as samples_of
    if samples_of is not None:
        samples = samples_of(frame, options.pop("n_points", 3000))
        return draw_simplex(frame, samples, ax=ax, **options)
    all_pairs = info.unit == "dataset" and info.scope == "all_pairs"
    own_picture = test in BY_NAME and BY_NAME[test].own_picture
    if all_pairs and not own_picture and kind is None:
        return cd.plot_cd(frame, ax=ax, **options)
    if test == "hierarchical" and kind not in (None, "shrinkage"):
        msg = (
            f"`kind`: a hierarchical result draws kind=None, 'simplex' (one pair) or "
            f"'shrinkage'; got {kind!r}."
        )
        raise ValueError(msg)
    if kind is not None and kind in _SCORES_KINDS:
        msg = f"`kind`: {kind!r} draws a scores frame; a result frame draws with kind=None."
        raise ValueError(msg)
    if test not in _RESULT_KINDS:
        msg = f"No plot for results of {test!r}; plot the scores frame instead."
        raise ValueError(msg)
    return _RESULT_KINDS[test](frame, ax=ax, **options)

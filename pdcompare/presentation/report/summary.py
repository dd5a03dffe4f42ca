"""The report's first paragraph: the ranking, ties for best, the best model's interval."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pdcompare.presentation.labels import format_number as _number
from pdcompare.presentation.labels import (
    join_names,
    listed_name,
    plural,
    score_noun,
    spelling,
)
from pdcompare.presentation.report import items as item_words
from pdcompare.presentation.report.rows import Rows
from pdcompare.results import ResultInfo


def _tie_line(summary: Rows, benchmark: bool) -> list[str]:
    """A sentence when several models share the best mean (mean rank on a benchmark)."""
    column = "mean_rank" if benchmark else "mean"
    values = np.asarray(summary[column], dtype=float)
    # Means summed in different orders differ in the last bits; that is still a tie.
    tied = summary.index[np.isclose(values, values[0], rtol=1e-12, atol=0.0)]
    if len(tied) < 2:
        return []
    what = f"mean rank {values[0]:.2f}" if benchmark else f"mean score {_number(values[0])}"
    return [
        f"Tie for best: {join_names(tied, sentence=True)} share the best {what}; {tied[0]} "
        "stands for the best below."
    ]


def _bounds_line(info: ResultInfo, n_models: int) -> list[str]:
    """Once per report: the intervals of mean scores kept within the metric's range."""
    if info.bounds is None:
        return []
    low, high = info.bounds
    clipped = int(info.get("n_clipped", 0))
    reached = f"; {clipped} of the {n_models} intervals reached past it" if clipped else ""
    return [
        f"Intervals of mean scores are clipped to [{low:g}, {high:g}], the range of "
        f"{info.metric or 'the metric'}{reached}."
    ]


def _ranking_line(summary: Rows, top: int, benchmark: bool) -> str:
    names = summary.index[:top]
    if benchmark:
        ranks = summary["mean_rank"][:top]
        items = [
            f"{listed_name(name)} {rank:.2f}" for name, rank in zip(names, ranks, strict=True)
        ]
        head = "Mean ranks (1 = best on a data set), best first"
    else:
        means = summary["mean"][:top]
        items = [
            f"{listed_name(name)} {_number(mean)}" for name, mean in zip(names, means, strict=True)
        ]
        noun = score_noun(summary.info, "")  # pass@5 on a pass@k items frame
        head = f"{noun}, best first" if noun else "Mean scores, best first"
    rest = len(summary) - len(names)
    more = f"; and {plural(rest, 'other model', 'other models')}" if rest else ""
    return f"{head}: {'; '.join(items)}{more}."


def metric_lines(frame_info: ResultInfo) -> list[str]:
    """The metric compared, when the frame records it (``from_search`` of a multi-metric search).

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> metric_lines(info_from_meta({"metric": "f1_macro", "metric_source": "refit"}))
    ['Metric: f1_macro (the metric the search refits on).']
    >>> metric_lines(info_from_meta({}))
    []
    """
    metric = frame_info.metric
    if metric is None:
        return []
    how = {"refit": " (the metric the search refits on)", "metric": " (as asked)"}
    return [f"Metric: {metric}{how.get(frame_info.get('metric_source'), '')}."]


def _holes_words(info: ResultInfo, n_models: int) -> str:
    """What the data line adds for a benchmark with holes: the cells missing, what uses which."""
    holes = info.get("n_missing", 0)
    if not holes:
        return ""
    return (
        f" {holes} cells (model x data set) are missing: the mean ranks and scores below "
        f"use the {info.n_datasets or 0} data sets every model ran on; the test of all "
        "models and the rank sets use each model's own data sets."
    )


def summary_lines(
    summary: Rows,
    design: Mapping[str, Any],
    top: int,
    benchmark: bool,
    frame_info: ResultInfo | None = None,
) -> list[str]:
    """The ranking paragraph: the best model, its interval, ties and the design's words.

    ``frame_info``: the compared frame's metadata, whose ``metric`` (a
    multi-metric search's) is named after the data line.
    """
    info = summary.info
    n_models = len(summary)
    direction = "higher" if design.get("greater_is_better", True) else "lower"
    if benchmark:
        lines = [
            f"Data: {n_models} models x {info.n_datasets} data sets; {direction} "
            "scores are better. The data set is the unit: each model's scores are averaged "
            "within each data set first." + _holes_words(info, n_models)
        ]
    elif item_words.is_items_result(info):
        lines = [item_words.data_line(info, n_models, direction)]
    elif "n_runs" in summary:
        n_runs = np.asarray(summary["n_runs"], dtype=int)
        runs = f"{n_runs.min()} to {n_runs.max()}" if n_runs.min() < n_runs.max() else n_runs.max()
        lines = [
            f"Data: {n_models} models x {runs} runs each; {direction} scores are better. The runs "
            "are independent (random seeds, not shared splits): the tests are unpaired."
        ]
    else:
        n_splits = int(np.nanmax(np.asarray(summary["n_splits"], dtype=float)))
        lines = [f"Data: {n_models} models x {n_splits} CV splits; {direction} scores are better."]
    lines += metric_lines(frame_info) if frame_info is not None else []
    if design.get("test_train_ratio") is not None:
        lines.append(
            f"CV design: {spelling().design_source(design.get('source'))} (test/train size ratio "
            f"{design['test_train_ratio']:.4f})."
        )
    elif (
        not benchmark
        and "n_runs" not in summary
        and not item_words.is_items_result(info)
    ):
        lines.append("CV design: unknown.")
    best = summary.index[0]
    if benchmark:
        lines.append(
            f"Best model: {best}, mean rank {summary['mean_rank'][0]:.2f} over "
            f"{int(summary['n_datasets'][0])} data sets (best on {int(summary['n_best'][0])}), "
            f"mean score {_number(summary['mean'][0])}."
        )
    else:
        corrected = info.interval == "nadeau-bengio"
        level = 0.95 if info.ci is None else info.ci
        runs = info.unit == "run"
        kind = (
            item_words.interval_kind(info)
            if item_words.is_items_result(info)
            else "corrected"
            if corrected
            else "plain t, independent runs"
            if runs
            else "plain t, too narrow"
        )
        lines.append(
            f"Best model: {best}, {score_noun(info)} {_number(summary['mean'][0])} "
            f"({level:.0%} CI "
            f"{_number(summary['ci_low'][0])} to {_number(summary['ci_high'][0])}, {kind})."
        )
    lines += _bounds_line(info, n_models)
    lines += _tie_line(summary, benchmark)
    lines.append(_ranking_line(summary, top, benchmark))
    return lines

"""Any frame of scores as validated arrays: a scores, ``cv_results_`` or benchmark frame.

The one entry point of the comparisons into ``inputs/``: it recognises the
kind of frame and hands it to its reader (``scores.py``, ``cv_results.py``,
``benchmark.py``), which sit below it.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare.inputs.attrs import stored_attr
from pdcompare.inputs.benchmark import benchmark_data
from pdcompare.inputs.cv_results import cv_results_candidates, is_cv_results
from pdcompare.inputs.design import resolve_design
from pdcompare.inputs.kinds import is_benchmark
from pdcompare.inputs.scores import (
    SEARCH_KEYWORDS,
    ScoresData,
    check_score_values,
    refuse_search_keywords,
    validate_scores,
)


def scores_data(frame: pd.DataFrame, **keywords: Any) -> ScoresData:
    """Validate a scores (or ``cv_results_``) frame and resolve its design.

    A benchmark frame (columns named "dataset") gives its
    :class:`~pdcompare.inputs.benchmark.BenchmarkData`: per-data-set means,
    ordered by mean rank.

    ``keywords`` are the design keywords of the call (``cv``, ``test_size``,
    ``n_train``, ``n_test``, ``greater_is_better``); ``metric``, ``names`` and
    ``iteration`` select and name the candidates of a ``cv_results_`` frame.
    """
    search = {key: keywords.pop(key, None) for key in SEARCH_KEYWORDS}
    stored = stored_attr(frame, "design")
    if is_cv_results(frame):
        # Straight to arrays: the names are unique and the scores float by construction.
        found = cv_results_candidates(frame, **search)
        check_score_values(found.values, found.names, found.splits)
        design = resolve_design(stored, **keywords)
        return ScoresData(
            names=found.names, values=found.values, splits=found.splits, design=design
        )
    refuse_search_keywords(frame, search)
    if is_benchmark(frame):
        return benchmark_data(frame, **keywords)
    values = validate_scores(frame)
    design = resolve_design(stored, **keywords)
    return ScoresData(names=frame.index, values=values, splits=frame.columns, design=design)

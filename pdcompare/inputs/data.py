"""Any frame of scores as validated arrays: a scores, ``cv_results_`` or benchmark frame.

The one entry point of the comparisons into ``inputs/``: it recognises the
kind of frame and hands it to its reader (``scores.py``, ``cv_results.py``,
``benchmark.py``), which sit below it.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

import pandas as pd

from pdcompare.inputs.attrs import stored_attr
from pdcompare.inputs.benchmark import benchmark_data
from pdcompare.inputs.cv_results import cv_results_candidates
from pdcompare.inputs.design import resolve_design
from pdcompare.inputs.frames import check_frame
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.scores import (
    SEARCH_KEYWORDS,
    ScoresData,
    check_score_values,
    refuse_search_keywords,
    validate_scores,
    warn_negated_losses,
    warn_seed_columns,
)

#: Frames already validated within a :func:`validated_once` block, by (frame, keywords).
_VALIDATED: contextvars.ContextVar[dict | None] = contextvars.ContextVar(
    "pdcompare_validated", default=None
)


@contextlib.contextmanager
def validated_once() -> Iterator[None]:
    """Within the block, each frame is validated once per set of keywords.

    A report, or the command line, runs several comparisons on one frame; each
    comparison asks :func:`scores_data` for the frame's arrays, and inside this
    block they share the first answer (warnings about the frame included)
    instead of validating the same frame again. The arrays are never written
    to, so sharing them is safe; the cache ends with the block.
    """
    token = _VALIDATED.set({})
    try:
        yield
    finally:
        _VALIDATED.reset(token)


def _keyword_key(value: Any) -> Any:
    try:
        hash(value)
    except TypeError:  # a list of names, a dict: the object itself is the key
        return ("id", id(value))
    return value


def scores_data(frame: pd.DataFrame, **keywords: Any) -> ScoresData:
    """Validate a scores (or ``cv_results_``) frame and resolve its design.

    A benchmark frame (columns named "dataset") gives its
    :class:`~pdcompare.inputs.benchmark.BenchmarkData`: per-data-set means,
    ordered by mean rank.

    ``keywords`` are the design keywords of the call (``cv``, ``test_size``,
    ``n_train``, ``n_test``, ``greater_is_better``); ``metric``, ``names`` and
    ``iteration`` select and name the candidates of a ``cv_results_`` frame.
    Within :func:`validated_once`, a frame already validated with the same
    keywords is not validated again.
    """
    cache = _VALIDATED.get()
    if cache is None:
        data = _read(frame, **keywords)
    else:
        key = (id(frame), tuple(sorted((k, _keyword_key(v)) for k, v in keywords.items())))
        if key not in cache:
            # The frame is kept with its arrays, so that its id cannot be reused in the block.
            cache[key] = (frame, _read(frame, **keywords))
        data = cache[key][1]
    return data


def _read(frame: pd.DataFrame, **keywords: Any) -> ScoresData:
    check_frame(frame)
    if frame_kind(frame) is FrameKind.BATTLES:
        msg = (
            "This is a battles frame (wins of row over column, from `from_battles`), not "
            "scores: rate it with `bradley_terry()`, `win_probability()` or `pairwise()`, "
            "or read all of it with `battles.cmp.report()`."
        )
        raise ValueError(msg)
    search = {key: keywords.pop(key, None) for key in SEARCH_KEYWORDS}
    stored = stored_attr(frame, "design")
    if frame_kind(frame) is FrameKind.CV_RESULTS:
        # Straight to arrays: the names are unique and the scores float by construction.
        found = cv_results_candidates(frame, **search)
        check_score_values(found.values, found.names, found.splits)
        design = resolve_design(stored, **keywords)
        warn_negated_losses(found.values, design)
        return ScoresData(
            names=found.names, values=found.values, splits=found.splits, design=design
        )
    refuse_search_keywords(frame, search)
    if frame_kind(frame).has_datasets:
        data = benchmark_data(frame, **keywords)
        warn_negated_losses(data.values, data.design)
        return data
    values = validate_scores(frame)
    design = resolve_design(stored, **keywords)
    warn_negated_losses(values, design)
    warn_seed_columns(frame.columns, design)
    return ScoresData(names=frame.index, values=values, splits=frame.columns, design=design)

"""Which kind of frame this is, decided in one place (like scikit-learn's ``type_of_target``).

Every public function asks :func:`frame_kind` once per call (the registry's
check does it before the function runs, and the answer is kept for the rest
of the call), and every switchboard (``pairwise``, the report's analysis,
``plot``, the command line) matches on the :class:`FrameKind` it returns. The
kind is read from the frame's labels and its stored metadata only: no value
is validated here, so the readers of every kind sit above this module.
"""

from __future__ import annotations

import contextlib
import contextvars
import enum
from collections.abc import Iterator
from typing import Any

import pandas as pd

from pdcompare.inputs.attrs import ATTRS_KEY
from pdcompare.inputs.cv_results import is_cv_results
from pdcompare.inputs.frames import check_frame
from pdcompare.inputs.predictions import WeightedPredictions

#: Name of the column level (or flat column index) that marks a benchmark frame.
DATASET = "dataset"
#: ``attrs["pdcompare"]["kind"]`` of a battles frame (:func:`pdcompare.from_battles`).
BATTLES = "battles"


class FrameKind(str, enum.Enum):
    """The kinds of frame pdcompare reads; each member equals its name as a string.

    Examples
    --------
    >>> FrameKind.ITEMS == "items", FrameKind("task_runs") is FrameKind.TASK_RUNS
    (True, True)
    """

    #: Models x CV splits (DESIGN sections 2-4).
    SCORES = "scores"
    #: ``pd.DataFrame(search.cv_results_)``, read as a scores frame.
    CV_RESULTS = "cv_results"
    #: Models x data sets, or x (dataset, split) (section 9).
    BENCHMARK = "benchmark"
    #: Independent training runs: a scores frame whose design says ``paired=False`` (section 17).
    RUNS = "runs"
    #: Runs over tasks: a benchmark frame whose design says ``paired=False`` (section 23).
    TASK_RUNS = "task_runs"
    #: One row per test sample, a truth column and one column per model (section 5).
    PREDICTIONS = "predictions"
    #: Predictions in time order (section 16).
    FORECASTS = "forecasts"
    #: Models x questions of an evaluation (section 21).
    ITEMS = "items"
    #: Square counts of wins (section 24).
    BATTLES = "battles"
    #: A result frame of pdcompare (a test, a summary, a matrix).
    RESULT = "result"

    def __str__(self) -> str:
        return self.value

    @property
    def has_datasets(self) -> bool:
        """Whether the columns are data sets (or tasks): a benchmark frame, or runs over tasks."""
        return self in (FrameKind.BENCHMARK, FrameKind.TASK_RUNS)

    @property
    def words(self) -> str:
        """What the kind is, in a sentence ("a runs frame (independent runs over seeds)")."""
        return _WORDS[self]

    def reads_as(self, kind: FrameKind) -> bool:
        """Whether a frame of this kind is read where ``kind`` is taken.

        A ``cv_results_`` frame is read as the scores frame it converts to, and
        forecasts are predictions in time order.

        Examples
        --------
        >>> FrameKind.CV_RESULTS.reads_as(FrameKind.SCORES)
        True
        >>> FrameKind.SCORES.reads_as(FrameKind.CV_RESULTS)
        False
        """
        return self is kind or _READ_AS.get(self) is kind


_READ_AS = {FrameKind.CV_RESULTS: FrameKind.SCORES, FrameKind.FORECASTS: FrameKind.PREDICTIONS}

_WORDS = {
    FrameKind.SCORES: "a scores frame (models x CV splits)",
    FrameKind.CV_RESULTS: "a `cv_results_` frame of a search (read as models x CV splits)",
    FrameKind.BENCHMARK: "a benchmark frame (models x data sets)",
    FrameKind.RUNS: ("a runs frame (independent runs over seeds, its design says paired=False)"),
    FrameKind.TASK_RUNS: (
        "a runs-over-tasks frame ((task, run) columns, its design says paired=False)"
    ),
    FrameKind.PREDICTIONS: (
        "a predictions frame (one row per test sample, a truth column and one column per model)"
    ),
    FrameKind.FORECASTS: "a frame of forecasts (predictions in time order, a truth column)",
    FrameKind.ITEMS: "an items frame (models x questions of an evaluation)",
    FrameKind.BATTLES: "a battles frame (wins of row over column, from `from_battles`)",
    FrameKind.RESULT: "a result frame of pdcompare (a test's or a summary's result)",
}

#: The frame whose kind the current public call decided, and that kind.
_DECIDED: contextvars.ContextVar[tuple[pd.DataFrame, Any, FrameKind] | None] = (
    contextvars.ContextVar("pdcompare_frame_kind", default=None)
)


def accepts(kinds: tuple[FrameKind, ...], kind: FrameKind) -> bool:
    """Whether a function that takes ``kinds`` takes a frame of ``kind`` (see ``reads_as``).

    Examples
    --------
    >>> accepts((FrameKind.PREDICTIONS,), FrameKind.FORECASTS)
    True
    """
    return any(kind.reads_as(taken) for taken in kinds)


def _stored(frame: pd.DataFrame) -> dict[str, Any]:
    stored = frame.attrs.get(ATTRS_KEY)
    return stored if isinstance(stored, dict) else {}


def _design(frame: pd.DataFrame) -> dict[str, Any]:
    design = _stored(frame).get("design")
    return design if isinstance(design, dict) else {}


def is_benchmark(frame: pd.DataFrame) -> bool:
    """Whether ``frame``'s columns, or their first level, are named "dataset".

    Paired or not: :func:`frame_kind` tells a benchmark frame from runs over tasks.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame([[0.9, 0.8], [0.7, 0.75]], index=["a", "b"],
    ...                      columns=pd.Index(["iris", "wine"], name="dataset"))
    >>> is_benchmark(table), is_benchmark(table.rename_axis(columns=None))
    (True, False)
    """
    check_frame(frame)
    return frame.columns.names[0] == DATASET


def _is_square(frame: pd.DataFrame) -> bool:
    """The same models, named, in the same order, as rows and columns (and no stored design).

    A frame of default labels (0, 1, ... both ways) is numbers, not named models.
    """
    return (
        frame.shape[0] == frame.shape[1] > 1
        and frame.columns.nlevels == 1
        and not isinstance(frame.index, pd.RangeIndex)
        and not _design(frame)
        and frame.index.equals(frame.columns)
    )


def _is_time_ordered(frame: pd.DataFrame) -> bool:
    timed = isinstance(frame.index, pd.DatetimeIndex | pd.PeriodIndex)
    return timed or bool(_design(frame).get("time_ordered"))


def _decide(frame: pd.DataFrame, y: Any) -> FrameKind:
    stored = _stored(frame)
    if stored.get("kind") == BATTLES:
        return FrameKind.BATTLES
    if stored.get("kind") == "result":
        return FrameKind.RESULT
    if _is_square(frame):  # a hand-made table of wins: row i beat column j
        return FrameKind.BATTLES
    design = _design(frame)
    if design.get("items"):
        return FrameKind.ITEMS
    if is_cv_results(frame):
        return FrameKind.CV_RESULTS
    if is_benchmark(frame):
        paired = design.get("paired") is not False or frame.columns.nlevels != 2
        return FrameKind.BENCHMARK if paired else FrameKind.TASK_RUNS
    try:
        has_truth = frame.columns.nlevels == 1 and y in frame.columns
    except TypeError:  # an unhashable `y`: the reader of predictions names it
        has_truth = False
    if has_truth:
        return FrameKind.FORECASTS if _is_time_ordered(frame) else FrameKind.PREDICTIONS
    if design.get("paired") is False:
        return FrameKind.RUNS
    return FrameKind.SCORES


def frame_kind(frame: pd.DataFrame, y: Any = "y") -> FrameKind:
    """The kind of ``frame``, from its labels and ``attrs["pdcompare"]`` alone.

    Parameters
    ----------
    frame : pandas.DataFrame
        Any frame a public function takes.
    y : hashable, default "y"
        The truth column of a predictions frame: a frame with a column of that
        name (and flat columns) is a predictions frame, or forecasts when its
        index is dates or its design says ``time_ordered=True``.

    Returns
    -------
    FrameKind
        Battles and result frames by their stored kind (a square frame with the
        same labels as rows and columns is a table of wins too); then an items frame by
        its design; a ``cv_results_`` frame by its ``params`` and
        ``split<i>_test_<metric>`` columns; a benchmark frame by columns named
        "dataset" (runs over tasks when its design says ``paired=False``); a
        predictions frame by its truth column; a runs frame by a design saying
        ``paired=False``; else a scores frame. Within a public call the kind is
        decided once (:func:`deciding`) and read back here.

    Raises
    ------
    TypeError
        When ``frame`` is not a DataFrame.

    Examples
    --------
    >>> import pandas as pd
    >>> frame_kind(pd.DataFrame({"s0": [0.9, 0.8]}, index=["a", "b"]))
    <FrameKind.SCORES: 'scores'>
    >>> frame_kind(pd.DataFrame({"y": [0, 1], "a": [0, 1]}))
    <FrameKind.PREDICTIONS: 'predictions'>
    """
    decided = _DECIDED.get()
    if decided is not None and decided[0] is frame and decided[1] == y:
        return decided[2]
    if isinstance(frame, WeightedPredictions):  # a dask frame's distinct rows (pdcompare.dask)
        return FrameKind.PREDICTIONS
    check_frame(frame)
    return _decide(frame, y)


@contextlib.contextmanager
def deciding(frame: pd.DataFrame, y: Any = "y") -> Iterator[FrameKind]:
    """Decide ``frame``'s kind once for the block: :func:`frame_kind` reads it back inside.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"s0": [0.9, 0.8]}, index=["a", "b"])
    >>> with deciding(frame) as kind:
    ...     frame_kind(frame) is kind
    True
    """
    kind = frame_kind(frame, y)
    token = _DECIDED.set((frame, y, kind))
    try:
        yield kind
    finally:
        _DECIDED.reset(token)

"""Runs frames: models x independent runs (random seeds), built from a long table.

A runs frame is a scores frame whose design says ``paired=False``
(``attrs["pdcompare"]["design"]["paired"] is False``): its columns are runs,
and run k of one model has nothing to do with run k of another. Models may
have different numbers of runs; a NaN cell is a run that does not exist.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import OptionError, warn
from pdcompare.inputs.attrs import stored_attr, with_attrs
from pdcompare.inputs.design import Design, resolve_design
from pdcompare.inputs.kinds import DATASET, frame_kind
from pdcompare.inputs.long import numeric_scores, repeated_keys, require_columns
from pdcompare.inputs.scores import validate_scores


def runs_from_long(
    table: pd.DataFrame,
    *,
    model: Hashable,
    dataset: Hashable,
    split: Hashable | None,
    score: Hashable,
    greater_is_better: bool,
) -> pd.DataFrame:
    """The runs frame of a long table with one row per model and run (``from_long(paired=False)``).

    Columns are the distinct values of the ``split`` column (the seeds) in
    order of first appearance, named after that column; a model without a
    run for a seed has NaN there. The table holds one data set: a column
    named ``dataset`` is refused, since runs on several data sets are a
    benchmark, compared data set by data set.

    Examples
    --------
    >>> import pandas as pd
    >>> long = pd.DataFrame({"model": ["a", "a", "b"], "seed": [0, 1, 0],
    ...                      "score": [0.9, 0.8, 0.7]})
    >>> runs_from_long(long, model="model", dataset="dataset", split="seed", score="score",
    ...                greater_is_better=True)
    seed     0    1
    model
    a      0.9  0.8
    b      0.7  NaN
    """
    if not isinstance(table, pd.DataFrame):
        msg = f"`table` must be a pandas DataFrame; got {type(table).__name__}."
        raise TypeError(msg)
    if not isinstance(greater_is_better, bool | np.bool_):
        msg = f"`greater_is_better` must be True or False; got {greater_is_better!r}."
        raise TypeError(msg)
    if split is None:
        msg = (
            "`paired=False` builds a runs frame, one column per run: pass `split=` with the "
            "column that numbers the runs (the seed), for example `split='seed'`."
        )
        cli = (
            "--runs on a long file builds a runs frame, one column per run: pass --split-col "
            "with the column that numbers the runs (the seed), for example --split-col seed."
        )
        raise OptionError(msg, cli_message=cli)
    if dataset in table.columns:  # runs over tasks: columns (dataset, split)
        return task_runs_from_long(
            table,
            model=model,
            dataset=dataset,
            split=split,
            score=score,
            greater_is_better=greater_is_better,
        )
    require_columns(table, {"model": model, "split": split, "score": score})
    repeated, rows = repeated_keys(table, [model, split])
    if repeated:
        msg = (
            f"Each (model, run) must appear once; {repeated} rows share their "
            f"keys, for example {rows}. Give every run its own `{split}` value."
        )
        raise ValueError(msg)
    scores = numeric_scores(table, score)
    models = pd.Index(pd.unique(table[model]), name="model")
    runs = pd.Index(pd.unique(table[split]), name=split)
    values = np.full((len(models), len(runs)), np.nan)
    values[models.get_indexer(table[model]), runs.get_indexer(table[split])] = scores
    frame = pd.DataFrame(values, index=models, columns=runs)
    design = Design(greater_is_better=bool(greater_is_better), paired=False, source="runs")
    return with_attrs(frame, {"design": design.to_attrs()})


@dataclass(frozen=True)
class TaskRuns:
    """A validated runs-over-tasks frame as arrays.

    Attributes
    ----------
    names : pandas.Index
        Model names, in frame order.
    tasks : pandas.Index
        Task names (the ``dataset`` level), in order of first appearance.
    cube : numpy.ndarray
        Scores, shape (models, tasks, runs), NaN for an absent run.
    design : Design
        The resolved design (``paired`` is False).
    """

    names: pd.Index
    tasks: pd.Index
    cube: np.ndarray
    design: Design


def _not_task_runs(what: str) -> str:
    return (
        f"`{what}` compares runs over tasks: a benchmark frame with columns `(dataset, split)` "
        "(task, run) whose design says `paired=False`. Build one with "
        "`pdcompare.from_long(table, model=..., dataset='task', split='seed', score=..., "
        "paired=False)`, `pdcompare.from_rliable(score_dict)`, or "
        "`frame.cmp.set_design(paired=False)` on a `(dataset, split)` frame."
    )


def task_runs_data(frame: pd.DataFrame, what: str, **keywords: Any) -> TaskRuns:
    """Validate a runs-over-tasks frame for ``what`` (the function asking) and read its cube.

    A frame that is not a ``(dataset, split)`` benchmark frame, or whose design
    is paired, is a ValueError naming ``paired=False``; a model without runs on
    a task is a ValueError naming both; absent runs (NaN cells) are left out
    with a warning naming the models.

    Examples
    --------
    >>> import pandas as pd
    >>> long = pd.DataFrame({"model": ["a", "a", "b", "b"], "task": ["pong", "pong"] * 2,
    ...                      "seed": [0, 1, 0, 1], "score": [0.9, 0.8, 0.7, 0.6]})
    >>> frame = task_runs_from_long(long, model="model", dataset="task", split="seed",
    ...                             score="score", greater_is_better=True)
    >>> task_runs_data(frame, "aggregate").cube.shape
    (2, 1, 2)
    """
    if not (frame_kind(frame).has_datasets and frame.columns.nlevels == 2):
        msg = _not_task_runs(what)
        raise ValueError(msg)
    design = resolve_design(stored_attr(frame, "design"), **keywords)
    if design.paired:
        msg = (
            f"`{what}` resamples runs within tasks, and this benchmark frame is paired (its "
            "columns are CV splits shared by the models). If its columns are independent runs "
            "(seeds), mark them with `frame.cmp.set_design(paired=False)`, or build the frame "
            "with `from_long(..., paired=False)`."
        )
        raise ValueError(msg)
    values = validate_scores(frame)
    codes, tasks = pd.factorize(frame.columns.get_level_values(0))
    slots = pd.Series(codes).groupby(codes).cumcount().to_numpy()
    cube = np.full((len(frame.index), len(tasks), int(slots.max()) + 1), np.nan)
    cube[:, codes, slots] = values
    present = (~np.isnan(cube)).sum(axis=2)
    if (present == 0).any():
        rows, cols = np.nonzero(present == 0)
        cases = "; ".join(
            f"{frame.index[r]!r} on {tasks[c]!r}" for r, c in zip(rows[:5], cols[:5], strict=True)
        )
        more = f" and {len(rows) - 5} more" if len(rows) > 5 else ""
        msg = (
            f"`{what}` needs at least one run of every model on every task; no runs for "
            f"{cases}{more}. Drop those models or tasks, or add their runs."
        )
        raise ValueError(msg)
    # A model with fewer runs than another on every task is usual (rliable's dictionaries);
    # a model whose runs differ from task to task has lost some: said once.
    uneven = present.min(axis=1) < present.max(axis=1)
    if uneven.any():
        models = [str(name) for name in frame.index[uneven][:10]]
        warn(
            f"Model(s) {models} have different numbers of runs on different tasks: their NaN "
            "cells are taken as absent runs and left out (each model is resampled within "
            "each task over the runs it has there)."
        )
    return TaskRuns(
        names=frame.index, tasks=pd.Index(tasks, name=DATASET), cube=cube, design=design
    )


def task_runs_from_long(
    table: pd.DataFrame,
    *,
    model: Hashable,
    dataset: Hashable,
    split: Hashable,
    score: Hashable,
    greater_is_better: bool,
) -> pd.DataFrame:
    """The runs-over-tasks frame of a long table (``from_long(dataset=..., paired=False)``).

    Columns ``(dataset, split)``: tasks in order of first appearance, the runs
    (seeds) of each task in order of first appearance within it; a model
    without a given seed on a task has NaN there (an absent run).

    Examples
    --------
    >>> import pandas as pd
    >>> long = pd.DataFrame({"model": ["a", "a", "b"], "task": ["pong", "go", "pong"],
    ...                      "seed": [0, 0, 3], "score": [0.9, 0.8, 0.7]})
    >>> task_runs_from_long(long, model="model", dataset="task", split="seed",
    ...                     score="score", greater_is_better=True)
    dataset  pong       go
    split       0    3   0
    model
    a         0.9  NaN  0.8
    b         NaN  0.7  NaN
    """
    require_columns(table, {"model": model, "dataset": dataset, "split": split, "score": score})
    repeated, rows = repeated_keys(table, [model, dataset, split])
    if repeated:
        msg = (
            f"Each (model, task, run) must appear once; {repeated} rows share "
            f"their keys, for example {rows}. Give every run of a task its own `{split}` value."
        )
        raise ValueError(msg)
    scores = numeric_scores(table, score)
    models = pd.Index(pd.unique(table[model]), name="model")
    pairs = table[[dataset, split]].drop_duplicates()
    columns = pd.MultiIndex.from_frame(
        pairs.iloc[np.argsort(pd.factorize(pairs[dataset])[0], kind="stable")],
        names=[DATASET, "split"],
    )
    col_codes = columns.get_indexer(pd.MultiIndex.from_arrays([table[dataset], table[split]]))
    values = np.full((len(models), len(columns)), np.nan)
    values[models.get_indexer(table[model]), col_codes] = scores
    frame = pd.DataFrame(values, index=models, columns=columns)
    design = Design(greater_is_better=bool(greater_is_better), paired=False, source="runs")
    return with_attrs(frame, {"design": design.to_attrs()})

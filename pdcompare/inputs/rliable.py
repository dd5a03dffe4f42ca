"""rliable's score dictionaries: ``{algorithm: runs x tasks array}`` to and from frames."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.design import Design
from pdcompare.inputs.kinds import DATASET
from pdcompare.inputs.runs import task_runs_data


def from_rliable(
    score_dict: Mapping[Any, Any],
    *,
    tasks: Sequence[Any] | None = None,
    greater_is_better: bool = True,
) -> pd.DataFrame:
    """The runs-over-tasks frame of rliable's ``{algorithm: runs x tasks array}`` dictionary.

    Parameters
    ----------
    score_dict : mapping
        Algorithm name -> array of shape (runs, tasks), as rliable's
        ``get_interval_estimates`` takes it. Algorithms may have different
        numbers of runs; all have the same tasks, in the same order.
    tasks : sequence, optional
        The task names; default ``task_0, task_1, ...``.
    greater_is_better : bool, default True
        False for losses.

    Returns
    -------
    pandas.DataFrame
        Models as rows, columns ``(dataset, split)`` = (task, run), NaN where
        an algorithm has fewer runs than the most; design ``paired=False``.

    Examples
    --------
    >>> import numpy as np
    >>> frame = from_rliable({"dqn": np.array([[0.1, 0.5], [0.2, 0.4]]),
    ...                       "ppo": np.array([[0.3, 0.6]])})
    >>> frame
    dataset task_0      task_1
    split        0    1      0    1
    model
    dqn        0.1  0.2    0.5  0.4
    ppo        0.3  NaN    0.6  NaN
    """
    if not isinstance(score_dict, Mapping) or not score_dict:
        msg = (
            "`score_dict` must be a non-empty dict {algorithm: array of shape (runs, tasks)}, "
            f"as rliable takes it; got {type(score_dict).__name__}."
        )
        raise TypeError(msg)
    if not isinstance(greater_is_better, bool | np.bool_):
        msg = f"`greater_is_better` must be True or False; got {greater_is_better!r}."
        raise TypeError(msg)
    arrays = {}
    for name, scores in score_dict.items():
        array = np.asarray(scores)
        if array.ndim == 1:  # one task
            array = array[:, None]
        if array.ndim != 2 or array.dtype.kind not in "iuf" or array.size == 0:
            msg = (
                f"`score_dict[{name!r}]` must be a non-empty numeric array of shape "
                f"(runs, tasks); got shape {array.shape} of dtype {array.dtype}."
            )
            raise ValueError(msg)
        arrays[name] = array.astype(float)
    n_tasks = {array.shape[1] for array in arrays.values()}
    if len(n_tasks) > 1:
        shapes = ", ".join(f"{name!r}: {a.shape}" for name, a in arrays.items())
        msg = (
            "Every algorithm of `score_dict` needs the same tasks (columns); shapes "
            f"(runs, tasks) are {shapes}. If an array is (tasks, runs), transpose it."
        )
        raise ValueError(msg)
    width = n_tasks.pop()
    if tasks is None:
        tasks = [f"task_{k}" for k in range(width)]
    tasks = list(tasks)
    if len(tasks) != width or len(set(tasks)) != width:
        msg = f"`tasks` must name the {width} tasks once each; got {len(tasks)} names."
        raise ValueError(msg)
    runs = max(array.shape[0] for array in arrays.values())
    values = np.full((len(arrays), width, runs), np.nan)
    for k, array in enumerate(arrays.values()):
        values[k, :, : array.shape[0]] = array.T
    columns = pd.MultiIndex.from_product([tasks, range(runs)], names=[DATASET, "split"])
    frame = pd.DataFrame(
        values.reshape(len(arrays), -1),
        index=pd.Index(list(arrays), name="model"),
        columns=columns,
    )
    design = Design(greater_is_better=bool(greater_is_better), paired=False, source="runs")
    return with_attrs(frame, {"design": design.to_attrs()})


def to_rliable(frame: pd.DataFrame) -> dict[Any, np.ndarray]:
    """The rliable dictionary ``{algorithm: runs x tasks array}`` of a runs-over-tasks frame.

    Parameters
    ----------
    frame : pandas.DataFrame
        A runs-over-tasks frame (columns ``(dataset, split)``, design
        ``paired=False``).

    Returns
    -------
    dict
        Model name -> float array of shape (runs, tasks), tasks in the
        frame's order. rliable needs the same number of runs on every task
        of an algorithm: a model without is a ValueError naming it.

    Examples
    --------
    >>> import numpy as np
    >>> scores = {"dqn": np.array([[0.1, 0.5], [0.2, 0.4]]), "ppo": np.array([[0.3, 0.6]])}
    >>> back = to_rliable(from_rliable(scores))
    >>> back["ppo"].tolist(), back["dqn"].shape
    ([[0.3, 0.6]], (2, 2))
    """
    data = task_runs_data(frame, "to_rliable")
    present = ~np.isnan(data.cube)
    out = {}
    for k, name in enumerate(data.names):
        counts = present[k].sum(axis=1)
        if (counts != counts[0]).any():
            msg = (
                f"rliable needs the same number of runs on every task; model {name!r} has "
                f"{counts.min()} to {counts.max()}. Drop runs to the smallest number first."
            )
            raise ValueError(msg)
        order = np.argsort(~present[k], axis=1, kind="stable")[:, : counts[0]]
        out[name] = np.take_along_axis(data.cube[k], order, axis=1).T.copy()
    return out

"""Joining per-task items frames into one items frame with tasks (``concat_items``).

An evaluation suite is often read one task at a time (one ``from_items``,
``from_inspect`` or ``from_lm_eval`` call per task, each with its own
columns). :func:`concat_items` joins them side by side: the columns become a
``(task, item)`` MultiIndex, as ``from_items(..., task=)`` makes them, and
the designs are merged: the clusters of each task stay its own (a cluster
never spans two tasks), and the samples of each cell (counts and
within-item variances) are kept.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.items import ItemsData, _items_frame, items_data
from pdcompare.inputs.items_attempts import concat_estimand

__all__ = ["concat_items"]


def _named_frames(
    frames: Sequence[pd.DataFrame] | Mapping[Hashable, pd.DataFrame],
    keys: Sequence[Hashable] | None,
) -> tuple[list[Hashable], list[pd.DataFrame]]:
    """The tasks and their frames, from a mapping or from ``frames`` with ``keys``."""
    if isinstance(frames, Mapping):
        if keys is not None:
            msg = "`keys`: the tasks are the keys of the mapping `frames`; leave `keys` out."
            raise ValueError(msg)
        keys, frames = list(frames), list(frames.values())
    elif isinstance(frames, pd.DataFrame) or not isinstance(frames, Sequence):
        msg = (
            "`frames` must be a list of items frames (one per task) with `keys=` naming "
            f"the tasks, or a mapping task -> items frame; got {type(frames).__name__}"
        )
        raise TypeError(msg)
    frames = list(frames)
    if keys is None:
        msg = (
            "`keys`: name the task of each frame, `concat_items(frames, keys=['arc', "
            "'gsm8k'])` (or pass a mapping task -> frame)."
        )
        raise ValueError(msg)
    keys = list(keys)
    if len(keys) != len(frames) or len(frames) == 0:
        msg = f"`keys` must name one task per frame: {len(frames)} frames, {len(keys)} keys."
        raise ValueError(msg)
    repeated = pd.Index(keys)[pd.Index(keys).duplicated()]
    if len(repeated):
        msg = f"`keys`: task {repeated[0]!r} is named twice; every frame is its own task."
        raise ValueError(msg)
    return keys, frames


def _task_data(task: Hashable, frame: Any, models: pd.Index | None) -> ItemsData:
    """One task's items data, its rows in the order of ``models``."""
    if not isinstance(frame, pd.DataFrame):
        msg = f"task {task!r}: expected an items frame (a DataFrame); got {type(frame).__name__}"
        raise TypeError(msg)
    data = items_data(frame)
    if not data.design.items:
        msg = (
            f"task {task!r}: the frame is not an items frame; build it with "
            "`pdcompare.from_items` or mark it with `df.cmp.set_design(items=True)`."
        )
        raise ValueError(msg)
    if frame.columns.nlevels != 1:
        msg = (
            f"task {task!r}: the frame already has tasks (its columns are (task, item)); "
            "concat_items joins frames of one task each."
        )
        raise ValueError(msg)
    if models is None or frame.index.equals(models):
        return data
    if set(frame.index) != set(models) or not frame.index.is_unique:
        lacking = [m for m in models if m not in set(frame.index)]
        extra = [m for m in frame.index if m not in set(models)]
        msg = (
            f"task {task!r} has other models than the first task: lacking {lacking[:5]}, "
            f"more {extra[:5]}. A paired comparison needs every model on every task: "
            "select the common ones first, `frame.loc[models]`."
        )
        raise ValueError(msg)
    return items_data(frame.loc[models])


def concat_items(
    frames: Sequence[pd.DataFrame] | Mapping[Hashable, pd.DataFrame],
    *,
    keys: Sequence[Hashable] | None = None,
) -> pd.DataFrame:
    """Join per-task items frames into one items frame with tasks.

    Parameters
    ----------
    frames : list of DataFrame, or mapping task -> DataFrame
        Items frames (``from_items``, ``from_inspect``, ``from_lm_eval``,
        ``set_design(items=True)``), one per task, with the same models.
    keys : list, optional
        The task of each frame (required with a list; a mapping gives them).

    Returns
    -------
    pandas.DataFrame
        Items frame of the models (in the first frame's order) by
        ``(task, item)`` columns, as ``from_items(..., task=)`` makes them:
        the same item id in two tasks is two items. Its design merges the
        tasks': clusters stay within their task (an unclustered task's items
        are each their own cluster when another task has clusters), and the
        samples of each cell (counts, within-item variances) are kept (one
        sample per cell for a task without them).

    Raises
    ------
    ValueError
        Frames that are not items frames or already have tasks, models that
        differ between frames, tasks where higher is better and others where
        lower is, ``keys`` missing, repeated or of another length.

    See Also
    --------
    from_items : with ``task=``, the same frame from one long table.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> arc = pd.DataFrame([[1, 0, 1], [0, 0, 1]], index=["a", "b"], columns=[0, 1, 2])
    >>> gsm = pd.DataFrame([[1, 1], [1, 0]], index=["b", "a"], columns=[0, 1])
    >>> suite = pdcompare.concat_items(
    ...     [arc.cmp.set_design(items=True), gsm.cmp.set_design(items=True)],
    ...     keys=["arc", "gsm8k"],
    ... )
    >>> suite
    task  arc       gsm8k
    item    0  1  2     0  1
    a     1.0  0.0  1.0   1.0  0.0
    b     0.0  0.0  1.0   1.0  1.0
    >>> suite.cmp.ttest("a", "b")[["model_1", "model_2", "mean_diff", "n_items"]]
      model_1 model_2  mean_diff  n_items
    0       a       b        0.0        5
    """
    tasks, frames = _named_frames(frames, keys)
    first = _task_data(tasks[0], frames[0], None)
    models = frames[0].index
    parts = [first] + [
        _task_data(t, f, models) for t, f in zip(tasks[1:], frames[1:], strict=True)
    ]
    directions = {bool(part.design.greater_is_better) for part in parts}
    if len(directions) > 1:
        lower = [t for t, p in zip(tasks, parts, strict=True) if not p.design.greater_is_better]
        msg = (
            f"lower is better in task(s) {lower} but higher in the others; an items frame has "
            "one direction: negate the losses first, or compare the tasks separately."
        )
        raise ValueError(msg)
    values = np.hstack([part.values for part in parts])
    columns = pd.MultiIndex.from_arrays(
        [
            np.repeat(np.asarray(tasks, dtype=object), [part.n_items for part in parts]),
            np.concatenate([np.asarray(part.splits, dtype=object) for part in parts]),
        ],
        names=["task", parts[0].info.item_name if parts[0].info is not None else "item"],
    )
    cluster = labels = None
    if any(part.clustered for part in parts):
        offsets = np.cumsum([0] + [part.n_clusters for part in parts[:-1]])
        cluster = np.concatenate(
            [p.cluster + o for p, o in zip(parts, offsets, strict=True)]
        ).astype(np.int64)
        labels = pd.Index(
            [(t, c) for t, p in zip(tasks, parts, strict=True) for c in _cluster_labels(p)],
            tupleize_cols=False,
        )
    samples = within = None
    if any(part.samples is not None for part in parts):
        ones = [np.ones_like(p.values) if p.samples is None else p.samples for p in parts]
        nans = [
            np.full_like(p.values, np.nan) if p.within_var is None else p.within_var for p in parts
        ]
        samples, within = np.hstack(ones).astype(float), np.hstack(nans).astype(float)
    names = {part.info.cluster_name for part in parts if part.clustered}
    return _items_frame(
        values,
        models,
        columns,
        cluster=cluster,
        cluster_labels=labels,
        cluster_name=names.pop() if len(names) == 1 else ("cluster" if names else None),
        item_name=columns.names[1],
        task_name="task",
        samples=samples,
        within_var=within,
        greater_is_better=directions.pop(),
        estimand=concat_estimand(tasks, parts),  # pass@k, pass^k: the same for every task
    )


def _cluster_labels(part: ItemsData) -> list[Any]:
    """The label of each cluster code of one task (the item itself without clusters)."""
    if not part.clustered:
        return list(part.splits)
    stored = part.info.cluster_labels if part.info is not None else None
    present = np.unique(_stored_codes(part))
    if stored is None:
        return list(range(part.n_clusters))
    return [stored[k] for k in present]


def _stored_codes(part: ItemsData) -> np.ndarray:
    """The stored cluster codes of the items of one task, in the frame's order."""
    info = part.info
    positions = info.items.get_indexer_for(part.splits)
    return np.asarray(info.cluster)[positions]

"""How an items frame keeps what it knows beyond its means, and reads it back as arrays.

What the comparisons of an items frame (DESIGN section 21) need beyond the
per-item means (the cluster of each item, its task, the number of samples of
each cell and their variance within the item) is a dict of JSON-able lists in
``attrs["pdcompare"]["items"]``, so the frame survives ``to_parquet``; shared
(not copied) by the frames pandas derives; read back as an
:class:`ItemsDesign` aligned to the frame's labels (selecting models or items
keeps it right) and, with the validated scores, as :class:`ItemsData`. The
readers that build items frames are :mod:`pdcompare.inputs.items`
(``from_items``) and :mod:`pdcompare.inputs.items_set_design`
(``set_design(items=True)``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.attrs import ATTRS_KEY, shared, with_attrs
from pdcompare.inputs.design import Design
from pdcompare.inputs.frames import check_frame
from pdcompare.inputs.scores import ScoresData, validate_scores
from pdcompare.stats.attempts import estimand_label


@dataclass(frozen=True, eq=False)
class ItemsDesign:
    """What an items frame knows beyond its means, aligned to ``models`` x ``items``.

    Immutable (its arrays are read-only): the view of the lists stored in
    ``attrs["pdcompare"]["items"]``, built with the frame (and kept beside
    those lists, shared by pandas' copies) or read from them after a save.

    Attributes
    ----------
    models, items : pandas.Index
        The row and column labels the arrays are aligned to.
    cluster : numpy.ndarray or None
        Cluster code of each item (0 .. number of clusters − 1), None without clusters.
    cluster_labels : pandas.Index or None
        The cluster of each code.
    cluster_name, item_name, task_name : str or None
        The names of the columns they came from, for the words of a report.
    samples : numpy.ndarray or None
        Samples of each cell (models x items), None when every cell has one
        (a read-only broadcast of one number when every cell has as many).
    within_var : numpy.ndarray or None
        Variance (ddof 1) of each cell's samples (NaN where a cell has one);
        None when ``binomial``.
    binomial : bool
        Whether every sample was scored 0 or 1: a cell's variance is then
        ``samples / (samples - 1) * mean * (1 - mean)`` of the frame's own
        mean, computed where it is read (:func:`within_variance`) rather than
        stored beside it.
    estimand : str
        What each cell holds: ``"mean"`` (the mean of its samples), or the
        unbiased ``"pass@k"`` or ``"pass^k"`` of its attempts (DESIGN section 33).
    k : int or None
        The ``k`` of pass@k and pass^k.
    attempts : numpy.ndarray or None
        Attempts of each cell (models x items) behind a pass@k or pass^k;
        ``samples`` and ``within_var`` are then None (one estimate per cell).
    """

    models: pd.Index
    items: pd.Index
    cluster: np.ndarray | None = None
    cluster_labels: pd.Index | None = None
    cluster_name: Any = None
    item_name: Any = "item"
    task_name: Any = None
    samples: np.ndarray | None = None
    within_var: np.ndarray | None = None
    estimand: str = "mean"
    k: int | None = None
    attempts: np.ndarray | None = None
    binomial: bool = False

    def __deepcopy__(self, memo: dict) -> ItemsDesign:
        return self

    def __repr__(self) -> str:
        clusters = "" if self.cluster_labels is None else f", {len(self.cluster_labels)} clusters"
        return f"ItemsDesign({len(self.models)} models x {len(self.items)} items{clusters})"


def _read_only(array: np.ndarray | None) -> np.ndarray | None:
    if array is not None:
        array.flags.writeable = False
    return array


def _items_frame(
    values: np.ndarray,
    models: pd.Index,
    items: pd.Index,
    *,
    cluster: np.ndarray | None,
    cluster_labels: pd.Index | None,
    cluster_name: Any,
    item_name: Any,
    task_name: Any,
    samples: np.ndarray | None,
    within_var: np.ndarray | None,
    greater_is_better: bool,
    meta: dict[str, Any] | None = None,
    estimand: dict[str, Any] | None = None,
    binomial: bool = False,
    owned: bool = False,
) -> pd.DataFrame:
    """The items frame of ``values`` with its design in attrs.

    ``owned``: ``values`` is the caller's own new array, held without a copy;
    ``binomial``: see :class:`ItemsDesign`.
    """
    frame = pd.DataFrame(values, index=models, columns=items, copy=not owned)
    binomial = binomial and samples is not None and within_var is None
    samples, stored_samples = _samples(samples, values.shape)
    # pass@k / pass^k (inputs/items_attempts.py): the estimand, k, the attempts per cell
    # and the items left out; nothing is stored for the mean, so that frame is unchanged.
    estimand = estimand or {}
    stored = shared(
        {
            **estimand,
            "models": models,
            "items": items,
            "cluster": cluster,
            "cluster_labels": cluster_labels,
            "cluster_name": cluster_name,
            "item_name": item_name,
            "task_name": task_name,
            "samples": stored_samples,
            # NaN (a cell of one sample) as None: JSON has no NaN, and None compares equal
            "within_var": "binomial" if binomial else _without_nan(within_var),
        }
    )
    stored.view = ItemsDesign(
        models=models,
        items=items,
        cluster=_read_only(cluster),
        cluster_labels=cluster_labels,
        cluster_name=cluster_name,
        item_name=item_name,
        task_name=task_name,
        samples=_read_only(samples),
        within_var=_read_only(within_var),
        estimand=estimand.get("estimand", "mean"),
        k=estimand.get("k"),
        attempts=_read_only(estimand.get("attempts")),
        binomial=binomial,
    )
    design = Design(greater_is_better=bool(greater_is_better), source="items", items=True)
    return with_attrs(frame, {**(meta or {}), "design": design.to_attrs(), "items": stored})


def _without_nan(values: np.ndarray | None) -> np.ndarray | None:
    """NaN as None (JSON has no NaN); without a NaN the float array itself (no objects)."""
    if values is None or not np.isnan(values).any():
        return values
    return np.where(np.isnan(values), None, values)


def _samples(samples: np.ndarray | None, shape: tuple[int, ...]) -> tuple[Any, Any]:
    """The design's samples and their stored form: ``{"fill": n}`` when every cell has n.

    Otherwise the counts as ints where they are whole numbers (JSON's numbers all
    the same, and Python shares its small ints: a list of 10^7 counts holds 10^7
    pointers, not 10^7 new float objects).
    """
    if samples is None or not samples.size:
        return samples, samples
    first = float(samples.flat[0])
    if samples.min() == first == samples.max():  # every cell alike: one number, no array
        count = int(first) if first.is_integer() else first
        return np.broadcast_to(first, shape), {"fill": count}
    if np.array_equal(samples, np.round(samples)):
        return samples, samples.astype(np.int64)
    return samples, samples


def within_variance(
    info: ItemsDesign, values: np.ndarray, samples: np.ndarray | None, within: np.ndarray | None
) -> np.ndarray | None:
    """The within-item variances of a design's cells, aligned as ``values`` and ``samples``.

    ``within`` (the stored ones, aligned) as they are; of a ``binomial`` design
    (0/1 scores) computed from the cells' means (the frame's values).

    Examples
    --------
    >>> info = ItemsDesign(models=pd.Index(["a"]), items=pd.Index([0, 1]), binomial=True)
    >>> within_variance(info, np.array([[0.5, 1.0]]), np.array([[4.0, 1.0]]), None).tolist()
    [[0.3333333333333333, nan]]
    """
    if not info.binomial or samples is None:
        return within
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(samples > 1, samples / (samples - 1) * values * (1 - values), np.nan)


def _labels(labels: list) -> pd.Index:
    """An Index of stored labels; lists (a MultiIndex's tuples as stored) give a MultiIndex."""
    if labels and all(isinstance(label, list) for label in labels):
        return pd.MultiIndex.from_tuples([tuple(label) for label in labels])
    return pd.Index(labels)


def _stored_design(stored: Any, frame: pd.DataFrame) -> ItemsDesign:
    """The :class:`ItemsDesign` of ``attrs["pdcompare"]["items"]`` (lists, as JSON holds them).

    The one an items frame was built with, or (a frame read back from a file)
    one built from the lists; a frame without one is its own design.
    """
    view = getattr(stored, "view", None)
    if isinstance(view, ItemsDesign):
        return view
    if not isinstance(stored, Mapping) or "models" not in stored:
        return ItemsDesign(models=frame.index, items=frame.columns)

    shape = (len(stored["models"]), len(stored["items"]))

    def array(key: str, dtype: Any) -> np.ndarray | None:
        value = stored.get(key)
        if value is None or value == "binomial":
            return None
        if isinstance(value, Mapping):  # {"fill": n}: every cell alike
            return np.broadcast_to(np.asarray(value["fill"], dtype=dtype), shape)
        return _read_only(np.array(value, dtype=dtype))

    labels = stored.get("cluster_labels")
    return ItemsDesign(
        models=_labels(stored["models"]),
        items=_labels(stored["items"]),
        cluster=array("cluster", np.int64),
        cluster_labels=None if labels is None else _labels(labels),
        cluster_name=stored.get("cluster_name"),
        item_name=stored.get("item_name", "item"),
        task_name=stored.get("task_name"),
        samples=array("samples", float),
        within_var=array("within_var", float),
        estimand=stored.get("estimand", "mean"),
        k=stored.get("k"),
        attempts=array("attempts", np.int64),
        binomial=stored.get("within_var") == "binomial",
    )


@dataclass(frozen=True)
class ItemsData(ScoresData):
    """A validated items frame as arrays: the scores, and the clusters, tasks and samples.

    Attributes (beyond :class:`~pdcompare.inputs.scores.ScoresData`'s)
    ------------------------------------------------------------------
    cluster : numpy.ndarray
        Cluster code of each item; each item its own cluster when there are none.
    n_clusters : int
        The number of clusters (the number of items without clusters).
    clustered : bool
        Whether the frame has clusters.
    task : numpy.ndarray or None
        Task code of each item; ``tasks`` their labels.
    samples, within_var, attempts : numpy.ndarray or None
        As in :class:`ItemsDesign`, aligned to the frame.
    info : ItemsDesign
        The stored design (names of the columns).
    """

    cluster: np.ndarray | None = None
    n_clusters: int = 0
    clustered: bool = False
    task: np.ndarray | None = None
    tasks: pd.Index | None = None
    samples: np.ndarray | None = None
    within_var: np.ndarray | None = None
    info: ItemsDesign | None = None
    attempts: np.ndarray | None = None

    @property
    def n_items(self) -> int:
        """The number of items."""
        return int(self.values.shape[1])

    @property
    def samples_per_item(self) -> float | None:
        """The mean number of samples per cell (None with one sample each)."""
        return None if self.samples is None else float(self.samples.mean())

    def meta(self) -> dict[str, Any]:
        """What every result on items records: the unit and the counts of the design."""
        info = self.info
        return {
            "unit": "item",
            "n_items": self.n_items,
            "n_clusters": self.n_clusters,
            "clustered": self.clustered,
            "cluster_name": None if info is None else _plain(info.cluster_name),
            "item_name": None if info is None else _plain(info.item_name),
            "task_name": None if info is None else _plain(info.task_name),
            "n_tasks": None if self.tasks is None else len(self.tasks),
            "samples_per_item": self.samples_per_item,
            **self._counts(),
            **attempts_meta(info, self.attempts),
        }

    def _counts(self) -> dict[str, Any]:
        """The tasks' item counts and the fewest and most samples of a cell, for the words."""
        counts: dict[str, Any] = {}
        if self.tasks is not None:
            sizes = np.bincount(self.task, minlength=len(self.tasks))
            counts["task_sizes"] = [
                [_plain(t), int(n)] for t, n in zip(self.tasks, sizes, strict=True)
            ]
        if self.samples is not None and self.samples.size:
            counts["samples_range"] = [int(self.samples.min()), int(self.samples.max())]
        return counts


def attempts_meta(info: ItemsDesign | None, attempts: np.ndarray | None) -> dict[str, Any]:
    """What results of a pass@k or pass^k frame record (nothing for the mean).

    ``estimand`` (``"pass@k"``), ``k``, ``estimand_label`` (``"pass@5"``), the
    mean attempts per cell and their fewest and most (DESIGN section 33).
    """
    if info is None or info.estimand == "mean" or attempts is None or not attempts.size:
        return {}
    return {
        "estimand": info.estimand,
        "k": info.k,
        "estimand_label": estimand_label(info.estimand, info.k),
        "attempts_per_item": float(attempts.mean()),
        "attempts_range": [int(attempts.min()), int(attempts.max())],
    }


def _plain(value: Any) -> Any:
    return value if value is None or isinstance(value, str | int | float) else str(value)


def _aligned(array: np.ndarray | None, rows: np.ndarray, columns: np.ndarray | None):
    if array is None:
        return None
    if array.ndim == 1:
        return array if columns is None else array[columns]
    out = array[rows] if rows is not None else array
    return out if columns is None else out[:, columns]


def _positions(stored: pd.Index, current: pd.Index, what: str) -> np.ndarray | None:
    if stored is current or stored.equals(current):
        return None
    positions = stored.get_indexer_for(current) if stored.is_unique else np.array([-1])
    if (positions < 0).any() or len(positions) != len(current):
        msg = (
            f"The items frame's {what} are not those its design describes (they were changed "
            "after `from_items`); rebuild it with `from_items` or `set_design(items=True, ...)`."
        )
        raise ValueError(msg)
    return positions


def items_data(frame: pd.DataFrame) -> ItemsData:
    """Validate an items frame and return its arrays aligned to the frame's labels.

    Examples
    --------
    >>> import pandas as pd
    >>> wide = pd.DataFrame([[1, 0, 1], [0, 0, 1]], index=["a", "b"])
    >>> data = items_data(wide.cmp.set_design(items=True))
    >>> data.n_items, data.n_clusters, data.clustered
    (3, 3, False)
    """
    check_frame(frame)
    stored = frame.attrs.get(ATTRS_KEY, {})
    info = _stored_design(stored.get("items") if isinstance(stored, dict) else None, frame)
    design = Design.from_attrs(stored.get("design") if isinstance(stored, dict) else None)
    values = validate_scores(frame)
    if np.isnan(values).any():
        row = int(np.flatnonzero(np.isnan(values).any(axis=1))[0])
        msg = (
            f"Model {frame.index[row]!r} has missing item scores (NaN): items frames compare "
            "every model on the same items; keep the common ones with `df.dropna(axis=1)`."
        )
        raise ValueError(msg)
    rows = _positions(info.models, frame.index, "models")
    columns = _positions(info.items, frame.columns, "items")
    n = values.shape[1]
    samples = _aligned(info.samples, rows, columns)
    within = _aligned(info.within_var, rows, columns)
    cluster = _aligned(info.cluster, None, columns)
    clustered = cluster is not None
    if clustered:
        present, cluster = np.unique(cluster, return_inverse=True)
        n_clusters = len(present)
    else:
        cluster, n_clusters = np.arange(n), n
    task = tasks = None
    if frame.columns.nlevels == 2:
        task, tasks = pd.factorize(frame.columns.get_level_values(0))
    return ItemsData(
        names=frame.index,
        values=values,
        splits=frame.columns,
        design=design,
        cluster=cluster,
        n_clusters=int(n_clusters),
        clustered=clustered,
        task=task,
        tasks=None if tasks is None else pd.Index(tasks),
        samples=samples,
        within_var=within_variance(info, values, samples, within),
        info=info,
        attempts=_aligned(info.attempts, rows, columns),
    )

"""``set_design(items=True)``: a wide models x items frame as an items frame.

The wide-frame reader beside :func:`pdcompare.inputs.items.from_items` (the
long-table one): clusters and tasks mapped onto the columns, the samples an
items frame already knows kept (or refused rather than dropped), the human
labels of a labelled frame kept or set (:mod:`pdcompare.inputs.labels`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.inputs.attrs import pdcompare_attrs
from pdcompare.inputs.design import Design
from pdcompare.inputs.frames import check_frame
from pdcompare.inputs.items import _check_bool
from pdcompare.inputs.items_attempts import (
    kept_estimand,
)
from pdcompare.inputs.items_design import (
    _aligned,
    _items_frame,
    _positions,
    _stored_design,
)
from pdcompare.inputs.labels import kept_labels, set_labels
from pdcompare.inputs.scores import validate_scores

__all__ = ["set_items_design"]


def set_items_design(
    frame: pd.DataFrame,
    *,
    cluster: Mapping | pd.Series | None = None,
    task: Mapping | pd.Series | None = None,
    greater_is_better: bool | None = None,
    human: pd.DataFrame | None = None,
    label_design: str = "random",
    strata: Mapping | pd.Series | None = None,
) -> pd.DataFrame:
    """A wide models x items frame as an items frame (``set_design(items=True)``).

    ``cluster`` and ``task`` map each item (column label) to its cluster or
    task. With ``task`` the columns become a ``(task, item)`` MultiIndex; a
    frame whose columns already are a two-level MultiIndex keeps its first
    level as the task. Values must be numeric, one row per model. On an
    items frame that knows the samples of its items (``from_items(...,
    sample=)``), their counts and within-item variances are kept; where its
    labels no longer match them, it is refused rather than drop them.
    ``human`` (models x items, NaN where an item is not labelled),
    ``label_design`` and ``strata`` make a labelled items frame
    (:func:`pdcompare.inputs.labels.set_labels`); a labelled frame keeps its
    labels when ``set_design(items=True, ...)`` is called on it again.

    Examples
    --------
    >>> import pandas as pd
    >>> from pdcompare.inputs.items import items_data
    >>> wide = pd.DataFrame([[1, 0, 1, 1], [0, 0, 1, 0]], index=["a", "b"],
    ...                     columns=["q1", "q2", "q3", "q4"])
    >>> framed = set_items_design(wide, cluster={"q1": "p1", "q2": "p1", "q3": "p2", "q4": "p2"})
    >>> items_data(framed).n_clusters
    2
    """
    check_frame(frame)
    kept = kept_labels(frame) if human is None else None
    if kept is not None and task is not None:
        msg = (
            "`task=` relabels the items as (task, item), so this labelled frame's human labels "
            "would no longer match them: pass `human=` again (models x (task, item) columns), "
            "or set the tasks in `from_items(..., task=, human=)`."
        )
        raise ValueError(msg)
    framed = _set_items_design(
        frame, cluster=cluster, task=task, greater_is_better=greater_is_better
    )
    if human is None and kept is not None:  # a labelled frame keeps its labels
        human, label_design, strata = kept
    if human is None and (strata is not None or label_design != "random"):
        msg = "`label_design` and `strata` describe human labels: pass `human=` with them."
        raise ValueError(msg)
    return framed if human is None else set_labels(framed, human, label_design, strata)


def _set_items_design(
    frame: pd.DataFrame,
    *,
    cluster: Mapping | pd.Series | None,
    task: Mapping | pd.Series | None,
    greater_is_better: bool | None,
) -> pd.DataFrame:
    """``set_items_design`` without labels."""
    meta = pdcompare_attrs(frame)
    stored_items = meta.pop("items", None)
    samples, within_var, binomial = _kept_samples(frame, stored_items)
    estimand = kept_estimand(frame, stored_items)  # pass@k, pass^k: kept as they are
    stored = Design.from_attrs(meta.get("design"))
    gib = stored.greater_is_better if greater_is_better is None else greater_is_better
    gib = _check_bool("greater_is_better", gib)
    wide = frame
    if task is not None:
        if frame.columns.nlevels != 1:
            msg = (
                "`task`: the columns are already a MultiIndex; pass `task=` with plain item "
                "columns."
            )
            raise ValueError(msg)
        tasks = _mapped(frame.columns, task, "task")
        wide = frame.copy()
        wide.columns = pd.MultiIndex.from_arrays(
            [tasks, frame.columns], names=["task", frame.columns.name or "item"]
        )
    elif frame.columns.nlevels > 2:
        msg = (
            f"Items frames have one column level (items) or two (task, item); this frame has "
            f"{frame.columns.nlevels}."
        )
        raise ValueError(msg)
    values = validate_scores(wide)
    if np.isnan(values).any():
        rows = np.flatnonzero(np.isnan(values).any(axis=1))
        shown = "; ".join(
            f"{wide.index[k]!r} lacks {int(np.isnan(values[k]).sum())} of {values.shape[1]} items"
            for k in rows[:5]
        )
        msg = (
            f"Items are missing (NaN) for some models: {shown}. A paired comparison needs every "
            "model scored on the same items: keep the items every model has, "
            "`df.dropna(axis=1)`."
        )
        raise ValueError(msg)
    cluster_codes = cluster_labels = None
    if cluster is not None:
        clusters = _mapped(wide.columns, cluster, "cluster")
        cluster_codes, cluster_labels = pd.factorize(clusters)
        if len(cluster_labels) < 2:
            msg = (
                f"`cluster`: every item is in one cluster ({cluster_labels[0]!r}), so a "
                "clustered standard error has 0 degrees of freedom; leave out `cluster=`."
            )
            raise ValueError(msg)
        cluster_codes = cluster_codes.astype(np.int64)
    names = wide.columns.names
    return _items_frame(
        values,
        wide.index,
        wide.columns,
        cluster=cluster_codes,
        cluster_labels=None if cluster_labels is None else pd.Index(cluster_labels),
        cluster_name=getattr(cluster, "name", None)
        or ("cluster" if cluster is not None else None),
        item_name=names[-1] or "item",
        task_name=names[0] if len(names) == 2 else None,
        samples=samples,
        within_var=within_var,
        greater_is_better=gib,
        meta={key: value for key, value in meta.items() if key != "design"},
        estimand=estimand,
        binomial=binomial,
    )


def _kept_samples(frame: pd.DataFrame, stored: Any) -> tuple[Any, Any, bool]:
    """The sample counts and within-item variances an items frame knows, aligned to it.

    ``set_design(items=True, ...)`` on an items frame keeps them (and whether
    they are ``binomial``, computed from the means); where they no longer
    match the frame's labels it refuses rather than drop them.
    """
    if stored is None:
        return None, None, False
    stored = _stored_design(stored, frame)
    if stored.samples is None:
        return None, None, False
    try:
        rows = _positions(stored.models, frame.index, "models")
        columns = _positions(stored.items, frame.columns, "items")
    except ValueError:
        msg = (
            "This items frame knows the samples of its items (their counts and within-item "
            "variances), but its labels were changed since, so they no longer match and "
            "`set_design` would drop them (and with them `within_item_share` and "
            "`power(n_samples=)`). Rebuild it with `pdcompare.from_items(..., sample=, "
            "cluster=)`, or drop the samples on purpose with `frame.attrs.clear()` first."
        )
        raise ValueError(msg) from None
    samples, within = (
        _aligned(stored.samples, rows, columns),
        _aligned(stored.within_var, rows, columns),
    )
    return samples, within, stored.binomial


def _mapped(columns: pd.Index, mapping: Any, keyword: str) -> np.ndarray:
    """The value of ``mapping`` (dict or Series, item -> cluster/task) for each column."""
    if not isinstance(mapping, Mapping | pd.Series):
        msg = (
            f"`{keyword}` must be a mapping or Series from item (column label) to its "
            f"{keyword}; got {type(mapping).__name__}."
        )
        raise TypeError(msg)
    series = mapping if isinstance(mapping, pd.Series) else pd.Series(dict(mapping), dtype=object)
    labels = columns
    if columns.nlevels == 2 and not series.index.isin(columns).any():
        labels = columns.get_level_values(-1)  # keyed by the bare item
    found = series.reindex(labels)
    if found.isna().any():
        absent = [labels[k] for k in np.flatnonzero(found.isna().to_numpy())[:5]]
        msg = (
            f"`{keyword}`: no {keyword} for item(s) {absent}"
            f"{' and more' if found.isna().sum() > 5 else ''}; give every column its {keyword}."
        )
        raise ValueError(msg)
    return found.to_numpy()

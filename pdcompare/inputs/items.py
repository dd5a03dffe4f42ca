"""Items frames: models x items (questions of an evaluation), from a long table or a wide frame.

An items frame (DESIGN section 21) has one row per model and one column per
item, each cell the model's score on that item (the mean over its samples when
the model answered it several times). Its design says ``items=True``; what
the comparisons need beyond the means (the cluster of each item, its task,
the number of samples of each cell and their variance within the item) is an
dict of JSON-able lists in ``attrs["pdcompare"]["items"]`` (so the frame
survives ``to_parquet``), shared (not copied) by the frames pandas derives,
read as an :class:`ItemsDesign` aligned to the frame's labels, so selecting
models or items keeps it right. With ``estimand="pass@k"`` or ``"pass^k"``
(DESIGN section 33) each cell is instead the unbiased estimate of the
model's 0/1 attempts of the item (:mod:`pdcompare.inputs.items_attempts`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_option, warn
from pdcompare.inputs.arrow import CodedCells, coded_cells, in_order, is_native, item_cells
from pdcompare.inputs.items_attempts import (
    check_binary,
    check_binary_cells,
    check_estimand,
    estimand_values,
)
from pdcompare.inputs.items_design import (
    ItemsData,
    ItemsDesign,
    _items_frame,
    items_data,
)
from pdcompare.inputs.labels import judged_items
from pdcompare.inputs.long import require_columns
from pdcompare.inputs.polars_stream import DenseCells, streamed_cells, streams

__all__ = ["ITEMS_NAN_POLICIES", "ItemsData", "ItemsDesign", "from_items", "items_data"]

#: ``nan_policy`` of ``from_items``: refuse missing items, or keep the items every model has.
ITEMS_NAN_POLICIES = ("raise", "omit")


def _check_bool(name: str, value: Any) -> bool:
    if not isinstance(value, bool | np.bool_):
        msg = f"`{name}` must be True or False; got {value!r}."
        raise TypeError(msg)
    return bool(value)


def _numeric_scores(values: pd.Series, column: Any) -> np.ndarray:
    """The score column as float64 (booleans as 0/1); text is refused."""
    if pd.api.types.is_bool_dtype(values.dtype):
        return values.to_numpy(dtype=float, na_value=np.nan)
    converted = pd.to_numeric(values, errors="coerce")
    bad = converted.isna() & values.notna()
    if bad.any():
        first = values[bad].iloc[0]
        msg = (
            f"`score`: column {column!r} must hold numbers (0/1 correctness or a graded score); "
            f"it has {first!r}. Convert it first, for example "
            f"`table[{column!r}].map({{'C': 1, 'I': 0}})`."
        )
        raise TypeError(msg)
    return converted.to_numpy(dtype=float, na_value=np.nan)


def from_items(
    table: Any,
    *,
    model: Hashable = "model",
    item: Hashable = "item",
    score: Hashable = "score",
    sample: Hashable | None = None,
    cluster: Hashable | None = None,
    task: Hashable | None = None,
    greater_is_better: bool = True,
    nan_policy: str = "raise",
    estimand: str = "mean",
    k: int | None = None,
    human: Hashable | None = None,
    label_design: str = "random",
    strata: Any = None,
) -> pd.DataFrame:
    """The items frame of a long table: one row per model, one column per item.

    Parameters
    ----------
    table : pandas, dask, polars (eager or lazy) or pyarrow table, or DuckDB relation
        One row per model and item (or per model, item and sample when
        ``sample=`` is given). A dask DataFrame is reduced by dask's own
        group-by to per-cell means, counts and variances, so its rows never
        need to fit in memory (``pdcompare[dask]``); a polars, pyarrow or
        DuckDB table likewise inside its engine, through narwhals
        (``pdcompare[arrow]``), its models and items then sorted.
    model, item, score : column name, default "model", "item", "score"
        The columns naming the model, the item (question, task instance) and
        its score (0/1 correctness, booleans, or a graded score).
    sample : column name, optional
        The column numbering repeated samples (epochs) of one item. Without
        it, an item twice for one model is refused.
    cluster : column name, optional
        The cluster of each item (passage, repository, ...): standard errors
        are then clustered. It must be the same for every row of an item.
    task : column name, optional
        The task of a suite: columns become a ``(task, item)`` MultiIndex and
        items are keyed by (task, item).
    greater_is_better : bool, default True
        False for losses.
    nan_policy : {"raise", "omit"}, default "raise"
        Rows without a score (NaN) and items missing for some model: an
        error naming the count and the first model and item (or the models
        and counts), or leave out those rows and keep only the items every
        model has (with a warning naming them). With ``estimand="pass@k"``
        or ``"pass^k"``, also items where some model has fewer than ``k``
        attempts: refused naming the model, item and counts, or left out
        (counted in a warning and in ``attrs``).
    estimand : {"mean", "pass@k", "pass^k"}, default "mean"
        What each cell holds: the mean of its samples, or, from 0/1 attempts
        (the samples), the unbiased pass@k (solved at least once in ``k``
        tries; Chen et al. 2021) or pass^k (solved every time in ``k`` tries;
        τ-bench) of the item (DESIGN section 33). Every items test then
        compares the estimand across items, clustered as with means.
    k : int, optional
        The ``k`` of pass@k and pass^k; required with them, at most the
        attempts of a cell.
    human : column name, optional
        The people's label of the row (same scale as ``score``; NaN on the
        rows nobody labelled): ``score`` is then a judge's and the frame a
        *labelled* items frame (DESIGN section 31), whose comparisons take
        ``estimator=`` ("ppi++" by default). An item is labelled for every
        model or for none. Read from pandas and dask tables.
    label_design : {"random", "stratified", "class_balanced"}, default "random"
        How the labelled items were chosen: a uniform random subset; at
        known rates per stratum (``strata=``); or balanced between human
        pass and fail (binary scores only; read by the Rogan–Gladen
        correction, ``estimator="rogan_gladen"``).
    strata : column name, mapping or Series, optional
        Each item's stratum, with ``label_design="stratified"``; each
        stratum is weighted by its share of the items.

    Returns
    -------
    pandas.DataFrame
        Models x items, each cell the mean score of the model's samples of the
        item (or its pass@k or pass^k); the design (``items=True``) and the
        clusters, tasks, sample counts and within-item variances (or the
        estimand, ``k`` and the attempts of each cell) in ``attrs["pdcompare"]``.

    Notes
    -----
    With ``nan_policy="omit"`` rows with a missing score are left out (a
    cell with none is a missing item). The within-item variance of a cell
    has ddof 1 and is NaN for a cell with one sample.

    Examples
    --------
    >>> import pandas as pd
    >>> long = pd.DataFrame({
    ...     "model": ["a"] * 4 + ["b"] * 4,
    ...     "item": ["q1", "q1", "q2", "q2"] * 2,
    ...     "epoch": [0, 1] * 4,
    ...     "score": [1, 0, 1, 1, 0, 0, 1, 0],
    ... })
    >>> from_items(long, sample="epoch")
    item    q1   q2
    model
    a      0.5  1.0
    b      0.0  0.5

    pass@2 of the two attempts of each item:

    >>> from_items(long, sample="epoch", estimand="pass@k", k=2)
    item    q1   q2
    model
    a      1.0  1.0
    b      0.0  1.0

    A judge's scores with people's labels on some items (NaN elsewhere):

    >>> judged = pd.DataFrame({
    ...     "model": ["a"] * 3 + ["b"] * 3, "item": ["q1", "q2", "q3"] * 2,
    ...     "judge": [1, 1, 0, 1, 0, 0], "human": [1, 0, None, 1, 0, None],
    ... })
    >>> from pdcompare.inputs.labels import labelled_cells
    >>> labelled_cells(from_items(judged, score="judge", human="human")).human
    array([[1., 0.],
           [1., 0.]])
    """
    if human is not None or strata is not None or label_design != "random":
        return judged_items(dict(locals()), build=from_items)  # the labels: inputs/labels.py
    greater_is_better = _check_bool("greater_is_better", greater_is_better)
    check_option("nan_policy", nan_policy, ITEMS_NAN_POLICIES)
    estimand, k = check_estimand(estimand, k)
    attempts = {"estimand": estimand, "k": k}
    keys = {"model": model, "item": item, "score": score, "sample": sample}
    keys.update(cluster=cluster, task=task)
    options = {"greater_is_better": greater_is_better, "nan_policy": nan_policy, **attempts}
    if type(table).__module__.startswith("dask"):
        return _from_dask(table, **keys, **options)
    if is_native(table):  # polars, pyarrow, DuckDB: reduced in their engine (inputs/arrow.py)
        return _from_engine(table, keys, options)
    if not isinstance(table, pd.DataFrame):
        msg = (
            "`table` must be a pandas, dask, polars or pyarrow table (or a DuckDB relation); "
            f"got {type(table).__name__}."
        )
        raise TypeError(msg)
    require_columns(table, keys)
    scores = _numeric_scores(table[score], score)
    keep = ~np.isnan(scores)
    model_codes, models = pd.factorize(table[model], use_na_sentinel=True)
    item_codes, items, _, _ = _item_keys(table, item, task)
    keep &= (model_codes >= 0) & (item_codes >= 0)
    missing_score = np.flatnonzero(np.isnan(scores) & (model_codes >= 0) & (item_codes >= 0))
    if missing_score.size:
        first = missing_score[0]
        _missing_scores(
            missing_score.size,
            models[model_codes[first]],
            _label(items, item_codes[first]),
            score,
            nan_policy,
        )
    if not keep.all():
        scores, model_codes, item_codes = scores[keep], model_codes[keep], item_codes[keep]
    if estimand != "mean":  # attempts are 0/1 (inputs/items_attempts.py)
        check_binary(scores, score, estimand, (models, model_codes), (items, item_codes))
    if not keep.any():
        msg = (
            f"The table has no row with a model, an item and a score (columns {model!r}, "
            f"{item!r}, {score!r}): {len(keep)} rows, none complete."
        )
        raise ValueError(msg)
    m, n = len(models), len(items)
    cell = model_codes.astype(np.int64) * n + item_codes
    counts = np.bincount(cell, minlength=m * n).reshape(m, n)
    if sample is None and (counts > 1).any():
        where = np.argwhere(counts > 1)[0]
        msg = (
            f"Model {_label(models, where[0])!r} has {int(counts[where[0], where[1]])} rows "
            "for item "
            f"{_label(items, where[1])!r} ({int((counts > 1).sum())} repeated model-item cells). "
            "Repeated rows of one item are samples (epochs) of it: pass `sample=` with the "
            "column that numbers them, so that the item's mean is its score."
        )
        raise ValueError(msg)
    sums = np.bincount(cell, weights=scores, minlength=m * n).reshape(m, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = sums / counts
    within = None
    if sample is not None and counts.max() > 1:
        deviations = scores - means.ravel()[cell]
        squares = np.bincount(cell, weights=deviations * deviations, minlength=m * n)
        with np.errstate(invalid="ignore", divide="ignore"):
            within = np.where(counts > 1, squares.reshape(m, n) / (counts - 1), np.nan)
    cluster_codes, cluster_labels = _item_clusters(table, cluster, keep, item_codes, items)
    return _finish(
        means,
        counts,
        within,
        models=pd.Index(models, name=model),
        items=items,
        cluster_codes=cluster_codes,
        cluster_labels=cluster_labels,
        names={"cluster": cluster, "item": item, "task": task},
        greater_is_better=greater_is_better,
        nan_policy=nan_policy,
        several_samples=sample is not None,
        attempts={**attempts, "sample": sample},
    )


def _item_clusters(
    table: pd.DataFrame, cluster: Any, keep: np.ndarray, item_codes: np.ndarray, items: pd.Index
) -> tuple[np.ndarray | None, pd.Index | None]:
    """The cluster code of each item and the clusters' labels (None, None without clusters)."""
    if cluster is None:
        return None, None
    column = table[cluster]
    if pd.api.types.is_integer_dtype(column.dtype) and not column.hasnans:
        # Integer clusters are their own codes: no hashing of every row, only of the
        # clusters of the items (renumbered by ``_finish``).
        codes = column.to_numpy(dtype=np.int64)
        cluster_labels = None
    else:
        codes, cluster_labels = pd.factorize(column, use_na_sentinel=True)
        if (codes < 0).any():
            msg = (
                f"`cluster`: column {cluster!r} has missing values; give every item "
                "its cluster."
            )
            raise ValueError(msg)
    codes = codes[keep] if not keep.all() else codes
    cluster_codes = _cluster_of_items(codes, item_codes, len(items), items, cluster)
    if cluster_labels is None:
        cluster_codes, cluster_labels = pd.factorize(cluster_codes)
        cluster_codes = cluster_codes.astype(np.int64)
    return cluster_codes, cluster_labels


def _missing_scores(count: int, model: Any, item: Any, score: Any, nan_policy: str) -> None:
    """A missing (NaN) score of a sample: refused, or left out with a warning (``omit``)."""
    said = (
        f"{count} rows have no score (NaN in column {score!r}; model {model!r}, item "
        f"{item!r} first)"
    )
    if nan_policy == "raise":
        msg = (
            f"{said}. A missing score is not a wrong answer: score those samples, or pass "
            "`nan_policy='omit'` to leave them out (an item then averages the samples it has)."
        )
        raise ValueError(msg)
    warn(f"`nan_policy='omit'`: {said}; left them out.")


def _label(labels: pd.Index, position: int) -> Any:
    """The label at ``position``, a numpy number as a Python one (``0``, not ``np.int64(0)``)."""
    value = labels[int(position)]
    return value.item() if isinstance(value, np.generic) else value


def _item_keys(
    table: pd.DataFrame, item: Hashable, task: Hashable | None
) -> tuple[np.ndarray, pd.Index, np.ndarray | None, pd.Index | None]:
    """Item codes and labels; with a task, keyed by (task, item) in a MultiIndex."""
    item_codes, item_labels = pd.factorize(table[item], use_na_sentinel=True)
    if task is None:
        return item_codes, pd.Index(item_labels, name=item), None, None
    task_codes, task_labels = pd.factorize(table[task], use_na_sentinel=True)
    combined = task_codes.astype(np.int64) * max(len(item_labels), 1) + item_codes
    combined[(task_codes < 0) | (item_codes < 0)] = -1
    codes, uniques = pd.factorize(combined, use_na_sentinel=True)
    uniques = np.asarray(uniques)
    keyed = uniques >= 0
    codes = np.where(codes >= 0, codes, -1)
    if not keyed.all():  # the missing key sorted in: renumber without it
        remap = np.cumsum(keyed) - 1
        codes = np.where(codes >= 0, remap[np.maximum(codes, 0)], -1)
        uniques = uniques[keyed]
    width = max(len(item_labels), 1)
    items = pd.MultiIndex.from_arrays(
        [task_labels[uniques // width], item_labels[uniques % width]], names=[task, item]
    )
    return codes, items, task_codes, task_labels


def _cluster_of_items(
    codes: np.ndarray, item_codes: np.ndarray, n: int, items: pd.Index, cluster: Any
) -> np.ndarray:
    """The cluster code of each item; a cluster that varies within an item is refused."""
    of_item = np.empty(n, dtype=np.int64)
    of_item[item_codes] = codes
    varies = of_item[item_codes] != codes
    if varies.any():
        bad = int(item_codes[np.flatnonzero(varies)[0]])
        count = np.unique(item_codes[varies]).size
        msg = (
            f"`cluster`: column {cluster!r} varies within an item: item "
            f"{_label(items, bad)!r} (and {count - 1} more) is in more than one cluster. "
            "A cluster is a group of whole items (a passage, a repository): give every row of "
            "an item the same cluster."
        )
        raise ValueError(msg)
    return of_item


def _finish(
    means: np.ndarray,
    counts: np.ndarray,
    within: np.ndarray | None,
    *,
    models: pd.Index,
    items: pd.Index,
    cluster_codes: np.ndarray | None,
    cluster_labels: Any,
    names: dict[str, Any],
    greater_is_better: bool,
    nan_policy: str,
    several_samples: bool,
    attempts: dict[str, Any] | None = None,
    binomial: bool = False,
) -> pd.DataFrame:
    """Check the cells (missing items, one item, one cluster) and build the frame.

    ``means``, ``counts`` and ``within`` are the caller's own new arrays (the
    frame holds ``means`` without a copy); ``binomial``: every score was 0 or 1
    and ``within`` is None (the variances follow from the means).
    """
    if len(models) == 0 or len(items) == 0:
        msg = "The table has no scored rows: an items frame needs models, items and scores."
        raise ValueError(msg)
    missing = counts == 0
    if missing.any():
        per_model = missing.sum(axis=1)
        lacking = np.flatnonzero(per_model)
        shown = "; ".join(
            f"{models[k]!r} lacks {int(per_model[k])} of {len(items)} items" for k in lacking[:5]
        )
        if len(lacking) > 5:
            shown += f"; and {len(lacking) - 5} more models"
        if nan_policy == "raise":
            msg = (
                f"Items are missing for some models: {shown}. A paired comparison needs every "
                "model scored on the same items: score the missing ones, or pass "
                "`nan_policy='omit'` to keep the items every model has."
            )
            raise ValueError(msg)
        common = ~missing.any(axis=0)
        if not common.any():
            msg = f"No item is scored for every model ({shown}); nothing is left to compare."
            raise ValueError(msg)
        warn(
            f"`nan_policy='omit'`: {shown}; kept the {int(common.sum())} items every model has "
            f"(of {len(items)})."
        )
        means, counts = means[:, common], counts[:, common]
        within = None if within is None else within[:, common]
        items = items[common]
        if cluster_codes is not None:
            cluster_codes = cluster_codes[common]
    estimand = None
    if attempts is not None and attempts["estimand"] != "mean":  # pass@k, pass^k per cell
        means, kept, estimand = estimand_values(
            means, counts, models=models, items=items, nan_policy=nan_policy, **attempts
        )
        items, within, several_samples = items[kept], None, False
        cluster_codes = None if cluster_codes is None else cluster_codes[kept]
    if len(items) < 2:
        msg = (
            f"The table has {len(items)} item: comparisons over items need at least 2 "
            f"(one column per question, `item={names['item']!r}`)."
        )
        raise ValueError(msg)
    if cluster_codes is not None:
        cluster_codes, cluster_labels = _renumber(cluster_codes, cluster_labels)
        if len(cluster_labels) < 2:
            msg = (
                f"`cluster`: every item is in one cluster ({cluster_labels[0]!r}), so a "
                "clustered standard error has 0 degrees of freedom. Leave out `cluster=` (the "
                "items are then independent), or cluster by a finer column."
            )
            raise ValueError(msg)
    samples = None
    if several_samples and (counts != 1).any():
        samples = counts if counts.dtype == float else counts.astype(float)
    return _items_frame(
        means,
        models,
        items,
        cluster=cluster_codes,
        cluster_labels=cluster_labels,
        cluster_name=names["cluster"],
        item_name=names["item"],
        task_name=names["task"],
        samples=samples,
        within_var=within if samples is not None else None,
        greater_is_better=greater_is_better,
        estimand=estimand,
        binomial=binomial and within is None,
        owned=True,
    )


def _renumber(codes: np.ndarray, labels: Any) -> tuple[np.ndarray, pd.Index]:
    """Cluster codes 0..C-1 of the clusters that remain, and their labels."""
    present, codes = np.unique(codes, return_inverse=True)
    return codes.astype(np.int64), pd.Index(np.asarray(labels, dtype=object)[present])


def _from_engine(table: Any, keys: dict[str, Any], options: dict[str, Any]) -> pd.DataFrame:
    """``from_items`` on a polars, pyarrow or DuckDB table, reduced in its engine."""
    binary = options.get("estimand", "mean") != "mean"
    one_task = keys["task"] is None and not binary
    if one_task and streams(table, model=keys["model"], item=keys["item"]):  # polars_stream.py
        named = {k: keys[k] for k in ("model", "item", "score", "sample", "cluster")}
        return _from_dense(streamed_cells(table, **named), keys, options)
    if one_task:  # codes and numbers (inputs/arrow.py)
        named = {k: keys[k] for k in ("model", "item", "score", "sample", "cluster")}
        return _from_coded(coded_cells(table, **named), keys, options)
    cells, clusters = item_cells(table, **keys, binary=binary)
    if binary:  # pass@k, pass^k: the engine counted the scores that are not 0/1
        check_binary_cells(cells, keys, options["estimand"])
    unscored = cells["rows"].to_numpy() - cells["count"].to_numpy()
    if unscored.any():  # as on a pandas table: counted, refused or left out with a warning
        first = cells.loc[unscored > 0].iloc[0]
        _missing_scores(
            int(unscored.sum()), first[keys["model"]], first[keys["item"]], keys["score"],
            options["nan_policy"],
        )  # fmt: skip
    cells = cells.loc[cells["count"] > 0]
    return _from_cells(cells, clusters, **keys, **options, sort=True)


def _from_coded(cells: CodedCells, keys: dict[str, Any], options: dict[str, Any]) -> pd.DataFrame:
    """``from_items`` of an engine's coded cells (one task)."""
    check_option("nan_policy", options["nan_policy"], ITEMS_NAN_POLICIES)
    unscored = cells.rows - cells.count
    if unscored.any():  # as on a pandas table: counted, refused or left out with a warning
        first = int(np.flatnonzero(unscored)[0])
        _missing_scores(
            int(unscored.sum()), _label(cells.models, cells.model_codes[first]),
            _label(cells.items, cells.item_codes[first]), keys["score"], options["nan_policy"],
        )  # fmt: skip
    stats = (cells.model_codes, cells.item_codes, cells.mean, cells.count, cells.var)
    if not cells.count.all():
        scored = cells.count > 0
        stats = tuple(array[scored] for array in stats)
    return _from_codes(
        *stats, models=cells.models, items=cells.items, clusters=cells.clusters, **keys, **options
    )


def _from_dense(cells: DenseCells, keys: dict[str, Any], options: dict[str, Any]) -> pd.DataFrame:
    """``from_items`` of a polars lazy frame's streamed cells (one task, models x items)."""
    check_option("nan_policy", options["nan_policy"], ITEMS_NAN_POLICIES)
    if cells.missing is not None:  # as on a pandas table: counted, refused or left out
        first = np.unravel_index(int(np.flatnonzero(cells.missing)[0]), cells.missing.shape)
        _missing_scores(
            int(cells.missing.sum()), _label(cells.models, first[0]),
            _label(cells.items, first[1]), keys["score"], options["nan_policy"],
        )  # fmt: skip
    return _from_grid(
        cells.mean, cells.count, cells.var, models=cells.models, items=cells.items,
        clusters=cells.clusters, binomial=cells.var is None, **keys, **options,
    )  # fmt: skip


def _from_dask(table: Any, **keys: Any) -> pd.DataFrame:
    """``from_items`` on a dask DataFrame: dask's group-by reduces the rows to cells."""
    model, item, score = keys["model"], keys["item"], keys["score"]
    cluster, task = keys["cluster"], keys["task"]
    _check_bool("greater_is_better", keys["greater_is_better"])
    check_option("nan_policy", keys["nan_policy"], ITEMS_NAN_POLICIES)
    named = ("model", "item", "score", "sample", "cluster", "task")
    require_columns(table, {keyword: keys[keyword] for keyword in named})
    dtype = table[score].dtype
    if not (pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype)):
        msg = (
            f"`score`: column {score!r} must hold numbers (0/1 correctness or a graded score); "
            f"its dtype is {dtype}. Convert it first with `table[{score!r}].astype(float)`."
        )
        raise TypeError(msg)
    by = [model, *([task] if task is not None else []), item]
    keyed = table[[*by, score]].dropna(subset=by)
    frame = keyed.dropna(subset=[score])
    frame = frame.assign(**{score: frame[score].astype(float)})
    binary = keys.get("estimand", "mean") != "mean"
    if binary:  # pass@k, pass^k: count the scores that are not 0/1 per cell
        frame = frame.assign(off=((frame[score] != 0) & (frame[score] != 1)).astype(float))
    grouped = frame.groupby(by, sort=False)
    aggregated = grouped[score].agg(["mean", "count", "var"])
    if binary:
        aggregated = aggregated.assign(off=grouped["off"].sum())
    unscored = keyed[keyed[score].isna()].head(1, npartitions=-1, compute=False)
    import dask

    cells, n_unscored, first = dask.compute(aggregated, keyed[score].isna().sum(), unscored)
    if binary:
        check_binary_cells(cells.reset_index(), keys, keys["estimand"])
    if n_unscored:
        _missing_scores(
            int(n_unscored), first[model].iloc[0], first[item].iloc[0], score, keys["nan_policy"]
        )
    clusters = None
    if cluster is not None:
        keyed = [*([task] if task is not None else []), item]
        clusters = table[[*keyed, cluster]].drop_duplicates().compute()
    return _from_cells(cells.reset_index(), clusters, **keys)


def _from_cells(cells: pd.DataFrame, clusters: pd.DataFrame | None, **keys: Any) -> pd.DataFrame:
    """The items frame of per-cell ``mean, count, var`` (a dask or Arrow engine's reduction)."""
    _check_bool("greater_is_better", keys["greater_is_better"])
    check_option("nan_policy", keys["nan_policy"], ITEMS_NAN_POLICIES)
    model_codes, models = pd.factorize(cells[keys["model"]])
    item_codes, items, _, _ = _item_keys(cells, keys["item"], keys["task"])
    if keys.get("sort"):  # an engine's cells have no order: models and items sorted
        model_codes, models = in_order(model_codes, pd.Index(models))
        item_codes, items = in_order(item_codes, items)
    return _from_codes(
        model_codes, item_codes, cells["mean"].to_numpy(dtype=float),
        cells["count"].to_numpy(dtype=np.int64),
        cells["var"].to_numpy(dtype=float, na_value=np.nan),
        models=pd.Index(models), items=items, clusters=clusters, **keys,
    )  # fmt: skip


def _from_codes(
    model_codes: np.ndarray,
    item_codes: np.ndarray,
    mean: np.ndarray,
    count: np.ndarray,
    var: np.ndarray,
    *,
    models: pd.Index,
    items: pd.Index,
    clusters: pd.DataFrame | None,
    **keys: Any,
) -> pd.DataFrame:
    """The items frame of per-cell ``mean, count, var`` keyed by model and item codes."""
    m, n = len(models), len(items)
    means = np.full((m, n), np.nan)
    counts = np.zeros((m, n), dtype=np.int64)
    within = np.full((m, n), np.nan)
    means[model_codes, item_codes] = mean
    counts[model_codes, item_codes] = count
    within[model_codes, item_codes] = var
    return _from_grid(means, counts, within, models=models, items=items, clusters=clusters, **keys)


def _from_grid(
    means: np.ndarray,
    counts: np.ndarray,
    within: np.ndarray | None,
    *,
    models: pd.Index,
    items: pd.Index,
    clusters: pd.DataFrame | None,
    binomial: bool = False,
    **keys: Any,
) -> pd.DataFrame:
    """The items frame of models x items ``means, counts, within`` (variances) arrays."""
    model, item = keys["model"], keys["item"]
    sample, cluster, task = keys["sample"], keys["cluster"], keys["task"]
    greater_is_better = _check_bool("greater_is_better", keys["greater_is_better"])
    if sample is None and (counts > 1).any():
        row, column = np.unravel_index(int(np.flatnonzero(counts > 1)[0]), counts.shape)
        msg = (
            f"Model {_label(models, row)!r} has {int(counts[row, column])} rows for item "
            f"{_label(items, column)!r}. Repeated rows of one item are samples (epochs) of "
            "it: pass `sample=` with the column that numbers them, so that the item's mean is "
            "its score."
        )
        raise ValueError(msg)
    n = len(items)
    cluster_codes = cluster_labels = None
    if clusters is not None:
        if task is not None:
            lookup = pd.MultiIndex.from_frame(clusters[[task, item]])
        else:
            lookup = pd.Index(clusters[item])
        positions = items.get_indexer_for(lookup)
        codes, cluster_labels = pd.factorize(clusters[cluster], use_na_sentinel=True)
        if (codes < 0).any():
            msg = f"`cluster`: column {cluster!r} has missing values; give every item its cluster."
            raise ValueError(msg)
        inside = positions >= 0
        cluster_codes = _cluster_of_items(codes[inside], positions[inside], n, items, cluster)
    return _finish(
        means,
        counts,
        within if sample is not None else None,
        models=pd.Index(models, name=model),
        items=items,
        cluster_codes=cluster_codes,
        cluster_labels=cluster_labels,
        names={"cluster": cluster, "item": item, "task": task},
        greater_is_better=greater_is_better,
        nan_policy=keys["nan_policy"],
        several_samples=sample is not None,
        attempts={"estimand": keys.get("estimand", "mean"), "k": keys.get("k"), "sample": sample},
        binomial=binomial,
    )

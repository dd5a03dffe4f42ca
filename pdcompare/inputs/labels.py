"""Items frames with human labels: a judge's scores on every item, people's on a few (DESIGN 31).

A *labelled* items frame is an items frame (section 21) whose values are a
judge's scores (a language model grading every answer) and whose design
keeps, beside its clusters and samples, the human labels of the items people
graded: ``attrs["pdcompare"]["items"]["labels"]`` holds JSON-able lists (the
labels of the labelled items for every model, their positions, how they were
chosen and the strata), so the frame survives ``to_parquet``, and the
readers here align them to the frame's current labels (selecting models or
items keeps them right). ``from_items(..., human=)`` and
``set_design(items=True, human=)`` build such frames through
:func:`judged_items` and :func:`set_labels`; the comparisons read them with
:func:`judged_arrays`, and :func:`labelled_cells` is the public reader of
the judge's and the people's scores on the labelled cells.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import OptionError, check_option
from pdcompare.inputs.attrs import ATTRS_KEY, shared, with_attrs
from pdcompare.inputs.frames import check_frame
from pdcompare.inputs.items_design import _aligned, _labels, _positions, _stored_design
from pdcompare.inputs.long import require_columns

__all__ = [
    "ESTIMATORS", "LABEL_DESIGNS", "JudgedArrays", "LabelledCells", "judged_arrays",
    "judged_items", "labelled_cells", "set_labels",
]  # fmt: skip

#: How the labelled items were chosen (``label_design=``).
LABEL_DESIGNS = ("random", "stratified", "class_balanced")

#: ``estimator=`` of the comparisons of a labelled items frame.
ESTIMATORS = ("ppi++", "ppi", "labels", "judge", "rogan_gladen")


@dataclass(frozen=True)
class LabelledCells:
    """The judge's and the people's scores on the labelled cells of a labelled items frame.

    Attributes
    ----------
    models : pandas.Index
        The models (rows of ``judge`` and ``human``).
    items : pandas.Index
        The labelled items (columns of ``judge`` and ``human``).
    judge, human : numpy.ndarray, shape (models, labelled items)
        The judge's scores (the frame's values) and the human labels.
    cluster : numpy.ndarray or None
        The cluster code of each labelled item (0 .. clusters − 1), None without clusters.
    label_design : str
        How the labelled items were chosen.
    """

    models: pd.Index
    items: pd.Index
    judge: np.ndarray
    human: np.ndarray
    cluster: np.ndarray | None
    label_design: str


@dataclass(frozen=True)
class JudgedArrays:
    """A labelled items frame as the arrays of the prediction-powered estimators.

    ``labelled`` is the mask of labelled items; ``human`` the labels on
    them (models x labelled); ``stratum`` the stratum code of every item
    (None unless ``label_design="stratified"``) and ``stratum_labels`` the strata.
    """

    labelled: np.ndarray
    human: np.ndarray
    label_design: str
    stratum: np.ndarray | None
    stratum_labels: list | None
    human_name: Any

    @property
    def n_labelled(self) -> int:
        """The number of labelled items."""
        return int(self.labelled.sum())

    @property
    def n_unlabelled(self) -> int:
        """The number of items the judge alone scored."""
        return int(self.labelled.size - self.labelled.sum())


def _stored_labels(frame: pd.DataFrame) -> tuple[Any, Any]:
    stored = frame.attrs.get(ATTRS_KEY)
    items = stored.get("items") if isinstance(stored, dict) else None
    labels = items.get("labels") if isinstance(items, Mapping) else None
    return items, labels


def has_labels(frame: pd.DataFrame) -> bool:
    """Whether an items frame keeps human labels (a labelled items frame, DESIGN section 31)."""
    return _stored_labels(frame)[1] is not None


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        value = value.item()
    return value if value is None or isinstance(value, str | int | float | bool) else str(value)


def _check_design(label_design: Any, strata: Any) -> str:
    check_option("label_design", label_design, LABEL_DESIGNS)
    if label_design == "stratified" and strata is None:
        msg = (
            "`label_design='stratified'` weights each stratum by its share of items: pass "
            "`strata=` (a column, or a mapping from item to its stratum)."
        )
        raise OptionError(msg, keyword="strata")
    if strata is not None and label_design != "stratified":
        msg = (
            f"`strata=` describes labels drawn at known rates per stratum; pass "
            f"`label_design='stratified'` with it (got `label_design={label_design!r}`)."
        )
        raise OptionError(msg, keyword="strata")
    return label_design


def _check_labels(judge: np.ndarray, human: np.ndarray, frame: pd.DataFrame, name: Any) -> None:
    """Labels of whole items, on the judge's scale: one sentence naming the fix otherwise."""
    some = ~np.isnan(human)
    if not some.any():
        msg = (
            f"The human labels ({name!r}) are all missing (NaN): give people's labels on some "
            "items (NaN on the others), or leave out `human=` to compare the judge's scores."
        )
        raise ValueError(msg)
    partial = some.any(axis=0) & ~some.all(axis=0)
    if partial.any():
        col = int(np.flatnonzero(partial)[0])
        row = int(np.flatnonzero(~some[:, col])[0])
        msg = (
            f"Item {frame.columns[col]!r} has human labels for some models but not for "
            f"{frame.index[row]!r} ({int(partial.sum())} such items): label every model's "
            "answer to a labelled item, or none."
        )
        raise ValueError(msg)
    labels, scale = human[some], judge[~np.isnan(judge)]
    binary = np.isin(scale, (0.0, 1.0)).all()
    low, high = (0.0, 1.0) if ((scale >= 0) & (scale <= 1)).all() else (scale.min(), scale.max())
    if not binary and (low, high) != (0.0, 1.0) and not (scale == np.round(scale)).all():
        return  # an unbounded judge's score: no scale to hold the labels to
    outside = ~np.isin(labels, (0.0, 1.0)) if binary else (labels < low) | (labels > high)
    if outside.any():
        where = "0 or 1 (the judge's scores are binary)" if binary else (
            f"within the judge's range [{scale.min():g}, {scale.max():g}]"
        )  # fmt: skip
        msg = (
            f"Human label {labels[outside][0]:g} is outside the judge's scale: labels must be "
            f"{where}; map them to the judge's scale first ({int(outside.sum())} labels)."
        )
        raise ValueError(msg)


def _strata_of(items: pd.Index, strata: Any) -> np.ndarray:
    """The stratum of each item from a mapping or Series (item -> stratum)."""
    if not isinstance(strata, Mapping | pd.Series):
        msg = (
            "`strata` must be a column of the table, or a mapping or Series from item to its "
            f"stratum; got {type(strata).__name__}."
        )
        raise TypeError(msg)
    series = strata if isinstance(strata, pd.Series) else pd.Series(dict(strata), dtype=object)
    found = series.reindex(items)
    if found.isna().any():
        absent = [items[k] for k in np.flatnonzero(found.isna().to_numpy())[:3]]
        msg = (
            f"`strata`: no stratum for {int(found.isna().sum())} items (first {absent}); give "
            "every item (labelled or not) its stratum, since each stratum is weighted by its "
            "share of items."
        )
        raise ValueError(msg)
    return found.to_numpy()


def _attach(
    frame: pd.DataFrame, human: np.ndarray, label_design: str, strata: Any, name: Any
) -> pd.DataFrame:
    """``frame`` (an items frame) with ``human`` (models x items, NaN unlabelled) in its design."""
    judge = frame.to_numpy(dtype=float)
    _check_labels(judge, human, frame, name)
    labelled = ~np.isnan(human).any(axis=0)
    per_item = None if strata is None else _strata_of(frame.columns, strata)
    if label_design == "class_balanced" and not np.isin(judge, (0.0, 1.0)).all():
        msg = (
            "`label_design='class_balanced'` is read by the Rogan–Gladen correction, which "
            "needs binary (0/1) judge scores; with graded scores draw the labels at random "
            "(`label_design='random'`) or by strata."
        )
        raise OptionError(msg, keyword="label_design")
    if labelled.sum() < 2:
        msg = (
            f"Only {int(labelled.sum())} item is labelled: the corrected comparisons need at "
            "least 2 labelled items (and more than 30 to be trusted)."
        )
        raise ValueError(msg)
    meta = dict(frame.attrs.get(ATTRS_KEY, {}))
    items = meta.get("items")
    positions = np.flatnonzero(labelled)
    stored = shared(
        {
            "human": human[:, positions],
            "labelled": positions,
            "label_design": label_design,
            "strata": None if per_item is None else [_plain(s) for s in per_item],
            "human_name": _plain(name),
        }
    )
    new_items = shared({**items, "labels": None})
    new_items["labels"] = stored
    new_items.view = getattr(items, "view", None)
    out = frame.copy()
    out.attrs = {}
    return with_attrs(out, {**meta, "items": new_items})


def _human_of_table(
    table: pd.DataFrame, frame: pd.DataFrame, keys: dict[str, Any], human: Hashable
) -> np.ndarray:
    """The mean human label of each cell (models x items of ``frame``; NaN where none)."""
    if not isinstance(human, Hashable) or human not in table.columns:
        msg = f"`human`: the table has no column {human!r}; columns are {list(table.columns)}."
        raise ValueError(msg)
    values = pd.to_numeric(table[human], errors="coerce")
    if (values.isna() & table[human].notna()).any():
        msg = f"`human`: column {human!r} must hold numbers (the people's scores); convert it."
        raise TypeError(msg)
    rows = table.loc[values.notna()]
    by = [keys["model"], *([keys["task"]] if keys["task"] is not None else []), keys["item"]]
    cells = rows.assign(**{human: values[values.notna()]}).groupby(by, sort=False)[human].mean()
    cells = cells.unstack(by[1:])  # noqa: PD010 (a Series of cells to models x items)
    missing = ~cells.columns.isin(frame.columns)
    if missing.any() or not cells.index.isin(frame.index).all():
        what = cells.columns[missing][0] if missing.any() else "(a model the frame lacks)"
        msg = (
            f"Human labels on item {what!r}, which the judge did not score for every model "
            "(the items frame leaves it out): score it with the judge for every model, or drop "
            "its labels."
        )
        raise ValueError(msg)
    return cells.reindex(index=frame.index, columns=frame.columns).to_numpy(dtype=float)


def _unscored_labels(table: pd.DataFrame, keys: dict[str, Any], human: Hashable) -> None:
    """Refuse rows labelled by people but not scored by the judge, naming the first."""
    if not isinstance(human, Hashable) or human not in table.columns:
        msg = f"`human`: the table has no column {human!r}; columns are {list(table.columns)}."
        raise ValueError(msg)
    require_columns(table, {k: keys[k] for k in ("model", "item", "score")})
    if human == keys["score"]:
        msg = (
            f"`human` names the score column {human!r}: the human labels would be the judge's "
            "own scores; pass `human=` the column of people's labels (NaN where unlabelled)."
        )
        raise ValueError(msg)
    unscored = table[human].notna() & table[keys["score"]].isna()
    if unscored.any():
        first = table.loc[unscored].iloc[0]
        msg = (
            f"{int(unscored.sum())} rows have a human label but no judge score (model "
            f"{first[keys['model']]!r}, item {first[keys['item']]!r} first): score those "
            "answers with the judge too, or drop their labels."
        )
        raise ValueError(msg)


def _strata_of_table(table: pd.DataFrame, frame: pd.DataFrame, keys: dict, strata: Any) -> Any:
    """``strata=`` as a column of the table: a Series from item to its stratum."""
    if isinstance(strata, Mapping | pd.Series) or strata is None:
        return strata
    if not isinstance(strata, Hashable) or strata not in table.columns:
        msg = f"`strata`: the table has no column {strata!r}; columns are {list(table.columns)}."
        raise ValueError(msg)
    by = [*([keys["task"]] if keys["task"] is not None else []), keys["item"]]
    first = table.groupby(by, sort=False)[strata].first()
    return first.reindex(frame.columns)


def judged_items(call: dict[str, Any], *, build: Callable[..., pd.DataFrame]) -> pd.DataFrame:
    """``from_items`` with ``human=``: the judge's items frame, with the human labels kept.

    ``call`` holds the keywords of the call (its ``locals()``);
    ``build(table, **keys)`` is ``from_items`` itself, given the others
    without the labels. The labels are read from the ``human`` column of a
    pandas or dask table (a dask table's labelled rows only are brought
    into memory).
    """
    keys = dict(call)
    table, human = keys.pop("table"), keys.pop("human")
    label_design, strata = keys.pop("label_design"), keys.pop("strata")
    label_design = _check_design(label_design, strata)
    if human is None:
        msg = "`label_design` and `strata` describe human labels: pass `human=` (their column)."
        raise OptionError(msg, keyword="human")
    if type(table).__module__.startswith("dask"):
        wanted = [keys[k] for k in ("model", "item", "task", "score") if keys[k] is not None]
        extra = [s for s in (strata,) if isinstance(s, Hashable) and s is not None]
        labelled = table[[*wanted, human, *extra]]
        labelled = labelled[~labelled[human].isna()].compute()
    elif isinstance(table, pd.DataFrame):
        labelled = table
    else:
        msg = (
            "`human=` reads a pandas or dask table; convert this one first (for example "
            "`table.to_pandas()`)."
        )
        raise TypeError(msg)
    _unscored_labels(labelled, keys, human)
    frame = build(table, **keys)
    table = labelled
    labels = _human_of_table(table, frame, keys, human)
    strata = _strata_of_table(table, frame, keys, strata)
    return _attach(frame, labels, label_design, strata, human)


def set_labels(
    frame: pd.DataFrame, human: Any, label_design: str = "random", strata: Any = None
) -> pd.DataFrame:
    """``set_design(items=True, human=...)``: an items frame with the labels of ``human``.

    ``human`` has the frame's models as rows and (some of) its items as
    columns, NaN where an item is not labelled.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> judge = pd.DataFrame([[1, 0, 1, 1], [0, 0, 1, 0]], index=["a", "b"],
    ...                      columns=["q1", "q2", "q3", "q4"])
    >>> human = pd.DataFrame({"q1": [1, 0], "q2": [1, 0]}, index=["a", "b"])
    >>> framed = judge.cmp.set_design(items=True, human=human)
    >>> labelled_cells(framed).human
    array([[1., 1.],
           [0., 0.]])
    """
    label_design = _check_design(label_design, strata)
    if not isinstance(human, pd.DataFrame):
        msg = (
            "`human` must be a DataFrame of models x items (the people's scores, NaN where an "
            f"item is not labelled); got {type(human).__name__}."
        )
        raise TypeError(msg)
    extra = human.columns[~human.columns.isin(frame.columns)]
    if len(extra) or not human.index.isin(frame.index).all():
        what = f"item {extra[0]!r}" if len(extra) else "a model the frame lacks"
        msg = (
            f"`human` has labels on {what}, which the judge did not score: give `human` the "
            "frame's models and items (a subset of its columns)."
        )
        raise ValueError(msg)
    values = human.apply(pd.to_numeric, errors="coerce").reindex(
        index=frame.index, columns=frame.columns
    )
    return _attach(frame, values.to_numpy(dtype=float), label_design, strata, "human")


def kept_labels(frame: pd.DataFrame) -> tuple[pd.DataFrame, str, Any] | None:
    """The labels of a labelled frame as ``(human frame, label_design, strata)``, to keep them."""
    view = _view(frame)
    if view is None:
        return None
    human = pd.DataFrame(np.nan, index=frame.index, columns=frame.columns)
    human.loc[:, view.labelled] = view.human
    strata = None
    if view.stratum is not None:
        strata = pd.Series(np.asarray(view.stratum_labels, dtype=object)[view.stratum])
        strata.index = frame.columns
    return human, view.label_design, strata


def _view(frame: pd.DataFrame) -> JudgedArrays | None:
    """The stored labels aligned to the frame's labels (None on a frame without them)."""
    items, labels = _stored_labels(frame)
    if labels is None:
        return None
    design = _stored_design(items, frame)
    n_stored = len(design.items)
    positions = np.asarray(labels["labelled"], dtype=np.int64)
    full = np.full((len(design.models), n_stored), np.nan)
    full[:, positions] = np.array(labels["human"], dtype=float).reshape(len(design.models), -1)
    rows = _positions(design.models, frame.index, "models")
    columns = _positions(design.items, frame.columns, "items")
    full = _aligned(full, rows, columns)
    labelled = np.zeros(n_stored, dtype=bool)
    labelled[positions] = True
    labelled = _aligned(labelled, None, columns)
    stratum = stratum_labels = None
    if labels.get("strata") is not None:
        per_item = np.asarray(_labels(labels["strata"]), dtype=object)
        per_item = _aligned(per_item, None, columns)
        codes, uniques = pd.factorize(per_item)
        stratum, stratum_labels = codes.astype(np.int64), [_plain(u) for u in uniques]
    return JudgedArrays(
        labelled=labelled,
        human=full[:, labelled],
        label_design=labels.get("label_design", "random"),
        stratum=stratum,
        stratum_labels=stratum_labels,
        human_name=labels.get("human_name"),
    )


def judged_arrays(frame: pd.DataFrame, estimator: str | None, test: str) -> JudgedArrays | None:
    """The labels of ``frame`` for ``test``, or None (no labels, no ``estimator`` asked).

    ``estimator`` on a frame without labels is refused naming ``human=``; on
    a frame with labels the estimator is checked against its label design.
    """
    view = _view(frame)
    if estimator is not None:
        check_option("estimator", estimator, ESTIMATORS)
    if view is None:
        if estimator is not None:
            msg = (
                f"`estimator={estimator!r}` corrects a judge's scores with human labels, but "
                f"this items frame has none: build it with `from_items(..., human=)` or "
                f"`set_design(items=True, human=...)`, or leave out `estimator`."
            )
            cli = (
                f"--estimator {estimator} corrects a judge's scores with human labels, but this "
                "file has none: pass --human-col with the column of people's labels (NaN on "
                "the rows nobody labelled), or leave out --estimator"
            )
            raise OptionError(msg, keyword="estimator", cli_message=cli)
        return None
    return view


def labelled_cells(frame: pd.DataFrame) -> LabelledCells:
    """The judge's scores and the human labels on the labelled cells, and their clusters.

    Parameters
    ----------
    frame : pandas.DataFrame
        A labelled items frame (``from_items(..., human=)`` or
        ``set_design(items=True, human=...)``).

    Returns
    -------
    LabelledCells
        ``judge`` and ``human`` (models x labelled items), the labelled
        items, and the cluster code of each (None without clusters).

    Examples
    --------
    >>> import pandas as pd
    >>> judge = pd.DataFrame([[1, 0, 1], [0, 0, 1]], index=["a", "b"], columns=["q1", "q2", "q3"])
    >>> framed = judge.cmp.set_design(items=True, human=pd.DataFrame(
    ...     {"q1": [1, 1], "q3": [1, 0]}, index=["a", "b"]))
    >>> cells = labelled_cells(framed)
    >>> list(cells.items), cells.judge.tolist(), cells.human.tolist()
    (['q1', 'q3'], [[1.0, 1.0], [0.0, 1.0]], [[1.0, 1.0], [1.0, 0.0]])
    """
    check_frame(frame)
    view = _view(frame)
    if view is None:
        msg = (
            "This frame has no human labels: build it with `from_items(..., human=)` or "
            "`set_design(items=True, human=...)`."
        )
        raise ValueError(msg)
    items, _ = _stored_labels(frame)
    design = _stored_design(items, frame)
    columns = _positions(design.items, frame.columns, "items")
    cluster = _aligned(design.cluster, None, columns)
    if cluster is not None:
        cluster = np.unique(cluster[view.labelled], return_inverse=True)[1].astype(np.int64)
    return LabelledCells(
        models=frame.index,
        items=frame.columns[view.labelled],
        judge=frame.to_numpy(dtype=float)[:, view.labelled],
        human=view.human,
        cluster=cluster,
        label_design=view.label_design,
    )

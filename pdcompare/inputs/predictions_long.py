"""from_predictions: a long table of per-row predictions -> a predictions frame.

Harnesses and prediction logs write one row per (model, test row): the
model, the row's id, what the model predicted (a label, a probability or a
forecast) and the truth. ``from_predictions`` pairs the rows by their id,
never by their order, into the predictions frame every test of section 5
reads: the truth column ``y`` and one column per model, one row per test
row. Repeated (model, row) keys, a truth that differs between the models of
one row and rows some model did not predict are refused by name.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import check_option, warn
from pdcompare.inputs.arrow import in_order, is_native, long_columns
from pdcompare.inputs.long import repeated_keys, require_columns
from pdcompare.inputs.sources import with_source

#: What ``from_predictions(nan_policy=)`` does with a row some model did not predict.
PREDICTIONS_NAN_POLICIES = ("raise", "omit", "propagate")


def from_predictions(
    table: Any,
    *,
    model: Hashable = "model",
    row: Hashable = "row",
    prediction: Hashable = "prediction",
    y: Hashable = "y",
    nan_policy: str = "raise",
) -> pd.DataFrame:
    """A predictions frame from a long table: one row per model x test row.

    Parameters
    ----------
    table : pandas.DataFrame, polars or pyarrow table, or DuckDB relation
        The long table (polars, eager or lazy, pyarrow and DuckDB through
        narwhals, ``pdcompare[arrow]``: only the four named columns are
        collected, and the rows and models then come out sorted).
    model, row, prediction, y : column name
        The columns holding the model's name, the test row's id (what pairs
        the models' predictions), the prediction (a label, a probability, a
        score or a forecast; its type is kept) and the true label.
    nan_policy : {"raise", "omit", "propagate"}, default "raise"
        A row that some model did not predict (no record, or a missing
        prediction) or that has no truth: refused naming it ("raise"), left
        out with a warning ("omit"), or kept with NaN for the tests'
        own ``nan_policy`` ("propagate").

    Returns
    -------
    pandas.DataFrame
        The predictions frame: the truth column (named ``y``) first, then one
        column per model; one row per test row, indexed by its id (named
        ``row``). Rows and models in order of first appearance (sorted for
        an engine's table). ``attrs["pdcompare"]["source"]`` records the
        columns read.

    Raises
    ------
    ValueError
        A missing column, a (model, row) key given twice, a row whose truth
        differs between models, a model named like the truth column, or
        (``nan_policy="raise"``) a row without some model's prediction or
        without a truth: each names the model and row at fault.
    TypeError
        When ``table`` is no table.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> long = pd.DataFrame({"model": ["tree", "tree", "tree", "svc", "svc", "svc"],
    ...                      "row": [0, 1, 2, 2, 1, 0],
    ...                      "prediction": [1, 0, 1, 1, 1, 0],
    ...                      "y": [1, 0, 0, 0, 0, 1]})
    >>> preds = pdcompare.from_predictions(long)
    >>> preds
         y  tree  svc
    row
    0    1     1    0
    1    0     0    1
    2    0     1    1
    >>> preds.cmp.mcnemar("tree", "svc")["pvalue"].round(4).tolist()
    [0.5]
    """
    check_option("nan_policy", nan_policy, PREDICTIONS_NAN_POLICIES)
    sort = is_native(table)
    keys = {"model": model, "row": row, "prediction": prediction, "y": y}
    if sort:  # polars, pyarrow, DuckDB: their four named columns only (inputs/arrow.py)
        table = long_columns(table, keys, [row, model])
    if not isinstance(table, pd.DataFrame):
        msg = (
            "`table` must be a pandas, polars or pyarrow table (or a DuckDB relation); "
            f"got {type(table).__name__}."
        )
        raise TypeError(msg)
    for keyword, column in keys.items():  # all four are needed (require_columns skips None)
        if column is None:
            msg = f"`{keyword}` must name a column of the table; got None."
            raise ValueError(msg)
    require_columns(table, keys)
    if len({model, row, prediction, y}) < 4:
        msg = (
            f"`model`, `row`, `prediction` and `y` must name four different columns; got "
            f"{model!r}, {row!r}, {prediction!r}, {y!r}."
        )
        raise ValueError(msg)
    _refuse_repeats(table, model, row)
    model_codes, models = _codes(table[model], sort)
    row_codes, rows = _codes(table[row], sort)
    if y in models:
        msg = (
            f"model {y!r} has the name of the truth column `y`={y!r}; rename the model or "
            "pass `y=` with another name."
        )
        raise ValueError(msg)
    truth = _truth(table[y], row_codes, rows, len(rows))
    columns = _prediction_columns(
        table[prediction], model_codes, row_codes, len(models), len(rows)
    )
    frame = pd.DataFrame(
        {y: truth, **dict(zip(models, columns, strict=True))},
        index=pd.Index(rows, name=row),
    )
    frame = _missing(frame, y, models, nan_policy)
    frame.columns.name = None
    source = {"format": "long table", "model": model, "row": row, "prediction": prediction}
    return with_source(frame, {**source, "y": y})


def _refuse_repeats(table: pd.DataFrame, model: Hashable, row: Hashable) -> None:
    repeated, shown = repeated_keys(table, [model, row])
    if repeated:
        msg = (
            f"Each (model, row) must appear once; {repeated} rows share their keys, for "
            f"example {shown}. A row is one test sample and each model predicts it once: "
            "keep one prediction per model and row (or name the row id column with `row=`)."
        )
        raise ValueError(msg)


def _codes(column: pd.Series, sort: bool) -> tuple[np.ndarray, pd.Index]:
    """Codes and labels of a key column; a missing key is refused by the caller's name."""
    codes, labels = pd.factorize(column, use_na_sentinel=True)
    if (codes < 0).any():
        msg = (
            f"column {column.name!r} has missing values at {int((codes < 0).sum())} rows; "
            "give every row its model and row id."
        )
        raise ValueError(msg)
    labels = pd.Index(labels)
    if sort:  # an engine's rows have no order: labels sorted
        codes, labels = in_order(codes, labels)
    return codes, labels


def _plain(label: Any) -> Any:
    """A label as Python writes it (``3``, not ``np.int64(3)``)."""
    return label.item() if isinstance(label, np.generic) else label


def _truth(column: pd.Series, row_codes: np.ndarray, rows: pd.Index, n: int) -> pd.Series:
    """Each row's truth (missing where no model gives one); a truth that differs is refused."""
    label_codes, labels = pd.factorize(column, use_na_sentinel=True)
    given = label_codes >= 0
    pairs = np.unique(np.stack([row_codes[given], label_codes[given]]), axis=1)
    several = np.flatnonzero(np.bincount(pairs[0], minlength=n) > 1)
    if several.size:
        bad = several[0]
        shown = ", ".join(repr(_plain(labels[k])) for k in pairs[1][pairs[0] == bad])
        where = _plain(rows[bad])
        msg = (
            f"The truth differs between models for {several.size} rows: row {where!r} has "
            f"`y` {shown}. Every model must be scored against the same truth: fix the truth "
            "of those rows (or name the row id column with `row=`)."
        )
        raise ValueError(msg)
    first = np.full(n, -1, dtype=np.int64)
    first[pairs[0]] = pairs[1]
    source = pd.Series(labels, dtype=column.dtype) if len(labels) else column.iloc[:0]
    return _take(source.reset_index(drop=True), first)


def _prediction_columns(
    column: pd.Series, model_codes: np.ndarray, row_codes: np.ndarray, m: int, n: int
) -> list[pd.Series]:
    """Each model's predictions in row order (missing where the model has no record)."""
    values = column.reset_index(drop=True)
    out = []
    position = np.full(n, -1, dtype=np.int64)
    for k in range(m):  # one pass per model (a gather), not per row
        position[:] = -1
        mine = np.flatnonzero(model_codes == k)
        position[row_codes[mine]] = mine
        out.append(_take(values, position))
    return out


def _take(
    values: pd.Series, position: np.ndarray
) -> np.ndarray | pd.api.extensions.ExtensionArray:
    """``values`` at ``position`` (-1: missing), in its own dtype where nothing is missing."""
    taken = values.take(np.maximum(position, 0))
    if (position < 0).any():
        taken = taken.where(pd.Series(position >= 0, index=taken.index))
    return taken.array


def _missing(frame: pd.DataFrame, y: Hashable, models: pd.Index, nan_policy: str) -> pd.DataFrame:
    """Rows without a truth or some model's prediction: refused, left out, or kept."""
    if nan_policy == "propagate":
        return frame
    lacking = frame.isna().to_numpy()
    bad = lacking.any(axis=1)
    if not bad.any():
        return frame
    first = int(np.flatnonzero(bad)[0])
    named = [
        f"`{y}`" if k == 0 else repr(_plain(models[k - 1])) for k in np.flatnonzero(lacking[first])
    ]
    said = (
        f"{int(bad.sum())} of {len(frame)} rows lack the truth or a model's prediction (row "
        f"{_plain(frame.index[first])!r} first, lacking {', '.join(named)})"
    )
    if nan_policy == "raise":
        msg = (
            f"{said}. A paired comparison needs every model's prediction of every row: "
            "predict the missing rows, or pass `nan_policy='omit'` to keep the rows every "
            "model predicted (or 'propagate' to keep them as NaN)."
        )
        raise ValueError(msg)
    warn(f"`nan_policy='omit'`: {said}; left them out.")
    kept = frame.loc[~bad]
    if len(kept) == 0:
        msg = "No row has the truth and every model's prediction; nothing is left to compare."
        raise ValueError(msg)
    return kept

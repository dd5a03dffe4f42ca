"""Runs frames: models x independent runs (random seeds), built from a long table.

A runs frame is a scores frame whose design says ``paired=False``
(``attrs["pdcompare"]["design"]["paired"] is False``): its columns are runs,
and run k of one model has nothing to do with run k of another. Models may
have different numbers of runs; a NaN cell is a run that does not exist.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np
import pandas as pd

from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.design import Design


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
        raise ValueError(msg)
    if dataset in table.columns:
        msg = (
            f"`paired=False`: the table has a data-set column {dataset!r}, but a runs frame "
            "holds the runs of one data set. Select one data set first "
            f"(`table[table[{dataset!r}] == name]`), or leave `paired=True` for a benchmark frame."
        )
        raise ValueError(msg)
    keys = {"model": model, "split": split, "score": score}
    for keyword, column in keys.items():
        if column not in table.columns:
            shown = ", ".join(repr(c) for c in list(table.columns)[:10])
            msg = (
                f"`{keyword}`: the table has no column {column!r}; its columns are {shown}. "
                f"Pass `{keyword}=` with the name of the column."
            )
            raise ValueError(msg)
    duplicated = table.duplicated(subset=[model, split], keep=False)
    if duplicated.any():
        shown = table.loc[duplicated, [model, split]].drop_duplicates().head(5)
        rows = "; ".join(f"{model}={m!r}, {split}={r!r}" for m, r in shown.itertuples(index=False))
        msg = (
            f"Each (model, run) must appear once; {int(duplicated.sum())} rows share their "
            f"keys, for example {rows}. Give every run its own `{split}` value."
        )
        raise ValueError(msg)
    scores = pd.to_numeric(table[score], errors="coerce")
    bad = scores.isna() & table[score].notna()
    if bad.any():
        first = table.loc[bad, score].iloc[0]
        msg = f"`score`: column {score!r} must hold numbers; it has {first!r}."
        raise TypeError(msg)
    models = pd.Index(pd.unique(table[model]), name="model")
    runs = pd.Index(pd.unique(table[split]), name=split)
    values = np.full((len(models), len(runs)), np.nan)
    values[models.get_indexer(table[model]), runs.get_indexer(table[split])] = scores.to_numpy(
        dtype=float
    )
    frame = pd.DataFrame(values, index=models, columns=runs)
    design = Design(greater_is_better=bool(greater_is_better), paired=False, source="runs")
    return with_attrs(frame, {"design": design.to_attrs()})

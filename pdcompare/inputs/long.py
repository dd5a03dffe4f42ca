"""What the long-table readers share: the key columns, one row per key, numeric scores.

``from_long`` (benchmark and runs frames), the runs-over-tasks reader and
``from_items`` read a table of one score per row; each refuses a missing key
column, repeated keys and text scores in the same words, naming the keyword
(``model=``, ``split=``, ``score=``) that points at the column.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd


def require_columns(table: pd.DataFrame, keys: Mapping[str, Hashable]) -> None:
    """Refuse a table that lacks a key column, naming the keyword and the columns it has.

    A keyword whose column is None (an optional key not given) is not asked for.

    Examples
    --------
    >>> table = pd.DataFrame({"model": ["a"], "score": [0.5]})
    >>> require_columns(table, {"model": "model", "score": "score"})
    >>> require_columns(table, {"split": "fold"})
    Traceback (most recent call last):
    ...
    ValueError: `split`: the table has no column 'fold'; its columns are 'model', 'score'. \
Pass `split=` with the name of the column.
    """
    for keyword, column in keys.items():
        absent = not isinstance(column, Hashable) or column not in table.columns
        if column is not None and absent:
            shown = ", ".join(repr(c) for c in list(table.columns)[:10])
            msg = (
                f"`{keyword}`: the table has no column {column!r}; its columns are {shown}. "
                f"Pass `{keyword}=` with the name of the column."
            )
            raise ValueError(msg)


def repeated_keys(table: pd.DataFrame, by: Sequence[Hashable]) -> tuple[int, str]:
    """How many rows share their keys ``by``, and up to five of those keys in words.

    ``(0, "")`` when every key is unique; the caller words the refusal.

    Examples
    --------
    >>> table = pd.DataFrame({"model": ["a", "a", "b"], "seed": [0, 0, 0]})
    >>> repeated_keys(table, ["model", "seed"])
    (2, "model='a', seed=0")
    """
    duplicated = table.duplicated(subset=list(by), keep=False)
    if not duplicated.any():
        return 0, ""
    shown = table.loc[duplicated, list(by)].drop_duplicates().head(5)
    rows = "; ".join(
        ", ".join(f"{c}={v!r}" for c, v in zip(by, r, strict=True))
        for r in shown.itertuples(index=False)
    )
    return int(duplicated.sum()), rows


def numeric_scores(table: pd.DataFrame, score: Hashable) -> np.ndarray:
    """The score column as float64, missing scores NaN; a text score is refused by name.

    Examples
    --------
    >>> numeric_scores(pd.DataFrame({"acc": [0.5, None]}), "acc")
    array([0.5, nan])
    """
    scores = pd.to_numeric(table[score], errors="coerce")
    bad = scores.isna() & table[score].notna()
    if bad.any():
        first = table.loc[bad, score].iloc[0]
        msg = f"`score`: column {score!r} must hold numbers; it has {first!r}."
        raise TypeError(msg)
    return scores.to_numpy(dtype=float, na_value=np.nan)

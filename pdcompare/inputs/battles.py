"""Battles frames: square counts of pairwise wins, built from a long table of battles.

A battles frame has the models as its index and its columns, in the same
order; row i, column j holds the wins of model i over model j. The ties
between two models are kept in ``attrs["pdcompare"]["ties"]`` (a symmetric
matrix as nested lists), with ``attrs["pdcompare"]["kind"] == "battles"``.
A plain square frame of non-negative counts with the same labels on both
axes is read as a battles frame without ties.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pdcompare.inputs.attrs import pdcompare_attrs, with_attrs
from pdcompare.inputs.frames import check_frame

#: ``attrs["pdcompare"]["kind"]`` of a battles frame.
BATTLES = "battles"


@dataclass(frozen=True)
class BattlesData:
    """A battles frame as arrays: model names, wins (row over column) and ties (symmetric)."""

    names: pd.Index
    wins: np.ndarray
    ties: np.ndarray

    @property
    def n_battles(self) -> np.ndarray:
        """Battles each model fought (wins, losses and ties)."""
        return self.wins.sum(axis=1) + self.wins.sum(axis=0) + self.ties.sum(axis=1)


def _shown(values, limit: int = 5) -> str:
    values = list(values)
    text = ", ".join(repr(v) for v in values[:limit])
    return text + (f" and {len(values) - limit} more" if len(values) > limit else "")


def from_battles(
    table: pd.DataFrame,
    *,
    model_a: Hashable = "model_a",
    model_b: Hashable = "model_b",
    winner: Hashable = "winner",
    ties: Sequence[Hashable] = ("tie", "tie (bothbad)"),
) -> pd.DataFrame:
    """The battles frame of a long table with one row per battle.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per battle: the two models and who won.
    model_a, model_b, winner : column names
        ``winner`` holds ``"model_a"``, ``"model_b"``, a value of ``ties``, or
        the name of the winning model (one of the row's two models).
    ties : sequence, default ("tie", "tie (bothbad)")
        The values of ``winner`` that mean a tie.

    Returns
    -------
    pandas.DataFrame
        Square frame of counts, models (sorted) as index and columns, row i
        column j the wins of i over j; the ties in ``attrs["pdcompare"]["ties"]``.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> table = pd.DataFrame({"model_a": ["x", "x", "y", "x"], "model_b": ["y", "y", "x", "y"],
    ...                       "winner": ["model_a", "tie", "x", "y"]})
    >>> frame = pdcompare.from_battles(table)
    >>> frame
    model  x  y
    model
    x      0  2
    y      1  0
    >>> frame.attrs["pdcompare"]["ties"]
    [[0, 1], [1, 0]]
    """
    if not isinstance(table, pd.DataFrame):
        msg = f"`table` must be a pandas DataFrame of battles; got {type(table).__name__}."
        raise TypeError(msg)
    if isinstance(ties, str) or not isinstance(ties, Sequence | set | frozenset):
        msg = f"`ties` must be a list of the winner values that mean a tie; got {ties!r}."
        raise TypeError(msg)
    for keyword, column in {"model_a": model_a, "model_b": model_b, "winner": winner}.items():
        if column not in table.columns:
            msg = (
                f"`{keyword}`: the table has no column {column!r}; its columns are "
                f"{_shown(table.columns, 10)}. Pass `{keyword}=` with the name of the column."
            )
            raise ValueError(msg)
    a, b, won = table[model_a], table[model_b], table[winner]
    for keyword, column in {"model_a": a, "model_b": b, "winner": won}.items():
        if column.isna().any():
            rows = list(table.index[column.isna().to_numpy()])
            msg = (
                f"`{keyword}`: column {column.name!r} is missing in rows {_shown(rows)}; "
                "drop those battles first."
            )
            raise ValueError(msg)
    self_battles = (a == b).to_numpy()
    if self_battles.any():
        msg = (
            f"A model cannot battle itself: {_shown(pd.unique(a[self_battles]))} meet "
            f"themselves in rows {_shown(table.index[self_battles])}; drop those rows."
        )
        raise ValueError(msg)
    tie_values = list(ties)
    is_tie = won.isin(tie_values).to_numpy()
    a_won = ((won == "model_a") | (won == a)).to_numpy() & ~is_tie
    b_won = ((won == "model_b") | (won == b)).to_numpy() & ~is_tie & ~a_won
    unknown = ~(is_tie | a_won | b_won)
    if unknown.any():
        values = pd.unique(won[unknown])
        msg = (
            f"`winner`: {_shown(values)} in rows {_shown(table.index[unknown])} is neither "
            f"'model_a', 'model_b', a tie ({_shown(tie_values)}) nor one of the battle's "
            "models. Map it to one of those, or add it to `ties=`."
        )
        raise ValueError(msg)
    names = pd.unique(pd.concat([a, b], ignore_index=True))
    with contextlib.suppress(TypeError):
        names = np.sort(names)
    models = pd.Index(names, name="model")
    m = len(models)
    ia, ib = models.get_indexer(a), models.get_indexer(b)
    winners = np.where(a_won, ia, ib)
    losers = np.where(a_won, ib, ia)
    decided = ~is_tie
    win_counts = np.bincount(winners[decided] * m + losers[decided], minlength=m * m)
    tie_counts = np.bincount(ia[is_tie] * m + ib[is_tie], minlength=m * m).reshape(m, m)
    tie_counts = tie_counts + tie_counts.T
    frame = pd.DataFrame(
        win_counts.reshape(m, m), index=models, columns=pd.Index(models.copy(), name="model")
    )
    return with_attrs(frame, {"kind": BATTLES, "ties": tie_counts.tolist()})


def battles_data(frame: pd.DataFrame) -> BattlesData:
    """The arrays of a battles frame, checked: square, same labels both ways, counts.

    Examples
    --------
    >>> import pandas as pd
    >>> data = battles_data(pd.DataFrame([[0, 3], [1, 0]], index=["a", "b"], columns=["a", "b"]))
    >>> data.wins.tolist(), data.ties.tolist(), data.n_battles.tolist()
    ([[0.0, 3.0], [1.0, 0.0]], [[0.0, 0.0], [0.0, 0.0]], [4.0, 4.0])
    """
    check_frame(frame)
    names = frame.index
    if frame.shape[0] != frame.shape[1] or not names.equals(frame.columns):
        msg = (
            "A battles frame is square with the same models, in the same order, as its index "
            "and its columns (row i, column j: wins of i over j); this frame has "
            f"{frame.shape[0]} rows and {frame.shape[1]} columns. Build it with "
            "`pdcompare.from_battles(table)` from one row per battle."
        )
        raise ValueError(msg)
    if frame.shape[0] < 2:
        msg = "A battles frame needs at least two models."
        raise ValueError(msg)
    if names.has_duplicates:
        msg = (
            f"Model names must be unique; repeated: {_shown(names[names.duplicated()].unique())}."
        )
        raise ValueError(msg)
    try:
        wins = frame.to_numpy(dtype=float)
    except (TypeError, ValueError):
        msg = "A battles frame holds counts of wins (numbers); this frame has other values."
        raise TypeError(msg) from None
    stored = pdcompare_attrs(frame).get("ties")
    ties = np.zeros_like(wins) if stored is None else np.asarray(stored, dtype=float)
    if ties.shape != wins.shape or not np.array_equal(ties, ties.T):
        msg = (
            "attrs['pdcompare']['ties'] must be a symmetric square matrix of the frame's size; "
            "rebuild the frame with `pdcompare.from_battles`."
        )
        raise ValueError(msg)
    bad = ~np.isfinite(wins) | (wins < 0)
    if bad.any() or (ties < 0).any() or not np.isfinite(ties).all():
        rows, cols = np.nonzero(bad)
        pairs = zip(rows[:5], cols[:5], strict=True)
        where = ", ".join(f"{names[r]!r} over {names[c]!r}" for r, c in pairs)
        msg = f"Battle counts must be finite and non-negative; check {where or 'the ties'}."
        raise ValueError(msg)
    diagonal = np.flatnonzero(np.diag(wins) + np.diag(ties))
    if diagonal.size:
        msg = (
            f"A model cannot battle itself: the diagonal of {_shown(names[diagonal])} is not "
            "zero; set it to 0."
        )
        raise ValueError(msg)
    return BattlesData(names=names, wins=wins, ties=ties)

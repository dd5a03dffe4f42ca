"""Items frames of pass@k and pass^k: attempts per cell reduced to one estimate per item.

``from_items(..., sample=, estimand="pass@k" | "pass^k", k=)`` (DESIGN
section 33) reads ``n`` attempts of each model × item with ``c`` successes
and puts the unbiased per-item estimate (:mod:`pdcompare.stats.attempts`)
in the cell. The estimate is one number per cell: every items test then
compares the estimand across items, clustered as in section 21, exactly as
it compares mean scores; the attempts only make each item's number less
noisy. The design keeps the estimand, ``k`` and the attempts of each cell
(for the words: "pass@5 over 500 tasks, 16 attempts each") and no
``samples`` or ``within_var``: those describe a mean of samples, which a
pass@k is not, so ``within_item_share`` is not reported and
``power(n_samples=)`` is refused on these frames.

The checks are here; :mod:`pdcompare.inputs.items` calls them with a few
lines on each of its paths (pandas, dask, Arrow engines), all of which
reduce the rows to per-cell counts first.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import OptionError, check_option, warn
from pdcompare.inputs.items_design import _aligned, _positions, _stored_design
from pdcompare.stats.attempts import ESTIMANDS, estimand_label, estimate

__all__ = [
    "ESTIMANDS", "check_binary", "check_binary_cells", "check_estimand", "concat_estimand",
    "estimand_values", "kept_estimand",
]  # fmt: skip


def check_estimand(estimand: Any, k: Any) -> tuple[str, int | None]:
    """The validated ``estimand`` and ``k`` of ``from_items`` (``k`` only with pass@k, pass^k)."""
    check_option("estimand", estimand, ESTIMANDS)
    if estimand == "mean":
        if k is not None:
            msg = (
                f"`k`={k!r} is for `estimand='pass@k'` or `'pass^k'`; with the default "
                "`estimand='mean'` each item's score is the mean of its samples. Pass "
                "`estimand=` too, or leave out `k`."
            )
            raise OptionError(msg, keyword="k")
        return "mean", None
    if k is None:
        msg = (
            f"`estimand={estimand!r}` needs `k`, the number of attempts it speaks of "
            f"(pass@5: solved at least once in 5 tries); pass `k=`."
        )
        raise OptionError(msg, keyword="k")
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        msg = f"`k` must be a positive integer (the attempts pass@k counts); got {k!r}."
        raise OptionError(msg, keyword="k")
    return str(estimand), int(k)


def _not_binary(column: Any, model: Any, item: Any, value: Any, count: int, estimand: str) -> None:
    msg = (
        f"`estimand={estimand!r}` counts successes, so column {column!r} must hold 0/1 "
        f"(or booleans); model {model!r} scores item {item!r} "
        f"{'neither 0 nor 1' if value is None else repr(value)} ({count} such "
        "rows). Threshold a graded score first (`table[col] >= cut`), or use the default "
        "`estimand='mean'`."
    )
    raise ValueError(msg)


def check_binary(scores: np.ndarray, column: Any, estimand: str, models, items) -> None:
    """Refuse scores that are not 0/1; ``models`` and ``items``: (labels, codes of the rows)."""
    off = (scores != 0.0) & (scores != 1.0)
    if off.any():
        row = int(np.flatnonzero(off)[0])
        model, item = models[0][models[1][row]], items[0][items[1][row]]
        _not_binary(column, model, item, scores[row], int(off.sum()), estimand)


def check_binary_cells(cells: pd.DataFrame, keys: dict[str, Any], estimand: str) -> None:
    """The same refusal from an engine's reduction (its ``off`` column counts non-0/1 rows)."""
    off = cells["off"].to_numpy(dtype=float, na_value=0.0)
    if off.any():
        first = cells.iloc[int(np.flatnonzero(off)[0])]
        model, item = first[keys["model"]], first[keys["item"]]
        _not_binary(keys["score"], model, item, None, int(off.sum()), estimand)


def estimand_values(
    means: np.ndarray,
    counts: np.ndarray,
    *,
    estimand: str,
    k: int,
    models: pd.Index,
    items: pd.Index,
    nan_policy: str,
    sample: Any,
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """Each cell's estimate, the items kept, and what the design records.

    ``means`` are the cells' success rates and ``counts`` their attempts
    (every cell has at least one: missing items were handled before), so
    the successes are ``means · counts`` rounded. Cells with fewer than
    ``k`` attempts are refused, or (``nan_policy="omit"``) their items are
    left out for every model, counted in a warning and in the design.
    """
    most = int(counts.max())
    label = estimand_label(estimand, k)
    if k > most:
        how = " (without `sample=` each model answered each item once)" if sample is None else ""
        msg = (
            f"`k`={k} is more than the attempts of every model-item cell (at most {most}"
            f"{how}): {label} needs at least {k} attempts of an item. Pass `k=` at most {most}."
        )
        raise OptionError(msg, keyword="k")
    short = counts < k
    keep = ~short.any(axis=0)
    info: dict[str, Any] = {"estimand": estimand, "k": k}
    if short.any():
        row, col = np.argwhere(short)[0]
        said = (
            f"model {models[row]!r} has {int(counts[row, col])} attempts of item "
            f"{items[col]!r}, fewer than k={k} ({int(short.sum())} model-item cells have fewer)"
        )
        if nan_policy == "raise":
            msg = (
                f"{said[:1].upper()}{said[1:]}. {label} has no unbiased estimate from fewer "
                f"than {k} attempts: run more attempts, pass a smaller `k=`, or "
                "`nan_policy='omit'` to leave out the items where some model has too few."
            )
            raise ValueError(msg)
        if not keep.any():
            msg = f"{said}; no item has {k} attempts for every model, nothing is left to compare."
            raise ValueError(msg)
        dropped = int((~keep).sum())
        warn(
            f"`nan_policy='omit'`: {said}; left out the {dropped} items they are in (kept "
            f"{int(keep.sum())} of {len(items)})."
        )
        info["dropped_items"] = dropped
        means, counts = means[:, keep], counts[:, keep]
    successes = np.rint(means * counts)
    info["attempts"] = counts.astype(np.int64)
    return estimate(estimand, counts, successes, k), keep, info


def kept_estimand(frame: pd.DataFrame, stored: Any) -> dict[str, Any] | None:
    """The estimand, ``k`` and attempts a pass@k frame knows, for ``set_design(items=True)``.

    None on a frame of means; refused where the frame's labels no longer
    match its attempts (``set_design`` would otherwise turn a pass@k frame
    into one of mean scores without a word).
    """
    if stored is None:
        return None
    info = _stored_design(stored, frame)
    if info.estimand == "mean" or info.attempts is None:
        return None
    try:
        rows = _positions(info.models, frame.index, "models")
        columns = _positions(info.items, frame.columns, "items")
    except ValueError:
        msg = (
            f"This items frame holds {estimand_label(info.estimand, info.k)} per item, but its "
            "labels were changed since, so they no longer match its attempts; rebuild it with "
            "`pdcompare.from_items(..., estimand=, k=)`."
        )
        raise ValueError(msg) from None
    return {
        "estimand": info.estimand,
        "k": info.k,
        "attempts": _aligned(info.attempts, rows, columns),
    }


def concat_estimand(tasks: list, parts: list) -> dict[str, Any] | None:
    """The estimand of per-task items frames joined by ``concat_items``: one for all, or refused.

    ``parts`` are the tasks' :class:`~pdcompare.inputs.items_design.ItemsData`;
    their attempts are joined side by side as the values are.
    """
    said = [
        estimand_label(p.info.estimand, p.info.k) if p.attempts is not None else "mean"
        for p in parts
    ]
    if len(set(said)) > 1:
        shown = ", ".join(f"{task!r}: {label}" for task, label in zip(tasks, said, strict=True))
        msg = (
            f"The tasks hold different quantities per item ({shown}); an items frame holds "
            "one: rebuild them with the same `from_items(..., estimand=, k=)`."
        )
        raise ValueError(msg)
    if said[0] == "mean":
        return None
    return {
        "estimand": parts[0].info.estimand,
        "k": parts[0].info.k,
        "attempts": np.hstack([p.attempts for p in parts]).astype(np.int64),
    }

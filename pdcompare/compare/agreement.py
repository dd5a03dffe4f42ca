"""judge_agreement: how well each judge agrees with the human labels (DESIGN section 31).

A table with one row per graded cell (an item, or a model's answer to an
item), a column of human labels (NaN where unlabelled) and one column of
scores per judge gives one row per judge: the accuracy, Cohen's κ and
Krippendorff's α with cluster-bootstrap intervals, TPR and TNR of pass/fail
scores, and with several judges how many independent judges they are worth.
The columns are validated here and read as arrays; :func:`agreement_frame`
takes the arrays themselves (an items frame's labels and scores), and the
numbers come from ``stats/agreement.py``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import (
    check_fraction,
    check_option,
    check_positive_int,
    check_random_state,
)
from pdcompare.compare._common import seed_of
from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.frames import check_frame
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.labels import labelled_cells
from pdcompare.stats.agreement import LEVELS, MAX_CATEGORIES, agreement

__all__ = ["agreement_frame", "judge_agreement"]

#: The result's columns, in order (``effective_judges`` only with several judges).
COLUMNS = (
    "n_labelled", "accuracy", "kappa", "kappa_low", "kappa_high", "tpr", "tnr",
    "alpha", "alpha_low", "alpha_high", "effective_judges",
)  # fmt: skip


def _shown(columns: Sequence[Any]) -> str:
    names = [repr(c) for c in list(columns)[:10]]
    more = f" and {len(columns) - 10} more" if len(columns) > 10 else ""
    return ", ".join(names) + more


def _numbers(table: pd.DataFrame, column: Hashable, keyword: str) -> np.ndarray:
    """A column as floats (NaN missing), refused naming it when it holds other things."""
    values = table[column]
    if values.dtype == bool:
        return values.to_numpy(dtype=float)
    converted = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
    bad = np.isnan(converted) & values.notna().to_numpy()
    if bad.any():
        first = values[bad].iloc[0]
        msg = (
            f"`{keyword}`: column {column!r} holds {first!r}, not a number; give labels and "
            "scores as numbers on one scale (for example fail = 0, pass = 1)."
        )
        raise ValueError(msg)
    if np.isinf(converted).any():
        msg = f"`{keyword}`: column {column!r} holds an infinite value; give finite scores."
        raise ValueError(msg)
    return converted


def _judge_columns(table: pd.DataFrame, human: Hashable, judges: Any, cluster: Any) -> list:
    if judges is None:
        skip = {human, cluster}
        found = [
            c
            for c in table.columns
            if c not in skip
            and (pd.api.types.is_numeric_dtype(table[c]) or pd.api.types.is_bool_dtype(table[c]))
        ]
        if not found:
            msg = (
                f"`judges`: the table has no numeric column besides the human labels {human!r}"
                f" (its columns are {_shown(table.columns)}); pass `judges=` the list of the "
                "judges' score columns."
            )
            raise ValueError(msg)
        return found
    columns = [judges] if isinstance(judges, str) or not isinstance(judges, Sequence) else judges
    for column in columns:
        if not isinstance(column, Hashable) or column not in table.columns:
            msg = (
                f"`judges`: the table has no column {column!r} (its columns are "
                f"{_shown(table.columns)}); pass `judges=` the judges' score columns."
            )
            raise ValueError(msg)
        if column == human:
            msg = f"`judges` names the human labels {human!r}; list only the judges' columns."
            raise ValueError(msg)
    if len(set(columns)) < len(columns) or not columns:
        msg = f"`judges` must name distinct columns, at least one; got {list(columns)!r}."
        raise ValueError(msg)
    return list(columns)


def _check_labels(human: np.ndarray, judges: np.ndarray, names: list, human_name: Any) -> None:
    """Refuse labels the judges cannot be compared with, in one sentence each."""
    labelled = ~np.isnan(human)
    if not labelled.any():
        msg = (
            f"`human`: {human_name!r} has no label (all NaN); give the human labels of the "
            "labelled rows (NaN only where a row is unlabelled)."
        )
        raise ValueError(msg)
    scored = (~np.isnan(judges[:, labelled])).sum(axis=1)
    if (scored == 0).any():
        name = names[int(np.argmin(scored))]
        msg = (
            f"`judges`: {name!r} scores none of the {int(labelled.sum())} labelled rows; "
            "score the labelled items with it, or leave it out of `judges`."
        )
        raise ValueError(msg)
    low, high = np.nanmin(judges), np.nanmax(judges)
    outside = labelled & ((human < low) | (human > high))
    if outside.any():
        row = int(np.flatnonzero(outside)[0])
        msg = (
            f"`human`: label {human[row]:g} (row {row}) is outside the judges' scale "
            f"({low:g} to {high:g}); put the human labels on the judges' scale (the same "
            "number for the same grade)."
        )
        raise ValueError(msg)


def _check_categories(
    human: np.ndarray, judges: np.ndarray, level: str, names: list, human_name: Any
) -> None:
    if level == "interval":
        return
    values = np.concatenate([human[~np.isnan(human)], judges[~np.isnan(judges)]])
    distinct = np.unique(values).size
    if distinct > MAX_CATEGORIES:
        counts = [np.unique(row[~np.isnan(row)]).size for row in (human, *judges)]
        widest = int(np.argmax(counts))
        column = human_name if widest == 0 else names[widest - 1]
        msg = (
            f"`level`: Cohen's κ and {level} α need categories, but {column!r} takes "
            f"{counts[widest]} distinct values (the labels and scores {distinct}; more than "
            f"{MAX_CATEGORIES}: continuous scores); pass `level='interval'` for Krippendorff's "
            "α on continuous scores (κ, accuracy, TPR and TNR are then NaN), or leave a column "
            "that is no judge out of `judges`."
        )
        raise ValueError(msg)


def _json_number(value: float) -> float | None:
    return None if value is None or math.isnan(value) else float(value)


def agreement_frame(
    human: np.ndarray,
    judges: np.ndarray,
    names: Sequence[Hashable],
    *,
    clusters: np.ndarray | None = None,
    level: str = "nominal",
    ci: float = 0.95,
    n_resamples: int = 2000,
    random_state: Any = None,
    human_name: Hashable = "human",
) -> pd.DataFrame:
    """:func:`judge_agreement`'s result from arrays: the human labels and each judge's scores.

    Parameters
    ----------
    human : array-like, shape (N,)
        Human labels, NaN where a cell is unlabelled.
    judges : array-like, shape (J, N)
        Each judge's scores on the same cells, NaN where missing.
    names : sequence
        The judges' names (the result's index).
    clusters : array-like, shape (N,), optional
        Each cell's cluster (an item's id when the cells are answers of several
        models to the same items), resampled whole; NaN-free on labelled cells.
    level, ci, n_resamples, random_state
        As :func:`judge_agreement`.
    human_name : hashable
        What the human labels are called in error messages and the metadata.

    Returns
    -------
    pandas.DataFrame
        As :func:`judge_agreement`.

    Examples
    --------
    >>> import numpy as np
    >>> human = np.array([0.0] * 40 + [1.0] * 80)
    >>> judge = np.array([0.0] * 30 + [1.0] * 10 + [0.0] * 2 + [1.0] * 78)
    >>> result = agreement_frame(human, judge[None], ["judge"], random_state=0)
    >>> result[["n_labelled", "kappa", "tpr", "tnr"]].round(4)
           n_labelled   kappa    tpr   tnr
    judge
    judge         120  0.7632  0.975  0.75
    """
    level = check_option("level", level, LEVELS)
    ci = check_fraction("ci", ci)
    n_resamples = check_positive_int("n_resamples", n_resamples, minimum=2)
    rng = check_random_state(random_state)
    human = np.asarray(human, dtype=float)
    judges = np.atleast_2d(np.asarray(judges, dtype=float))
    names = list(names)
    if judges.shape != (len(names), human.size):
        msg = (
            f"`judges` must hold one row of {human.size} scores per name ({len(names)} "
            f"names); got shape {judges.shape}."
        )
        raise ValueError(msg)
    _check_labels(human, judges, names, human_name)
    _check_categories(human, judges, level, names, human_name)
    codes = None
    if clusters is not None:
        clusters = pd.Series(np.asarray(clusters, dtype=object))
        if clusters[~np.isnan(human)].isna().any():
            msg = "`cluster`: some labelled rows have no cluster; give every labelled row one."
            raise ValueError(msg)
        codes = pd.factorize(clusters)[0]
    found = agreement(
        human, judges, clusters=codes, level=level, ci=ci, n_resamples=n_resamples,
        random_state=rng,
    )  # fmt: skip
    return _result(found, names, human, codes, level, ci, n_resamples, random_state, human_name)


def _result(found, names, human, codes, level, ci, n_resamples, random_state, human_name):
    labelled = ~np.isnan(human)
    n_clusters = int(np.unique(codes[labelled]).size) if codes is not None else None
    columns = {name: getattr(found, name) for name in COLUMNS[:-1]}
    if len(names) > 1:
        columns["effective_judges"] = np.full(len(names), found.effective_judges)
    frame = pd.DataFrame(columns, index=pd.Index(names, name="judge"))
    alpha, low, high = found.alpha_all
    meta = results.result_meta(
        "judge_agreement",
        level=level,
        ci=ci,
        n_resamples=n_resamples,
        random_state=seed_of(random_state),
        interval="percentile bootstrap over " + ("clusters" if n_clusters else "labelled rows"),
        human=str(human_name),
        judges=[str(name) for name in names],
        n_items=int(labelled.sum()),
        n_clusters=n_clusters,
        clustered=n_clusters is not None,
        categorical=bool(np.isfinite(found.kappa).any() or level != "interval"),
        alpha_all=_json_number(alpha),
        alpha_all_low=_json_number(low),
        alpha_all_high=_json_number(high),
        n_raters=len(names) + 1,
        effective_judges=_json_number(found.effective_judges),
        mean_error_correlation=_json_number(found.mean_error_correlation),
    )
    return with_attrs(frame, meta)


def judge_agreement(
    table: pd.DataFrame,
    human: Hashable = "human",
    judges: Sequence[Hashable] | Hashable | None = None,
    *,
    cluster: Hashable | None = None,
    level: str = "nominal",
    ci: float = 0.95,
    n_resamples: int = 2000,
    random_state: Any = None,
) -> pd.DataFrame:
    """How well each judge agrees with the human labels: accuracy, Cohen's κ, Krippendorff's α.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per graded cell (an item, or a model's answer to an item): a
        column of human labels and one column of scores per judge on one
        scale (fail = 0, pass = 1; a grade 1 to 5); or a labelled items frame.
    human : hashable, default "human"
        The column of human labels, NaN where a row is unlabelled (only
        labelled rows are compared).
    judges : list of hashable, optional
        The judges' score columns; by default every numeric column but
        ``human`` and ``cluster``. On a labelled items frame: None (the
        frame's own judge) or a mapping of names to frames of other judges'
        scores (models × items, the frame's labels), compared beside it.
    cluster : hashable, optional
        A column of clusters (the item, when the rows are several models'
        answers to the same items; a passage shared by questions): the
        bootstrap resamples clusters whole.
    level : {"nominal", "ordinal", "interval"}, default "nominal"
        Krippendorff's level of measurement. ``"nominal"`` and ``"ordinal"``
        need categories (at most 20 distinct values); on continuous scores
        use ``"interval"`` (κ, accuracy, TPR and TNR are then NaN).
    ci : float, default 0.95
        Coverage of the bootstrap intervals.
    n_resamples : int, default 2000
        Bootstrap resamples (of labelled rows, or of clusters).
    random_state : None, int or numpy.random.Generator
        Seed of the resamples.

    Returns
    -------
    pandas.DataFrame
        One row per judge (index ``judge``, in the order given):
        ``n_labelled`` (labelled rows the judge scored), ``accuracy`` (share
        of exact agreement), ``kappa, kappa_low, kappa_high`` (Cohen's κ and
        its interval), ``tpr, tnr`` (scores of 0 and 1 only: the judge's pass
        rate on human passes, its fail rate on human fails; NaN otherwise),
        ``alpha, alpha_low, alpha_high`` (Krippendorff's α of the human and
        this judge), and with several judges ``effective_judges`` (the same
        in every row). ``attrs["pdcompare"]`` holds α over the human and all
        judges together (``alpha_all``, ``alpha_all_low``,
        ``alpha_all_high``) and ``mean_error_correlation`` (ρ̄);
        ``result.cmp.plot()`` draws κ and α per judge.

    Notes
    -----
    Cohen (1960): ``κ = (p_o - p_e)/(1 - p_e)``, ``p_o`` the share of
    agreement and ``p_e`` the share expected from the two raters' marginals
    (equal to ``sklearn.metrics.cohen_kappa_score``). Krippendorff's α in the
    coincidence-matrix form (Krippendorff 2011, "Computing Krippendorff's
    alpha-reliability"), which takes missing values (equal to the
    ``krippendorff`` package). The intervals are percentile intervals of a
    bootstrap over labelled rows, or over clusters resampled whole (Field &
    Welsh 2007); the unlabelled rows do not enter. ``effective_judges =
    k/(1 + (k - 1) ρ̄)`` (Kish's design effect), ρ̄ the mean pairwise
    correlation of the judges' errors (judge − human) over the labelled rows
    both scored: k judges whose errors are correlated ρ̄ average their errors
    away as well as ``effective_judges`` independent ones. On pass/fail
    scores the error's sign follows the human label (a false pass is +1, a
    false fail −1), so judges that err independently still have errors
    correlated by the class balance.

    Examples
    --------
    DESIGN section 31's reference: 120 labelled items, the human fails 40
    (the judge fails 30 of them, passes 10) and passes 80 (the judge fails 2,
    passes 78):

    >>> import pandas as pd
    >>> import pdcompare
    >>> table = pd.DataFrame({
    ...     "human": [0] * 40 + [1] * 80,
    ...     "judge": [0] * 30 + [1] * 10 + [0] * 2 + [1] * 78,
    ... })
    >>> result = pdcompare.judge_agreement(table, random_state=0)
    >>> result[["n_labelled", "accuracy", "kappa", "tpr", "tnr"]].round(4)
           n_labelled  accuracy   kappa    tpr   tnr
    judge
    judge         120       0.9  0.7632  0.975  0.75

    Compare with scikit-learn:

    >>> from sklearn.metrics import cohen_kappa_score
    >>> round(cohen_kappa_score(table["human"], table["judge"]), 4)
    0.7632

    On a labelled items frame (``from_items(..., human=)``) the frame's own
    scores are the judge, compared with the labels on every labelled
    model × item cell, the items (or their clusters) resampled whole:

    >>> judged = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "item": list("pqrs") * 2,
    ...                        "judge": [1, 1, 0, 0, 1, 0, 0, 1],
    ...                        "human": [1, 0, 0, None, 1, 0, 1, None]})
    >>> framed = pdcompare.from_items(judged, score="judge", human="human")
    >>> framed.cmp.judge_agreement(random_state=0)[["n_labelled", "accuracy"]].round(3)
           n_labelled  accuracy
    judge
    judge           6     0.667
    """
    check_frame(table)
    level = check_option("level", level, LEVELS)
    options = {"level": level, "ci": ci, "n_resamples": n_resamples, "random_state": random_state}
    if frame_kind(table) is FrameKind.ITEMS:
        return _items_agreement(table, human, judges, cluster, options)
    if not isinstance(human, Hashable):
        msg = f"`human` must name one column of human labels; got {human!r}."
        raise TypeError(msg)
    if human not in table.columns:
        msg = (
            f"`human`: the table has no column {human!r} (its columns are "
            f"{_shown(table.columns)}); pass `human=` the column of human labels."
        )
        raise ValueError(msg)
    if cluster is not None and not (isinstance(cluster, Hashable) and cluster in table.columns):
        msg = (
            f"`cluster`: the table has no column {cluster!r} (its columns are "
            f"{_shown(table.columns)}); pass `cluster=` the column of clusters, or None."
        )
        raise ValueError(msg)
    names = _judge_columns(table, human, judges, cluster)
    labels = _numbers(table, human, "human")
    scores = np.stack([_numbers(table, name, "judges") for name in names])
    return agreement_frame(
        labels,
        scores,
        names,
        clusters=None if cluster is None else table[cluster].to_numpy(),
        level=level,
        ci=ci,
        n_resamples=n_resamples,
        random_state=random_state,
        human_name=human,
    )


def _items_agreement(
    frame: pd.DataFrame, human: Any, judges: Any, cluster: Any, options: dict[str, Any]
) -> pd.DataFrame:
    """:func:`judge_agreement` of a labelled items frame: its judge (and others) on its labels.

    The cells are the labelled model × item answers; the bootstrap resamples
    items whole (the answers to one item share its difficulty), or the
    frame's clusters when it has them.
    """
    if human != "human" or cluster is not None:
        msg = (
            "`human` and `cluster` name columns of a table; a labelled items frame keeps its "
            "labels and clusters in its design: leave them out."
        )
        raise TypeError(msg)
    cells = labelled_cells(frame)
    names: list[Hashable] = ["judge"]
    scores = [cells.judge]
    if judges is not None:
        if not isinstance(judges, Mapping):
            msg = (
                "`judges` on a labelled items frame is a mapping of names to frames of other "
                f"judges' scores (models x items, like the frame); got {type(judges).__name__}."
            )
            raise TypeError(msg)
        for name, other in judges.items():
            scores.append(_other_judge(other, name, cells))
            names.append(name)
    n_models, n_items = cells.human.shape
    units = np.arange(n_items) if cells.cluster is None else cells.cluster
    return agreement_frame(
        cells.human.ravel(),
        np.stack([score.ravel() for score in scores]),
        names,
        clusters=np.tile(units, n_models),
        human_name="human labels",
        **options,
    )


def _other_judge(other: Any, name: Hashable, cells: Any) -> np.ndarray:
    """Another judge's scores on the labelled cells, refused naming what is missing."""
    if not isinstance(other, pd.DataFrame):
        msg = f"`judges`: {name!r} must be a frame of scores (models x items); got {other!r}."
        raise TypeError(msg)
    missing_models = cells.models.difference(other.index)
    missing_items = cells.items.difference(other.columns)
    if len(missing_models) or len(missing_items):
        what = list(missing_models[:3]) if len(missing_models) else list(missing_items[:3])
        kind = "models" if len(missing_models) else "labelled items"
        msg = (
            f"`judges`: {name!r} has no scores for the {kind} {what}; give every judge the "
            "frame's models and labelled items."
        )
        raise ValueError(msg)
    aligned = other.loc[cells.models, cells.items]
    return np.asarray(pd.DataFrame(aligned).apply(pd.to_numeric, errors="coerce"), dtype=float)

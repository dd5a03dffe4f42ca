"""Rank sets from published numbers: each model's score and its standard error.

A leaderboard, a paper's table or an aggregate Every Eval Ever file gives each
model's score with a standard error, not the per-item scores ``ranks`` needs.
``rank_sets`` gives DESIGN section 22's confidence sets for the ranks from
those numbers: the estimates' covariance is the diagonal of the squared
standard errors (independent estimates) unless ``cov`` is given, and the
core of ``ranks`` (``stats/rank_sets.py``) does the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from pdcompare import results
from pdcompare._validation import check_fraction, check_positive_int
from pdcompare.compare._common import seed_of
from pdcompare.stats.rank_sets import rank_confidence_sets

__all__ = ["rank_sets"]


def _named(values: Any, keyword: str) -> pd.Series:
    """``values`` as a float Series (a mapping or Series keeps its labels; else 0..m-1)."""
    if isinstance(values, pd.DataFrame):
        msg = f"`{keyword}` must be one value per model (a Series, mapping or list), not a frame."
        raise TypeError(msg)
    if isinstance(values, Mapping):
        values = pd.Series(dict(values))
    elif not isinstance(values, pd.Series):
        array = np.asarray(values)
        if array.ndim != 1:
            msg = f"`{keyword}` must be one value per model; got shape {array.shape}."
            raise ValueError(msg)
        values = pd.Series(array)
    converted = pd.to_numeric(values, errors="coerce").astype(float)
    bad = converted.isna() | ~np.isfinite(converted.to_numpy())
    if bad.any():
        msg = (
            f"`{keyword}` must hold finite numbers; model {converted.index[bad][0]!r} has "
            f"{values[bad].iloc[0]!r}."
        )
        raise ValueError(msg)
    return converted


def _aligned(se: pd.Series, names: pd.Index, positional: bool) -> np.ndarray:
    if positional or se.index.equals(names):
        if len(se) != len(names):
            msg = f"`se` has {len(se)} values for {len(names)} estimates; give one per model."
            raise ValueError(msg)
        return se.to_numpy()
    missing = names.difference(se.index)
    if len(missing):
        msg = f"`se` has no standard error for {list(missing)[:5]}; give one per model."
        raise ValueError(msg)
    return se.reindex(names).to_numpy()


def _covariance(se: Any, cov: Any, names: pd.Index, labelled: bool) -> tuple[np.ndarray, str]:
    m = len(names)
    if cov is not None:
        if isinstance(cov, pd.DataFrame) and labelled:
            cov = cov.reindex(index=names, columns=names)
        matrix = np.asarray(cov, dtype=float)
        if matrix.shape != (m, m) or not np.all(np.isfinite(matrix)):
            msg = (
                f"`cov` must be a finite {m} x {m} matrix (one row per model); got {matrix.shape}."
            )
            raise ValueError(msg)
        if not np.allclose(matrix, matrix.T, rtol=1e-8, atol=0.0):
            msg = "`cov` must be symmetric."
            raise ValueError(msg)
        if np.linalg.eigvalsh((matrix + matrix.T) / 2).min() < -1e-10 * np.abs(matrix).max():
            msg = "`cov` must be positive semi-definite (a covariance matrix)."
            raise ValueError(msg)
        return matrix, "given"
    if se is None:
        msg = "`se`: give the standard error of each estimate (or their covariance `cov=`)."
        raise ValueError(msg)
    errors = _aligned(_named(se, "se"), names, not isinstance(se, Mapping | pd.Series))
    if (errors < 0).any():
        msg = "`se` must hold non-negative standard errors."
        raise ValueError(msg)
    return np.diag(errors**2), "independent (published standard errors)"


def rank_sets(
    estimates: Any,
    se: Any = None,
    *,
    cov: Any = None,
    coverage: float = 0.95,
    simultaneous: bool = True,
    greater_is_better: bool = True,
    n_draws: int = 10000,
    random_state: Any = None,
) -> pd.DataFrame:
    """Confidence sets for the ranks of published scores, from their standard errors.

    Parameters
    ----------
    estimates : pandas.Series, mapping or array-like
        Each model's score (a Series indexed by model, a ``{model: score}``
        mapping, or a list: models 0..m-1).
    se : pandas.Series, mapping or array-like, optional
        Each score's standard error, matched to ``estimates`` by model name
        (by position for a list). The estimates are taken as independent.
    cov : array-like or pandas.DataFrame, optional
        The covariance of the estimates (m x m; a frame is matched by model
        name), when they are not independent (scored on the same items).
        Given, it replaces ``se``.
    coverage : float, default 0.95
        Probability that the sets cover the true ranks.
    simultaneous : bool, default True
        True: the sets hold jointly for every model; False: each for itself.
    greater_is_better : bool, default True
        False when a lower score is better.
    n_draws : int, default 10000
        Normal draws for the quantile of the maximum (at least 100).
    random_state : None, int or numpy.random.Generator
        Seed of the draws.

    Returns
    -------
    pandas.DataFrame
        As :func:`pdcompare.ranks`: indexed by model, best first,
        ``estimate, rank, rank_low, rank_high``; ``result.cmp.plot()`` draws
        the sets. ``attrs["pdcompare"]["covariance"]`` says which covariance
        was used.

    Notes
    -----
    Mogstad, Romano, Shaikh & Wilhelm (2024), "Inference for ranks", Review
    of Economic Studies: the same step-down as :func:`pdcompare.ranks`, with
    Σ = diag(se²). For two independent models the leader's set is {1}
    exactly when (x₁ − x₂)/√(se₁² + se₂²) exceeds the normal
    ``(1 + coverage)/2`` quantile (1.96 at 95 %).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> scores = pd.Series({"a": 0.81, "b": 0.78, "c": 0.70})
    >>> errors = pd.Series({"a": 0.01, "b": 0.01, "c": 0.01})
    >>> pdcompare.rank_sets(scores, errors, random_state=0)
           estimate  rank  rank_low  rank_high
    model
    a          0.81     1         1          2
    b          0.78     2         1          2
    c          0.70     3         3          3

    a and b are 0.03 apart, 2.1 standard errors of their difference: not enough
    for simultaneous sets over three models, so either may be the best.
    """
    coverage = check_fraction("coverage", coverage)
    check_positive_int("n_draws", n_draws, minimum=100)
    if not isinstance(greater_is_better, bool | np.bool_):
        msg = f"`greater_is_better` must be True or False; got {greater_is_better!r}."
        raise TypeError(msg)
    labelled = isinstance(estimates, Mapping | pd.Series)
    values = _named(estimates, "estimates")
    names = pd.Index(values.index)
    if len(names) < 2 or names.has_duplicates:
        msg = f"`estimates` must name at least 2 distinct models; got {list(names)[:5]}."
        raise ValueError(msg)
    matrix, kind = _covariance(se, cov, names, labelled)
    estimate = values.to_numpy()
    rank, low, high = rank_confidence_sets(
        estimate,
        matrix,
        coverage=coverage,
        simultaneous=bool(simultaneous),
        n_draws=int(n_draws),
        random_state=random_state,
        higher_is_better=bool(greater_is_better),
    )
    key = estimate if greater_is_better else -estimate
    order = np.lexsort((np.arange(key.size), -key))
    ordered = np.asarray(names, dtype=object)[order]
    meta = results.result_meta(
        "ranks",
        scope="all",
        coverage=coverage,
        simultaneous=bool(simultaneous),
        n_draws=int(n_draws),
        random_state=seed_of(random_state),
        covariance=kind,
        frame_kind="published",
        unit="model",
        models=ordered.tolist(),
        greater_is_better=bool(greater_is_better),
    )
    columns = {
        "estimate": estimate[order],
        "rank": rank[order],
        "rank_low": low[order],
        "rank_high": high[order],
    }
    return results.model_result(pd.Index(ordered, name="model"), columns, meta)

"""The drop rule of a race: one-sided corrected t-tests against the current best, Holm.

The Holm-adjusted p-values are multiplied by the number of candidates the
best was chosen from (see :func:`look`), so that the chance of ever dropping a
candidate as good as the best stays at most ``alpha`` over the race.

Pure numpy, vectorised over a leading batch axis (many races at once) and over
the candidates of each race, so that the search, the pruner and the validity
simulation share one rule.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from pdcompare.stats._common import nadeau_bengio_variance, t_pvalue
from pdcompare.stats.spending import critical_values, upper_tail


class Look(NamedTuple):
    """What one look of a race decides, per candidate (arrays of shape ``(..., c)``).

    ``best`` has shape ``(...)``: the position of the current best candidate.
    ``pvalue`` and ``pvalue_adj`` are NaN for the best and for candidates not
    running (``pvalue_adj``: Holm over the others, times the number of
    candidates the best was chosen from); ``drop`` is True for the candidates
    dropped at this look.
    """

    best: np.ndarray
    pvalue: np.ndarray
    pvalue_adj: np.ndarray
    drop: np.ndarray


def planned_looks(n_splits: int, min_splits: int) -> int:
    """How many looks a race of ``n_splits`` splits plans: one a split from ``min_splits`` on.

    Examples
    --------
    >>> planned_looks(10, 5)
    6
    """
    return max(int(n_splits) - int(min_splits) + 1, 1)


def look_level(alpha: float, n_splits: int, min_splits: int) -> float:
    """The level of each look: ``alpha`` spent equally over the planned looks (Bonferroni).

    Examples
    --------
    >>> round(look_level(0.05, 10, 5), 6)
    0.008333
    """
    return float(alpha) / planned_looks(n_splits, min_splits)


def look_bounds(
    alpha: float, n_splits: int, min_splits: int, spending: str = "bonferroni"
) -> np.ndarray:
    """The normal critical value of each planned look, ``alpha`` spent by ``spending``.

    The looks follow splits ``min_splits, …, n_splits``, at information
    fractions ``k / n_splits``; the design is two-sided at ``alpha`` (the
    race's test is one-sided, but the factor of :func:`look` makes it a
    choice between two directions: see there).

    Examples
    --------
    >>> np.round(look_bounds(0.05, 10, 6, "pocock"), 3).tolist()
    [2.103, 2.343, 2.391, 2.409, 2.416]
    >>> np.round(look_bounds(0.05, 10, 6, "bonferroni"), 3).tolist()
    [2.576, 2.576, 2.576, 2.576, 2.576]
    """
    first = min(int(min_splits), int(n_splits))
    fractions = np.arange(first, int(n_splits) + 1) / int(n_splits)
    return critical_values(fractions, float(alpha), spending)


def look_levels(
    alpha: float, n_splits: int, min_splits: int, spending: str = "bonferroni"
) -> np.ndarray:
    """The level of each planned look: the normal bound's two-sided tail, ``2(1 − Φ(c_k))``.

    With the t statistics of few splits the bound is applied to the p-value:
    a look compares its adjusted p-values (:func:`look`) with this level.
    ``"bonferroni"`` gives ``alpha`` over the number of looks.

    Examples
    --------
    >>> np.round(look_levels(0.05, 10, 6, "bonferroni"), 4).tolist()
    [0.01, 0.01, 0.01, 0.01, 0.01]
    >>> np.round(look_levels(0.05, 10, 6, "obf"), 4).tolist()
    [0.0076, 0.0125, 0.0196, 0.0281, 0.0375]
    """
    return 2.0 * upper_tail(look_bounds(alpha, n_splits, min_splits, spending))


def drop_difference(
    scores: np.ndarray, running: np.ndarray, test_train_ratio: float, level: float
) -> float:
    """The smallest difference from the best that a look at ``level`` drops a candidate for.

    For each running candidate but the best: the corrected standard error
    of its difference with the best on these splits, times the t quantile
    that the first step of Holm (over the ``r − 1`` others, times the ``r``
    the best was chosen from) needs; the smallest over the candidates (NaN
    with fewer than two running candidates).

    Examples
    --------
    >>> s = np.array([[0.90, 0.92, 0.91, 0.90], [0.80, 0.81, 0.79, 0.80]])
    >>> round(drop_difference(s, np.ones(2, bool), 1 / 3, 0.05), 4)
    0.0233
    """
    from scipy import special  # on use: `import pdcompare` loads no scipy

    scores = np.asarray(scores, dtype=float)
    running = np.asarray(running, dtype=bool)
    r = int(running.sum())
    k = scores.shape[-1]
    if r < 2 or k < 2:
        return float("nan")
    means = scores.mean(axis=-1)
    best = int(np.argmax(np.where(running, means, -np.inf)))
    others = running.copy()
    others[best] = False
    diff = scores[best] - scores[others]
    se = np.sqrt(nadeau_bengio_variance(diff.var(axis=-1, ddof=1), k, test_train_ratio))
    quantile = special.stdtrit(k - 1, 1.0 - level / (r * (r - 1)))  # the t's upper quantile
    return float(np.nanmin(quantile * se)) if np.isfinite(se).any() else float("nan")


def holm_rows(pvalues: np.ndarray) -> np.ndarray:
    """Holm's adjusted p-values along the last axis; NaN entries are left out of each family.

    Examples
    --------
    >>> holm_rows(np.array([[0.01, 0.04, np.nan, 0.03], [0.2, np.nan, 0.01, 0.5]])).tolist()
    [[0.03, 0.06, nan, 0.06], [0.4, nan, 0.02, 0.5]]
    """
    pvalues = np.asarray(pvalues, dtype=float)
    missing = np.isnan(pvalues)
    size = (~missing).sum(axis=-1, keepdims=True)
    order = np.argsort(np.where(missing, np.inf, pvalues), axis=-1, kind="stable")
    ranked = np.take_along_axis(pvalues, order, axis=-1)
    # The k-th smallest of m p-values (k from 0) is multiplied by m - k.
    multiplier = size - np.arange(pvalues.shape[-1])
    ranked = np.where(np.isnan(ranked), np.nan, ranked * np.maximum(multiplier, 1))
    ranked = np.fmax.accumulate(ranked, axis=-1)
    ranked = np.minimum(ranked, 1.0)
    adjusted = np.empty_like(ranked)
    np.put_along_axis(adjusted, order, ranked, axis=-1)
    return np.where(missing, np.nan, adjusted)


def corrected_pvalues_against_best(
    scores: np.ndarray, running: np.ndarray, test_train_ratio: float
) -> tuple[np.ndarray, np.ndarray]:
    """One-sided corrected t-test of the current best against every other running candidate.

    Parameters
    ----------
    scores : ndarray of shape (..., c, k)
        Each candidate's scores on the ``k`` splits run so far (higher is better).
    running : ndarray of bool, shape (..., c)
        Which candidates are still in the race.
    test_train_ratio : float
        ``n_test / n_train`` of the splits (Nadeau–Bengio).

    Returns
    -------
    best : ndarray of int, shape (...)
        The running candidate with the highest mean.
    pvalue : ndarray, shape (..., c)
        P(T >= t) for ``t`` the corrected t statistic of ``best − candidate``
        with ``k − 1`` degrees of freedom; NaN for the best and for candidates
        not running. A zero variance of the differences gives 0 when the
        best's mean is higher, 0.5 when the means are equal.

    Examples
    --------
    >>> s = np.array([[0.90, 0.92, 0.91], [0.80, 0.83, 0.79], [0.91, 0.90, 0.93]])
    >>> best, p = corrected_pvalues_against_best(s, np.ones(3, bool), 0.5)
    >>> int(best), np.round(p, 4).tolist()
    (2, [0.4385, 0.0398, nan])
    """
    scores = np.asarray(scores, dtype=float)
    running = np.asarray(running, dtype=bool)
    k = scores.shape[-1]
    means = scores.mean(axis=-1)
    best = np.argmax(np.where(running & ~np.isnan(means), means, -np.inf), axis=-1)
    best_scores = np.take_along_axis(scores, best[..., None, None], axis=-2)
    diff = best_scores - scores  # best − candidate, per split
    mean = diff.mean(axis=-1)
    variance = diff.var(axis=-1, ddof=1) if k > 1 else np.full_like(mean, np.nan)
    se = np.sqrt(nadeau_bengio_variance(variance, k, test_train_ratio))
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = mean / se
    # Identical differences on every split: a sure sign, or no difference at all.
    sign = np.where(mean > 0, np.inf, np.where(mean < 0, -np.inf, 0.0))
    statistic = np.where(se == 0, sign, statistic)
    pvalue = t_pvalue(statistic, k - 1, "greater")
    # A failed fit (NaN score) cannot be tested: it stays in the family as p = 1.
    pvalue = np.where(np.isnan(pvalue), 1.0, pvalue)
    others = running.copy()
    np.put_along_axis(others, best[..., None], False, axis=-1)
    return best, np.where(others, pvalue, np.nan)


def look(
    scores: np.ndarray,
    running: np.ndarray,
    test_train_ratio: float,
    level: float,
    chosen_from: int | np.ndarray | None = None,
) -> Look:
    """One look of a race: which running candidates the corrected test drops at ``level``.

    Every running candidate but the current best is tested (one-sided
    corrected t, :func:`corrected_pvalues_against_best`); the p-values are
    Holm-adjusted over those candidates and multiplied by the number of
    candidates the best was chosen from (``chosen_from``, by default the
    running ones), and a candidate is dropped when its adjusted p-value is at
    most ``level``.

    The factor counts the choice of the best: the best is the candidate with
    the highest mean *on these scores*, so a one-sided test against it is a
    test in the direction the data chose. With two equal candidates the test
    without it rejects at twice its level (it is a two-sided test), and with
    20 it drops one of 20 equal candidates in about 20 % of the races (the
    validity study, ``benchmarks/validity_race.py``). Any drop among equal
    candidates needs some ordered pair ``(b, j)`` of running candidates to
    reject; Holm over the ``j`` for each of the ``r`` possible ``b`` at
    ``level / r`` bounds that chance by ``level``.

    Examples
    --------
    >>> s = np.array([[0.90, 0.92, 0.91, 0.90], [0.80, 0.81, 0.79, 0.80],
    ...               [0.91, 0.90, 0.93, 0.92]])
    >>> look(s, np.ones(3, bool), 1 / 3, 0.05).drop.tolist()
    [False, True, False]
    """
    best, pvalue = corrected_pvalues_against_best(scores, running, test_train_ratio)
    if chosen_from is None:
        chosen_from = np.asarray(running, dtype=bool).sum(axis=-1)
    factor = np.asarray(chosen_from, dtype=float)[..., None]
    adjusted = np.minimum(holm_rows(pvalue) * factor, 1.0)
    drop = np.nan_to_num(adjusted, nan=np.inf) <= level
    return Look(best, pvalue, adjusted, drop)


def race(
    scores: np.ndarray,
    test_train_ratio: float,
    *,
    alpha: float = 0.05,
    min_splits: int = 5,
    spending: str = "bonferroni",
) -> np.ndarray:
    """Run races on complete score matrices: the split at which each candidate is dropped.

    Parameters
    ----------
    scores : ndarray of shape (..., c, n)
        The scores every candidate would get on each of the ``n`` splits
        (higher is better); a race reads them split by split.
    test_train_ratio : float
        ``n_test / n_train`` of the splits.
    alpha : float
        The chance, over the whole race, of ever dropping a candidate as good
        as the best: each of the ``n − min_splits + 1`` looks tests at
        ``alpha`` divided by their number (Holm over the other running
        candidates, times the number running: :func:`look`).
    min_splits : int
        The first look follows this many splits.
    spending : {"bonferroni", "pocock", "obf"}
        How ``alpha`` is spent over the looks (:func:`look_levels`); the
        searches' default is ``"pocock"``, this core's the equal shares.

    Returns
    -------
    ndarray of shape (..., c)
        The number of splits each candidate ran when it was dropped, NaN for
        the candidates still running at the end.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> s = rng.normal([[0.9], [0.9], [0.7]], 0.01, size=(3, 10))
    >>> race(s, 1 / 9, alpha=0.05, min_splits=3).tolist()
    [nan, nan, 4.0]
    """
    scores = np.asarray(scores, dtype=float)
    n = scores.shape[-1]
    levels = look_levels(alpha, n, min_splits, spending)
    first = min(min_splits, n)
    running = np.ones(scores.shape[:-1], dtype=bool)
    dropped_at = np.full(scores.shape[:-1], np.nan)
    for k in range(first, n + 1):
        drop = look(scores[..., :k], running, test_train_ratio, levels[k - first]).drop
        dropped_at[drop] = k
        running &= ~drop
    return dropped_at

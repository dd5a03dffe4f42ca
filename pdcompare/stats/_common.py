"""Helpers shared by the tests of the core: tails, t p-values and intervals.

All functions take and return numpy arrays and broadcast, so one call serves
every pair of models at once.
"""

from __future__ import annotations

import numpy as np

from pdcompare.stats import _special as special
from pdcompare.stats._student import t_quantile

#: The alternatives of every test of the core, as in scipy.
TAILS = ("two-sided", "greater", "less")


def tails(alternative: str) -> int:
    """2 for a two-sided test, 1 for a one-sided one; an unknown alternative is refused.

    Examples
    --------
    >>> tails("two-sided"), tails("less")
    (2, 1)
    """
    if alternative not in TAILS:
        msg = f"`alternative` must be one of {', '.join(map(repr, TAILS))}; got {alternative!r}."
        raise ValueError(msg)
    return 2 if alternative == "two-sided" else 1

ALTERNATIVES = ("two-sided", "greater", "less")


def t_pvalue(statistic, df, alternative: str) -> np.ndarray:
    """P-value of a Student t statistic with ``df`` degrees of freedom.

    ``alternative`` is about the sign of the statistic as in scipy: "greater"
    tests whether the location is greater than zero. An infinite statistic
    gives 0 (or 1 against its direction); NaN propagates.

    Examples
    --------
    >>> float(t_pvalue(2.0, 10, "greater")).__round__(6)
    0.036694
    """
    statistic = np.asarray(statistic, dtype=float)
    df = np.asarray(df, dtype=float)
    if alternative == "greater":
        return special.stdtr(df, -statistic)
    if alternative == "less":
        return special.stdtr(df, statistic)
    return np.minimum(2.0 * special.stdtr(df, -np.abs(statistic)), 1.0)


def t_confidence_interval(
    estimate, standard_error, df, confidence: float, alternative: str
) -> tuple[np.ndarray, np.ndarray]:
    """Confidence interval ``estimate ± t_q · se`` for a t-distributed estimate.

    One-sided like scipy's ``TtestResult.confidence_interval``: "greater" gives
    ``(low, inf)``, "less" gives ``(-inf, high)``. A zero standard error gives
    the point ``(estimate, estimate)``.
    """
    estimate = np.asarray(estimate, dtype=float)
    standard_error = np.asarray(standard_error, dtype=float)
    df = np.asarray(df, dtype=float)
    quantile = t_quantile(df, 0.5 + confidence / 2.0 if alternative == "two-sided" else confidence)
    with np.errstate(invalid="ignore"):
        # 0 * inf would be NaN when df is tiny; a zero standard error is a point.
        half_width = np.where(standard_error == 0.0, 0.0, quantile * standard_error)
    low = estimate - half_width
    high = estimate + half_width
    if alternative == "greater":
        high = np.full_like(high, np.inf)
    elif alternative == "less":
        low = np.full_like(low, -np.inf)
    return low, high


def nadeau_bengio_variance(variance, n_splits, test_train_ratio) -> np.ndarray:
    """Variance of the mean over correlated CV splits, corrected by Nadeau and Bengio.

    ``variance · (1/n + n_test/n_train)`` with ``variance`` the sample variance
    (ddof=1) over ``n`` splits. The naive ``variance / n`` assumes independent
    splits; the extra ``n_test/n_train`` term accounts for the overlap of the
    training sets (Nadeau & Bengio 2003; Bouckaert & Frank 2004).
    """
    n_splits = np.asarray(n_splits, dtype=float)
    return np.asarray(variance, dtype=float) * (1.0 / n_splits + test_train_ratio)


def welch_df(part_1, part_2, n_1, n_2) -> np.ndarray:
    """Welch–Satterthwaite degrees of freedom from each sample's ``s² / n`` and its size.

    ``(p1 + p2)² / (p1² / (n1 − 1) + p2² / (n2 − 1))`` with ``p = s² / n``.

    Examples
    --------
    >>> round(float(welch_df(1.0 / 10, 4.0 / 12, 10, 12)), 3)
    16.748
    """
    part_1, part_2 = np.asarray(part_1, dtype=float), np.asarray(part_2, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (part_1 + part_2) ** 2 / (part_1**2 / (n_1 - 1) + part_2**2 / (n_2 - 1))


def margin_shift(
    estimate, identical, margin: float | None, alternative: str
) -> tuple[np.ndarray, str, np.ndarray]:
    """The estimate shifted by a non-inferiority margin, the tail of its p-value, the null pairs.

    With ``margin`` None the test is unchanged: ``(estimate, alternative,
    identical)``. With a margin (≥ 0, checked by the caller) and
    ``alternative="greater"`` the null hypothesis is ``μ ≤ −margin`` and the
    statistic's numerator ``estimate + margin``; with ``"less"`` (a loss,
    lower is better) the null is ``μ ≥ margin`` and the numerator
    ``margin − estimate``. Both are positive in favour of model_1, so the
    p-value is the upper tail ("greater"). Pairs with identical scores keep
    statistic 0 and p-value 1 only when the margin is 0 (a positive margin
    makes identical models non-inferior). Every test with a margin shifts
    here, so they agree on the sign and the tail.

    Examples
    --------
    >>> shifted, tail, null = margin_shift(np.array([-0.01]), np.array([False]), 0.02, "greater")
    >>> shifted.round(6), tail
    (array([0.01]), 'greater')
    >>> margin_shift(np.array([0.01]), np.array([False]), 0.02, "less")[0].round(6)
    array([0.01])
    """
    estimate = np.asarray(estimate, dtype=float)
    identical = np.asarray(identical, dtype=bool)
    if margin is None:
        return estimate, alternative, identical
    if alternative == "greater":
        shifted = estimate + margin
    elif alternative == "less":
        shifted = margin - estimate
    else:
        msg = f"a non-inferiority margin needs a one-sided alternative; got {alternative!r}."
        raise ValueError(msg)
    null = identical if margin == 0 else np.zeros_like(identical)
    return shifted, "greater", null

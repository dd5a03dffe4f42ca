"""Dietterich's 5x2cv paired t-test and Alpaydin's combined 5x2cv F-test.

Both tests take the score differences of pairs of models on five repetitions
of 2-fold cross-validation, as an array of shape ``(pairs, repeats, 2)``, and
work on every pair at once. The sign convention is scipy's: differences are
``model_1 - model_2``, so a positive statistic favours model_1.

A repeat with a missing difference (NaN in either fold) is left out of that
pair's computation; the degrees of freedom count the repeats that remain
(5 and (10, 5) when none is missing), and a pair with no complete repeat gets
NaN results.
"""

from __future__ import annotations

import numpy as np

from pdcompare._validation import check_option
from pdcompare.stats import _special as special
from pdcompare.stats._common import ALTERNATIVES, t_pvalue


def _five_by_two_iv(differences) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate the differences; return them, the mask of complete repeats and its count."""
    differences = np.asarray(differences, dtype=float)
    if differences.ndim < 2 or differences.shape[-1] != 2:
        msg = (
            "`differences` must have shape (..., repeats, 2): the score differences of "
            f"each fold of each repetition of 2-fold cross-validation; got {differences.shape}."
        )
        raise ValueError(msg)
    complete = ~np.isnan(differences).any(axis=-1)
    return differences, complete, complete.sum(axis=-1)


def _repeat_statistics(differences, complete) -> tuple[np.ndarray, np.ndarray]:
    """Per repeat ``s_i²`` and ``d_i1² + d_i2²`` (0 for an incomplete repeat)."""
    with np.errstate(invalid="ignore"):
        repeat_mean = differences.mean(axis=-1, keepdims=True)
        variance = np.sum((differences - repeat_mean) ** 2, axis=-1)
        squares = np.sum(differences**2, axis=-1)
    return np.where(complete, variance, 0.0), np.where(complete, squares, 0.0)


def _mean_difference(differences, complete, count) -> np.ndarray:
    totals = np.sum(np.where(complete[..., None], differences, 0.0), axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, totals / (2.0 * count), np.nan)


def paired_ttest_5x2cv(differences, *, alternative: str = "two-sided") -> dict[str, np.ndarray]:
    """Dietterich's 5x2cv paired t-test, for every pair at once.

    Parameters
    ----------
    differences : array_like, shape (..., repeats, 2)
        Score differences ``model_1 - model_2`` on each of the two folds of each
        repetition of 2-fold cross-validation (5 repeats in Dietterich's test).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        "greater" tests whether model_1 scores higher than model_2.

    Returns
    -------
    dict of numpy.ndarray
        ``mean_diff`` (mean of all differences), ``statistic``, ``df`` (the
        number of complete repeats, 5 normally), ``pvalue`` and
        ``zero_variance`` (pairs whose differences agree within every repeat:
        their statistic is 0 when the first difference is 0, else infinite).

    Notes
    -----
    With ``d_ij`` the difference on fold ``j`` of repeat ``i``,
    ``d̄_i = (d_i1 + d_i2) / 2`` and ``s_i² = (d_i1 − d̄_i)² + (d_i2 − d̄_i)²``,

    ``t = d_11 / sqrt((1/5) Σ_i s_i²)``,

    Student t with 5 degrees of freedom under the null hypothesis of equal
    performance (Dietterich 1998). Only the first fold of the first repeat
    enters the numerator, as in Dietterich's paper and in
    ``mlxtend.evaluate.paired_ttest_5x2cv``. Repeats with a missing difference
    are skipped: the numerator is then the first fold of the first complete
    repeat and the degrees of freedom are the number of complete repeats.

    References
    ----------
    T. G. Dietterich, "Approximate statistical tests for comparing supervised
    classification learning algorithms", Neural Computation 10(7), 1998.

    Examples
    --------
    >>> d = np.array([[0.02, 0.01], [0.03, 0.0], [0.01, 0.02], [0.02, 0.02], [0.0, 0.03]])
    >>> out = paired_ttest_5x2cv(d)
    >>> round(float(out["statistic"]), 4), round(float(out["pvalue"]), 4)
    (1.4142, 0.2164)

    Compare with the formula and ``scipy.stats.t``:

    >>> from scipy import stats
    >>> s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    >>> t = d[0, 0] / np.sqrt(s2.mean())
    >>> round(float(t), 4), round(float(2 * stats.t.sf(abs(t), 5)), 4)
    (1.4142, 0.2164)
    """
    check_option("alternative", alternative, ALTERNATIVES)
    differences, complete, count = _five_by_two_iv(differences)
    variance, _ = _repeat_statistics(differences, complete)
    # The numerator is the first fold of the first complete repeat (d_11 when nothing is missing).
    first = np.argmax(complete, axis=-1)
    first_fold = np.take_along_axis(differences[..., 0], first[..., None], axis=-1)[..., 0]
    numerator = np.where(count > 0, first_fold, np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        denominator = np.sqrt(np.sum(variance, axis=-1) / count)
        zero_variance = (denominator == 0.0) & (count > 0)
        # Differences equal within every repeat: 0 when the numerator is 0, else ±inf.
        statistic = np.where(
            zero_variance,
            np.where(numerator == 0.0, 0.0, np.sign(numerator) * np.inf),
            numerator / denominator,
        )
    df = np.where(count > 0, count, np.nan).astype(float)
    pvalue = t_pvalue(statistic, df, alternative)
    # 0/0 carries no evidence in either direction: p is 1 whatever the alternative.
    pvalue = np.where(zero_variance & (statistic == 0.0), 1.0, pvalue)
    return {
        "mean_diff": _mean_difference(differences, complete, count),
        "statistic": statistic,
        "df": df,
        "pvalue": pvalue,
        "zero_variance": zero_variance,
    }


def combined_ftest_5x2cv(differences) -> dict[str, np.ndarray]:
    """Alpaydin's combined 5x2cv F-test, for every pair at once.

    Parameters
    ----------
    differences : array_like, shape (..., repeats, 2)
        Score differences ``model_1 - model_2`` on each of the two folds of each
        repetition of 2-fold cross-validation (5 repeats in Alpaydin's test).

    Returns
    -------
    dict of numpy.ndarray
        ``mean_diff``, ``statistic``, ``df_num`` (10 normally), ``df_den`` (5
        normally), ``pvalue`` and ``zero_variance`` (pairs whose differences
        agree within every repeat: statistic 0 if all differences are 0, else
        infinite).

    Notes
    -----
    With ``d_ij`` and ``s_i²`` as in :func:`paired_ttest_5x2cv`,

    ``f = Σ_i Σ_j d_ij² / (2 Σ_i s_i²)``,

    F-distributed with (10, 5) degrees of freedom under the null hypothesis
    (Alpaydin 1999). The statistic uses all ten differences, unlike
    Dietterich's t, which makes the test more powerful and more stable. It is
    inherently two-sided: squared differences cannot tell which model is
    better, so the p-value is ``P(F > f)``. With ``r`` complete repeats the
    degrees of freedom are ``(2r, r)``.

    References
    ----------
    E. Alpaydin, "Combined 5x2 cv F test for comparing supervised
    classification learning algorithms", Neural Computation 11(8), 1999.

    Examples
    --------
    >>> d = np.array([[0.02, 0.01], [0.03, 0.0], [0.01, 0.02], [0.02, 0.02], [0.0, 0.03]])
    >>> out = combined_ftest_5x2cv(d)
    >>> round(float(out["statistic"]), 4), round(float(out["pvalue"]), 4)
    (1.8, 0.2681)

    Compare with the formula and ``scipy.stats.f``:

    >>> from scipy import stats
    >>> s2 = ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    >>> f = (d**2).sum() / (2 * s2.sum())
    >>> round(float(f), 4), round(float(stats.f.sf(f, 10, 5)), 4)
    (1.8, 0.2681)
    """
    differences, complete, count = _five_by_two_iv(differences)
    variance, squares = _repeat_statistics(differences, complete)
    numerator = np.sum(squares, axis=-1)
    denominator = 2.0 * np.sum(variance, axis=-1)
    has_data = count > 0
    zero_variance = (denominator == 0.0) & has_data
    with np.errstate(invalid="ignore", divide="ignore"):
        statistic = np.where(
            zero_variance, np.where(numerator == 0.0, 0.0, np.inf), numerator / denominator
        )
    statistic = np.where(has_data, statistic, np.nan)
    df_num = np.where(has_data, 2.0 * count, np.nan)
    df_den = np.where(has_data, 1.0 * count, np.nan)
    return {
        "mean_diff": _mean_difference(differences, complete, count),
        "statistic": statistic,
        "df_num": df_num,
        "df_den": df_den,
        # fdtrc is the F survival function (scipy.stats.f.sf); it gives 0 at +inf.
        "pvalue": special.fdtrc(df_num, df_den, statistic),
        "zero_variance": zero_variance,
    }

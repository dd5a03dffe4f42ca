"""Multiple-testing correction: one wrapper around statsmodels' ``multipletests``, and Shaffer.

statsmodels defaults to Holm–Šidák, counts NaN p-values as tests and reports an
unknown method as "method not recognized". This wrapper always passes the
method, leaves NaN p-values out of the family and names the valid methods.
Every name and alias the installed statsmodels accepts is accepted (read from
``statsmodels.stats.multitest.multitest_alias`` when needed), plus
``"shaffer"`` (Shaffer's static procedure for all pairs of models, computed
here) and None / ``"none"`` (no correction).
"""

from __future__ import annotations

from functools import lru_cache
from math import comb

import numpy as np

from pdcompare._validation import check_correction


def adjust_pvalues(
    pvalues, method: str | None, alpha: float = 0.05, n_models: int | None = None
) -> np.ndarray:
    """Adjust ``pvalues`` for multiple testing with ``method``.

    NaN p-values are left out of the family and stay NaN. ``method=None``
    (or "none") returns the p-values unchanged (as a new array). ``alpha``
    matters only for the adaptive FDR methods ("fdr_tsbh", "fdr_tsbky",
    "fdr_gbs"). ``n_models`` is needed by "shaffer" only: the p-values are
    then those of all ``n_models (n_models - 1) / 2`` pairs of ``n_models``
    models (see ``shaffer``).

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, np.nan], "bonferroni").tolist()
    [0.02, 0.08, nan]
    >>> adjust_pvalues([0.01, 0.02, 0.03], "shaffer", n_models=3).tolist()
    [0.03, 0.03, 0.03]
    """
    method = check_correction(method)
    pvalues = np.array(pvalues, dtype=float)  # a copy: the caller's array stays as it is
    if method is None:
        return pvalues
    if method == "holm":
        return holm(pvalues)
    if method == "shaffer":
        if n_models is None:
            msg = (
                "`correction='shaffer'` needs `n_models`, the number of models whose "
                "all pairs the p-values compare."
            )
            raise ValueError(msg)
        return shaffer(pvalues, n_models)
    finite = ~np.isnan(pvalues)
    if finite.any():
        from statsmodels.stats.multitest import multipletests

        try:
            # Sidak computes log1p(-p): a p-value of 1 divides by zero there (and gives 1).
            with np.errstate(divide="ignore"):
                adjusted = multipletests(pvalues[finite], alpha=alpha, method=method)[1]
        except ValueError as error:
            import statsmodels

            msg = (
                f"`correction={method!r}` is listed by statsmodels "
                f"{statsmodels.__version__} but its `multipletests` refuses it: {error}"
            )
            raise ValueError(msg) from error
        # statsmodels can return values a rounding error above 1 (sidak, hommel, fdr_gbs).
        pvalues[finite] = np.clip(adjusted, 0.0, 1.0)
    return pvalues


def holm(pvalues) -> np.ndarray:
    """Holm's step-down adjusted p-values; NaN p-values are left out of the family.

    The same numbers as ``statsmodels.stats.multitest.multipletests(p,
    method="holm")[1]``, computed here because statsmodels' Holm calls
    ``gc.collect()`` on every call (0.1 to 0.2 s in a process with many
    objects): the default correction of every test would cost more than the
    test itself.

    Notes
    -----
    With the ``n`` p-values sorted, ``p_(1) <= ... <= p_(n)``, the adjusted
    value of ``p_(k)`` is ``min(1, max_{l <= k} (n - l + 1) p_(l))`` (Holm 1979).

    Examples
    --------
    >>> holm([0.01, 0.04, np.nan, 0.03]).tolist()
    [0.03, 0.06, nan, 0.06]
    """
    pvalues = np.array(pvalues, dtype=float)
    finite = ~np.isnan(pvalues)
    every = bool(finite.all())
    chosen = pvalues if every else pvalues[finite]
    order = np.argsort(chosen)
    ranked = chosen[order]
    ranked *= np.arange(chosen.size, 0, -1, dtype=float)
    np.maximum.accumulate(ranked, out=ranked)
    np.minimum(ranked, 1.0, out=ranked)
    adjusted = np.empty_like(chosen)
    adjusted[order] = ranked
    if every:
        return adjusted
    pvalues[finite] = adjusted
    return pvalues


def shaffer(pvalues, n_models: int) -> np.ndarray:
    """Shaffer's static procedure for all pairs of ``n_models`` models; NaN left out.

    Parameters
    ----------
    pvalues : array_like
        The p-values of all ``m = n_models (n_models - 1) / 2`` pairs, in any
        order; NaN for a pair without a p-value.
    n_models : int
        ``k``, the number of models.

    Returns
    -------
    numpy.ndarray
        Adjusted p-values, NaN where ``pvalues`` is NaN.

    Notes
    -----
    Shaffer (1986), procedure S1, as in García and Herrera (2008) and scmamp:
    with the p-values sorted, ``p_(1) <= ... <= p_(m)``, the adjusted value of
    ``p_(i)`` is ``min(1, max_{j <= i} t_j p_(j))``, where ``t_j`` is the
    largest number of hypotheses that can be true given that ``j - 1`` are
    false: the largest element not above ``m - j + 1`` of the set ``S(k)`` of
    possible numbers of true hypotheses among the pairwise comparisons of
    ``k`` models, ``S(k) = union over j = 1..k of {C(j, 2) + s : s in S(k -
    j)}``, ``S(0) = S(1) = {0}`` (``S(4) = {0, 1, 2, 3, 6}``). Holm uses ``t_j
    = m - j + 1``; Shaffer's ``t_j`` is never larger, so it rejects at least
    as much.

    With ``m'`` p-values not NaN, ``t_j`` becomes ``min(t_j, m' - j + 1)``:
    at most that many of the remaining hypotheses can be true, so the
    procedure stays valid (it is Holm's on the ``m'`` when that is smaller).
    ``S(k)`` is computed once per ``k`` (a second for k = 1000).

    References
    ----------
    J. P. Shaffer, "Modified sequentially rejective multiple test procedures",
    JASA 81, 1986. S. García and F. Herrera, "An extension on 'Statistical
    comparisons of classifiers over multiple data sets' for all pairwise
    comparisons", JMLR 9, 2008.

    Examples
    --------
    Four models, six pairs: the multipliers are 6, 3, 3, 3, 2, 1 (Holm: 6, 5, 4, 3, 2, 1).

    >>> shaffer([0.001, 0.01, 0.02, 0.03, 0.04, 0.5], 4).round(4).tolist()
    [0.006, 0.03, 0.06, 0.09, 0.09, 0.5]
    """
    if isinstance(n_models, bool) or int(n_models) != n_models or n_models < 2:
        msg = f"`n_models` must be an integer of at least 2; got {n_models!r}."
        raise ValueError(msg)
    k = int(n_models)
    pvalues = np.array(pvalues, dtype=float)
    m = comb(k, 2)
    if pvalues.ndim != 1 or pvalues.size != m:
        msg = (
            f"`correction='shaffer'` applies to all pairs of the {k} models: expected "
            f"{m} p-values; got {pvalues.size}."
        )
        raise ValueError(msg)
    finite = ~np.isnan(pvalues)
    chosen = pvalues[finite]
    order = np.argsort(chosen, kind="stable")
    multiplier = shaffer_multipliers(k)[: chosen.size]
    np.minimum(multiplier, np.arange(chosen.size, 0, -1), out=multiplier)
    ranked = chosen[order] * multiplier
    np.maximum.accumulate(ranked, out=ranked)
    np.minimum(ranked, 1.0, out=ranked)
    adjusted = np.empty_like(chosen)
    adjusted[order] = ranked
    pvalues[finite] = adjusted
    return pvalues


def shaffer_multipliers(n_models: int) -> np.ndarray:
    """Shaffer's ``t_1, ..., t_m`` for all pairs of ``n_models`` models (a new array).

    Examples
    --------
    >>> shaffer_multipliers(5).tolist()
    [10, 6, 6, 6, 6, 4, 4, 3, 2, 1]
    """
    return _shaffer_multipliers(int(n_models)).copy()


@lru_cache(maxsize=32)
def _shaffer_multipliers(k: int) -> np.ndarray:
    m = comb(k, 2)
    possible = possible_true_hypotheses(k)
    members = np.zeros(m + 1, dtype=bool)
    members[possible] = True
    # The largest member of S(k) not above x, for every x = 0..m.
    largest = np.maximum.accumulate(np.where(members, np.arange(m + 1), 0))
    return largest[m - np.arange(m)]  # t_j = largest member <= m - j + 1, j = 1..m


def possible_true_hypotheses(n_models: int) -> np.ndarray:
    """``S(k)``: the possible numbers of true hypotheses among all pairs of ``k`` models.

    Examples
    --------
    >>> possible_true_hypotheses(4).tolist()
    [0, 1, 2, 3, 6]
    """
    bits = _possible_true_bits(int(n_models))
    raw = np.frombuffer(bits.to_bytes((bits.bit_length() + 7) // 8, "little"), dtype=np.uint8)
    return np.flatnonzero(np.unpackbits(raw, bitorder="little"))


@lru_cache(maxsize=32)
def _possible_true_bits(k: int) -> int:
    # S(n) as a bit set in a Python int: bit s is set when s is in S(n).
    sets = [1, 1]  # S(0) = S(1) = {0}
    for n in range(2, k + 1):
        union = 0
        for j in range(1, n + 1):  # a group of j equal models, the other n - j
            union |= sets[n - j] << comb(j, 2)
        sets.append(union)
    return sets[k]

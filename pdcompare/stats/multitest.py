"""Multiple-testing correction: one wrapper around statsmodels' ``multipletests``.

statsmodels defaults to Holm–Šidák, counts NaN p-values as tests and reports an
unknown method as "method not recognized". This wrapper always passes the
method, leaves NaN p-values out of the family and names the valid methods.
"""

from __future__ import annotations

import numpy as np

#: Every method name of ``statsmodels.stats.multitest.multipletests``.
CORRECTIONS = (
    "bonferroni",
    "sidak",
    "holm-sidak",
    "holm",
    "simes-hochberg",
    "hommel",
    "fdr_bh",
    "fdr_by",
    "fdr_tsbh",
    "fdr_tsbky",
)


def check_correction(method: str | None) -> str | None:
    """Return ``method`` if statsmodels knows it (or it is None), else raise ValueError.

    Examples
    --------
    >>> check_correction("holm")
    'holm'
    """
    if method is None or method in CORRECTIONS:
        return method
    valid = ", ".join(repr(name) for name in (*CORRECTIONS, None))
    msg = f"`correction` must be one of {valid}; got {method!r}."
    raise ValueError(msg)


def adjust_pvalues(pvalues, method: str | None, alpha: float = 0.05) -> np.ndarray:
    """Adjust ``pvalues`` for multiple testing with ``method``.

    NaN p-values are left out of the family and stay NaN. ``method=None``
    returns the p-values unchanged (as a new array). ``alpha`` matters only
    for the two-stage FDR methods ("fdr_tsbh", "fdr_tsbky").

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, np.nan], "bonferroni").tolist()
    [0.02, 0.08, nan]
    """
    method = check_correction(method)
    pvalues = np.array(pvalues, dtype=float)  # a copy: the caller's array stays as it is
    if method is None:
        return pvalues
    if method == "holm":
        return holm(pvalues)
    finite = ~np.isnan(pvalues)
    if finite.any():
        from statsmodels.stats.multitest import multipletests

        adjusted = multipletests(pvalues[finite], alpha=alpha, method=method)[1]
        # statsmodels can return values a rounding error above 1 (sidak, hommel).
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

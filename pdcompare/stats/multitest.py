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
    finite = ~np.isnan(pvalues)
    if finite.any():
        from statsmodels.stats.multitest import multipletests

        adjusted = multipletests(pvalues[finite], alpha=alpha, method=method)[1]
        # statsmodels can return values a rounding error above 1 (sidak, hommel).
        pvalues[finite] = np.clip(adjusted, 0.0, 1.0)
    return pvalues

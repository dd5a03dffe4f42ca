"""Repeated attempts: the unbiased per-item estimators of pass@k and pass^k.

An agent or a code model attempts an item ``n`` times and succeeds ``c`` of
them. Two questions are asked of it (DESIGN section 33):

- **pass@k**, solved at least once in ``k`` tries (Chen et al. 2021,
  "Evaluating large language models trained on code", arXiv 2107.03374):
  the unbiased estimator ``1 − C(n − c, k) / C(n, k)``;
- **pass^k**, solved every time in ``k`` tries (Yao et al. 2024, τ-bench,
  arXiv 2406.12045): the unbiased estimator ``C(c, k) / C(n, k)``.

Both are U-statistics of the ``n`` attempts (the mean, over every subset of
``k`` attempts, of "any success" or "all successes"), so they are unbiased
for ``1 − (1 − p)^k`` and ``p^k`` when the attempts are independent with
success probability ``p``. The ratios are computed as the products
``Π_{j<k} (n − c − j)/(n − j)`` and ``Π_{j<k} (c − j)/(n − j)``: each factor
lies in [0, 1], so nothing overflows (``C(200, 100)`` is 9·10⁵⁸) and the
product is exact to rounding; a factor that reaches 0 makes the rest 0.
Cells with fewer than ``k`` attempts have no unbiased estimate: NaN.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ESTIMANDS", "estimand_label", "estimate", "pass_at_k", "pass_hat_k"]

#: The per-item quantities an items frame can hold: the mean score, pass@k, pass^k.
ESTIMANDS = ("mean", "pass@k", "pass^k")


def estimand_label(estimand: str, k: int | None) -> str:
    """``"pass@5"``, ``"pass^5"`` or ``"mean"``.

    Examples
    --------
    >>> estimand_label("pass@k", 5), estimand_label("pass^k", 2)
    ('pass@5', 'pass^2')
    """
    return estimand if estimand == "mean" else estimand.replace("k", str(k))


def _all_of_k(n, successes, k: int) -> np.ndarray:
    """``C(successes, k) / C(n, k)`` as a product of k factors in [0, 1]; NaN where n < k."""
    n = np.asarray(n, dtype=float)
    successes = np.asarray(successes, dtype=float)
    shape = np.broadcast_shapes(n.shape, successes.shape)
    out = np.ones(shape)
    with np.errstate(invalid="ignore", divide="ignore"):
        for j in range(k):  # k factors, each over every cell at once
            out *= np.clip((successes - j) / (n - j), 0.0, 1.0)
    return np.where(n >= k, out, np.nan)


def _check_k(k) -> int:
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        msg = f"`k` must be a positive integer (the attempts counted); got {k!r}."
        raise ValueError(msg)
    return int(k)


def pass_at_k(n, c, k: int) -> np.ndarray:
    """Unbiased pass@k of each cell: ``1 − C(n − c, k) / C(n, k)`` (Chen et al. 2021).

    Parameters
    ----------
    n : array_like of int
        Attempts of each cell (item, or model × item).
    c : array_like of int
        Successes among them (0 ≤ c ≤ n).
    k : int
        The attempts of the question "solved at least once in k tries".

    Returns
    -------
    numpy.ndarray
        The estimates, broadcast over ``n`` and ``c``; NaN where ``n < k``.

    Notes
    -----
    ``C(n − c, k)/C(n, k) = Π_{j=0}^{k−1} (n − c − j)/(n − j)``, each factor in
    [0, 1] (Chen et al.'s numerically stable form, with ``k`` factors rather
    than ``c``, so that one loop of ``k`` steps serves every cell).

    Examples
    --------
    >>> float(pass_at_k(10, 3, 5).round(6))
    0.916667

    Compare with the binomial coefficients written out:

    >>> from math import comb
    >>> round(1 - comb(10 - 3, 5) / comb(10, 5), 6)
    0.916667
    """
    k = _check_k(k)
    n = np.asarray(n, dtype=float)
    return 1.0 - _all_of_k(n, n - np.asarray(c, dtype=float), k)


def pass_hat_k(n, c, k: int) -> np.ndarray:
    """Unbiased pass^k of each cell: ``C(c, k) / C(n, k)`` (τ-bench, Yao et al. 2024).

    Parameters
    ----------
    n : array_like of int
        Attempts of each cell.
    c : array_like of int
        Successes among them.
    k : int
        The attempts of the question "solved every time in k tries".

    Returns
    -------
    numpy.ndarray
        The estimates; NaN where ``n < k``.

    Examples
    --------
    >>> [round(float(pass_hat_k(12, 9, k)), 4) for k in (1, 2, 4, 8, 12)]
    [0.75, 0.5455, 0.2545, 0.0182, 0.0]

    Compare with the binomial coefficients written out:

    >>> from math import comb
    >>> round(comb(9, 4) / comb(12, 4), 4)
    0.2545
    """
    k = _check_k(k)
    return _all_of_k(n, c, k)


def estimate(estimand: str, n, c, k: int) -> np.ndarray:
    """The per-cell estimate of ``"pass@k"`` or ``"pass^k"`` (``"mean"``: ``c / n``).

    Examples
    --------
    >>> estimate("pass^k", [4, 4], [2, 4], 2).tolist()
    [0.16666666666666666, 1.0]
    """
    if estimand == "pass@k":
        return pass_at_k(n, c, k)
    if estimand == "pass^k":
        return pass_hat_k(n, c, k)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(c, dtype=float) / np.asarray(n, dtype=float)

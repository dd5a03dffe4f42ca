"""Few clusters: the Bell–McCaffrey bias-reduced CR2 variance of a mean and its Satterthwaite df.

For the mean ``d̄`` of ``N`` items in ``C`` clusters of sizes ``n_g`` (the
intercept-only regression ``d ~ 1``, unweighted), the CR2 variance of Bell
& McCaffrey (2002, "Bias reduction in standard errors for linear regression
with multi-stage samples", Survey Methodology 28(2)) as R's clubSandwich
computes it (``vcovCR(lm(d ~ 1), cluster, type = "CR2")``, Pustejovsky &
Tipton 2018, JBES 36(4)) adjusts each cluster's residuals by
``A_g = (I − H_gg)^(−1/2)`` with ``H_gg = J_g/N``. The all-ones vector is an
eigenvector of ``J_g/N`` (eigenvalue ``n_g/N``), so on a cluster's residual
sum ``A_g`` acts as ``1/sqrt(1 − n_g/N)``:

``V_CR2 = Σ_g S_g² / (1 − n_g/N) / N²``,  ``S_g = Σ_{i∈g} (d_i − d̄)``

against CR1's ``C/(C − 1) · Σ_g S_g² / N²``. The Satterthwaite degrees of
freedom (clubSandwich's ``test = "Satterthwaite"``, under its working model
of independent errors of equal variance) are ``2 E[V]² / Var[V]``. Writing
``V = Σ_g (w_gᵀ ε)²`` with ``w_g = a_g (I − H) 1_g / N`` and
``a_g = (1 − n_g/N)^(−1/2)``, ``w_gᵀ w_h = a_g a_h (δ_gh n_g − n_g n_h/N) / N²``,
so ``E[V] = N/N²`` and, with ``M_gh = a_g a_h (δ_gh n_g − n_g n_h/N)``,

``df = N² / ‖M‖²_F``,  ``‖M‖²_F = Σ_g (a_g² n_g)² − 2 Σ_g a_g² n_g v_g² + (Σ_g v_g²)²``

with ``v_g² = a_g² n_g² / N``. The df depend on the cluster sizes only, not
on the data: one number serves every pair of models. With every item its
own cluster both reduce to the plain ``var(d)/N`` (ddof 1) on ``N − 1``
degrees of freedom.
"""

from __future__ import annotations

import numpy as np

__all__ = ["SE_TYPES", "cluster_scales", "cr2_factors", "satterthwaite_df"]

#: The clustered standard errors an items test computes.
SE_TYPES = ("cr2", "cr1")


def cr2_factors(sizes, n_items: int) -> np.ndarray:
    """``1/(1 − n_g/N)``: the factor of each cluster's squared residual sum under CR2.

    Examples
    --------
    >>> cr2_factors(np.array([1.0, 3.0]), 4).tolist()
    [1.3333333333333333, 4.0]
    """
    sizes = np.asarray(sizes, dtype=float)
    with np.errstate(divide="ignore"):
        return 1.0 / (1.0 - sizes / float(n_items))


def satterthwaite_df(sizes, n_items: int) -> float:
    """Satterthwaite degrees of freedom of the CR2 variance of a mean (clubSandwich's).

    Examples
    --------
    Each item its own cluster: ``N − 1``.

    >>> round(satterthwaite_df(np.ones(10), 10), 12)
    9.0

    Unequal clusters lose degrees of freedom (clubSandwich gives 1.711466):

    >>> round(satterthwaite_df(np.array([2.0, 5, 60, 3, 10, 7]), 87), 6)
    1.711466
    """
    sizes = np.asarray(sizes, dtype=float)
    n = float(n_items)
    if sizes.size < 2:
        return float("nan")
    diagonal = cr2_factors(sizes, n_items) * sizes
    v2 = diagonal * sizes / n
    frobenius = np.sum(diagonal**2) - 2.0 * np.sum(diagonal * v2) + np.sum(v2) ** 2
    return float(n * n / frobenius)


def cluster_scales(sizes, n_items: int, se_type: str) -> tuple[np.ndarray, float]:
    """Each cluster's factor on its squared residual sum, and the degrees of freedom.

    ``"cr1"``: ``C/(C − 1)`` for every cluster on ``C − 1`` df; ``"cr2"``:
    :func:`cr2_factors` on :func:`satterthwaite_df`. The variance of the mean
    is ``Σ_g scale_g S_g² / N²``.

    Examples
    --------
    >>> scales, df = cluster_scales(np.array([3.0, 3, 3, 3]), 12, "cr1")
    >>> scales.tolist(), df
    ([1.3333333333333333, 1.3333333333333333, 1.3333333333333333, 1.3333333333333333], 3.0)
    >>> scales, df = cluster_scales(np.array([3.0, 3, 3, 3]), 12, "cr2")
    >>> scales.tolist(), df
    ([1.3333333333333333, 1.3333333333333333, 1.3333333333333333, 1.3333333333333333], 3.0)
    """
    sizes = np.asarray(sizes, dtype=float)
    c = float(sizes.size)
    # Equal clusters: 1/(1 − 1/C) = C/(C − 1) and the df are C − 1 exactly; CR1's
    # arithmetic gives them without CR2's rounding.
    if se_type == "cr1" or (sizes.size and np.all(sizes == sizes[0])):
        return np.full(sizes.size, c / (c - 1.0)), c - 1.0
    return cr2_factors(sizes, n_items), satterthwaite_df(sizes, n_items)

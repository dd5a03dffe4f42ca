"""Benchmarks with holes: Skillings–Mack, Durbin, and the covariance of available-case means.

A benchmark whose models did not all run on every data set is a block design
with missing cells: the data sets are the blocks, the models the treatments.
``values`` is a models x datasets array, NaN where a model has no score; each
data set's present models are ranked among themselves (rank 1 = best, ties
averaged, :func:`~pdcompare.stats.ranks.rank_within_columns`), a data set with
fewer than two present models carries no rank and is left out. Both tests are
vectorised over the data sets (two matrix products, no loop per block).

- :func:`skillings_mack`: any pattern of holes whose design is connected
  (Skillings & Mack 1981). Complete data give Friedman's statistic exactly.
- :func:`durbin`: balanced incomplete block designs only (every data set holds
  the same number of models, every model is on the same number of data sets,
  every pair meets on the same number), with its F form (Conover 1999).

:func:`design_problems` names what stops the tests: a model with fewer than
two usable data sets, a design in two parts that never meet.
:func:`available_case_covariance` gives each model's mean over its own data
sets and their covariance from the pairs' shared data sets (for the rank sets
of ``ranks()`` and ``top_set()``).
"""

from __future__ import annotations

import math

import numpy as np

from pdcompare.stats.ranks import rank_within_columns

__all__ = [
    "available_case_covariance",
    "balanced",
    "design_problems",
    "durbin",
    "skillings_mack",
    "skillings_mack_many",
]


def _centred_ranks(values, greater_is_better: bool):
    """Centred ranks (0 for a hole), presence mask and present count of the blocks used.

    Data sets with fewer than two present models are dropped (their one rank
    says nothing).
    """
    table = np.asarray(values, dtype=float)
    if table.ndim != 2:
        msg = f"`values` must be a 2-D array (models x datasets); got {table.ndim} dimension(s)."
        raise ValueError(msg)
    present = ~np.isnan(table)
    per_block = present.sum(axis=0)
    used = per_block >= 2
    table, present, per_block = table[:, used], present[:, used], per_block[used]
    ranks = rank_within_columns(table, greater_is_better=greater_is_better)
    centred = np.where(present, ranks - (per_block + 1.0) / 2.0, 0.0)
    return centred, present, per_block


def design_problems(values) -> tuple[list[int], list[int]]:
    """Models the rank tests cannot place: ``(too_few, apart)`` as model positions.

    ``too_few``: models with a score on fewer than two data sets that hold
    another model. ``apart``: when the models fall into groups that share no
    data set (a disconnected design), the models outside the largest group
    (empty when the design is connected).

    Examples
    --------
    >>> x = np.array([[1.0, 2.0, np.nan], [2.0, 1.0, np.nan], [np.nan, 3.0, 1.0]])
    >>> design_problems(x)
    ([2], [])
    >>> y = np.array([[1.0, 2.0, np.nan, np.nan], [2.0, 1.0, np.nan, np.nan],
    ...               [np.nan, np.nan, 1.0, 2.0], [np.nan, np.nan, 3.0, 1.0]])
    >>> design_problems(y)
    ([], [2, 3])
    """
    from scipy.sparse.csgraph import connected_components

    present = ~np.isnan(np.asarray(values, dtype=float))
    present = present[:, present.sum(axis=0) >= 2]
    counts = present.sum(axis=1)
    too_few = np.flatnonzero(counts < 2).tolist()
    meets = present.astype(np.float64) @ present.T.astype(np.float64) > 0
    n_parts, labels = connected_components(meets, directed=False)
    if n_parts <= 1:
        return too_few, []
    largest = np.argmax(np.bincount(labels))
    return too_few, np.flatnonzero(labels != largest).tolist()


def skillings_mack(values, *, greater_is_better: bool = True) -> dict[str, float]:
    """The Skillings–Mack test of equal treatment (model) effects in a block design with holes.

    Parameters
    ----------
    values : array_like, shape (models, datasets)
        Scores, NaN where a model has no score on a data set.
    greater_is_better : bool
        Whether a higher score is better (the statistic does not depend on it).

    Returns
    -------
    dict
        ``n_models``, ``n_datasets`` (data sets with at least two models),
        ``n_missing`` (holes among them), ``statistic``, ``df`` (k − 1) and
        ``pvalue`` (chi-square), ``degenerate`` (every data set a complete
        tie: statistic 0, p-value 1).

    Notes
    -----
    Skillings & Mack (1981): in data set i with k_i present models, rank them
    (r_ij), centre (r_ij − (k_i + 1)/2, 0 for a hole) and weight by
    √(12/(k_i + 1)); A_j = Σ_i √(12/(k_i + 1)) (r_ij − (k_i + 1)/2), and
    ``T = Aᵀ Σ⁻ A`` on k − 1 degrees of freedom, Σ⁻ a generalized inverse of
    the covariance of A under the null (every within-block order equally
    likely). Without ties Σ has −λ_jl off the diagonal (λ_jl the data sets
    where j and l both ran) and Σ_l λ_jl on it (the paper's Σ₀). With ties
    each block contributes its permutation covariance of the tied ranks,
    ``w_i² Σ_j c_ij²/(k_i − 1) (diag(m_i) − m_i m_iᵀ/k_i)``, which is the
    paper's without ties and makes complete data give the tie-corrected
    Friedman statistic of ``scipy.stats.friedmanchisquare`` exactly. The
    design must be connected (see :func:`design_problems`): then A ⊥ 1 and
    Σ's null space is the constant vector, so ``Aᵀ Σ⁻ A = Aᵀ (Σ + 11ᵀ)⁻¹ A``,
    one linear solve. On a balanced incomplete block design without ties it
    equals Durbin's statistic (:func:`durbin`).

    References
    ----------
    J. H. Skillings and G. A. Mack, "On the use of a Friedman-type statistic
    in balanced and unbalanced block designs", Technometrics 23(2), 171-177,
    1981. M. Chatfield and A. Mander, "The Skillings–Mack test (Friedman test
    when there are missing data)", Stata Journal 9(2), 299-305, 2009.

    Examples
    --------
    Skillings & Mack (1981), Table 1: four ways of assembling a product
    (rows) in nine blocks, four cells missing; the paper's statistic is 15.493:

    >>> x = np.array([
    ...     [3.2, 3.1, 4.3, 3.5, 3.6, 4.5, np.nan, 4.3, 3.5],
    ...     [4.1, 3.9, 3.5, 3.6, 4.2, 4.7, 4.2, 4.6, np.nan],
    ...     [3.8, 3.4, 4.6, 3.9, 3.7, 3.7, 3.4, 4.4, 3.7],
    ...     [4.2, 4.0, 4.8, 4.0, 3.9, np.nan, np.nan, 4.9, 3.9]])
    >>> out = skillings_mack(x)
    >>> round(out["statistic"], 3), out["df"], round(out["pvalue"], 5)
    (15.493, 3, 0.00144)
    """
    from scipy import special

    centred, present, per_block = _centred_ranks(values, greater_is_better)
    k = present.shape[0]
    out = {
        "n_models": k,
        "n_datasets": int(present.shape[1]),
        "n_missing": int((~present).sum()),
        "statistic": math.nan,
        "df": k - 1,
        "pvalue": math.nan,
        "degenerate": False,
    }
    if present.shape[1] == 0 or k < 2:
        return out
    weight2 = 12.0 / (per_block + 1.0)
    a = centred @ np.sqrt(weight2)
    spread = weight2 * (centred * centred).sum(axis=0) / (per_block - 1.0)  # w² Σc²/(k−1)
    mask = present.astype(np.float64)
    covariance = np.diag(mask @ spread) - (mask * (spread / per_block)) @ mask.T
    if not np.any(spread > 0):
        out.update(statistic=0.0, pvalue=1.0, degenerate=True)
        return out
    shifted = covariance + 1.0  # Σ + 11ᵀ: invertible on a connected design, A ⊥ 1
    statistic = float(a @ np.linalg.solve(shifted, a))
    statistic = max(statistic, 0.0)
    out.update(statistic=statistic, pvalue=float(special.chdtrc(k - 1.0, statistic)))
    return out


def skillings_mack_many(values, *, greater_is_better: bool = True) -> np.ndarray:
    """The Skillings–Mack statistic of many benchmarks at once (simulation studies).

    Parameters
    ----------
    values : array_like, shape (benchmarks, models, datasets)
        Scores, NaN for a hole.
    greater_is_better : bool
        Whether a higher score is better (the statistic does not depend on it).

    Returns
    -------
    numpy.ndarray, shape (benchmarks,)
        Each benchmark's statistic as :func:`skillings_mack` computes it (its
        p-value is ``scipy.special.chdtrc(models - 1, statistic)``); NaN for a
        benchmark whose design is not connected or every data set a tie.
        One ranking of all the data sets, batched products and one batched
        linear solve: no loop per benchmark.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=(3, 4, 6))
    >>> x[rng.random(x.shape) < 0.2] = np.nan
    >>> many = skillings_mack_many(x)
    >>> bool(np.allclose(many, [skillings_mack(t)["statistic"] for t in x]))
    True
    """
    table = np.asarray(values, dtype=float)
    reps, k, n = table.shape
    flat = table.transpose(1, 0, 2).reshape(k, reps * n)  # all data sets side by side
    present = ~np.isnan(flat)
    per_block = present.sum(axis=0).astype(np.float64)
    used = per_block >= 2
    ranks = rank_within_columns(flat, greater_is_better=greater_is_better)
    centred = np.where(present & used, ranks - (per_block + 1.0) / 2.0, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        weight2 = np.where(used, 12.0 / (per_block + 1.0), 0.0)
        spread = np.where(used, weight2 * (centred * centred).sum(axis=0) / (per_block - 1.0), 0)
        scaled = np.where(used, spread / per_block, 0.0)
    mask = (present & used).astype(np.float64)
    shape = (k, reps, n)
    c3, m3 = centred.reshape(shape), mask.reshape(shape)
    a = np.einsum("jrn,rn->rj", c3, np.sqrt(weight2).reshape(reps, n))
    covariance = -np.einsum("jrn,rn,lrn->rjl", m3, scaled.reshape(reps, n), m3)
    diagonal = np.einsum("jrn,rn->rj", m3, spread.reshape(reps, n))
    covariance[:, np.arange(k), np.arange(k)] += diagonal
    eigen = np.linalg.eigvalsh(covariance)  # connected: exactly one zero eigenvalue
    top = np.maximum(eigen[:, -1], 1e-300)
    connected = eigen[:, 1] > 1e-9 * top
    shifted = covariance + 1.0
    shifted[~connected] = np.eye(k)
    statistic = np.einsum("rj,rj->r", a, np.linalg.solve(shifted, a[..., None])[..., 0])
    return np.where(connected, np.maximum(statistic, 0.0), np.nan)


def balanced(values) -> tuple[bool, str]:
    """Whether the holes form a balanced incomplete block design, and if not, why.

    Balanced: every data set (with at least two models) holds the same number
    k of models, every model is on the same number r of them, and every pair
    of models meets on the same number λ.

    Examples
    --------
    >>> x = np.array([[1.0, 2.0, np.nan], [2.0, np.nan, 1.0], [np.nan, 1.0, 2.0]])
    >>> balanced(x)
    (True, '')
    >>> balanced(np.array([[1.0, 2.0, 3.0], [2.0, np.nan, 1.0], [3.0, 1.0, 2.0]]))[0]
    False
    """
    present = ~np.isnan(np.asarray(values, dtype=float))
    present = present[:, present.sum(axis=0) >= 2]
    sizes = np.unique(present.sum(axis=0))
    if sizes.size > 1:
        return False, f"the data sets hold {sizes.min()} to {sizes.max()} models"
    replicates = np.unique(present.sum(axis=1))
    if replicates.size > 1:
        return False, f"the models ran on {replicates.min()} to {replicates.max()} data sets"
    meets = present.astype(np.int64) @ present.T.astype(np.int64)
    pairs = np.unique(meets[np.triu_indices(meets.shape[0], 1)])
    if pairs.size > 1:
        return False, f"pairs of models share {pairs.min()} to {pairs.max()} data sets"
    return True, ""


def durbin(values, *, greater_is_better: bool = True) -> dict[str, float]:
    """Durbin's rank test for a balanced incomplete block design, and its F form.

    Parameters
    ----------
    values : array_like, shape (models, datasets)
        Scores, NaN where a model has no score; the holes must form a balanced
        incomplete block design (:func:`balanced`); the caller checks.
    greater_is_better : bool
        Whether a higher score is better (the statistic does not depend on it).

    Returns
    -------
    dict
        ``n_models`` (t), ``n_datasets`` (b), ``n_missing``, ``statistic``
        (T1), ``df`` (t − 1), ``pvalue`` (chi-square), ``f_statistic`` (T2),
        ``f_df1`` (t − 1), ``f_df2`` (b k − b − t + 1), ``f_pvalue``,
        ``degenerate``.

    Notes
    -----
    Conover (1999, section 5.9): t models, b data sets of k models each, every
    model on r of them; R_j the rank sums, A = Σ r², C = b k (k + 1)²/4,

    ``T1 = (t − 1) Σ_j (R_j − r (k + 1)/2)² / (A − C)``,
    ``T2 = (T1/(t − 1)) / ((b (k − 1) − T1)/(b k − b − t + 1))``

    against chi-square on t − 1 and F on (t − 1, b k − b − t + 1) degrees of
    freedom. A − C is computed as the sum of squared centred ranks (no
    cancellation). Complete data (k = t) give Friedman's statistic and the
    Iman–Davenport F.

    References
    ----------
    J. Durbin, "Incomplete blocks in ranking experiments", British Journal of
    Psychology (Statistical Section) 4, 85-90, 1951. W. J. Conover,
    "Practical Nonparametric Statistics", 3rd edition, Wiley, 1999.

    Examples
    --------
    Conover (1999, p. 391), the ice-cream example (R's PMCMRplus ``durbinTest``
    example): 7 varieties (rows), 7 judges who each rank 3; the book's T1 = 12
    (p = 0.062) and T2 = 8:

    >>> judges = [(0, 1, 3), (1, 2, 4), (2, 3, 5), (3, 4, 6), (0, 4, 5), (1, 5, 6), (0, 2, 6)]
    >>> ranks = [(2, 3, 1), (3, 1, 2), (2, 1, 3), (1, 2, 3), (3, 1, 2), (3, 1, 2), (3, 1, 2)]
    >>> x = np.full((7, 7), np.nan)
    >>> for judge, (varieties, r) in enumerate(zip(judges, ranks)):
    ...     x[list(varieties), judge] = r
    >>> out = durbin(x, greater_is_better=False)
    >>> out["statistic"], round(out["pvalue"], 4), out["f_statistic"], out["f_df2"]
    (12.0, 0.062, 8.0, 8)
    """
    from scipy import special

    centred, present, per_block = _centred_ranks(values, greater_is_better)
    t, b = present.shape
    k = int(per_block[0]) if b else 0
    r = int(present.sum(axis=1).max()) if b else 0
    out = {
        "n_models": t,
        "n_datasets": b,
        "n_missing": int((~present).sum()),
        "statistic": math.nan,
        "df": t - 1,
        "pvalue": math.nan,
        "f_statistic": math.nan,
        "f_df1": t - 1,
        "f_df2": b * k - b - t + 1,
        "f_pvalue": math.nan,
        "degenerate": False,
        "k": k,
        "r": r,
    }
    if b == 0:
        return out
    spread = float(np.sum(centred * centred))  # A − C
    if spread == 0.0:
        out.update(statistic=0.0, pvalue=1.0, f_statistic=0.0, f_pvalue=1.0, degenerate=True)
        return out
    sums = centred.sum(axis=1)  # R_j − r (k + 1)/2
    between = float(sums @ sums)
    t1 = min((t - 1.0) * between / spread, b * (k - 1.0))
    df2 = out["f_df2"]
    with np.errstate(divide="ignore", invalid="ignore"):
        t2 = float(np.float64(t1 / (t - 1.0)) / np.float64((b * (k - 1.0) - t1) / df2))
    f_pvalue = float(special.fdtrc(t - 1.0, df2, t2)) if df2 > 0 else math.nan
    out.update(
        statistic=t1,
        pvalue=float(special.chdtrc(t - 1.0, t1)),
        f_statistic=t2,
        f_pvalue=f_pvalue,
    )
    return out


def available_case_covariance(values) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each model's mean over its own data sets, their covariance, and the shared counts.

    Parameters
    ----------
    values : array_like, shape (models, datasets)
        Per-data-set scores, NaN where a model has no score; every model needs
        at least two scores (the caller checks).

    Returns
    -------
    mean : numpy.ndarray, shape (models,)
        x̄_j, the mean over the n_j data sets model j ran on.
    covariance : numpy.ndarray, shape (models, models)
        Σ̂_jk = n_jk / (n_j n_k) · c_jk, with c_jk the sample covariance (ddof
        1) of models j and k over the n_jk data sets both ran on (pandas'
        pairwise-complete ``DataFrame.cov``), 0 when n_jk < 2; Σ̂_jj = s_j²/n_j.
        Projected on the positive semi-definite matrices (negative
        eigenvalues set to 0) when the pairs' covariances disagree.
    shared : numpy.ndarray of int, shape (models, models)
        n_jk, the data sets both models ran on (n_j on the diagonal).

    Notes
    -----
    With the data sets a sample from a population and the holes missing
    completely at random, Cov(x̄_j, x̄_k) = n_jk σ_jk / (n_j n_k): only the
    shared data sets tie two means together. Complete data give the sample
    covariance over N (``np.cov(values) / N``) exactly. The means of models on
    different data sets estimate the same population mean only when the
    holes do not depend on the data sets' difficulty.

    Examples
    --------
    >>> x = np.array([[0.9, 0.8, np.nan, 0.7], [0.85, 0.7, 0.6, np.nan]])
    >>> mean, cov, shared = available_case_covariance(x)
    >>> mean.round(4).tolist(), shared.tolist()
    ([0.8, 0.7167], [[3, 2], [2, 3]])
    >>> import pandas as pd
    >>> c = pd.DataFrame(x.T).cov()  # pairwise-complete
    >>> bool(np.isclose(cov[0, 1], 2 / 9 * c.loc[0, 1]))
    True
    """
    table = np.asarray(values, dtype=float)
    present = ~np.isnan(table)
    mask = present.astype(np.float64)
    count = mask.sum(axis=1)
    mean = np.where(present, table, 0.0).sum(axis=1) / count
    if present.all():
        return (
            mean,
            np.cov(table) / table.shape[1],
            np.full((len(mean), len(mean)), table.shape[1]),
        )
    centred = np.where(present, table - mean[:, None], 0.0)  # own mean: no cancellation
    shared = mask @ mask.T
    sums = centred @ mask.T  # [j, k]: Σ of j's deviations over the data sets k ran on
    with np.errstate(divide="ignore", invalid="ignore"):
        pair = (centred @ centred.T - sums * sums.T / shared) / (shared - 1.0)
        covariance = np.where(shared >= 2, pair * shared / np.outer(count, count), 0.0)
    covariance = (covariance + covariance.T) / 2.0
    eigen, vectors = np.linalg.eigh(covariance)
    if eigen[0] < 0.0:
        covariance = (vectors * np.clip(eigen, 0.0, None)) @ vectors.T
    return mean, covariance, shared.astype(np.int64)

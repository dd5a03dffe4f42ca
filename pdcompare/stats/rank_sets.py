"""Confidence sets for ranks (Mogstad, Romano, Shaikh & Wilhelm 2024; R package csranks).

Each model's rank among ``m`` is bounded by one-sided simultaneous tests of every
ordered difference θ_j − θ_k > 0, from the ``coverage`` quantile of the maximum
over the undecided ordered pairs I of (Z_j − Z_k)/σ_jk with Z ~ N(0, Σ̂), stepping
down over I until no new pair is decided (csranks' ``csdiffmeans`` with
``stepdown=TRUE``, as ``csranks(cstype="two-sided")`` calls it). The draws are made
once (``n_draws × m``) and reused at every step; the maximum is computed exactly
per draw (in single precision: to about 1e-6, far below the Monte Carlo error of
its quantile), pruning rows that cannot reach the current maximum, so no Python
loop runs per pair or per draw.

When Σ̂ is a sample covariance on ``df`` degrees of freedom (a scores frame of k
splits: k − 1), the draws are studentised: each draw's covariance is re-estimated
as Σ̂* = W/df with W ~ Wishart(df, Σ̂) (Bartlett's decomposition), and the
maximum is taken of (Z_j − Z_k)/σ*_jk with σ*_jk from Σ̂*: the parametric
bootstrap of the studentised maximum, whose quantile carries the estimation
error of Σ̂ that the normal quantile ignores (at 10 splits the normal sets
cover 93 % where 95 % is asked). The (draws × m × m) statistics are held in
memory up to ``_STUDENTISED_BYTES``; beyond (more than about 40 models at
10,000 draws) a common scale per draw, Z/s with s² ~ χ²_df/df (the
multivariate t of Tukey's and Dunnett's procedures), stands in for the
pair-specific one.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from pdcompare.stats.bootstrap import check_random_state
from pdcompare.stats.summary import min_rank

# Bytes of temporaries per chunk of (draw, row) evaluations: bounds memory whatever m is.
_CHUNK_BYTES = 2**25
# Rows evaluated first in every draw (those of the largest bounds).
_FIRST_ROWS = 2
# A variance of a difference below this fraction of the largest variance is zero.
_DEGENERATE = 1e-12
# Bytes of the (draws, m, m) studentised statistics held at once (float32): 40 models at 10,000.
_STUDENTISED_BYTES = 2**26


def _check_df(df) -> float | None:
    if df is None:
        return None
    if isinstance(df, bool) or not isinstance(df, numbers.Real):
        msg = f"`df` must be None or a number of degrees of freedom of at least 1; got {df!r}."
        raise TypeError(msg)
    if not np.isfinite(df):
        return None
    if df < 1:
        msg = f"`df` must be at least 1 (a covariance from at least 2 observations); got {df!r}."
        raise ValueError(msg)
    return float(df)


def _check_inputs(estimates, covariance, coverage, n_draws) -> tuple[np.ndarray, np.ndarray]:
    x = np.asarray(estimates, dtype=float)
    if x.ndim != 1:
        msg = f"`estimates` must be one-dimensional; got shape {x.shape}."
        raise ValueError(msg)
    m = x.size
    if m < 2:
        msg = f"Rank confidence sets need at least 2 models; got {m}."
        raise ValueError(msg)
    if not np.all(np.isfinite(x)):
        msg = "`estimates` must be finite; drop the models with missing estimates first."
        raise ValueError(msg)
    cov = np.asarray(covariance, dtype=float)
    if cov.shape != (m, m):
        msg = f"`covariance` must be a {m} x {m} matrix for {m} estimates; got shape {cov.shape}."
        raise ValueError(msg)
    if not np.all(np.isfinite(cov)):
        msg = "`covariance` must be finite."
        raise ValueError(msg)
    if not np.allclose(cov, cov.T, rtol=1e-8, atol=1e-12 * max(np.abs(cov).max(), 1e-300)):
        msg = "`covariance` must be symmetric."
        raise ValueError(msg)
    if isinstance(coverage, bool) or not isinstance(coverage, numbers.Real):
        msg = f"`coverage` must be a number strictly between 0 and 1; got {coverage!r}."
        raise TypeError(msg)
    if not 0.0 < float(coverage) < 1.0:
        msg = f"`coverage` must be strictly between 0 and 1; got {coverage!r}."
        raise ValueError(msg)
    if isinstance(n_draws, bool) or not isinstance(n_draws, numbers.Integral):
        msg = f"`n_draws` must be a positive integer; got {n_draws!r}."
        raise TypeError(msg)
    if n_draws < 100:
        msg = f"`n_draws` must be at least 100 for a quantile of the maximum; got {n_draws!r}."
        raise ValueError(msg)
    return x, (cov + cov.T) / 2.0


def _factor(cov: np.ndarray) -> np.ndarray:
    """L with L Lᵀ = Σ (m x rank): eigenvalues below 1e-12 of the largest dropped.

    A diagonal Σ gives the diagonal of its square roots; otherwise Σ = V Λ Vᵀ
    (as ``MASS::mvrnorm`` tolerates a singular Σ) and L = V Λ^½, each column's
    sign fixed so that the draws do not depend on LAPACK's choice.
    """
    m = cov.shape[0]
    if np.count_nonzero(cov - np.diag(np.diag(cov))) == 0:
        return np.diag(np.sqrt(np.clip(np.diag(cov), 0.0, None)))
    values, vectors = np.linalg.eigh(cov)
    keep = values > _DEGENERATE * max(values[-1], 0.0)
    if not np.any(keep):
        return np.zeros((m, 0))
    factor = vectors[:, keep] * np.sqrt(values[keep])
    pivot = np.argmax(np.abs(factor), axis=0)
    factor *= np.sign(factor[pivot, np.arange(factor.shape[1])])
    return factor


def normal_draws(covariance: np.ndarray, n_draws: int, rng: np.random.Generator) -> np.ndarray:
    """``n_draws`` rows of Z ~ N(0, Σ) for a positive semi-definite Σ (possibly singular).

    A diagonal Σ scales standard normals; otherwise Σ = V Λ Vᵀ (eigenvalues below
    1e-12 of the largest dropped, as ``MASS::mvrnorm`` tolerates) and
    Z = G (V Λ^½)ᵀ with G standard normal of the rank's width.

    Examples
    --------
    >>> z = normal_draws(np.array([[4.0, 2.0], [2.0, 4.0]]), 200_000, np.random.default_rng(0))
    >>> np.round(np.cov(z.T), 1).tolist()
    [[4.0, 2.0], [2.0, 4.0]]
    """
    cov = np.asarray(covariance, dtype=float)
    m = cov.shape[0]
    if np.count_nonzero(cov - np.diag(np.diag(cov))) == 0:
        scale = np.sqrt(np.clip(np.diag(cov), 0.0, None))
        return rng.standard_normal((n_draws, m)) * scale
    factor = _factor(cov)
    if factor.shape[1] == 0:
        return np.zeros((n_draws, m))
    return rng.standard_normal((n_draws, factor.shape[1])) @ factor.T


def wishart_factors(rank: int, df: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` matrices B (rank x q) with B Bᵀ ~ Wishart(df, I_rank).

    Bartlett's decomposition (Bartlett 1933; Smith & Hocking 1972, Applied
    Statistics 21): a lower-triangular A with A_ii² ~ χ²(df − i) (i from 0)
    and standard normals below the diagonal, when df ≥ rank; otherwise
    (a singular Wishart) Hᵀ with H (df x rank) standard normal.

    Examples
    --------
    >>> b = wishart_factors(3, 5.0, 100_000, np.random.default_rng(0))
    >>> w = b @ b.transpose(0, 2, 1)
    >>> np.round(w.mean(axis=0), 1).tolist()      # E W = df · I
    [[5.0, -0.0, 0.0], [-0.0, 5.0, 0.0], [0.0, 0.0, 5.0]]
    >>> round(float(w[:, 0, 0].var()), 0)          # Var W_11 = 2 df
    10.0
    """
    if df < rank:
        whole = max(1, round(df))
        return rng.standard_normal((size, whole, rank)).transpose(0, 2, 1)
    factor = np.zeros((size, rank, rank))
    below = np.tril_indices(rank, -1)
    factor[:, below[0], below[1]] = rng.standard_normal((size, below[0].size))
    diagonal = np.arange(rank)
    factor[:, diagonal, diagonal] = np.sqrt(rng.chisquare(df - diagonal, (size, rank)))
    return factor


def studentised_pairs(
    covariance: np.ndarray, df: float, n_draws: int, rng: np.random.Generator
) -> np.ndarray:
    """(n_draws, m, m) float32: (Z_j − Z_k)/σ*_jk with Z ~ N(0, Σ) and σ*_jk from Σ* = W/df.

    W ~ Wishart(df, Σ) independent of Z (W = L B Bᵀ Lᵀ with Σ = L Lᵀ and
    :func:`wishart_factors`), so each pair's statistic is a Student t on df
    degrees of freedom and their maximum carries the joint estimation error
    of Σ. Pairs whose difference has no variance under Σ are 0. Chunked
    over draws.

    Examples
    --------
    Two independent models: the statistic is Student's t on df degrees of freedom.

    >>> t = studentised_pairs(np.eye(2), 4.0, 200_000, np.random.default_rng(0))[:, 0, 1]
    >>> from scipy import stats
    >>> round(float(np.quantile(t, 0.975)), 1), round(float(stats.t.ppf(0.975, 4)), 1)
    (2.8, 2.8)
    """
    cov = np.asarray(covariance, dtype=float)
    m = cov.shape[0]
    factor = _factor(cov)
    rank = factor.shape[1]
    out = np.zeros((n_draws, m, m), dtype=np.float32)
    if rank == 0:
        return out
    var = np.diag(cov)
    diff_var = var[:, None] + var[None, :] - 2.0 * cov
    degenerate = diff_var <= _DEGENERATE * max(float(var.max()), 1e-300)
    np.fill_diagonal(degenerate, True)
    z = rng.standard_normal((n_draws, rank)) @ factor.T
    step = max(1, _CHUNK_BYTES // (8 * m * max(m, rank)))
    for start in range(0, n_draws, step):
        stop = min(start + step, n_draws)
        spread = factor @ wishart_factors(rank, df, stop - start, rng)  # (b, m, q): L B
        squares = np.einsum("bmq,bmq->bm", spread, spread)
        scaled_var = squares[:, :, None] + squares[:, None, :]
        scaled_var -= 2.0 * (spread @ spread.transpose(0, 2, 1))
        scaled_var /= df
        with np.errstate(divide="ignore", invalid="ignore"):
            values = (z[start:stop, :, None] - z[start:stop, None, :]) / np.sqrt(
                np.clip(scaled_var, 0.0, None)
            )
        values[:, degenerate] = 0.0
        out[start:stop] = np.nan_to_num(values, nan=0.0, posinf=0.0, neginf=0.0)
    return out


def _pair_scales(key: np.ndarray, cov: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """t[j, k] = (x_j − x_k)/σ_jk and 1/σ_jk (0 where σ_jk is zero, t then 0 or ±inf)."""
    var = np.diag(cov)
    diff_var = var[:, None] + var[None, :] - 2.0 * cov
    degenerate = diff_var <= _DEGENERATE * max(float(var.max()), 1e-300)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(degenerate, 0.0, 1.0 / np.sqrt(np.where(degenerate, 1.0, diff_var)))
    diff = key[:, None] - key[None, :]
    t = np.where(degenerate, 0.0, diff * inv)
    t[degenerate & (diff > 0)] = np.inf
    t[degenerate & (diff < 0)] = -np.inf
    np.fill_diagonal(t, 0.0)
    return t, inv


def _chunk_rows(m: int) -> int:
    return max(1, _CHUNK_BYTES // (4 * max(m, 1)))


def _row_max(draws, inv, b, j) -> np.ndarray:
    """max(0, max over k of (Z[b, j] − Z[b, k]) · inv[j, k]) per (b, j); inactive inv is 0."""
    out = np.empty(b.size, dtype=draws.dtype)
    step = _chunk_rows(draws.shape[1])
    for start in range(0, b.size, step):
        bb, jj = b[start : start + step], j[start : start + step]
        values = draws[bb, jj][:, None] - draws[bb]
        values *= inv[jj]
        out[start : start + step] = values.max(axis=1)
    return out


def column_blocks(
    inv: np.ndarray, active: np.ndarray, groups: int | None = None
) -> list[np.ndarray]:
    """Columns k in ``groups`` blocks whose profiles inv[:, k] are alike (a few k-means steps).

    By default √m / 2 blocks, from 8 to 32: each block costs one pass over the
    draws, and more blocks make fewer rows worth evaluating.

    Within a block, max_{k∈g} inv[j, k] is then close to every inv[j, k], which
    makes the bounds of :func:`row_bounds` tight: for correlated models
    (a scores frame) the blocks follow the geometry of the covariance, for
    independent ones the variances. Deterministic: seeded by the columns'
    mean profile.

    Examples
    --------
    >>> inv = 1 / np.sqrt(np.add.outer([1, 1, 4, 4, 9, 9], [1, 1, 4, 4, 9, 9.0]))
    >>> blocks = column_blocks(inv, ~np.eye(6, dtype=bool), groups=3)
    >>> sorted(np.concatenate(blocks).tolist()), len(blocks) <= 3
    ([0, 1, 2, 3, 4, 5], True)
    """
    m = inv.shape[0]
    if groups is None:
        groups = int(np.clip(round(np.sqrt(m) / 2), 8, 32))
    groups = min(groups, m)
    profile = np.where(active, inv, np.nan)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a column with no active entry
        mean = np.nanmean(profile, axis=0)
    mean = np.nan_to_num(mean)
    points = np.where(np.isnan(profile), mean[None, :], profile).T  # row k: column k's profile
    seeds = np.argsort(mean, kind="stable")[np.linspace(0, m - 1, groups).astype(int)]
    centres = points[seeds]
    label = np.zeros(m, dtype=int)
    squares = np.einsum("ij,ij->i", points, points)
    for _ in range(6):
        distance = squares[:, None] - 2.0 * points @ centres.T + (centres**2).sum(axis=1)
        label = np.argmin(distance, axis=1)
        counts = np.bincount(label, minlength=groups)
        sums = np.zeros_like(centres)
        np.add.at(sums, label, points)
        filled = counts > 0
        centres[filled] = sums[filled] / counts[filled, None]
    return [block for block in (np.flatnonzero(label == g) for g in range(groups)) if block.size]


def row_bounds(
    draws: np.ndarray,
    inv: np.ndarray,
    active: np.ndarray,
    blocks: list[np.ndarray] | None = None,
) -> np.ndarray:
    """Per draw and row j, an upper bound of max over active k of (Z_j − Z_k) · inv[j, k].

    Within a block g of columns (:func:`column_blocks`),
    (Z_j − Z_k) · inv[j, k] ≤ max(Z_j − min_{k∈g} Z_k, 0) · max_{k∈g} inv[j, k].
    A bound for a set of pairs bounds every subset, so one bound serves all
    steps of the step-down.

    Examples
    --------
    >>> z = np.random.default_rng(1).standard_normal((50, 6)) * [1, 1, 2, 2, 3, 3]
    >>> inv = 1 / np.sqrt(np.add.outer([1, 1, 4, 4, 9, 9], [1, 1, 4, 4, 9, 9]))
    >>> active = ~np.eye(6, dtype=bool)
    >>> exact = np.where(active, (z[:, :, None] - z[:, None, :]) * inv, -np.inf).max(axis=2)
    >>> bool(np.all(row_bounds(z, inv, active) >= exact - 1e-12))
    True
    """
    n_draws, m = draws.shape
    if blocks is None:
        blocks = column_blocks(inv, active)
    bound = np.zeros((n_draws, m), dtype=draws.dtype)
    gap = np.empty((n_draws, m), dtype=draws.dtype)
    zero = inv.dtype.type(0)
    for block in blocks:
        r_max = np.where(active[:, block], inv[:, block], zero).max(axis=1)
        np.subtract(draws, draws[:, block].min(axis=1)[:, None], out=gap)
        np.maximum(gap, 0.0, out=gap)
        gap *= r_max
        np.maximum(bound, gap, out=bound)
    return bound


def max_statistic(
    draws: np.ndarray, inv: np.ndarray, active: np.ndarray, bound: np.ndarray | None = None
) -> np.ndarray:
    """Per draw, max(0, the maximum over active ordered pairs (j, k) of (Z_j − Z_k) · inv[j, k]).

    The maximum is cut at 0, which leaves its quantiles at levels ≥ 0.5 as they
    are (a maximum over pairs that include one of each symmetric difference has
    a median ≥ 0) and is otherwise conservative. Exact: a row j is evaluated
    for a draw only when its upper bound (``row_bounds``, or ``bound``
    computed for a superset of ``active``) can beat the best of the rows with
    the largest bounds, evaluated first.

    Examples
    --------
    >>> z = np.random.default_rng(1).standard_normal((50, 4))
    >>> inv = np.full((4, 4), 0.5)
    >>> active = ~np.eye(4, dtype=bool)
    >>> brute = ((z[:, :, None] - z[:, None, :]) * 0.5).max(axis=(1, 2))
    >>> bool(np.allclose(max_statistic(z, inv, active), brute))
    True
    """
    n_draws = draws.shape[0]
    rows = active.any(axis=1)
    if not rows.any():
        return np.zeros(n_draws, dtype=draws.dtype)
    if bound is None:
        bound = row_bounds(draws, inv, active)
    bound = np.where(rows, bound, bound.dtype.type(-np.inf))
    inv_active = np.where(active, inv, inv.dtype.type(0))
    # The rows of the largest bounds first: their maximum prunes the rest.
    first = min(_FIRST_ROWS, int(rows.sum()))
    top = np.argpartition(-bound, first - 1, axis=1)[:, :first]
    every = np.repeat(np.arange(n_draws), first)
    best = _row_max(draws, inv_active, every, top.ravel()).reshape(n_draws, first).max(axis=1)
    bound[every, top.ravel()] = -np.inf
    b, j = np.nonzero(bound > best[:, None])
    if b.size:
        np.maximum.at(best, b, _row_max(draws, inv_active, b, j))
    return best


class _NormalMaxima:
    """The maxima over pairs of normal draws (pruned, single precision), optionally over s.

    ``scale`` (one per draw) divides every statistic of a draw: the
    multivariate t of a common scale, s² ~ χ²_df/df, for large m.
    """

    def __init__(self, inv: np.ndarray, draws: np.ndarray, scale: np.ndarray | None = None):
        # Single precision halves the memory traffic of the maxima; the statistic is
        # then exact to about 1e-6, far below the Monte Carlo error of its quantile.
        self.draws = draws.astype(np.float32)
        self.inv = inv.astype(np.float32)
        self.scale = scale
        self.bound: np.ndarray | None = None

    def joint(self, active: np.ndarray) -> np.ndarray:
        if self.bound is None:  # computed for all pairs, it bounds every later subset
            self.bound = row_bounds(self.draws, self.inv, active)
        statistic = max_statistic(self.draws, self.inv, active, self.bound).astype(float)
        return statistic if self.scale is None else statistic / self.scale

    def families(self, up, down, families) -> np.ndarray:
        statistic = _family_max(self.draws, self.inv, up, down, families).astype(float)
        return statistic if self.scale is None else statistic / self.scale[:, None]


class _StudentisedMaxima:
    """The maxima over pairs of studentised draws held whole, (draws, m, m) float32."""

    def __init__(self, pairs: np.ndarray):
        self.pairs = pairs

    def joint(self, active: np.ndarray) -> np.ndarray:
        j, k = np.nonzero(active)
        if j.size == 0:
            return np.zeros(self.pairs.shape[0])
        return np.maximum(self.pairs[:, j, k].max(axis=1), 0.0).astype(float)

    def families(self, up, down, families) -> np.ndarray:
        zero = np.float32(0)
        high = np.where(up[families][None], self.pairs[:, families, :], zero).max(axis=2)
        low = np.where(
            down[families][None], self.pairs.transpose(0, 2, 1)[:, families, :], zero
        ).max(axis=2)
        return np.maximum(high, low).astype(float)


def _stepdown_joint(t, maxima, coverage) -> np.ndarray:
    """The step-down over all ordered pairs, the statistic's maxima from ``maxima``."""
    m = t.shape[0]
    active = ~np.eye(m, dtype=bool)
    decided = np.zeros((m, m), dtype=bool)
    while active.any():
        quantile = np.quantile(maxima.joint(active), coverage)
        new = active & (t > quantile)
        if not new.any():
            break
        decided |= new
        active &= ~new
    return decided


def _family_max(draws, inv, up, down, families) -> np.ndarray:
    """Per family i: max over k of (Z_i − Z_k)/σ_ik (up[i, k]), (Z_k − Z_i)/σ_ik (down[i, k]).

    Cut at 0 as :func:`max_statistic` (an inactive pair counts as 0).
    """
    n_draws, m = draws.shape
    zero = inv.dtype.type(0)
    weight_up = np.where(up[families], inv[families], zero)
    weight_down = np.where(down[families], inv[families], zero)
    out = np.empty((n_draws, families.size), dtype=draws.dtype)
    step = max(1, _CHUNK_BYTES // (draws.itemsize * m * families.size))
    scaled = None
    for start in range(0, n_draws, step):
        z = draws[start : start + step]
        diff = z[:, families, None] - z[:, None, :]  # Z_i − Z_k
        if scaled is None or scaled.shape != diff.shape:
            scaled = np.empty_like(diff)
        np.multiply(diff, weight_up, out=scaled)
        high = scaled.max(axis=2)
        diff *= weight_down
        np.maximum(high, -diff.min(axis=2), out=out[start : start + step])
    return out


def _stepdown_marginal(t, maxima, coverage) -> tuple[np.ndarray, np.ndarray]:
    """Each model's own family {(i, k), (k, i)} stepped down on its own (csranks' simul=FALSE).

    Every family needs the maximum over all its m − 1 pairs in every draw.
    """
    m = t.shape[0]
    off = ~np.eye(m, dtype=bool)
    up, down = off.copy(), off.copy()  # up[i, k]: θ_i > θ_k undecided; down[i, k]: θ_k > θ_i
    won = np.zeros((m, m), dtype=bool)  # family i decided θ_i > θ_k
    lost = np.zeros((m, m), dtype=bool)  # family i decided θ_k > θ_i
    families = np.arange(m)
    while families.size:
        statistic = maxima.families(up, down, families)
        quantile = np.quantile(statistic, coverage, axis=0)
        new_up = up[families] & (t[families] > quantile[:, None])
        new_down = down[families] & (t.T[families] > quantile[:, None])
        changed = new_up.any(axis=1) | new_down.any(axis=1)
        won[families] |= new_up
        lost[families] |= new_down
        up[families] &= ~new_up
        down[families] &= ~new_down
        families = families[changed & (up[families].any(axis=1) | down[families].any(axis=1))]
    return won, lost


def _maxima(cov, inv, df, n_draws, rng):
    """The source of the maxima: normal draws, studentised pairs, or normal over a common s."""
    m = cov.shape[0]
    if df is not None and n_draws * m * m * 4 <= _STUDENTISED_BYTES:
        return _StudentisedMaxima(studentised_pairs(cov, df, n_draws, rng))
    draws = normal_draws(cov, n_draws, rng)
    scale = None if df is None else np.sqrt(rng.chisquare(df, n_draws) / df)
    return _NormalMaxima(inv, draws, scale)


def rank_confidence_sets(
    estimates,
    covariance,
    *,
    coverage: float = 0.95,
    simultaneous: bool = True,
    n_draws: int = 10000,
    random_state=None,
    higher_is_better: bool = True,
    df: float | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Confidence sets for the ranks of ``m`` estimates with covariance Σ̂.

    Parameters
    ----------
    estimates : array_like, shape (m,)
        The models' estimates θ̂ (mean scores, ratings, ...).
    covariance : array_like, shape (m, m)
        Σ̂, the covariance of the estimates (positive semi-definite; singular is fine).
    coverage : float, default 0.95
        Probability that the sets cover the true ranks.
    simultaneous : bool, default True
        True: the sets cover all models' ranks jointly; False: each model's set
        covers its rank on its own (marginal sets, narrower).
    n_draws : int, default 10000
        Draws of Z ~ N(0, Σ̂) for the quantile of the maximum.
    random_state : None, int or numpy.random.Generator
        Seed of the draws.
    higher_is_better : bool, default True
        False ranks the smallest estimate first (losses).
    df : float, optional
        The degrees of freedom of Σ̂ when it is a sample covariance (k − 1 of
        k splits, C − 1 of C clusters): the draws are then studentised, each
        draw's Σ̂* = W/df with W ~ Wishart(df, Σ̂) (see the module's notes).
        None (the default) or infinity: normal draws, Σ̂ taken as known.

    Returns
    -------
    rank, rank_low, rank_high : numpy.ndarray of int, in the order of the input
        ``rank`` = 1 + the number of strictly better estimates; the confidence
        set of model j's rank is ``rank_low[j] .. rank_high[j]``.

    Notes
    -----
    Mogstad, Romano, Shaikh & Wilhelm (2024, Review of Economic Studies,
    "Inference for ranks"), ported from csranks' ``csranks``/``csdiffmeans``
    (two-sided, ``stepdown=TRUE``): with t_jk = (θ̂_j − θ̂_k)/σ_jk and
    σ_jk² = Σ̂_jj + Σ̂_kk − 2Σ̂_jk, the ordered pair (j, k) is decided (θ_j > θ_k)
    when t_jk exceeds q, the ``coverage`` quantile of max over undecided (j, k)
    of (Z_j − Z_k)/σ_jk, Z ~ N(0, Σ̂); q is recomputed on the same draws over the
    pairs still undecided until no new pair is decided. Then
    rank_low_j = 1 + #{k : θ_k > θ_j decided} and rank_high_j = m − #{k : θ_j > θ_k
    decided}. Marginal sets (``simultaneous=False``) step down over model j's own
    pairs {(j, k), (k, j)} only. Two models with a zero variance of their
    difference are decided by the sign of their difference. Models are put
    in order of their estimates first, so permuting the input permutes the
    output and the draws do not depend on the input order. With ``df`` the
    maximum is of studentised draws (Z_j − Z_k)/σ*_jk, σ*_jk from
    Σ̂* = W/df, W ~ Wishart(df, Σ̂) independent of Z: exact in distribution
    when Σ̂ is a sample covariance on df degrees of freedom; beyond about 40
    models at 10,000 draws a common scale per draw (the multivariate t)
    stands in, to keep memory bounded.

    Examples
    --------
    Two independent models: the leader's set is {1} when the z statistic of the
    difference exceeds 1.96.

    >>> rank, low, high = rank_confidence_sets([1.0, 0.0], np.eye(2) / 8, random_state=0)
    >>> rank.tolist(), low.tolist(), high.tolist()    # z = 1 / sqrt(1/4) = 2.0 > 1.96
    ([1, 2], [1, 2], [1, 2])
    >>> rank_confidence_sets([1.0, 0.0], np.eye(2) / 7, random_state=0)[2].tolist()
    [2, 2]

    With Σ̂ estimated on 4 degrees of freedom the bar is Student's t(4) quantile,
    2.78: z = 2.0 no longer separates them, z = 3.0 does.

    >>> rank_confidence_sets([1.0, 0.0], np.eye(2) / 8, df=4, random_state=0)[2].tolist()
    [2, 2]
    >>> rank_confidence_sets([1.5, 0.0], np.eye(2) / 8, df=4, random_state=0)[2].tolist()
    [1, 2]

    Three models, the last far behind:

    >>> rank_confidence_sets([0.90, 0.89, 0.5], np.eye(3) * 1e-4, random_state=0)
    (array([1, 2, 3]), array([1, 1, 3]), array([2, 2, 3]))
    """
    x, cov = _check_inputs(estimates, covariance, coverage, n_draws)
    df = _check_df(df)
    key = x if higher_is_better else -x
    m = x.size
    order = np.argsort(-key, kind="stable")
    key_sorted = key[order]
    cov_sorted = cov[np.ix_(order, order)]
    t, inv = _pair_scales(key_sorted, cov_sorted)
    maxima = _maxima(cov_sorted, inv, df, int(n_draws), check_random_state(random_state))
    if simultaneous:
        decided = _stepdown_joint(t, maxima, float(coverage))
        better_than = decided.sum(axis=1)  # k with θ_j > θ_k decided
        worse_than = decided.sum(axis=0)  # k with θ_k > θ_j decided
    else:
        won, lost = _stepdown_marginal(t, maxima, float(coverage))
        better_than = won.sum(axis=1)
        worse_than = lost.sum(axis=1)
    rank_low = np.empty(m, dtype=int)
    rank_high = np.empty(m, dtype=int)
    rank_low[order] = 1 + worse_than
    rank_high[order] = m - better_than
    rank = min_rank(-key).astype(int)
    return rank, rank_low, rank_high

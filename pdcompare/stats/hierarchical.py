"""The hierarchical Bayesian correlated t-test across data sets, sampled in numpy.

Corani, Benavoli, Demšar, Mangili & Zaffalon (2017) model the fold
differences ``x_ij`` of data set ``i`` (``j = 1..n_i``) as multivariate normal
with mean ``δ_i`` and covariance ``σ_i² ((1 − ρ) I + ρ J)`` (``J`` all ones,
``ρ`` the correlation of folds that share training data), the ``δ_i`` as
Student t around the mean difference ``δ0``, and give every other quantity
the bounded priors of ``baycomp``'s Stan file ``hierarchical-t-test.stan``::

    δ_i ~ t(ν, δ0, σ0)           δ0 ~ U(−max|x|, max|x|)
    σ_i ~ U(0, u · s_within)     σ0 ~ U(0, u · s_among)
    ν − 1 ~ Gamma(α, rate β)     α ~ U(α_low, α_high),  β ~ U(β_low, β_high)

on differences divided by the mean within-data-set standard deviation (so
``s_within = 1``), ``s_among`` the standard deviation of the data-set means
and ``u = upper_sigma``.

The covariance has two eigenvalues, ``σ²(1 + (n − 1)ρ)`` along the vector of
ones and ``σ²(1 − ρ)`` on its orthogonal complement, so with the mean
``m_i`` and the within sum of squares ``S_i = Σ_j (x_ij − m_i)²``

    (x − δ1)ᵀ Σ⁻¹ (x − δ1) = n (m − δ)² / (σ² c) + S / (σ² (1 − ρ)),
    log det Σ = 2 n log σ + log c + (n − 1) log(1 − ρ),   c = 1 + (n − 1)ρ,

and the likelihood of data set ``i`` is that of ``m_i ~ N(δ_i, σ_i² c_i/n_i)``
times a factor in ``σ_i`` and ``S_i`` alone: the folds enter only through
``(n_i, m_i, S_i)``. The sampler is a Gibbs sampler on that factorised model
with the Student t as a scale mixture of normals (``δ_i | λ_i ~ N(δ0,
σ0²/λ_i)``, ``λ_i ~ Gamma(ν/2, rate ν/2)``). One sweep, for every pair and
chain at once:

0. ``δ0`` by a slice step on the t density of the ``δ_i`` (the ``λ_i``
   integrated out, so that the weights of outlying data sets do not hold
   ``δ0`` in place);
1. ``ν`` by a slice step on ``log(ν − 1)`` with the ``λ_i`` integrated out
   (the t density of the ``δ_i``), then ``λ_i | ν, δ_i, δ0, σ0 ~
   Gamma((ν + 1)/2, rate (ν + (δ_i − δ0)²/σ0²)/2)``;
2. ``σ0`` by a slice step on ``log σ0`` and ``δ0`` from its truncated normal,
   both with the ``δ_i`` integrated out (``m_i ~ N(δ0, σ0²/λ_i + σ_i²
   c_i/n_i)``), then every ``δ_i`` from its normal conditional (a partially
   collapsed Gibbs step, van Dyk & Park 2008, which keeps ``σ0`` from
   sticking when the data sets barely differ);
3. every ``σ_i`` exactly: ``1/σ_i² ~ Gamma((n_i − 1)/2, rate Q_i/2)``
   restricted to ``σ_i < u``, ``Q_i = n_i (m_i − δ_i)²/c_i + S_i/(1 − ρ)``;
4. ``α`` and ``β`` by slice steps over their bounded supports.

Steps 0 and 1 integrate the ``λ_i`` out and step 1 then draws them, and
step 2 integrates the ``δ_i`` out until it draws them, so each sweep is a
valid partially collapsed Gibbs sampler.
"""

from __future__ import annotations

import numpy as np

from pdcompare.stats import _special as special
from pdcompare.stats._mcmc import bulk_ess, slice_step, split_rhat
from pdcompare.stats.bayes import decisions

#: Bounds of ``log(ν − 1)`` for the slice steps (ν − 1 between 1e-13 and 1e13).
LOG_NU_BOUND = 30.0


def warmup_sweeps(draws_per_chain: int) -> int:
    """Sweeps discarded per chain before the draws: a quarter of the draws, 200 to 1000."""
    return int(min(max(draws_per_chain // 4, 200), 1000))


def _truncated_normal(mean, sd, bound, rng):
    """Draws of ``N(mean, sd²)`` restricted to ``(−bound, bound)``, by the inverse CDF.

    Drawn on the side of the mean's tail that keeps ``ndtr`` accurate: when
    both bounds lie above the mean, the mirror image is drawn and negated.
    """
    low = (-bound - mean) / sd
    high = (bound - mean) / sd
    flip = low > 0
    low, high = np.where(flip, -high, low), np.where(flip, -low, high)
    p_low, p_high = special.ndtr(low), special.ndtr(high)
    z = special.ndtri(p_low + rng.random(np.shape(mean)) * (p_high - p_low))
    z = np.clip(z, low, high)
    return mean + sd * np.where(flip, -z, z)


def _precision_draw(shape, rate, upper, rng):
    """``1/σ²`` from Gamma(shape, rate) restricted to ``σ < upper`` (precision above 1/upper²).

    A plain Gamma draw almost always satisfies the bound (``upper`` is
    ``upper_sigma`` times the spread of the data); the few that do not are
    drawn again by the inverse CDF of the restricted Gamma.
    """
    tau = rng.gamma(shape, 1.0 / rate)
    floor = 1.0 / upper**2
    low = np.broadcast_to(floor, tau.shape)
    bad = tau < low
    if bad.any():
        k = np.broadcast_to(shape, tau.shape)[bad]
        r = np.broadcast_to(rate, tau.shape)[bad]
        start = special.gammainc(k, r * low[bad])
        u = start + rng.random(k.shape) * (1.0 - start)
        tau[bad] = np.maximum(special.gammaincinv(k, np.minimum(u, 1.0)) / r, low[bad])
    return tau


def sample_posterior(
    counts: np.ndarray,
    means: np.ndarray,
    within: np.ndarray,
    *,
    rho: float,
    delta_bound: np.ndarray,
    sigma_upper: np.ndarray,
    sigma0_upper: np.ndarray,
    draws: int,
    chains: int,
    warmup: int,
    alpha_bounds: tuple[float, float] = (1.0, 2.0),
    beta_bounds: tuple[float, float] = (0.01, 0.1),
    rng: np.random.Generator,
) -> dict[str, np.ndarray]:
    """Posterior draws of the hierarchical model for every pair and chain at once.

    Parameters
    ----------
    counts, means, within : numpy.ndarray
        Shape (pairs, data sets): folds ``n_i`` (0 for a data set a pair
        leaves out), their mean ``m_i`` and within sum of squares ``S_i``, on
        the scaled differences.
    rho : float
        Correlation of the folds, in (0, 1).
    delta_bound, sigma_upper, sigma0_upper : numpy.ndarray
        Shape (pairs,): the prior bounds of ``δ0``, ``σ_i`` and ``σ0``.
    draws, chains, warmup : int
        Kept sweeps per chain, chains, and discarded sweeps per chain.
    alpha_bounds, beta_bounds : (float, float)
        Bounds of the uniform priors of the Gamma prior's shape and rate.
    rng : numpy.random.Generator
        The source of every random number.

    Returns
    -------
    dict
        ``delta0``, ``sigma0``, ``nu``: draws shaped (pairs, chains, draws);
        ``delta``: the posterior mean of every ``δ_i``, (pairs, data sets).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(0.5, 1.0, size=(1, 6, 10)) + np.arange(6)[None, :, None] * 0.1
    >>> n = np.full((1, 6), 10.0)
    >>> out = sample_posterior(n, x.mean(2), ((x - x.mean(2, keepdims=True)) ** 2).sum(2),
    ...     rho=0.1, delta_bound=np.array([5.0]), sigma_upper=np.array([1000.0]),
    ...     sigma0_upper=np.array([300.0]), draws=500, chains=2, warmup=500, rng=rng)
    >>> out["delta0"].shape, out["delta"].shape
    ((1, 2, 500), (1, 6))
    """
    pairs, datasets = means.shape
    present = counts >= 2
    n = np.where(present, counts, 1.0)[:, None, :]
    m = means[:, None, :]
    ss = within[:, None, :]
    c = 1.0 + (n - 1.0) * rho
    shape = (pairs, chains)
    full = (pairs, chains, datasets)
    bound = delta_bound[:, None]
    upper = sigma_upper[:, None, None]
    log_upper0 = np.log(sigma0_upper)[:, None]
    have = present[:, None, :]
    n_sets = present.sum(axis=1)
    a_low, a_high = alpha_bounds
    b_low, b_high = beta_bounds

    # Over-dispersed starting points, one per chain.
    centre = np.where(present, means, 0.0).sum(axis=1) / np.maximum(n_sets, 1)
    spread = np.sqrt(
        np.where(present, (means - centre[:, None]) ** 2, 0.0).sum(axis=1) / np.maximum(n_sets, 1)
    )
    spread = np.maximum(spread, 1e-3)
    delta0 = centre[:, None] + spread[:, None] * rng.normal(0.0, 0.5, shape)
    delta0 = np.clip(delta0, -0.9 * bound, 0.9 * bound)
    sigma0 = np.minimum(
        spread[:, None] * np.exp(rng.normal(0.0, 0.5, shape)), 0.5 * sigma0_upper[:, None]
    )
    start_sd = np.sqrt(np.where(present, within / n[:, 0, :] / (1.0 - rho), 1.0))
    sigma = np.broadcast_to(start_sd[:, None, :], full) * np.exp(rng.normal(0.0, 0.1, full))
    sigma = np.minimum(sigma, 0.5 * upper)
    delta = np.where(have, m, delta0[..., None]) + 0.0 * sigma
    gamma_a = rng.uniform(a_low, a_high, shape)
    gamma_b = rng.uniform(b_low, b_high, shape)
    log_nu1 = np.log(rng.gamma(gamma_a, 1.0 / gamma_b))
    lam = np.ones(full)

    kept = {name: np.empty((pairs, chains, draws)) for name in ("delta0", "sigma0", "nu")}
    delta_sum = np.zeros(full)
    # Overflow to inf (a slice step probing a huge nu) gives log densities of -inf: rejected.
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for sweep in range(warmup + draws):
            # 0. delta0 given the delta_i through their t density (weights integrated out):
            # the weights of data sets far from delta0 would otherwise hold it in place.
            nu = np.exp(log_nu1) + 1.0

            def log_delta0(d0, delta=delta, s0=sigma0, nu=nu):
                z2 = ((delta - d0[..., None]) / s0[..., None]) ** 2
                return -0.5 * (nu + 1.0) * np.log1p(z2 / nu[..., None]).sum(axis=-1)

            delta0 = slice_step(
                delta0,
                log_delta0,
                rng,
                width=3.0 * sigma0 / np.sqrt(datasets),
                lower=-bound,
                upper=bound,
            )

            # 1. nu, with the mixing weights integrated out; then the weights given nu.
            z2 = ((delta - delta0[..., None]) / sigma0[..., None]) ** 2

            def log_nu(u, z2=z2, a=gamma_a, b=gamma_b):
                nu = np.exp(u) + 1.0
                terms = special.gammaln((nu + 1.0) / 2.0) - special.gammaln(nu / 2.0)
                terms -= 0.5 * np.log(nu)
                tails = np.log1p(z2 / nu[..., None]).sum(axis=-1)
                return a * u - b * np.exp(u) + datasets * terms - (nu + 1.0) / 2.0 * tails

            log_nu1 = slice_step(
                log_nu1, log_nu, rng, width=2.0, lower=-LOG_NU_BOUND, upper=LOG_NU_BOUND
            )
            nu = np.exp(log_nu1) + 1.0
            lam = rng.gamma((nu[..., None] + 1.0) / 2.0, 2.0 / (nu[..., None] + z2))

            # 2. sigma0 and delta0 with the delta_i integrated out, then the delta_i.
            v = sigma**2 * c / n

            def log_sigma0(u, r2=have * (m - delta0[..., None]) ** 2, inv_lam=1.0 / lam, v=v):
                var = np.exp(2.0 * u)[..., None] * inv_lam + v
                return -0.5 * ((np.log(var) * have + r2 / var).sum(axis=-1)) + u

            log_s0 = slice_step(np.log(sigma0), log_sigma0, rng, width=1.0, upper=log_upper0)
            sigma0 = np.exp(log_s0)
            weight = np.where(have, 1.0 / (sigma0[..., None] ** 2 / lam + v), 0.0)
            precision = weight.sum(axis=-1)
            centre0 = (weight * m).sum(axis=-1) / precision
            delta0 = _truncated_normal(centre0, 1.0 / np.sqrt(precision), bound, rng)
            prior_precision = lam / sigma0[..., None] ** 2
            data_precision = np.where(have, 1.0 / v, 0.0)
            post_precision = prior_precision + data_precision
            post_mean = (prior_precision * delta0[..., None] + data_precision * m) / post_precision
            delta = post_mean + rng.standard_normal(full) / np.sqrt(post_precision)

            # 3. sigma_i exactly, given delta_i (uniform on (0, upper) for a missing data set).
            quad = n * (m - delta) ** 2 / c + ss / (1.0 - rho)
            tau = _precision_draw(
                np.where(have, (n - 1.0) / 2.0, 1.0), np.where(have, quad, 1.0) / 2.0, upper, rng
            )
            sigma = np.where(have, 1.0 / np.sqrt(tau), rng.uniform(0.0, 1.0, full) * upper)

            # 4. The Gamma prior's shape and rate, over their bounded supports.
            nu1 = nu - 1.0
            gamma_a = slice_step(
                gamma_a,
                lambda a, b=gamma_b, x=nu1: (
                    a * np.log(b) + (a - 1.0) * np.log(x) - special.gammaln(a)
                ),
                rng,
                width=a_high - a_low,
                lower=a_low,
                upper=a_high,
                whole_interval=True,
            )
            gamma_b = slice_step(
                gamma_b,
                lambda b, a=gamma_a, x=nu1: a * np.log(b) - b * x,
                rng,
                width=b_high - b_low,
                lower=b_low,
                upper=b_high,
                whole_interval=True,
            )
            if sweep >= warmup:
                k = sweep - warmup
                kept["delta0"][:, :, k] = delta0
                kept["sigma0"][:, :, k] = sigma0
                kept["nu"][:, :, k] = nu
                delta_sum += delta
    kept["delta"] = delta_sum.mean(axis=1) / draws
    return kept


def region_masses(delta0, sigma0, nu, low: float | np.ndarray, high: float | np.ndarray):
    """Mass of the Student t ``(ν, δ0, σ0)`` below ``low``, between, and above ``high``.

    For each posterior draw, the three probabilities of the next data set's
    difference that ``baycomp.HierarchicalTest.sample`` returns per sample
    (its ``(p_left, p_rope, p_right)`` for the difference ``y − x`` are
    these masses of ``x − y`` in reverse order).

    Examples
    --------
    >>> below, inside, above = region_masses(np.array([0.0]), np.array([1.0]),
    ...                                      np.array([1e9]), -1.0, 1.0)
    >>> [round(float(v[0]), 4) for v in (below, inside, above)]
    [0.1587, 0.6827, 0.1587]
    """
    below = special.stdtr(nu, (low - delta0) / sigma0)
    above = special.stdtr(nu, (delta0 - high) / sigma0)
    return below, 1.0 - below - above, above


def region_shares(delta0, sigma0, nu, low: float | np.ndarray, high: float | np.ndarray):
    """Share of draws in which each region of the next data set's difference is the likeliest.

    For every draw, the Student t ``(ν, δ0, σ0)`` gives the difference on a
    new data set; its mass below ``low``, between ``low`` and ``high`` and
    above ``high`` is computed, and the region with the largest mass wins
    that draw (the first of equals, as ``numpy.argmax`` in baycomp's
    ``Posterior.probs``). Draws are along the last two axes.

    Returns
    -------
    tuple of numpy.ndarray
        ``(below, inside, above)``: the share of draws each region wins.

    Examples
    --------
    >>> d0 = np.array([[[0.5, 2.0, -1.0, 0.1]]])
    >>> sigma0, nu = np.full_like(d0, 0.1), np.full_like(d0, 5.0)
    >>> [float(s[0]) for s in region_shares(d0, sigma0, nu, -0.2, 0.2)]
    [0.25, 0.25, 0.5]
    """
    winner = np.argmax(np.stack(region_masses(delta0, sigma0, nu, low, high)), axis=0)
    total = winner.shape[-1] * winner.shape[-2]
    return tuple((winner == k).sum(axis=(-2, -1)) / total for k in range(3))


def hierarchical_pairs(
    folds: np.ndarray,
    i: np.ndarray,
    j: np.ndarray,
    *,
    rho: float,
    rope: tuple[float, float] = (0.0, 0.0),
    n_samples: int = 10000,
    chains: int = 4,
    alpha: float = 0.05,
    lower_alpha: float = 1.0,
    upper_alpha: float = 2.0,
    lower_beta: float = 0.01,
    upper_beta: float = 0.1,
    upper_sigma: float = 1000.0,
    greater_is_better: bool = True,
    random_state: np.random.Generator,
    keep_draws: int = 0,
) -> dict[str, np.ndarray]:
    """The hierarchical Bayesian correlated t-test of every pair ``(folds[i], folds[j])``.

    Parameters
    ----------
    folds : numpy.ndarray
        Fold scores, (models, data sets, splits); NaN for a missing fold.
        A pair uses, on each data set, the folds both models have; a data
        set with fewer than 2 such folds is left out of that pair.
    i, j : numpy.ndarray
        Model positions of model_1 and model_2 of every pair.
    rho : float
        Correlation of the folds, ``n_test / (n_test + n_train)``.
    rope : (float, float)
        Region of practical equivalence of ``model_1 - model_2``, in score units.
    n_samples, chains : int
        Posterior draws in all (split evenly across the chains), and chains.
    alpha : float
        A decision needs a probability of at least ``1 - alpha``.
    lower_alpha, upper_alpha, lower_beta, upper_beta, upper_sigma : float
        The bounds of the priors (see the module's docstring).
    greater_is_better : bool
        Whether "better" means a positive difference.
    random_state : numpy.random.Generator
        The source of every random number.
    keep_draws : int, default 0
        Posterior draws of ``(δ0, σ0, ν)`` to return per pair (``draws``),
        evenly spaced over the chains; 0 returns none.

    Returns
    -------
    dict
        Per pair: ``mean_diff`` (posterior mean of ``δ0`` in score units),
        ``prob_better, prob_rope, prob_worse, decision`` (codes of
        :func:`pdcompare.stats.bayes.decisions`), ``rhat, ess`` (of ``δ0``),
        ``shrunk`` (pairs, data sets: posterior means of ``δ_i`` in score
        units, NaN for a data set the pair leaves out), ``differences``
        (the same shape: the mean fold differences), and the masks
        ``identical`` (every difference 0), ``no_spread`` (constant
        differences within every data set, not all 0: NaN results),
        ``too_few`` (fewer than 2 data sets with 2 folds: NaN results), and
        ``floored`` (pairs, data sets: a constant data set given the
        pair's smallest positive spread elsewhere), and with ``keep_draws``
        ``draws`` (pairs, 3, keep_draws): draws of ``δ0`` and ``σ0`` in score
        units and of ``ν``, NaN for a pair not sampled.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> shift = rng.normal(0.02, 0.01, size=(8, 1))
    >>> folds = np.stack([0.8 + shift + rng.normal(0, 0.01, (8, 10)), np.full((8, 10), 0.8)])
    >>> out = hierarchical_pairs(folds, np.array([0]), np.array([1]), rho=0.1,
    ...                          n_samples=2000, random_state=rng)
    >>> round(float(out["mean_diff"][0]), 2), float(out["prob_better"][0]) > 0.9
    (0.02, True)
    """
    diffs = folds[i] - folds[j]  # (pairs, data sets, splits)
    valid = ~np.isnan(diffs)
    counts = valid.sum(axis=2).astype(float)
    present = counts >= 2
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(valid, diffs, 0.0).sum(axis=2) / counts
        within = np.where(valid, (diffs - means[..., None]) ** 2, 0.0).sum(axis=2)
        sd = np.sqrt(within / counts)  # numpy's std (ddof 0), as baycomp scales by
    means = np.where(present, means, 0.0)
    within = np.where(present, within, 0.0)
    sd = np.where(present, sd, np.nan)
    n_sets = present.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(present, sd, 0.0).sum(axis=1) / n_sets  # NaN without a data set
    identical = (n_sets >= 1) & ~np.where(present[..., None] & valid, diffs != 0, False).any(
        axis=(1, 2)
    )
    usable = (n_sets >= 2) & (scale > 0)
    no_spread = (n_sets >= 2) & (scale == 0) & ~identical
    too_few = (n_sets < 2) & ~identical
    # A data set whose differences are the same on every fold has no within spread; its
    # sigma_i would run to 0 and its likelihood without bound. It gets the pair's
    # smallest positive spread on another data set (random_effects does the same).
    positive = np.where(present & (sd > 0), sd, np.inf)
    smallest = positive.min(axis=1, initial=np.inf)
    floored = present & (sd == 0) & usable[:, None]
    sd_used = np.where(floored, smallest[:, None], sd)
    within = np.where(floored, counts * smallest[:, None] ** 2, within)

    pairs = len(i)
    out = {
        name: np.full(pairs, np.nan)
        for name in ("mean_diff", "prob_better", "prob_rope", "prob_worse", "rhat", "ess")
    }
    shrunk = np.full(means.shape, np.nan)
    kept_draws = np.full((pairs, 3, keep_draws), np.nan)
    low, high = rope
    if usable.any():
        u = np.flatnonzero(usable)
        s = scale[u][:, None]
        m = means[u] / s
        ss = within[u] / s**2
        have = present[u]
        k = have.sum(axis=1)
        s_within = np.where(have, sd_used[u], 0.0).sum(axis=1) / k / s[:, 0]
        centre = np.where(have, m, 0.0).sum(axis=1) / k
        s_among = np.sqrt(np.where(have, (m - centre[:, None]) ** 2, 0.0).sum(axis=1) / k)
        s_among = np.where(s_among > 0, s_among, s_within)  # equal means: baycomp's q = 1 rule
        scaled = np.where(valid[u] & have[..., None], np.abs(diffs[u]), 0.0) / s[..., None]
        draws = n_samples // chains
        post = sample_posterior(
            np.where(have, counts[u], 0.0),
            m,
            ss,
            rho=rho,
            delta_bound=scaled.max(axis=(1, 2)),
            sigma_upper=upper_sigma * s_within,
            sigma0_upper=upper_sigma * s_among,
            draws=draws,
            chains=chains,
            warmup=warmup_sweeps(draws),
            alpha_bounds=(lower_alpha, upper_alpha),
            beta_bounds=(lower_beta, upper_beta),
            rng=random_state,
        )
        below, inside, above = region_shares(
            post["delta0"], post["sigma0"], post["nu"], low / s[..., None], high / s[..., None]
        )
        better, worse = (above, below) if greater_is_better else (below, above)
        out["mean_diff"][u] = post["delta0"].mean(axis=(1, 2)) * s[:, 0]
        out["prob_better"][u] = better
        out["prob_rope"][u] = inside
        out["prob_worse"][u] = worse
        out["rhat"][u] = split_rhat(post["delta0"])
        out["ess"][u] = bulk_ess(post["delta0"])
        shrunk[u] = np.where(have, post["delta"] * s, np.nan)
        if keep_draws:
            total = chains * draws
            at = np.round(np.linspace(0, total - 1, min(keep_draws, total))).astype(int)
            flat = [post[k].reshape(len(u), total)[:, at] for k in ("delta0", "sigma0", "nu")]
            kept_draws = kept_draws[:, :, : len(at)]
            kept_draws[u] = np.stack([flat[0] * s, flat[1] * s, flat[2]], axis=1)
    # Identical models: a point mass at 0, in whichever region holds 0.
    if identical.any():
        zero_region = 0 if low > 0.0 else (2 if high < 0.0 else 1)
        shares = np.zeros(3)
        shares[zero_region] = 1.0
        better, worse = (shares[2], shares[0]) if greater_is_better else (shares[0], shares[2])
        out["mean_diff"][identical] = 0.0
        out["prob_better"][identical] = better
        out["prob_rope"][identical] = shares[1]
        out["prob_worse"][identical] = worse
        shrunk[identical] = np.where(present[identical], 0.0, np.nan)
    out["decision"] = decisions(out["prob_better"], out["prob_rope"], out["prob_worse"], alpha)
    out["shrunk"] = shrunk
    out["differences"] = np.where(present, means, np.nan)
    out["identical"] = identical
    out["no_spread"] = no_spread
    out["too_few"] = too_few
    out["floored"] = floored
    if keep_draws:
        out["draws"] = kept_draws
    return out

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
    model = _Model(counts, means, within, rho, delta_bound, sigma_upper, sigma0_upper, chains)
    state = _start(model, counts, means, within, alpha_bounds, beta_bounds, rng)
    pairs, datasets = means.shape
    kept = {name: np.empty((pairs, chains, draws)) for name in ("delta0", "sigma0", "nu")}
    delta_sum = np.zeros((pairs, chains, datasets))
    # Overflow to inf (a slice step probing a huge nu) gives log densities of -inf: rejected.
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for sweep in range(warmup + draws):
            _step_delta0_nu(model, state, rng)
            _step_sigma0_delta(model, state, rng)
            _step_sigma(model, state, rng)
            _step_gamma(state, alpha_bounds, beta_bounds, rng)
            if sweep >= warmup:
                k = sweep - warmup
                kept["delta0"][:, :, k] = state.delta0
                kept["sigma0"][:, :, k] = state.sigma0
                kept["nu"][:, :, k] = state.nu
                delta_sum += state.delta
    kept["delta"] = delta_sum.mean(axis=1) / draws
    return kept


class _Model:
    """What the sweeps of :func:`sample_posterior` read: the data and the prior bounds.

    Arrays are shaped (pairs, chains, data sets) by broadcasting: ``n``, ``m``,
    ``ss`` (folds, means and within sums of squares), ``c = 1 + (n − 1)ρ`` and
    ``have`` (the data sets a pair uses); ``bound`` (pairs, 1) bounds ``δ0``,
    ``upper`` the ``σ_i`` and ``sigma0_upper`` (pairs,) ``σ0``.
    """

    def __init__(
        self, counts, means, within, rho, delta_bound, sigma_upper, sigma0_upper, chains
    ) -> None:
        pairs, datasets = means.shape
        present = counts >= 2
        self.rho = rho
        self.datasets = datasets
        self.full = (pairs, chains, datasets)
        self.n = np.where(present, counts, 1.0)[:, None, :]
        self.m = means[:, None, :]
        self.ss = within[:, None, :]
        self.c = 1.0 + (self.n - 1.0) * rho
        self.have = present[:, None, :]
        self.bound = delta_bound[:, None]
        self.upper = sigma_upper[:, None, None]
        self.sigma0_upper = sigma0_upper
        self.log_upper0 = np.log(sigma0_upper)[:, None]


class _State:
    """The chains' current values, updated in place by the steps of a sweep.

    ``delta0, sigma0, nu, log_nu1, gamma_a, gamma_b`` are shaped (pairs,
    chains); ``delta, sigma, lam`` (pairs, chains, data sets).
    """

    def __init__(self, **values: np.ndarray) -> None:
        self.__dict__.update(values)


def _start(model, counts, means, within, alpha_bounds, beta_bounds, rng) -> _State:
    """Over-dispersed starting points, one per chain."""
    pairs, chains = model.full[:2]
    shape = (pairs, chains)
    present = counts >= 2
    n_sets = present.sum(axis=1)
    centre = np.where(present, means, 0.0).sum(axis=1) / np.maximum(n_sets, 1)
    spread = np.sqrt(
        np.where(present, (means - centre[:, None]) ** 2, 0.0).sum(axis=1) / np.maximum(n_sets, 1)
    )
    spread = np.maximum(spread, 1e-3)
    delta0 = centre[:, None] + spread[:, None] * rng.normal(0.0, 0.5, shape)
    delta0 = np.clip(delta0, -0.9 * model.bound, 0.9 * model.bound)
    sigma0 = np.minimum(
        spread[:, None] * np.exp(rng.normal(0.0, 0.5, shape)),
        0.5 * model.sigma0_upper[:, None],
    )
    start_sd = np.sqrt(np.where(present, within / model.n[:, 0, :] / (1.0 - model.rho), 1.0))
    sigma = np.broadcast_to(start_sd[:, None, :], model.full) * np.exp(
        rng.normal(0.0, 0.1, model.full)
    )
    sigma = np.minimum(sigma, 0.5 * model.upper)
    delta = np.where(model.have, model.m, delta0[..., None]) + 0.0 * sigma
    gamma_a = rng.uniform(*alpha_bounds, shape)
    gamma_b = rng.uniform(*beta_bounds, shape)
    log_nu1 = np.log(rng.gamma(gamma_a, 1.0 / gamma_b))
    return _State(
        delta0=delta0,
        sigma0=sigma0,
        sigma=sigma,
        delta=delta,
        gamma_a=gamma_a,
        gamma_b=gamma_b,
        log_nu1=log_nu1,
        nu=np.exp(log_nu1) + 1.0,
        lam=np.ones(model.full),
    )


def _step_delta0_nu(model: _Model, state: _State, rng: np.random.Generator) -> None:
    """Steps 0 and 1 of a sweep: ``δ0``, then ``ν`` and the mixing weights ``λ_i``."""
    # 0. delta0 given the delta_i through their t density (weights integrated out):
    # the weights of data sets far from delta0 would otherwise hold it in place.
    nu = np.exp(state.log_nu1) + 1.0

    def log_delta0(d0, delta=state.delta, s0=state.sigma0, nu=nu):
        z2 = ((delta - d0[..., None]) / s0[..., None]) ** 2
        return -0.5 * (nu + 1.0) * np.log1p(z2 / nu[..., None]).sum(axis=-1)

    state.delta0 = slice_step(
        state.delta0,
        log_delta0,
        rng,
        width=3.0 * state.sigma0 / np.sqrt(model.datasets),
        lower=-model.bound,
        upper=model.bound,
    )

    # 1. nu, with the mixing weights integrated out; then the weights given nu.
    z2 = ((state.delta - state.delta0[..., None]) / state.sigma0[..., None]) ** 2
    datasets = model.datasets

    def log_nu(u, z2=z2, a=state.gamma_a, b=state.gamma_b):
        nu = np.exp(u) + 1.0
        terms = special.gammaln((nu + 1.0) / 2.0) - special.gammaln(nu / 2.0)
        terms -= 0.5 * np.log(nu)
        tails = np.log1p(z2 / nu[..., None]).sum(axis=-1)
        return a * u - b * np.exp(u) + datasets * terms - (nu + 1.0) / 2.0 * tails

    state.log_nu1 = slice_step(
        state.log_nu1, log_nu, rng, width=2.0, lower=-LOG_NU_BOUND, upper=LOG_NU_BOUND
    )
    state.nu = nu = np.exp(state.log_nu1) + 1.0
    state.lam = rng.gamma((nu[..., None] + 1.0) / 2.0, 2.0 / (nu[..., None] + z2))


def _step_sigma0_delta(model: _Model, state: _State, rng: np.random.Generator) -> None:
    """Step 2: ``σ0`` and ``δ0`` with the ``δ_i`` integrated out, then the ``δ_i``."""
    m, have, lam = model.m, model.have, state.lam
    v = state.sigma**2 * model.c / model.n

    def log_sigma0(u, r2=have * (m - state.delta0[..., None]) ** 2, inv_lam=1.0 / lam, v=v):
        var = np.exp(2.0 * u)[..., None] * inv_lam + v
        return -0.5 * ((np.log(var) * have + r2 / var).sum(axis=-1)) + u

    log_s0 = slice_step(np.log(state.sigma0), log_sigma0, rng, width=1.0, upper=model.log_upper0)
    sigma0 = state.sigma0 = np.exp(log_s0)
    weight = np.where(have, 1.0 / (sigma0[..., None] ** 2 / lam + v), 0.0)
    precision = weight.sum(axis=-1)
    centre0 = (weight * m).sum(axis=-1) / precision
    delta0 = state.delta0 = _truncated_normal(centre0, 1.0 / np.sqrt(precision), model.bound, rng)
    prior_precision = lam / sigma0[..., None] ** 2
    data_precision = np.where(have, 1.0 / v, 0.0)
    post_precision = prior_precision + data_precision
    post_mean = (prior_precision * delta0[..., None] + data_precision * m) / post_precision
    state.delta = post_mean + rng.standard_normal(model.full) / np.sqrt(post_precision)


def _step_sigma(model: _Model, state: _State, rng: np.random.Generator) -> None:
    """Step 3: every ``σ_i`` exactly, given ``δ_i`` (uniform on (0, upper) when missing)."""
    have, n, upper = model.have, model.n, model.upper
    quad = n * (model.m - state.delta) ** 2 / model.c + model.ss / (1.0 - model.rho)
    tau = _precision_draw(
        np.where(have, (n - 1.0) / 2.0, 1.0), np.where(have, quad, 1.0) / 2.0, upper, rng
    )
    state.sigma = np.where(have, 1.0 / np.sqrt(tau), rng.uniform(0.0, 1.0, model.full) * upper)


def _step_gamma(state: _State, alpha_bounds, beta_bounds, rng: np.random.Generator) -> None:
    """Step 4: the Gamma prior's shape and rate, over their bounded supports."""
    (a_low, a_high), (b_low, b_high) = alpha_bounds, beta_bounds
    nu1 = state.nu - 1.0
    state.gamma_a = slice_step(
        state.gamma_a,
        lambda a, b=state.gamma_b, x=nu1: (
            a * np.log(b) + (a - 1.0) * np.log(x) - special.gammaln(a)
        ),
        rng,
        width=a_high - a_low,
        lower=a_low,
        upper=a_high,
        whole_interval=True,
    )
    state.gamma_b = slice_step(
        state.gamma_b,
        lambda b, a=state.gamma_a, x=nu1: a * np.log(b) - b * x,
        rng,
        width=b_high - b_low,
        lower=b_low,
        upper=b_high,
        whole_interval=True,
    )


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
    data = _pair_data(folds, i, j)
    pairs = len(i)
    out = {
        name: np.full(pairs, np.nan)
        for name in ("mean_diff", "prob_better", "prob_rope", "prob_worse", "rhat", "ess")
    }
    out["shrunk"] = np.full(data["means"].shape, np.nan)
    out["draws"] = np.full((pairs, 3, keep_draws), np.nan)
    if data["usable"].any():
        _sample_pairs(
            data,
            out,
            rho=rho,
            rope=rope,
            n_samples=n_samples,
            chains=chains,
            alpha_bounds=(lower_alpha, upper_alpha),
            beta_bounds=(lower_beta, upper_beta),
            upper_sigma=upper_sigma,
            greater_is_better=greater_is_better,
            rng=random_state,
            keep_draws=keep_draws,
        )
    # Identical models: a point mass at 0, in whichever region holds 0.
    identical, present = data["identical"], data["present"]
    if identical.any():
        low, high = rope
        zero_region = 0 if low > 0.0 else (2 if high < 0.0 else 1)
        shares = np.zeros(3)
        shares[zero_region] = 1.0
        better, worse = (shares[2], shares[0]) if greater_is_better else (shares[0], shares[2])
        out["mean_diff"][identical] = 0.0
        out["prob_better"][identical] = better
        out["prob_rope"][identical] = shares[1]
        out["prob_worse"][identical] = worse
        out["shrunk"][identical] = np.where(present[identical], 0.0, np.nan)
    out["decision"] = decisions(out["prob_better"], out["prob_rope"], out["prob_worse"], alpha)
    out["differences"] = np.where(present, data["means"], np.nan)
    for name in ("identical", "no_spread", "too_few", "floored"):
        out[name] = data[name]
    if not keep_draws:
        del out["draws"]
    return out


def _pair_data(folds: np.ndarray, i: np.ndarray, j: np.ndarray) -> dict[str, np.ndarray]:
    """Every pair's fold differences summarised per data set, and which pairs can be sampled.

    ``means``, ``within`` (sum of squares), ``counts`` and ``present`` (at
    least 2 folds) per pair and data set; ``sd_used`` (the spread, a
    constant data set's ``floored`` to the pair's smallest positive one);
    ``scale`` per pair (baycomp's: the mean of the spreads); the masks of
    :func:`hierarchical_pairs`; and ``diffs``, ``valid`` (the folds).
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
    # A data set whose differences are the same on every fold has no within spread; its
    # sigma_i would run to 0 and its likelihood without bound. It gets the pair's
    # smallest positive spread on another data set (random_effects does the same).
    positive = np.where(present & (sd > 0), sd, np.inf)
    smallest = positive.min(axis=1, initial=np.inf)
    floored = present & (sd == 0) & usable[:, None]
    return {
        "diffs": diffs,
        "valid": valid,
        "counts": counts,
        "present": present,
        "means": means,
        "within": np.where(floored, counts * smallest[:, None] ** 2, within),
        "sd_used": np.where(floored, smallest[:, None], sd),
        "scale": scale,
        "identical": identical,
        "usable": usable,
        "no_spread": (n_sets >= 2) & (scale == 0) & ~identical,
        "too_few": (n_sets < 2) & ~identical,
        "floored": floored,
    }


def _sample_pairs(
    data: dict[str, np.ndarray],
    out: dict[str, np.ndarray],
    *,
    rho: float,
    rope: tuple[float, float],
    n_samples: int,
    chains: int,
    alpha_bounds: tuple[float, float],
    beta_bounds: tuple[float, float],
    upper_sigma: float,
    greater_is_better: bool,
    rng: np.random.Generator,
    keep_draws: int,
) -> None:
    """Sample the posterior of the usable pairs and write their results into ``out``."""
    u = np.flatnonzero(data["usable"])
    s = data["scale"][u][:, None]
    m = data["means"][u] / s
    ss = data["within"][u] / s**2
    have = data["present"][u]
    k = have.sum(axis=1)
    s_within = np.where(have, data["sd_used"][u], 0.0).sum(axis=1) / k / s[:, 0]
    centre = np.where(have, m, 0.0).sum(axis=1) / k
    s_among = np.sqrt(np.where(have, (m - centre[:, None]) ** 2, 0.0).sum(axis=1) / k)
    s_among = np.where(s_among > 0, s_among, s_within)  # equal means: baycomp's q = 1 rule
    scaled = np.where(data["valid"][u] & have[..., None], np.abs(data["diffs"][u]), 0.0)
    scaled = scaled / s[..., None]
    draws = n_samples // chains
    post = sample_posterior(
        np.where(have, data["counts"][u], 0.0),
        m,
        ss,
        rho=rho,
        delta_bound=scaled.max(axis=(1, 2)),
        sigma_upper=upper_sigma * s_within,
        sigma0_upper=upper_sigma * s_among,
        draws=draws,
        chains=chains,
        warmup=warmup_sweeps(draws),
        alpha_bounds=alpha_bounds,
        beta_bounds=beta_bounds,
        rng=rng,
    )
    low, high = rope
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
    out["shrunk"][u] = np.where(have, post["delta"] * s, np.nan)
    if keep_draws:
        total = chains * draws
        at = np.round(np.linspace(0, total - 1, min(keep_draws, total))).astype(int)
        flat = [post[k].reshape(len(u), total)[:, at] for k in ("delta0", "sigma0", "nu")]
        out["draws"] = out["draws"][:, :, : len(at)]
        out["draws"][u] = np.stack([flat[0] * s, flat[1] * s, flat[2]], axis=1)

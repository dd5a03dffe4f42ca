"""The numpy sampler of the hierarchical Bayesian test: its tools and its posterior.

References: ArviZ (``arviz_stats``) for split R-hat and bulk ESS; scipy's
distributions for the slice steps; and, for the posterior itself, a random-walk
Metropolis sampler written here on the log density of baycomp's Stan file
``hierarchical-t-test.stan`` (the full correlated likelihood with Stan's own
inverse and determinant of the correlation matrix, not the factorisation the
sampler uses).
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import special, stats

from pdcompare.stats._mcmc import bulk_ess, slice_step, split_rhat
from pdcompare.stats.hierarchical import hierarchical_pairs, region_shares


def _ar1(rng, phi, shape):
    e = rng.normal(size=shape)
    x = np.zeros(shape)
    for t in range(1, shape[-1]):
        x[..., t] = phi * x[..., t - 1] + e[..., t]
    return x


@pytest.mark.parametrize("n", [1000, 1001, 57])
@pytest.mark.parametrize("phi", [0.0, 0.9, 0.99, -0.5])
def test_rhat_and_ess_equal_arviz(n, phi):
    array_stats = pytest.importorskip("arviz_stats.base").array_stats
    rng = np.random.default_rng(int(1000 * (phi + 1)) + n)
    draws = _ar1(rng, phi, (3, 4, n))
    draws[2, 0] += 0.5  # one chain off: R-hat well above 1
    for k in range(3):
        expected_rhat = array_stats.rhat(draws[k], chain_axis=0, draw_axis=1, method="split")
        expected_ess = array_stats.ess(draws[k], chain_axis=0, draw_axis=1, method="bulk")
        assert_allclose(split_rhat(draws)[k], expected_rhat, rtol=1e-12)
        assert_allclose(bulk_ess(draws)[k], expected_ess, rtol=1e-10)


def test_slice_step_samples_a_bounded_gamma_and_a_normal():
    rng = np.random.default_rng(3)
    # Gamma(3, 1) restricted to (0, 4), on the log scale with its Jacobian.
    u = np.zeros(4000)
    z = np.zeros(4000)
    for _ in range(30):
        u = slice_step(u, lambda v: 3.0 * v - np.exp(v), rng, width=1.0, upper=np.log(4.0))
        z = slice_step(z, lambda v: -0.5 * (v - 2.0) ** 2 / 9.0, rng, width=1.0)
    x = np.exp(u)
    assert x.max() < 4.0
    gamma = stats.gamma(3.0)
    assert stats.kstest(x, lambda v: gamma.cdf(v) / gamma.cdf(4.0)).pvalue > 0.001
    assert stats.kstest(z, stats.norm(2.0, 3.0).cdf).pvalue > 0.001


def test_slice_step_over_a_whole_bounded_interval():
    rng = np.random.default_rng(4)
    a = np.full(4000, 1.5)
    for _ in range(30):  # density proportional to a on (1, 2): cdf (a^2 - 1) / 3
        a = slice_step(a, np.log, rng, width=1.0, lower=1.0, upper=2.0, whole_interval=True)
    assert stats.kstest(a, lambda v: (v**2 - 1.0) / 3.0).pvalue > 0.001


@given(
    st.floats(-3, 3),
    st.floats(0.05, 3),
    st.floats(1.0, 60.0),
    st.floats(0.0, 1.0),
)
def test_region_shares_pick_the_largest_t_mass(delta0, sigma0, nu, rope):
    d0 = np.array([[[delta0]]])
    shares = region_shares(d0, np.full_like(d0, sigma0), np.full_like(d0, nu), -rope, rope)
    t = stats.t(nu, delta0, sigma0)
    masses = [t.cdf(-rope), t.cdf(rope) - t.cdf(-rope), t.sf(rope)]
    assert [float(s[0]) for s in shares] == [float(k == np.argmax(masses)) for k in range(3)]


# --------------------------------------------------------------------------- the posterior


def _stan_log_density(theta, x, rho, bounds):
    """The log density of ``hierarchical-t-test.stan`` at unconstrained points ``theta``.

    ``theta`` (chains, 2q + 5): delta0, log std0, delta (q), log sigma (q),
    log(nu - 1), gammaAlpha, gammaBeta; the logs' Jacobians are added, the
    bounds of the uniform priors give -inf outside.
    """
    q, n = x.shape
    d_low, d_high, s0_high, s_high, a_low, a_high, b_low, b_high = bounds
    # Stan's transformed data: the adjugate of M divided by its determinant.
    det = (1 + (n - 1) * rho) * (1 - rho) ** (n - 1)
    inv = np.full((n, n), -rho * (1 - rho) ** (n - 2))
    np.fill_diagonal(inv, (1 + (n - 2) * rho) * (1 - rho) ** (n - 2))
    inv /= det
    delta0 = theta[:, 0]
    std0 = np.exp(theta[:, 1])
    delta = theta[:, 2 : 2 + q]
    sigma = np.exp(theta[:, 2 + q : 2 + 2 * q])
    nu1 = np.exp(theta[:, 2 + 2 * q])
    ga, gb = theta[:, 3 + 2 * q], theta[:, 4 + 2 * q]
    nu = nu1 + 1
    diff = x[None] - delta[:, :, None]
    quad = np.einsum("cij,jk,cik->ci", diff, inv, diff)
    loglik = -0.5 * (2 * n * np.log(sigma) + np.log(det)) - 0.5 * quad / sigma**2
    z = (delta - delta0[:, None]) / std0[:, None]
    student = (
        special.gammaln((nu + 1) / 2)
        - special.gammaln(nu / 2)
        - 0.5 * np.log(nu * np.pi)
        - np.log(std0)
    )[:, None] - (nu[:, None] + 1) / 2 * np.log1p(z**2 / nu[:, None])
    gamma = ga * np.log(gb) - special.gammaln(ga) + (ga - 1) * np.log(nu1) - gb * nu1
    jacobian = theta[:, 1] + theta[:, 2 + q : 2 + 2 * q].sum(axis=1) + theta[:, 2 + 2 * q]
    inside = (
        (delta0 > d_low)
        & (delta0 < d_high)
        & (std0 < s0_high)
        & (sigma < s_high).all(axis=1)
        & (ga > a_low)
        & (ga < a_high)
        & (gb > b_low)
        & (gb < b_high)
    )
    total = loglik.sum(axis=1) + student.sum(axis=1) + gamma + jacobian
    return np.where(inside, total, -np.inf)


def _metropolis(x, rho, bounds, rng, chains=100, pilot=4000, steps=12000):
    """Random-walk Metropolis on the Stan log density, many independent chains at once."""
    q = x.shape[0]
    dim = 2 * q + 5
    start = np.concatenate(
        [
            [x.mean()],
            [np.log(x.mean(axis=1).std() + 0.1)],
            x.mean(axis=1),
            np.log(x.std(axis=1)),
            [np.log(20.0), 1.5, 0.05],
        ]
    )
    theta = start + rng.normal(0, 0.01, (chains, dim)) * np.r_[np.ones(dim - 2), 1, 0.01]
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        logp = _stan_log_density(theta, x, rho, bounds)
    cov = np.diag(np.r_[np.full(dim - 2, 0.05), 0.05, 0.0005] ** 2)
    kept = []
    for it in range(pilot + steps):
        if it in (pilot // 2, pilot):  # adapt the proposal to the draws so far
            sample = np.concatenate(kept[len(kept) // 2 :])
            cov = np.cov(sample.T) * 2.38**2 / dim + 1e-12 * np.eye(dim)
            kept = []
        chol = np.linalg.cholesky(cov)
        proposal = theta + rng.normal(size=(chains, dim)) @ chol.T
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            logp_new = _stan_log_density(proposal, x, rho, bounds)
        accept = np.log(rng.random(chains)) < logp_new - logp
        theta = np.where(accept[:, None], proposal, theta)
        logp = np.where(accept, logp_new, logp)
        kept.append(theta.copy())
    return np.stack(kept, axis=1)  # (chains, steps, dim)


def _posterior_summaries(delta0, std0, nu, rope):
    """Per chain: mean of delta0 and the shares of the three regions (chains, 4)."""
    below = special.stdtr(nu, (-rope - delta0) / std0)
    above = special.stdtr(nu, (delta0 - rope) / std0)
    inside = 1 - below - above
    winner = np.argmax(np.stack([below, inside, above]), axis=0)
    return np.column_stack([delta0.mean(axis=1), *[(winner == k).mean(axis=1) for k in range(3)]])


@pytest.mark.slow
def test_posterior_equals_metropolis_on_the_stan_log_density():
    rng = np.random.default_rng(20261124)
    q, n, rho = 6, 5, 0.2  # 5-fold CV: rho = n_test / (n_test + n_train) = 1/5
    true = np.array([0.2, 0.5, 0.9, 0.4, 1.2, 0.7])
    x = true[:, None] + rng.normal(0.0, 0.5, (q, n))
    # baycomp's scaling and bounds (multiple.py, HierarchicalTest.sample)
    scale = np.mean(np.std(x, axis=1))
    xs = x / scale
    std_among = np.std(xs.mean(axis=1))
    maxdiff = np.abs(xs).max()
    bounds = (
        -maxdiff,
        maxdiff,
        1000 * std_among,
        1000 * np.mean(np.std(xs, axis=1)),
        1,
        2,
        0.01,
        0.1,
    )
    rope = 0.3
    ref = _metropolis(xs, rho, bounds, rng)
    chains_ref = _posterior_summaries(
        ref[:, :, 0], np.exp(ref[:, :, 1]), np.exp(ref[:, :, 2 + 2 * q]) + 1, rope / scale
    )
    chains_ref[:, 0] *= scale
    shrunk_ref = ref[:, :, 2 : 2 + q].mean(axis=(0, 1)) * scale

    folds = np.stack([x + 1.0, np.full_like(x, 1.0)])
    ours = []
    shrunk = []
    for seed in range(4):
        out = hierarchical_pairs(
            folds,
            np.array([0]),
            np.array([1]),
            rho=rho,
            rope=(-rope, rope),
            n_samples=10000,
            chains=4,
            random_state=np.random.default_rng(seed),
        )
        ours.append(
            [out["mean_diff"][0], out["prob_worse"][0], out["prob_rope"][0], out["prob_better"][0]]
        )
        shrunk.append(out["shrunk"][0])
        assert out["rhat"][0] < 1.01
    ours = np.array(ours)
    # Monte Carlo standard errors from independent chains / independent runs.
    se_ref = chains_ref.std(axis=0, ddof=1) / np.sqrt(len(chains_ref))
    se_ours = ours.std(axis=0, ddof=1) / np.sqrt(len(ours))
    tolerance = 4 * np.sqrt(se_ref**2 + se_ours**2) + 1e-3
    assert np.all(np.abs(ours.mean(axis=0) - chains_ref.mean(axis=0)) < tolerance), (
        ours.mean(axis=0),
        chains_ref.mean(axis=0),
        tolerance,
    )
    assert_allclose(np.mean(shrunk, axis=0), shrunk_ref, atol=0.03)

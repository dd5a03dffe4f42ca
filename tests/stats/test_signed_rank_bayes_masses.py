"""The posterior masses of the Bayesian signed-rank sampler, against the double sum written out.

Reference: for the same Dirichlet draws ``w`` (over ``z_0 = 0, z_1, ..., z_n``,
``prior`` on ``z_0``), the mass below the rope is
``sum_{a,b} w_a w_b H(-2 rope - (z_a + z_b))`` and the mass not above it
``sum_{a,b} w_a w_b H(2 rope - (z_a + z_b))``, ``H`` the Heaviside step with
``H(0) = 1/2`` (Benavoli et al. 2014; baycomp's ``SignedRankTest``), computed
here in float64 as an ``(n + 1) x (n + 1)`` product. The sampler accumulates
in float32: it must agree to 1e-5, far below any Monte Carlo error.
"""

import numpy as np
import pytest

from pdcompare.stats import signed_rank_bayes


def heaviside(x):
    return np.where(x > 0, 1.0, np.where(x == 0, 0.5, 0.0))


@pytest.mark.parametrize("n", [5, 40, 150])
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_masses_equal_the_double_sum(n, rope):
    rng = np.random.default_rng(n)
    z = np.round(rng.normal(0.005, 0.03, (4, n)), 3)  # rounded: ties among the Walsh sums
    z[1, :3] = 0.0
    prior, n_samples = 0.5, 300  # one block of draws
    samples = signed_rank_bayes.signed_rank_samples(
        z, rope=rope, prior=prior, n_samples=n_samples, random_state=np.random.default_rng(1)
    )
    alphas = np.r_[prior, np.ones(n)]
    w = np.random.default_rng(1).dirichlet(alphas, size=n_samples)  # the same draws
    for p in range(z.shape[0]):
        full = np.r_[0.0, z[p]]
        sums = full[:, None] + full[None, :]
        below = np.einsum("sa,ab,sb->s", w, heaviside(-2 * rope - sums), w)
        not_above = np.einsum("sa,ab,sb->s", w, heaviside(2 * rope - sums), w)
        np.testing.assert_allclose(samples[:, p, 0], below, atol=1e-5)
        np.testing.assert_allclose(samples[:, p, 2], 1.0 - not_above, atol=1e-5)
        np.testing.assert_allclose(samples[:, p].sum(axis=1), 1.0, atol=1e-12)

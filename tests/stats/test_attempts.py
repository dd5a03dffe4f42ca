"""pass@k and pass^k per item (DESIGN section 33) against the binomial coefficients."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy.special import comb

from pdcompare.stats.attempts import estimate, pass_at_k, pass_hat_k


def test_section_33_reference_numbers():
    # DESIGN section 33: n = 12, c = 9 -> pass^k 0.75, 0.5455, 0.2545, 0.0182, 0.
    got = [float(pass_hat_k(12, 9, k)) for k in (1, 2, 4, 8, 12)]
    assert_allclose(got, [0.75, 0.5455, 0.2545, 0.0182, 0.0], atol=5e-5)
    # n = 10, c = 3 -> pass@5 0.916667 (Chen et al. 2021's estimator).
    assert_allclose(float(pass_at_k(10, 3, 5)), 0.916667, atol=5e-7)


def test_equal_to_scipy_comb_written_out():
    # Every (n, c, k) with n <= 40: the binomial-coefficient forms of Chen et al. 2021
    # (pass@k = 1 - C(n-c, k)/C(n, k)) and tau-bench (pass^k = C(c, k)/C(n, k)).
    n, c, k = (a.ravel() for a in np.meshgrid(np.arange(1, 41), np.arange(41), np.arange(1, 41)))
    keep = (c <= n) & (k <= n)
    n, c = n[keep], c[keep]
    for kk in np.unique(k[keep]):
        sel = k[keep] == kk
        expected_at = 1 - comb(n[sel] - c[sel], kk, exact=False) / comb(n[sel], kk)
        expected_hat = comb(c[sel], kk) / comb(n[sel], kk)
        assert_allclose(pass_at_k(n[sel], c[sel], int(kk)), expected_at, rtol=1e-12, atol=1e-14)
        assert_allclose(pass_hat_k(n[sel], c[sel], int(kk)), expected_hat, rtol=1e-12, atol=1e-14)


def test_large_counts_do_not_overflow():
    # C(200, 100) ~ 9e58: the product form stays finite; compare exact integers.
    from math import comb as icomb

    got = float(pass_hat_k(200, 150, 100))
    assert_allclose(got, icomb(150, 100) / icomb(200, 100), rtol=1e-10)
    got = float(pass_at_k(1000, 3, 400))
    assert_allclose(got, 1 - icomb(997, 400) / icomb(1000, 400), rtol=1e-12)


def test_fewer_attempts_than_k_is_nan():
    out = pass_at_k(np.array([3, 5]), np.array([1, 1]), 4)
    assert np.isnan(out[0])
    assert_allclose(out[1], 1 - comb(4, 4) / comb(5, 4))


@pytest.mark.parametrize("k", [0, -1, 1.5, True])
def test_bad_k_refused(k):
    with pytest.raises(ValueError, match="`k` must be a positive integer"):
        pass_at_k(5, 2, k)


def test_mean_estimand_is_c_over_n():
    assert_allclose(estimate("mean", [4, 5], [1, 5], 3), [0.25, 1.0])


cells = st.integers(1, 60).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n)))


@given(cells)
def test_properties(cell):
    n, c = cell
    ks = np.arange(1, n + 1)
    at = np.array([float(pass_at_k(n, c, int(k))) for k in ks])
    hat = np.array([float(pass_hat_k(n, c, int(k))) for k in ks])
    # pass@1 = pass^1 = c/n.
    assert_allclose([at[0], hat[0]], [c / n, c / n], rtol=1e-12)
    # bounds
    assert ((at >= 0) & (at <= 1) & (hat >= 0) & (hat <= 1)).all()
    # monotone in k: pass@k grows, pass^k shrinks.
    assert (np.diff(at) >= -1e-12).all()
    assert (np.diff(hat) <= 1e-12).all()
    # pass^k <= pass@k (all successes implies at least one).
    assert (hat <= at + 1e-12).all()
    # monotone in c at fixed k.
    if c < n:
        assert (np.array([float(pass_at_k(n, c + 1, int(k))) for k in ks]) >= at - 1e-12).all()
        assert (np.array([float(pass_hat_k(n, c + 1, int(k))) for k in ks]) >= hat - 1e-12).all()


@given(st.floats(0.05, 0.95), st.integers(1, 6))
def test_unbiased_over_the_binomial(p, k):
    # E[estimator] over c ~ Binomial(n, p) equals 1 - (1 - p)^k and p^k exactly.
    from scipy.stats import binom

    n = 12
    c = np.arange(n + 1)
    weights = binom.pmf(c, n, p)
    assert_allclose(weights @ pass_at_k(n, c, k), 1 - (1 - p) ** k, rtol=1e-10)
    assert_allclose(weights @ pass_hat_k(n, c, k), p**k, rtol=1e-10)

"""Confidence sequences and e-processes against their formulas written out."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import optimize, special

from pdcompare.stats import sequential as core


def _written_half_width(t, sigma, rho, alpha):
    return sigma * np.sqrt(
        2 * (t * rho**2 + 1) / (t**2 * rho**2) * np.log(np.sqrt(t * rho**2 + 1) / alpha)
    )


def test_rho_minimises_the_half_width_at_planned_n():
    for n in (50, 785, 10_000):
        rho = core.mixture_rho(n, 0.05)
        brute = optimize.minimize_scalar(
            lambda r, n=n: _written_half_width(n, 1.0, r, 0.05),
            bounds=(1e-4, 5),
            method="bounded",
            options={"xatol": 1e-12},
        ).x
        assert rho == pytest.approx(brute, rel=1e-4)


def test_normal_mixture_path_is_the_written_out_formula_at_every_look():
    rng = np.random.default_rng(1)
    d = rng.normal(0.1, 1.0, size=(3, 200))
    rho = core.mixture_rho(200, 0.05)
    paths = core.normal_mixture_paths(d, np.ones(200), 0.05, rho)
    for t in (2, 30, 117, 200):
        mean = d[:, :t].mean(axis=1)
        half = _written_half_width(t, d[:, :t].std(axis=1, ddof=1), rho, 0.05)
        np.testing.assert_allclose(paths.mean[:, t - 1], mean)
        np.testing.assert_allclose(paths.high[:, t - 1] - mean, half)
        np.testing.assert_allclose(mean - paths.low[:, t - 1], half)


def test_clustered_path_uses_the_ratio_residuals():
    rng = np.random.default_rng(2)
    sizes = rng.integers(1, 6, size=80).astype(float)
    sums = rng.normal(0.2, 1.0, size=80) * sizes
    rho = core.mixture_rho(80, 0.05)
    p = core.normal_mixture_paths(sums[None], sizes, 0.05, rho)
    t = 80
    m = sums.sum() / sizes.sum()
    sigma = np.sqrt(((sums - m * sizes) ** 2).sum() / (t - 1))
    half = _written_half_width(t, sigma, rho, 0.05) / sizes.mean()
    assert p.mean[0, -1] == pytest.approx(m)
    assert p.high[0, -1] - m == pytest.approx(half)


@pytest.mark.parametrize(("b", "c", "expected"), [(9, 1, 9.49609375), (20, 5, 19.48528075)])
def test_discordant_evalue_reference(b, c, expected):
    assert core.discordant_evalue(np.array([b]), np.array([c]))[0] == pytest.approx(
        expected, abs=1e-8
    )


def test_discordant_evalue_is_the_jeffreys_mixture_by_quadrature():
    from scipy import integrate

    b, c = 7, 2
    integral = integrate.quad(
        lambda p: (
            (2 * p) ** b * (2 * (1 - p)) ** c * p**-0.5 * (1 - p) ** -0.5 / special.beta(0.5, 0.5)
        ),
        0,
        1,
    )[0]
    assert core.discordant_evalue(np.array([b]), np.array([c]))[0] == pytest.approx(integral)


def test_ebh_written_out():
    rng = np.random.default_rng(3)
    for _ in range(50):
        e = np.exp(rng.normal(1.5, 2.0, size=12))
        alpha, p = 0.1, 12
        ranked = np.sort(e)[::-1]
        ks = [k for k in range(1, p + 1) if ranked[k - 1] >= p / (alpha * k)]
        k_star = max(ks) if ks else 0
        expected = np.zeros(p, bool)
        expected[np.argsort(-e, kind="stable")[:k_star]] = True
        np.testing.assert_array_equal(core.ebh(e, alpha), expected)


def test_betting_sequence_covers_and_narrows():
    rng = np.random.default_rng(4)
    x = (rng.random((40, 400)) < 0.7).astype(float)
    p = core.betting_paths(x, 0.05, grid=201)
    covered = (p.low <= 0.7) & (p.high >= 0.7)
    assert covered.all(axis=1).mean() >= 0.9
    width = (p.high - p.low).mean(axis=0)
    assert width[399] < width[99] < width[19]
    assert (p.low <= p.mean).all()
    assert (p.high >= p.mean).all()


def test_evalue_interval_excludes_zero_when_e_is_large():
    b, c, n = np.array([[30.0]]), np.array([[2.0]]), np.array([60.0])
    p = core.evalue_paths(b, c, n, 0.05)
    assert core.discordant_evalue(b, c)[0, 0] > 20
    assert p.low[0, 0] > 0
    assert p.high[0, 0] <= 32 / 60


def test_decisions_are_kept_from_the_first_look_on():
    low = np.array([[-1, 0.1, -1.0], [-1, -0.05, -0.01], [-1, -1, -0.5]])
    high = np.array([[1, 0.5, 1.0], [1, 0.05, 0.02], [1, -0.2, 1.0]])
    paths = core.Paths(np.zeros((3, 3)), low, high)
    code, at = core.decisions(paths, 0, 0.1, True)
    assert code.tolist() == [core.BETTER, core.EQUIVALENT, core.WORSE]
    assert at.tolist() == [2, 2, 2]
    code, at = core.decisions(paths, 0, None, False)
    assert code.tolist() == [core.WORSE, core.CONTINUE, core.BETTER]
    assert at.tolist() == [2, 0, 2]


def test_reading_in_pieces_equals_reading_at_once():
    rng = np.random.default_rng(5)
    d = rng.normal(0.0, 1.0, size=(4, 90))
    x = rng.random((3, 90))
    sizes = rng.integers(1, 4, size=90).astype(float)
    rho = core.mixture_rho(90)
    for whole, pieces in (
        (
            core.normal_mixture_paths(d, None, 0.05, rho),
            [
                core.normal_mixture_paths(d[:, s], None, 0.05, rho, carry)
                for carry in [{}]
                for s in (slice(0, 7), slice(7, 50), slice(50, 90))
            ],
        ),
    ):
        for k in range(3):
            np.testing.assert_allclose(np.concatenate([p[k] for p in pieces], axis=1), whole[k])
    carry: dict = {}
    whole = core.normal_mixture_paths(d * sizes, sizes, 0.05, rho)
    parts = [
        core.normal_mixture_paths(d[:, s] * sizes[s], sizes[s], 0.05, rho, carry)
        for s in (slice(0, 40), slice(40, 90))
    ]
    np.testing.assert_allclose(np.concatenate([p.high for p in parts], axis=1), whole.high)
    carry = {}
    whole = core.betting_paths(x, 0.05, grid=101)
    parts = [core.betting_paths(x[:, s], 0.05, 101, carry) for s in (slice(0, 33), slice(33, 90))]
    for k in range(3):
        np.testing.assert_allclose(np.concatenate([p[k] for p in parts], axis=1), whole[k])


def test_betting_bets_tuned_to_planned_n_follow_the_fixed_n_formula():
    # Waudby-Smith & Ramdas (2024): λ_t = √(2 ln(2/α) / (σ̂²_{t−1} n)), σ̂²_t the
    # regularised running variance (¼ + Σ (x_i − μ̂_i)²) / (t + 1), μ̂_i = (½ + Σ_{j≤i} x_j)/(i + 1).
    x = np.array([[0.2, 0.9, 0.4, 1.0, 0.0, 0.7]])
    lam, mean = core._bets(x, 0.05, {}, planned_n=100)
    mu = (0.5 + np.cumsum(x[0])) / np.arange(2, 8)
    var = (0.25 + np.cumsum((x[0] - mu) ** 2)) / np.arange(2, 8)
    previous = np.concatenate([[0.25], var[:-1]])
    assert_allclose(lam[0], np.sqrt(2 * np.log(40) / (previous * 100)), rtol=1e-12)
    assert_allclose(mean[0], np.cumsum(x[0]) / np.arange(1, 7), rtol=1e-12)


def test_betting_tuned_to_planned_n_is_narrower_there_and_still_covers():
    rng = np.random.default_rng(3)
    x = (rng.random((200, 400)) < 0.7).astype(float)
    anytime = core.betting_paths(x, 0.05)
    planned = core.betting_paths(x, 0.05, planned_n=400)
    assert np.mean(planned.high[:, -1] - planned.low[:, -1]) < np.mean(
        anytime.high[:, -1] - anytime.low[:, -1]
    )
    missed = ((planned.low[:, 29:] > 0.7) | (planned.high[:, 29:] < 0.7)).any(axis=1)
    assert missed.mean() <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 200)

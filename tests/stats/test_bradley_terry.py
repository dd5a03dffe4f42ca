"""The Bradley–Terry core (stats/bradley_terry.py) against choix, written-out fits and scipy."""

import choix
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize

from pdcompare.stats import bradley_terry as bt


def random_wins(m, seed, n=30, tie_rate=0.0):
    rng = np.random.default_rng(seed)
    theta = rng.normal(0, 1, m)
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    n_pair = rng.integers(n // 2, n, (m, m))
    n_pair = np.triu(n_pair, 1)
    n_pair = n_pair + n_pair.T
    ties = np.triu(rng.binomial(n_pair, tie_rate), 1)
    ties = ties + ties.T
    decided = n_pair - ties
    upper = np.triu(rng.binomial(decided, p), 1)
    wins = upper + np.triu(decided - upper, 1).T
    return wins.astype(float), ties.astype(float)


def written_out_newton(wins, ties, n_iter=50):
    """Newton on the log-likelihood, one model at a time written out, Σθ = 0 by a Lagrange row."""
    m = len(wins)
    w = wins + ties / 2
    theta = np.zeros(m)
    for _ in range(n_iter):
        grad = np.zeros(m)
        hess = np.zeros((m, m))
        for i in range(m):
            for j in range(m):
                if i == j:
                    continue
                n = w[i, j] + w[j, i]
                p = 1 / (1 + np.exp(theta[j] - theta[i]))
                grad[i] += w[i, j] - n * p
                hess[i, i] -= n * p * (1 - p)
                hess[i, j] += n * p * (1 - p)
        kkt = np.zeros((m + 1, m + 1))
        kkt[:m, :m] = -hess
        kkt[:m, m] = kkt[m, :m] = 1
        step = np.linalg.solve(kkt, np.append(grad, -theta.sum()))[:m]
        theta += step
    return theta


def test_references_of_design_section_24():
    theta = bt.newton(np.array([[[0, 3], [1, 0.0]]]), np.zeros((1, 2, 2)))[0][0]
    assert 400 * (theta[0] - theta[1]) / np.log(10) == pytest.approx(190.8485, abs=5e-5)
    wins = np.array([[[0, 6, 7], [4, 0, 6], [3, 4, 0.0]]])
    theta = bt.newton(wins, np.zeros_like(wins))[0][0]
    ratings = 1000 + 400 * theta / np.log(10)
    np.testing.assert_allclose(ratings, [1072.449, 1000.000, 927.551], atol=5e-4)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equal_to_choix_maximum_likelihood(seed):
    wins, _ = random_wins(8, seed)
    data = [(i, j) for i in range(8) for j in range(8) for _ in range(int(wins[i, j]))]
    reference = choix.ilsr_pairwise(8, data, alpha=0.0, tol=1e-12)
    theta, _, ok = bt.newton(wins[None], np.zeros((1, 8, 8)))
    assert ok[0]
    np.testing.assert_allclose(theta[0], reference - reference.mean(), atol=1e-7)


def test_equal_to_a_written_out_newton_fit_with_half_ties():
    wins, ties = random_wins(6, 5, tie_rate=0.2)
    theta = bt.newton(wins[None], ties[None])[0][0]
    np.testing.assert_allclose(theta, written_out_newton(wins, ties), atol=1e-10)


def test_davidson_maximises_its_likelihood_by_scipy():
    wins, ties = random_wins(5, 3, tie_rate=0.25)
    m = 5

    def negative_loglik(x):
        theta = np.append(x[: m - 1], -x[: m - 1].sum())
        nu = np.exp(x[-1])
        out = 0.0
        for i in range(m):
            for j in range(i + 1, m):
                pi, pj, tie = (
                    np.exp(theta[i]),
                    np.exp(theta[j]),
                    nu * np.exp((theta[i] + theta[j]) / 2),
                )
                den = pi + pj + tie
                out -= wins[i, j] * np.log(pi / den) + wins[j, i] * np.log(pj / den)
                out -= ties[i, j] * np.log(tie / den)
        return out

    best = optimize.minimize(negative_loglik, np.zeros(m), method="BFGS", options={"gtol": 1e-9})
    params, _, ok = bt.newton(wins[None], ties[None], davidson=True)
    assert ok[0]
    expected = np.append(best.x[: m - 1], -best.x[: m - 1].sum())
    np.testing.assert_allclose(params[0, :m], expected, atol=1e-5)
    assert params[0, m] == pytest.approx(best.x[-1], abs=1e-5)


def test_covariance_is_the_pseudo_inverse_of_the_information():
    wins, ties = random_wins(6, 7)
    params, info, _ = bt.newton(wins[None], ties[None])
    w = wins + ties / 2
    n = w + w.T
    theta = params[0]
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    laplacian = np.diag((n * p * (1 - p)).sum(axis=1)) - n * p * (1 - p)
    np.testing.assert_allclose(bt.covariance(info[0], 6), np.linalg.pinv(laplacian), atol=1e-10)


def test_resampled_fits_equal_full_newton_on_the_same_draws():
    wins, ties = random_wins(6, 11, n=20, tie_rate=0.1)
    params, info, _ = bt.newton(wins[None], ties[None])
    draws = bt.resampled_fits(
        wins, ties, params[0], info[0], n_rounds=50, rng=np.random.default_rng(3)
    )
    # ties as halves: each pair draws 2 · wins + ties (resampled_fits and half=True alike)
    w, t = bt._multinomial_rounds(wins, ties, 50, np.random.default_rng(3), half=True)
    for r in range(0, 50, 7):
        include = bt._finite_rounds(w[r : r + 1], t[r : r + 1])
        theta, _, ok = bt.newton(w[r : r + 1], t[r : r + 1], include=include)
        assert ok[0]
        shifted = theta[0] + np.nanmean(params[0][include[0]]) - np.nanmean(theta[0])
        # resampled fits stop at steps of 1e-6 log odds (under 2e-4 rating points)
        np.testing.assert_allclose(draws[r], shifted, atol=1e-5)


def test_a_round_without_losses_leaves_the_model_out():
    # model 2 met model 0 once and lost it: some rounds give it only wins (or only losses)
    wins = np.array([[0, 20, 0], [15, 0, 1], [1, 0, 0.0]])
    ties = np.zeros((3, 3))
    wins[0, 2], wins[2, 0] = 1, 1
    params, info, _ = bt.newton(wins[None], ties[None])
    draws = bt.resampled_fits(
        wins, ties, params[0], info[0], n_rounds=400, rng=np.random.default_rng(0)
    )
    left_out = np.isnan(draws[:, 2])
    assert 0 < left_out.sum() < 400
    assert np.isfinite(draws[:, :2]).all()
    assert np.abs(draws[np.isfinite(draws)]).max() < 20


def test_finite_rounds_cascade():
    # 2 only beat 1; once 0 is ... 1 only loses to 2 and beats nobody else except 0
    wins = np.zeros((1, 3, 3))
    wins[0, 0, 1] = 3  # 0 beats 1
    wins[0, 1, 0] = 1
    wins[0, 2, 0] = 2  # 2 only wins
    include = bt._finite_rounds(wins, np.zeros_like(wins))
    assert include.tolist() == [[True, True, False]]


counts = st.integers(1, 8)


@settings(max_examples=30, deadline=None)
@given(st.lists(counts, min_size=6, max_size=6), st.permutations(range(4)), st.integers(1, 4))
def test_fit_is_equivariant_under_relabelling_scaling_and_reversal(cells, perm, factor):
    wins = np.zeros((4, 4))
    i, j = np.triu_indices(4, 1)
    wins[i, j] = cells
    wins[j, i] = cells[::-1]
    ties = np.zeros((4, 4))
    theta = bt.newton(wins[None], ties[None])[0][0]
    perm = np.array(perm)
    permuted = bt.newton(wins[np.ix_(perm, perm)][None], ties[None])[0][0]
    np.testing.assert_allclose(permuted, theta[perm], atol=1e-8)
    scaled = bt.newton(factor * wins[None], ties[None])[0][0]
    np.testing.assert_allclose(scaled, theta, atol=1e-8)
    reversed_ = bt.newton(wins.T[None], ties[None])[0][0]
    np.testing.assert_allclose(reversed_, -theta, atol=1e-8)
    assert abs(theta.sum()) < 1e-9


def test_resampled_battles_are_multinomial_draws_per_pair():
    from scipy import stats

    wins = np.array([[0, 5, 1], [3, 0, 0], [2, 4, 0.0]])
    ties = np.zeros((3, 3))
    ties[0, 1] = ties[1, 0] = 2
    w, t = bt._multinomial_rounds(wins, ties, 40000, np.random.default_rng(1))
    assert (w[:, 0, 1] + w[:, 1, 0] + t[:, 0, 1] == 10).all()
    assert (w[:, 1, 2] + w[:, 2, 1] == 4).all()
    assert (w[:, 1, 2] == 0).all()
    pmf = stats.multinomial(10, [0.5, 0.3, 0.2])
    for cell in [(5, 3, 2), (4, 4, 2), (6, 2, 2), (5, 5, 0), (3, 3, 4)]:
        seen = np.mean((w[:, 0, 1] == cell[0]) & (w[:, 1, 0] == cell[1]) & (t[:, 0, 1] == cell[2]))
        assert seen == pytest.approx(pmf.pmf(cell), abs=4 * np.sqrt(pmf.pmf(cell) / 40000))
    first = np.bincount(w[:, 0, 2].astype(int), minlength=4) / 40000
    np.testing.assert_allclose(first, stats.binom(3, 1 / 3).pmf(np.arange(4)), atol=0.01)


def test_per_model_counts_equal_the_sums_of_the_round_matrices():
    # pairs never played (empty runs of the row-major and column-major orders) and ties
    wins, ties = random_wins(7, 5, n=6, tie_rate=0.2)
    wins[0, :], wins[:, 0], ties[0, :], ties[:, 0] = 0, 0, 0, 0
    wins[6, 3] = wins[3, 6] = ties[3, 6] = ties[6, 3] = 0
    resampler = bt._Resampler(wins, ties)
    pairs = resampler.counts(30, np.random.default_rng(4))
    won, tied = resampler.per_model(*pairs)
    w, t = resampler.dense(*pairs)
    np.testing.assert_array_equal(won, w.sum(axis=2))
    np.testing.assert_array_equal(tied, t.sum(axis=2))


def test_guide_table_draws_equal_a_search_of_the_cdfs():
    wins, ties = random_wins(9, 2, n=40, tie_rate=0.1)
    resampler = bt._Resampler(wins, ties)
    u = np.random.default_rng(8).random((resampler.n.size, 50))  # pairs × rounds
    pair = np.repeat(np.arange(resampler.n.size), resampler.n + 1)
    # the pairs' CDFs laid end to end, pair k's shifted by 2k: one search for all draws
    expected = np.searchsorted(
        resampler.cdf + 2.0 * pair, u + 2.0 * np.arange(resampler.n.size)[:, None], side="left"
    )
    np.testing.assert_array_equal(resampler._first(u), expected)


def two_models(won, lost, t):
    wins = np.array([[0.0, won], [lost, 0.0]])
    ties = np.array([[0.0, t], [t, 0.0]])
    return wins, ties


def test_davidson_on_two_models_is_the_closed_form_in_every_round():
    # Two models: the saturated trinomial, π_A/π_B = wins/losses and ν = ties/√(wins·losses)
    wins, ties = two_models(6, 2, 2)
    params, info, ok = bt.newton(wins[None], ties[None], davidson=True)
    assert ok[0]
    assert params[0, 0] - params[0, 1] == pytest.approx(np.log(6 / 2), abs=1e-9)
    assert np.exp(params[0, 2]) == pytest.approx(2 / np.sqrt(6 * 2), abs=1e-9)
    draws = bt.resampled_fits(
        wins, ties, params[0], info[0], n_rounds=100, rng=np.random.default_rng(1),
        davidson=True,
    )  # fmt: skip
    w, t = bt._multinomial_rounds(wins, ties, 100, np.random.default_rng(1))
    a, b, tied = w[:, 0, 1], w[:, 1, 0], t[:, 0, 1]
    both = (a > 0) & (b > 0)  # with or without ties (ν̂ = 0): log(wins/losses)
    np.testing.assert_allclose(
        draws[both, 0] - draws[both, 1], np.log(a[both] / b[both]), atol=1e-5
    )
    only_ties = (a == 0) & (b == 0)  # ν̂ infinite: equal strengths
    np.testing.assert_allclose(draws[only_ties, 0], draws[only_ties, 1])
    one_sided = ((a == 0) ^ (b == 0)) & (tied > 0)  # wins and ties, no loss: no finite fit
    assert np.isnan(draws[one_sided]).all()
    assert both.sum() > 70
    assert (both & (tied == 0)).any()
    assert one_sided.any()


def test_davidson_finite_is_a_negative_cycle_of_wins_over_ties():
    # A>B, B>C and A~C: two wins against one tie on the cycle, finite (checked by Newton)
    wins = np.array([[0, 2.0, 0], [0, 0, 2], [0, 0, 0]])
    ties = np.array([[0, 0, 1.0], [0, 0, 0], [1, 0, 0]])
    assert bt.davidson_finite(wins, ties)
    assert bt.newton(wins[None], ties[None], davidson=True)[2][0]
    assert not bt.davidson_finite(*two_models(3, 0, 2))
    assert not bt.davidson_finite(*two_models(0, 0, 2))
    assert not bt.davidson_finite(*two_models(3, 1, 0))  # no tie: ν̂ = 0


@pytest.mark.parametrize(
    ("n", "shares"),
    [(9, (0.3, 0.5, 0.2)), (400, (0.45, 0.35, 0.2)), (60, (0.7, 0.0, 0.3)), (50, (0.5, 0.5, 0.0))],
)
def test_half_draws_are_two_wins_plus_ties_of_a_multinomial(n, shares):
    # Y = 2 · wins + ties = n + wins − losses: given D decided ~ Bin(n, 1 − p_t),
    # wins ~ Bin(D, p_i / (p_i + p_j)); the CDF summed over D, written out
    from scipy import stats

    p_i, p_j, p_t = shares
    pmf = np.zeros(2 * n + 1)
    for decided in range(n + 1):
        wins = np.arange(decided + 1)
        pmf[n - decided + 2 * wins] += stats.binom.pmf(decided, n, 1 - p_t) * stats.binom.pmf(
            wins, decided, p_i / (p_i + p_j)
        )
    cdf = bt._half_cdf(np.array([n]), np.array([shares]), np.array([0]))
    np.testing.assert_allclose(cdf, np.cumsum(pmf), atol=1e-13)


def test_half_rounds_draw_wins_plus_half_ties_per_pair():
    from scipy import stats

    wins = np.array([[0, 5, 1], [3, 0, 0], [2, 4, 0.0]])
    ties = np.zeros((3, 3))
    ties[0, 1] = ties[1, 0] = 2
    w, t = bt._multinomial_rounds(wins, ties, 40000, np.random.default_rng(1), half=True)
    assert (t == 0).all()
    assert (w[:, 0, 1] + w[:, 1, 0] == 10).all()
    pmf = stats.multinomial(10, [0.5, 0.3, 0.2])
    for half_wins in (5.0, 6.5, 4.0):  # wins + ties / 2 of model 0 over model 1
        expected = sum(
            pmf.pmf([a, 10 - a - tie, tie])
            for a in range(11)
            for tie in range(11 - a)
            if a + tie / 2 == half_wins
        )
        seen = np.mean(w[:, 0, 1] == half_wins)
        assert seen == pytest.approx(expected, abs=4 * np.sqrt(expected / 40000))

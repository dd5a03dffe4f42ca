"""Rank confidence sets (stats/rank_sets.py) against written-out references and invariants."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from scipy import stats

from pdcompare.stats.rank_sets import (
    max_statistic,
    normal_draws,
    rank_confidence_sets,
    row_bounds,
    studentised_pairs,
    wishart_factors,
)


def reference_stepdown(x, cov, coverage, draws):
    """csranks' two-sided step-down written out with a full (draws x m x m) array.

    Returns the rank bounds and the smallest distance |t_jk - q| met at any step,
    so a test can check it compares far from the decision boundary.
    """
    m = len(x)
    var = np.diag(cov)
    sd = np.sqrt(var[:, None] + var[None, :] - 2 * cov)
    np.fill_diagonal(sd, 1.0)
    t = (x[:, None] - x[None, :]) / sd
    scaled = (draws[:, :, None] - draws[:, None, :]) / sd  # (draws, j, k): (Z_j - Z_k)/sd_jk
    undecided = ~np.eye(m, dtype=bool)
    decided = np.zeros((m, m), dtype=bool)
    margin = np.inf
    while undecided.any():
        q = np.quantile(scaled[:, undecided].max(axis=1), coverage)
        margin = min(margin, np.abs(t[undecided] - q).min())
        new = undecided & (t > q)
        if not new.any():
            break
        decided |= new
        undecided &= ~new
    return 1 + decided.sum(axis=0), m - decided.sum(axis=1), margin


def reference_marginal(x, cov, coverage, draws):
    """csranks_marg written out: model i's step-down over its own pairs (i, k), (k, i)."""
    m = len(x)
    var = np.diag(cov)
    sd = np.sqrt(var[:, None] + var[None, :] - 2 * cov)
    np.fill_diagonal(sd, 1.0)
    t = (x[:, None] - x[None, :]) / sd
    scaled = (draws[:, :, None] - draws[:, None, :]) / sd
    low, high = np.empty(m, int), np.empty(m, int)
    for i in range(m):
        family = np.zeros((m, m), dtype=bool)
        family[i, :] = family[:, i] = True
        np.fill_diagonal(family, False)
        decided = np.zeros((m, m), dtype=bool)
        while family.any():
            q = np.quantile(scaled[:, family].max(axis=1), coverage)
            new = family & (t > q)
            if not new.any():
                break
            decided |= new
            family &= ~new
        low[i], high[i] = 1 + decided[:, i].sum(), m - decided[i, :].sum()
    return low, high


def random_covariance(m, rng, rank=None):
    factor = rng.normal(size=(m, rank or m + 3)) * rng.uniform(0.5, 2.0, size=(m, 1))
    return factor @ factor.T / factor.shape[1]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equals_written_out_stepdown_with_the_same_draws(seed):
    rng = np.random.default_rng(seed)
    m = 8
    cov = random_covariance(m, rng) * 0.01
    x = np.sort(rng.normal(0, 0.4, m))[::-1]
    draws = normal_draws(cov, 4000, np.random.default_rng(seed))
    low, high, _ = reference_stepdown(x, cov, 0.95, draws)
    rank, got_low, got_high = rank_confidence_sets(x, cov, n_draws=4000, random_state=seed)
    assert_array_equal(got_low, low)
    assert_array_equal(got_high, high)
    assert_array_equal(rank, np.arange(1, m + 1))


def test_equals_written_out_stepdown_with_independent_draws_far_from_the_boundary():
    # A fixed Σ̂ and estimates chosen so every t is at least 0.15 from every step's
    # quantile: the reference's own 200,000 draws (numpy's multivariate_normal)
    # and ours then decide alike.
    cov = np.array(
        [
            [1.0, 0.5, 0.2, 0.0, 0.1],
            [0.5, 1.0, 0.3, 0.2, 0.0],
            [0.2, 0.3, 1.5, 0.4, 0.2],
            [0.0, 0.2, 0.4, 2.0, 0.3],
            [0.1, 0.0, 0.2, 0.3, 1.0],
        ]
    )
    x = np.array([10.0, 9.2, 5.0, 4.0, -3.0])
    draws = np.random.default_rng(7).multivariate_normal(np.zeros(5), cov, size=200_000)
    low, high, margin = reference_stepdown(x, cov, 0.95, draws)
    assert margin > 0.15
    _, got_low, got_high = rank_confidence_sets(x, cov, random_state=3)
    assert_array_equal(got_low, low)
    assert_array_equal(got_high, high)
    assert low.tolist() == [1, 1, 3, 3, 5]
    assert high.tolist() == [2, 2, 4, 4, 5]


@pytest.mark.parametrize("seed", [0, 4])
def test_marginal_sets_equal_the_written_out_families(seed):
    rng = np.random.default_rng(seed)
    m = 7
    cov = random_covariance(m, rng) * 0.01
    x = rng.normal(0, 0.3, m)
    draws = normal_draws(
        cov[np.ix_(*[np.argsort(-x, kind="stable")] * 2)], 3000, np.random.default_rng(seed)
    )
    order = np.argsort(-x, kind="stable")
    low, high = reference_marginal(x[order], cov[np.ix_(order, order)], 0.9, draws)
    _, got_low, got_high = rank_confidence_sets(
        x, cov, coverage=0.9, simultaneous=False, n_draws=3000, random_state=seed
    )
    assert_array_equal(got_low[order], low)
    assert_array_equal(got_high[order], high)


@pytest.mark.parametrize("rank", [None, 3])
def test_pruned_maximum_is_exact(rank):
    rng = np.random.default_rng(5)
    m = 30
    cov = random_covariance(m, rng, rank=rank)
    draws = normal_draws(cov, 500, rng)
    var = np.diag(cov)
    with np.errstate(divide="ignore"):
        inv = 1 / np.sqrt(np.maximum(var[:, None] + var[None, :] - 2 * cov, 1e-300))
    np.fill_diagonal(inv, 0.0)
    active = (rng.random((m, m)) < 0.4) & ~np.eye(m, dtype=bool)
    scaled = (draws[:, :, None] - draws[:, None, :]) * inv
    brute = np.maximum(np.where(active, scaled, -np.inf).max(axis=(1, 2)), 0.0)
    np.testing.assert_allclose(max_statistic(draws, inv, active), brute, rtol=1e-12)
    full = ~np.eye(m, dtype=bool)
    bound = row_bounds(draws, inv, full)
    assert np.all(bound >= np.where(full, scaled, -np.inf).max(axis=2) - 1e-12)
    # a bound of the full set serves a subset
    np.testing.assert_allclose(max_statistic(draws, inv, active, bound), brute, rtol=1e-12)


@pytest.mark.parametrize("z", [1.80, 1.90, 2.03, 2.15])
def test_two_independent_models_at_the_normal_quantile(z):
    # Leader's set is {1} exactly when (x1 - x2)/sqrt(s1^2 + s2^2) > z_{0.975} = 1.96.
    s1, s2 = 0.3, 0.4
    x = [z * np.hypot(s1, s2), 0.0]
    _, low, high = rank_confidence_sets(x, np.diag([s1**2, s2**2]), random_state=11)
    separated = z > stats.norm.ppf(0.975)
    assert high.tolist() == ([1, 2] if separated else [2, 2])
    assert low.tolist() == ([1, 2] if separated else [1, 1])


@pytest.mark.parametrize(("z", "df"), [(2.4, 4), (3.1, 4), (2.1, 9), (2.45, 9)])
def test_two_models_with_df_at_students_quantile(z, df):
    # With a covariance on df degrees of freedom the two-model bar is t_{df, 0.975}:
    # 2.776 at df 4, 2.262 at df 9 (not the normal 1.96).
    s1, s2 = 0.3, 0.4
    x = [z * np.hypot(s1, s2), 0.0]
    cov = np.diag([s1**2, s2**2])
    separated = z > stats.t.ppf(0.975, df)
    for simultaneous in (True, False):  # two models: one family, the same sets
        _, low, high = rank_confidence_sets(
            x, cov, df=df, simultaneous=simultaneous, random_state=11
        )
        assert high.tolist() == ([1, 2] if separated else [2, 2])
        assert low.tolist() == ([1, 2] if separated else [1, 1])


def test_wishart_factors_have_the_wishart_moments():
    # E W = df I, Var W_ii = 2 df, Var W_ij = df (Wishart(df, I)); also a singular one (df < rank).
    rng = np.random.default_rng(5)
    for df in (6.0, 2.0):
        b = wishart_factors(3, df, 60_000, rng)
        w = b @ b.transpose(0, 2, 1)
        np.testing.assert_allclose(w.mean(axis=0), df * np.eye(3), atol=0.1)
        np.testing.assert_allclose(w[:, 1, 1].var(), 2 * df, rtol=0.05)
        np.testing.assert_allclose(w[:, 2, 0].var(), df, rtol=0.05)


def test_studentised_pairs_are_students_t_with_the_pairs_correlation():
    # Each pair (Z_j - Z_k)/sigma*_jk is t on df; Z_0 - Z_1 and Z_1 - Z_0 are exact negatives.
    cov = np.array([[1.0, 0.6, 0.2], [0.6, 2.0, 0.3], [0.2, 0.3, 0.5]])
    pairs = studentised_pairs(cov, 7.0, 100_000, np.random.default_rng(2))
    for j, k in [(0, 1), (2, 0), (1, 2)]:
        q = np.quantile(pairs[:, j, k], [0.05, 0.5, 0.99])
        np.testing.assert_allclose(q, stats.t.ppf([0.05, 0.5, 0.99], 7), atol=0.04)
    np.testing.assert_allclose(pairs[:, 0, 1], -pairs[:, 1, 0], rtol=1e-6)
    assert np.all(pairs[:, [0, 1, 2], [0, 1, 2]] == 0)


def test_studentised_maximum_of_independent_pairs_against_a_direct_simulation():
    # Four independent unit-variance models, Sigma estimated on df = 5: the joint quantile
    # written out from its definition (sample covariances of 6 normal vectors) matches.
    rng = np.random.default_rng(9)
    m, df, n = 4, 5, 40_000
    z = rng.standard_normal((n, m))
    g = rng.standard_normal((n, df, m))
    w = g.transpose(0, 2, 1) @ g / df
    var = np.diagonal(w, axis1=1, axis2=2)
    sd = np.sqrt(var[:, :, None] + var[:, None, :] - 2 * w)
    eye = np.eye(m, dtype=bool)
    direct = np.where(eye, 0, (z[:, :, None] - z[:, None, :]) / np.where(eye, 1, sd))
    pairs = studentised_pairs(2 * np.eye(m) / 2, float(df), n, np.random.default_rng(1))
    expected = np.quantile(direct.max(axis=(1, 2)), 0.95)
    assert abs(np.quantile(pairs.max(axis=(1, 2)), 0.95) - expected) < 0.1
    assert expected > np.quantile(np.abs(stats.t.rvs(df, size=n, random_state=3)), 0.95)


@pytest.mark.parametrize("simultaneous", [True, False])
def test_studentised_stepdown_equals_the_written_out_one(simultaneous):
    # The step-downs on the studentised statistics (the same draws: estimates already best
    # first, the same seed), written out over the whole (draws, m, m) array.
    rng = np.random.default_rng(6)
    m = 6
    x = np.sort(rng.normal(0, 0.3, m))[::-1].copy()
    cov = random_covariance(m, rng) * 0.02
    pairs = studentised_pairs(cov, 9.0, 2000, np.random.default_rng(1)).astype(float)
    var = np.diag(cov)
    sd = np.sqrt(var[:, None] + var[None, :] - 2 * cov)
    np.fill_diagonal(sd, 1.0)
    t = (x[:, None] - x[None, :]) / sd

    def stepdown(family):
        decided = np.zeros((m, m), dtype=bool)
        while family.any():
            q = np.quantile(np.maximum(pairs[:, family].max(axis=1), 0), 0.95)
            new = family & (t > q)
            if not new.any():
                break
            decided |= new
            family &= ~new
        return decided

    off = ~np.eye(m, dtype=bool)
    if simultaneous:
        decided = stepdown(off.copy())
        low, high = 1 + decided.sum(axis=0), m - decided.sum(axis=1)
    else:
        low, high = np.empty(m, int), np.empty(m, int)
        for i in range(m):
            family = np.zeros((m, m), dtype=bool)
            family[i, :] = family[:, i] = True
            decided = stepdown(family & off)
            low[i], high[i] = 1 + decided[:, i].sum(), m - decided[i, :].sum()
    _, got_low, got_high = rank_confidence_sets(
        x, cov, df=9, simultaneous=simultaneous, n_draws=2000, random_state=1
    )
    assert_array_equal(got_low, low)
    assert_array_equal(got_high, high)


def test_many_models_with_df_use_a_common_scale_and_stay_valid():
    # Beyond the memory of the whole (draws, m, m) array: the multivariate t of one scale.
    rng = np.random.default_rng(4)
    m = 60
    x = np.sort(rng.normal(0, 1, m))
    cov = np.eye(m) * 0.05
    _, low_n, high_n = rank_confidence_sets(x, cov, random_state=0)
    _, low_t, high_t = rank_confidence_sets(x, cov, df=4, random_state=0)
    assert np.all(low_t <= low_n)
    assert np.all(high_t >= high_n)
    assert (high_t - low_t).sum() > (high_n - low_n).sum()


def test_all_equal_gives_every_rank_and_far_apart_gives_singletons():
    m = 10
    rank, low, high = rank_confidence_sets(np.ones(m), np.eye(m) * 0.5, random_state=0)
    assert rank.tolist() == [1] * m
    assert low.tolist() == [1] * m
    assert high.tolist() == [m] * m
    x = np.arange(m) * 10.0
    rank, low, high = rank_confidence_sets(x, np.eye(m), random_state=0)
    assert_array_equal(low, rank)
    assert_array_equal(high, rank)
    assert rank.tolist() == list(range(m, 0, -1))


def test_csranks_own_expectations_on_one_to_ten():
    # csranks tests/testthat/test_csranks_simul.R, test_csranks_marg.R: x = 1:10, V = I.
    x = np.arange(1, 11, dtype=float)
    for simultaneous in (True, False):
        rank, low, high = rank_confidence_sets(
            x, np.eye(10), simultaneous=simultaneous, n_draws=1000, random_state=1
        )
        assert np.all((low <= rank) & (rank <= high))
        assert np.all((low >= 1) & (high <= 10))
        assert low.dtype.kind == "i"
        assert high.dtype.kind == "i"
    # csranks' test_diffmeans.R: identical estimates give identical sets.
    _, low, high = rank_confidence_sets(np.ones(10), np.eye(10) * 0.5, random_state=0)
    assert len(set(low)) == 1
    assert len(set(high)) == 1


def test_marginal_sets_nest_inside_simultaneous_ones():
    rng = np.random.default_rng(3)
    x = rng.normal(0, 1, 25)
    cov = np.diag(rng.uniform(0.05, 0.2, 25))
    _, low, high = rank_confidence_sets(x, cov, random_state=0)
    _, m_low, m_high = rank_confidence_sets(x, cov, simultaneous=False, random_state=0)
    assert np.all(m_low >= low)
    assert np.all(m_high <= high)
    assert (m_high - m_low).sum() < (high - low).sum()


def test_lower_is_better_mirrors_the_ranks():
    rng = np.random.default_rng(2)
    x = rng.normal(0, 1, 12)
    cov = random_covariance(12, rng) * 0.05
    up = rank_confidence_sets(x, cov, random_state=4)
    down = rank_confidence_sets(-x, cov, random_state=4, higher_is_better=False)
    for a, b in zip(up, down, strict=True):
        assert_array_equal(a, b)


def test_seeds_reproduce_and_singular_covariance_is_fine():
    rng = np.random.default_rng(8)
    cov = random_covariance(15, rng, rank=3)  # rank 3: as 4 CV splits give
    x = rng.normal(0, 1, 15)
    first = rank_confidence_sets(x, cov, random_state=12)
    again = rank_confidence_sets(x, cov, random_state=np.random.default_rng(12))
    for a, b in zip(first, again, strict=True):
        assert_array_equal(a, b)


def test_identical_models_are_never_separated_and_exact_differences_are():
    # Models 0 and 1 have the same scores (difference variance 0): tied, not decided;
    # model 2 differs from 3 by a constant (variance 0 of a nonzero difference): decided.
    cov = np.array([[1.0, 1.0, 0, 0], [1.0, 1.0, 0, 0], [0, 0, 1.0, 1.0], [0, 0, 1.0, 1.0]])
    rank, low, high = rank_confidence_sets([0.5, 0.5, 0.2, 0.1], cov, random_state=0)
    assert rank.tolist() == [1, 1, 3, 4]
    assert (low[2], high[2]) == (1, 3)
    assert high[3] == 4
    assert low[3] >= 2


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"estimates": [1.0], "covariance": [[1.0]]}, ValueError, "at least 2 models"),
        ({"coverage": 1.0}, ValueError, "`coverage` must be strictly between 0 and 1"),
        ({"coverage": "0.9"}, TypeError, "`coverage`"),
        ({"covariance": np.eye(3)}, ValueError, r"must be a 2 x 2 matrix"),
        ({"covariance": [[1.0, 0.5], [0.0, 1.0]]}, ValueError, "symmetric"),
        ({"estimates": [1.0, np.nan]}, ValueError, "finite"),
        ({"n_draws": 10}, ValueError, "`n_draws` must be at least 100"),
        ({"df": 0.5}, ValueError, "`df` must be at least 1"),
        ({"df": "9"}, TypeError, "`df` must be None or a number"),
    ],
)
def test_bad_input(kwargs, error, match):
    args = {"estimates": [1.0, 0.0], "covariance": np.eye(2), **kwargs}
    with pytest.raises(error, match=match):
        rank_confidence_sets(args.pop("estimates"), args.pop("covariance"), **args)


estimates = st.lists(
    st.integers(-40, 40).map(lambda v: v / 8), min_size=2, max_size=7, unique=True
)


@given(estimates, st.integers(-5, 5), st.randoms(use_true_random=False))
def test_adding_a_constant_changes_nothing_and_permuting_permutes(values, shift, rand):
    x = np.array(values)
    m = x.size
    cov = np.diag(np.linspace(0.5, 2.0, m))
    base = rank_confidence_sets(x, cov, n_draws=500, random_state=1)
    shifted = rank_confidence_sets(x + shift, cov, n_draws=500, random_state=1)
    for a, b in zip(base, shifted, strict=True):
        assert_array_equal(a, b)
    perm = np.array(rand.sample(range(m), m))
    permuted = rank_confidence_sets(x[perm], cov[np.ix_(perm, perm)], n_draws=500, random_state=1)
    for a, b in zip(base, permuted, strict=True):
        assert_array_equal(a[perm], b)
    rank, low, high = base
    assert np.all((low >= 1) & (low <= rank) & (rank <= high) & (high <= m))


@given(st.integers(2, 12), st.integers(0, 2**16), st.floats(0.0, 0.9))
def test_pruned_maximum_equals_brute_force(m, seed, drop):
    # Any covariance (rank-deficient too) and any set of undecided pairs.
    rng = np.random.default_rng(seed)
    cov = random_covariance(m, rng, rank=int(rng.integers(1, m + 1)))
    draws = normal_draws(cov, 200, rng)
    var = np.diag(cov)
    diff_var = var[:, None] + var[None, :] - 2 * cov
    inv = np.where(diff_var > 1e-12, 1 / np.sqrt(np.maximum(diff_var, 1e-300)), 0.0)
    np.fill_diagonal(inv, 0.0)
    active = (rng.random((m, m)) >= drop) & ~np.eye(m, dtype=bool)
    scaled = (draws[:, :, None] - draws[:, None, :]) * inv
    brute = np.maximum(np.where(active, scaled, -np.inf).max(axis=(1, 2)), 0.0)
    np.testing.assert_allclose(max_statistic(draws, inv, active), brute, rtol=1e-12, atol=1e-12)

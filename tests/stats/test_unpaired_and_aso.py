"""The unpaired cores: Welch's t and Mann–Whitney U against scipy; ASO, closed forms and deepsig.

References: ``scipy.stats.ttest_ind(equal_var=False)`` (with its confidence
interval) and ``scipy.stats.mannwhitneyu`` (default method, which switches
between the exact null and the tie-corrected normal approximation); the
population violation ratio of N(1, 1) against N(0, 2),
``(2(1 − Φ(1)) − φ(1)) / 2 = 0.0377`` (written out below); a fine-grid
numeric integral of ε_W2 written in this file; and ``deepsig.aso`` for eps_min.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

from pdcompare.stats import aso, unpaired

ALTERNATIVES = ["two-sided", "greater", "less"]


def _ragged(seed, n_models=4, runs=12, decimals=None, absent=0.2):
    """Models x runs with absent runs (NaN), at least 2 runs per model."""
    rng = np.random.default_rng(seed)
    values = rng.normal(0.8, 0.03, size=(n_models, runs)) + rng.normal(0, 0.02, (n_models, 1))
    if decimals is not None:
        values = np.round(values, decimals)
    values[rng.random(values.shape) < absent] = np.nan
    values[:, :2] = np.where(np.isnan(values[:, :2]), 0.8, values[:, :2])
    return values


def _sample(values, k):
    row = values[k]
    return row[~np.isnan(row)]


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("seed", range(6))
def test_welch_equals_scipy_ttest_ind(seed, alternative):
    values = _ragged(seed, runs=4 + 3 * seed)
    i, j = np.triu_indices(len(values), 1)
    out = unpaired.welch_ttest(values, i, j, alternative=alternative, confidence=0.9)
    for p, (a, b) in enumerate(zip(i, j, strict=True)):
        ref = stats.ttest_ind(
            _sample(values, a), _sample(values, b), equal_var=False, alternative=alternative
        )
        ci = ref.confidence_interval(confidence_level=0.9)
        got = [out[k][p] for k in ("statistic", "df", "pvalue", "ci_low", "ci_high")]
        assert_allclose(got, [ref.statistic, ref.df, ref.pvalue, ci.low, ci.high], rtol=1e-10)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize(
    ("runs", "decimals"),
    [(5, None), (8, None), (9, None), (15, None), (6, 2), (12, 2), (20, 1), (30, None)],
)
def test_mannwhitney_equals_scipy_default_method(runs, decimals, alternative):
    # Sizes on both sides of scipy's switch (exact when a sample has <= 8 scores and
    # nothing ties), with and without ties (rounded scores).
    values = _ragged(runs, runs=runs, decimals=decimals)
    i, j = np.triu_indices(len(values), 1)
    i, j = np.concatenate([i, j]), np.concatenate([j, i])
    out = unpaired.mann_whitney(values, i, j, alternative=alternative)
    for p, (a, b) in enumerate(zip(i, j, strict=True)):
        ref = stats.mannwhitneyu(_sample(values, a), _sample(values, b), alternative=alternative)
        assert_allclose(
            [out["statistic"][p], out["pvalue"][p]],
            [ref.statistic, ref.pvalue],
            rtol=1e-12,
            atol=1e-15,
        )


def test_exact_u_tail_equals_scipy_exact_method():
    rng = np.random.default_rng(3)
    for n1, n2 in [(1, 1), (3, 8), (8, 8), (2, 40), (8, 25)]:
        x, y = rng.normal(size=n1), rng.normal(size=n2) + 0.3
        ref = stats.mannwhitneyu(x, y, method="exact", alternative="greater")
        u = int(ref.statistic)
        assert_allclose(unpaired._exact_u_tail(n1, n2)[u], ref.pvalue, rtol=1e-12)


@given(
    st.lists(st.integers(0, 5), min_size=1, max_size=9),
    st.lists(st.integers(0, 5), min_size=1, max_size=9),
)
def test_mannwhitney_property_matches_scipy_on_heavy_ties(x, y):
    values = np.full((2, 9), np.nan)
    values[0, : len(x)], values[1, : len(y)] = x, y
    out = unpaired.mann_whitney(values, [0], [1])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ref = stats.mannwhitneyu(x, y)
    if np.isnan(ref.pvalue):  # every score equal: scipy divides 0 by 0, pdcompare says 1
        assert out["pvalue"][0] == 1.0
    else:
        assert_allclose(
            [out["statistic"][0], out["pvalue"][0]],
            [ref.statistic, ref.pvalue],
            rtol=1e-12,
            atol=1e-15,
        )


def test_welch_degenerate_samples():
    values = np.array([[0.8, 0.8, 0.8], [0.8, 0.8, 0.8], [0.7, 0.7, 0.7]])
    out = unpaired.welch_ttest(values, [0, 0], [1, 2])
    assert out["statistic"].tolist() == [0.0, np.inf]
    assert out["pvalue"].tolist() == [1.0, 0.0]
    assert out["identical"].tolist() == [True, False]
    assert out["constant"].tolist() == [False, True]


# --------------------------------------------------------------------------- ASO


def _fine_grid_ratio(x, y, sign=1.0, steps=7 * 11 * 4 * 500):
    """ε_W2 by a midpoint rule on a fine grid whose cells never straddle a breakpoint k/n.

    With ``steps`` a multiple of every sample size the quantile functions are
    constant on each cell, so the rule is exact: an independent reference.
    """
    t = (np.arange(steps) + 0.5) / steps
    qx = np.sort(x)[np.clip(np.ceil(len(x) * t).astype(int) - 1, 0, len(x) - 1)]
    qy = np.sort(y)[np.clip(np.ceil(len(y) * t).astype(int) - 1, 0, len(y) - 1)]
    gap = sign * (qx - qy)
    return float(np.sum(np.where(gap < 0, gap**2, 0.0)) / np.sum(gap**2))


def test_violation_ratio_closed_form_of_normals():
    # N(1, 1) against N(0, 2) (sd 2): d(t) = 1 - z, violated for z > 1, so
    # eps = E[(z - 1)^2; z > 1] / E[(1 - z)^2] = (2 (1 - Phi(1)) - phi(1)) / 2.
    closed = (2 * (1 - stats.norm.cdf(1)) - stats.norm.pdf(1)) / 2
    assert round(closed, 4) == 0.0377
    z = stats.norm.ppf((np.arange(40_000) + 0.5) / 40_000)
    values = np.vstack([1 + z, 2 * z, z])
    out = aso.aso_pairs(values, [0, 2], [1, 1], n_bootstrap=2, rng=np.random.default_rng(0))
    assert_allclose(out["violation_ratio"][0], closed, atol=2e-4)
    assert_allclose(out["violation_ratio"][1], 0.5, atol=1e-3)  # N(0, 1) against N(0, 2)


@pytest.mark.parametrize("seed", range(4))
def test_violation_ratio_equals_fine_grid_integral_and_is_antisymmetric(seed):
    rng = np.random.default_rng(seed)
    values = np.full((3, 11), np.nan)
    values[0, :7] = rng.normal(0.5, 1, 7)
    values[1, :11] = rng.normal(0, 1.5, 11)
    values[2, :4] = rng.normal(0.2, 0.5, 4)
    i, j = np.array([0, 0, 1, 1, 2, 2]), np.array([1, 2, 0, 2, 0, 1])
    for gib, sign in ((True, 1.0), (False, -1.0)):
        out = aso.aso_pairs(
            values, i, j, n_bootstrap=2, greater_is_better=gib, rng=np.random.default_rng(0)
        )
        for p, (a, b) in enumerate(zip(i, j, strict=True)):
            ref = _fine_grid_ratio(_sample(values, a), _sample(values, b), sign)
            assert_allclose(out["violation_ratio"][p], ref, rtol=1e-9, atol=1e-12)
        ratio = dict(
            zip(zip(i.tolist(), j.tolist(), strict=True), out["violation_ratio"], strict=True)
        )
        for a, b in ((0, 1), (0, 2), (1, 2)):
            assert_allclose(ratio[a, b] + ratio[b, a], 1.0, rtol=1e-12)


def test_dominance_gives_zero_and_equal_samples_one_half():
    values = np.array([[3.0, 4.0, 5.0], [0.0, 1.0, 2.0], [0.0, 1.0, 2.0]])
    out = aso.aso_pairs(values, [0, 1, 1], [1, 0, 2], rng=np.random.default_rng(0))
    assert out["violation_ratio"].tolist() == [0.0, 1.0, 0.5]
    assert out["identical"].tolist() == [False, False, True]


@pytest.mark.slow
def test_eps_min_agrees_with_deepsig_within_bootstrap_error():
    # deepsig 1.2.8 resamples each model at its own size and returns
    # clip(eps - sigma / const * Phi^-1(1 - level), 0, 1), sigma = sd(const (eps* - eps)):
    # clip(eps + z sd(eps*), 0, 1), the formula of aso_pairs. With 10 runs each, the
    # breakpoints k/10 fall on deepsig's dt = 0.005 grid, so its ratios differ from the
    # exact ones only by the tail points it leaves out (below 0.01 here); the bounds are
    # compared after replacing our exact eps by deepsig's. Monte Carlo error of a bound
    # from 800 resamples: about 0.01; measured differences 0.002 to 0.021.
    deepsig = pytest.importorskip("deepsig")
    from deepsig.aso import compute_violation_ratio

    for seed in range(3):
        rng = np.random.default_rng(seed)
        a, b = rng.normal(0.5, 1, 10), rng.normal(0, 1, 10)
        ours = aso.aso_pairs(
            np.vstack([a, b]), [0], [1], n_bootstrap=4000, rng=np.random.default_rng(1)
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = deepsig.aso(a, b, show_progress=False, seed=5, num_bootstrap_iterations=800)
            grid_ratio = compute_violation_ratio(a, b, dt=0.005)
        assert abs(ours["violation_ratio"][0] - grid_ratio) < 0.01
        shifted = ours["eps_min"][0] - ours["violation_ratio"][0] + grid_ratio
        assert abs(shifted - theirs) < 0.035, (seed, shifted, theirs)


@given(
    st.lists(st.integers(-5, 5), min_size=1, max_size=7),
    st.lists(st.integers(-5, 5), min_size=1, max_size=9),
)
def test_violation_ratios_of_a_pair_sum_to_one(x, y):
    values = np.full((2, 9), np.nan)
    values[0, : len(x)], values[1, : len(y)] = x, y
    out = aso.aso_pairs(values, [0, 1], [1, 0], n_bootstrap=3, rng=np.random.default_rng(0))
    ratio = out["violation_ratio"]
    assert np.all((ratio >= 0) & (ratio <= 1))
    assert_allclose(ratio.sum(), 1.0, rtol=1e-12)
    assert_allclose(
        ratio[0],
        _fine_grid_ratio(np.array(x, float), np.array(y, float), steps=2520 * 4)
        if ratio[0] != 0.5
        else 0.5,
        rtol=1e-9,
        atol=1e-12,
    )
    assert np.all((out["eps_min"] >= ratio - 1e-12) & (out["eps_min"] <= 1))


@pytest.mark.slow
def test_multi_aso_level_is_not_bonferroni_but_reproducible():
    # deepsig.multi_aso(use_bonferroni=True) raises the level to cl + (1 - cl)/m
    # (0.9667 for m = 3), not Bonferroni's 1 - (1 - cl)/m (0.9833): pdcompare's
    # correction=None at that level reproduces it, within Monte Carlo error.
    deepsig = pytest.importorskip("deepsig")
    from deepsig.aso import compute_violation_ratio

    rng = np.random.default_rng(4)
    samples = [rng.normal(mean, 1, 10) for mean in (0.6, 0.3, 0.0)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = deepsig.multi_aso(
            np.vstack(samples), show_progress=False, seed=3, num_bootstrap_iterations=800
        )
    i, j = np.array([0, 0, 1]), np.array([1, 2, 2])
    level = 0.95 + 0.05 / 3
    ours = aso.aso_pairs(
        np.vstack(samples), i, j, confidence=level, n_bootstrap=4000, rng=np.random.default_rng(0)
    )
    for p, (a, b) in enumerate(zip(i, j, strict=True)):
        grid_ratio = compute_violation_ratio(samples[a], samples[b], dt=0.005)
        shifted = min(ours["eps_min"][p] - ours["violation_ratio"][p] + grid_ratio, 1.0)
        assert abs(shifted - theirs[a, b]) < 0.04, (a, b, shifted, theirs[a, b])

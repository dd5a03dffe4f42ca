"""The power core: noncentral t power, minimal detectable difference, repeats, the floor.

References: the noncentral t written out with scipy.stats.nct and scipy.stats.t;
statsmodels' TTestPower (the plain paired t, n_test/n_train = 0); a Monte Carlo
simulation of the corrected t-test on correlated fold scores; the issue's 10-fold
table (power 0.164 with one 10-fold, 0.296 with 10 repeats, never above 0.323).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats
from statsmodels.stats.power import TTestPower

from pdcompare.stats import paired
from pdcompare.stats._signed_rank import extreme_pvalue, min_signed_rank_pvalue
from pdcompare.stats.power import (
    mdd_limit,
    min_detectable_difference,
    noncentrality,
    power,
    repeats_needed,
)


def power_by_hand(delta, sd, n, ratio, alpha, two_sided=True):
    """P(|T| > t) for T ~ noncentral t(n - 1, delta / se(n)), se(n) = sd sqrt(1/n + ratio)."""
    nc = delta / (sd * np.sqrt(1 / n + ratio))
    if two_sided:
        crit = stats.t.ppf(1 - alpha / 2, n - 1)
        # scipy's nct gives NaN for some far-tail values (below 1e-25): they are 0.
        return stats.nct.sf(crit, n - 1, nc) + np.nan_to_num(stats.nct.cdf(-crit, n - 1, nc))
    return stats.nct.sf(stats.t.ppf(1 - alpha, n - 1), n - 1, nc)


@pytest.mark.parametrize("n", [3, 10, 30, 100])
@pytest.mark.parametrize("ratio", [0.0, 1 / 9, 0.25])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_power_is_the_noncentral_t(n, ratio, alternative):
    delta, sd = np.array([0.005, 0.01, 0.03]), np.array([0.02, 0.01, 0.05])
    got = power(delta, sd, n, test_train_ratio=ratio, alpha=0.05, alternative=alternative)
    ref = power_by_hand(delta, sd, n, ratio, 0.05, two_sided=alternative == "two-sided")
    assert_allclose(got, ref, rtol=1e-9)


@pytest.mark.parametrize("effect", [0.2, 0.5, 1.0])
@pytest.mark.parametrize("n", [5, 20, 80])
def test_uncorrected_power_matches_statsmodels(effect, n):
    # With n_test/n_train = 0 the corrected test is the plain paired t: TTestPower's
    # effect size is delta / sd.
    analysis = TTestPower()
    assert_allclose(power(effect, 1.0, n), analysis.power(effect, n, 0.05), rtol=1e-9)
    assert_allclose(
        power(effect * 0.03, 0.03, n, alternative="greater"),
        analysis.power(effect, n, 0.05, alternative="larger"),
        rtol=1e-9,
    )
    # The inverse: the effect size statsmodels solves for at power 0.8.
    solved = analysis.solve_power(nobs=n, alpha=0.05, power=0.8)
    assert_allclose(min_detectable_difference(1.0, n), solved, rtol=1e-6)


def test_the_ten_fold_table():
    # 10-fold, a difference of half the SD of the fold differences (issue 33).
    ratio = 1 / 9
    assert round(float(power(0.5, 1.0, 10, test_train_ratio=ratio)), 3) == 0.164
    assert round(float(power(0.5, 1.0, 100, test_train_ratio=ratio)), 3) == 0.296
    # The ceiling: the z-test with se = sd sqrt(ratio), two tails.
    z = stats.norm.ppf(0.975)
    nc = 0.5 / np.sqrt(ratio)
    ceiling = stats.norm.cdf(nc - z) + stats.norm.cdf(-nc - z)
    assert round(ceiling, 3) == 0.323
    many = power(0.5, 1.0, np.array([1e3, 1e5, 1e7]), test_train_ratio=ratio)
    assert np.all(np.diff(many) > 0)
    assert np.all(many < ceiling)
    assert_allclose(many[-1], ceiling, rtol=1e-4)


def test_monte_carlo_of_the_corrected_test():
    # Fold differences with the correlation the Nadeau-Bengio correction assumes: a
    # component shared by all splits with variance ratio * (within-split variance).
    # Then the corrected t is exactly noncentral t; the rejection rate of pdcompare's
    # corrected test must match the power within simulation error.
    rng = np.random.default_rng(20261124)
    reps, n, ratio, delta, sd = 20_000, 10, 1 / 9, 0.8, 1.0
    shared = rng.normal(0.0, sd * np.sqrt(ratio), size=(reps, 1))
    diffs = delta + shared + rng.normal(0.0, sd, size=(reps, n))
    values = np.vstack([diffs, np.zeros((1, n))])  # every replicate against one zero model
    rows = np.arange(reps)
    out = paired.paired_ttest(values, rows, np.full(reps, reps), test_train_ratio=ratio)
    rate = np.mean(out["pvalue"] <= 0.05)
    expected = power(delta, sd, n, test_train_ratio=ratio)
    assert abs(rate - expected) < 4 * np.sqrt(expected * (1 - expected) / reps)
    # With no difference the corrected test keeps its level; the plain t does not.
    null = values - np.vstack([np.full((reps, n), delta), np.zeros((1, n))])
    corrected = paired.paired_ttest(null, rows, np.full(reps, reps), test_train_ratio=ratio)
    assert abs(np.mean(corrected["pvalue"] <= 0.05) - 0.05) < 4 * np.sqrt(0.05 * 0.95 / reps)
    plain = paired.paired_ttest(null, rows, np.full(reps, reps))
    assert np.mean(plain["pvalue"] <= 0.05) > 0.1


def test_noncentrality_solves_the_power():
    df = np.array([1.0, 2.0, 9.0, 99.0, 1e5])
    for alternative in ("two-sided", "greater"):
        for target in (0.5, 0.8, 0.95):
            lam = noncentrality(df, alpha=0.05, alternative=alternative, target=target)
            n = df + 1
            # power() divides by se = sqrt(1/n): a difference lam / sqrt(n) is noncentrality lam.
            got = power(lam / np.sqrt(n), 1.0, n, alternative=alternative)
            assert_allclose(got, target, rtol=1e-9)
    assert noncentrality(9.0, target=0.04) == 0.0  # alpha already reaches the target


@settings(deadline=None, max_examples=60, derandomize=True)
@given(
    sd=st.floats(1e-4, 10.0),
    n=st.integers(2, 500),
    ratio=st.sampled_from([0.0, 1 / 9, 1 / 4, 1.0]),
    alpha=st.floats(0.001, 0.2),
    target=st.floats(0.3, 0.99),
    alternative=st.sampled_from(["two-sided", "greater"]),
)
def test_power_at_the_mdd_is_the_target(sd, n, ratio, alpha, target, alternative):
    options = {"test_train_ratio": ratio, "alpha": alpha, "alternative": alternative}
    mdd = min_detectable_difference(sd, n, target=target, **options)
    if target <= alpha:
        assert mdd == 0
    else:
        assert_allclose(power(mdd, sd, n, **options), target, rtol=1e-7)


@settings(deadline=None, max_examples=40, derandomize=True)
@given(
    reach=st.floats(0.05, 5.0),
    unit=st.sampled_from([1, 2, 5, 10]),
    ratio=st.sampled_from([0.0, 1 / 9, 1 / 4, 1.0]),
    alternative=st.sampled_from(["two-sided", "greater"]),
)
def test_repeats_are_the_first_that_reach_the_target(reach, unit, ratio, alternative):
    options = {"test_train_ratio": ratio, "alpha": 0.05, "alternative": alternative}
    r = repeats_needed(reach, 1.0, unit=unit, **options)
    limit = mdd_limit(1.0, **options)
    # inf exactly when delta is at or below the floor.
    assert np.isinf(r) == (reach <= limit)
    if np.isfinite(r):
        assert power(reach, 1.0, unit * r, **options) >= 0.8 - 1e-12
        if r > 1 and unit * (r - 1) >= 2:
            assert power(reach, 1.0, unit * (r - 1), **options) < 0.8
    # A larger difference never needs more repeats; more repeats never detect less.
    assert repeats_needed(reach * 1.1, 1.0, unit=unit, **options) <= r
    n = unit * np.arange(1, 40) + 1
    assert np.all(np.diff(min_detectable_difference(1.0, n, **options)) <= 1e-12)


def test_repeats_beyond_the_table_and_degenerate_rows():
    ratio = 1 / 9
    limit = float(mdd_limit(1.0, test_train_ratio=ratio))
    # Just above the floor: thousands of repeats, found by the search beyond the table.
    r = float(repeats_needed(limit * 1.0005, 1.0, unit=10, test_train_ratio=ratio))
    assert r > 512
    assert power(limit * 1.0005, 1.0, 10 * r, test_train_ratio=ratio) >= 0.8
    assert power(limit * 1.0005, 1.0, 10 * (r - 1), test_train_ratio=ratio) < 0.8
    # A zero SD: 2 data sets find any difference; NaN propagates.
    got = repeats_needed([0.01, 0.01], [0.0, np.nan], unit=1)
    assert got[0] == 2
    assert np.isnan(got[1])
    assert power(0.01, 0.0, 10) == 1.0
    assert np.isnan(power(0.01, 1.0, 1))


def test_mdd_limit_formula():
    z = stats.norm.ppf(0.975) + stats.norm.ppf(0.8)
    assert_allclose(mdd_limit(0.02, test_train_ratio=0.25), z * 0.02 * 0.5, rtol=1e-12)
    z1 = stats.norm.ppf(0.95) + stats.norm.ppf(0.9)
    assert_allclose(
        mdd_limit(0.02, test_train_ratio=0.25, alternative="less", target=0.9),
        z1 * 0.02 * 0.5,
        rtol=1e-12,
    )


@pytest.mark.parametrize("n", [1, 5, 8, 13, 20, 50, 51, 80])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_smallest_pvalues_are_scipys_on_extreme_data(n, alternative):
    # Every difference positive (or negative for "less"): the most extreme data.
    sign = -1 if alternative == "less" else 1
    d = sign * np.arange(1.0, n + 1)
    ref = stats.wilcoxon(d, alternative=alternative).pvalue
    assert_allclose(min_signed_rank_pvalue(n, alternative), ref, rtol=1e-10)
    k = n if alternative != "less" else 0
    assert_allclose(extreme_pvalue(n, alternative), stats.binomtest(k, n).pvalue
                    if alternative == "two-sided" else
                    stats.binomtest(k, n, alternative=alternative).pvalue, rtol=1e-12)

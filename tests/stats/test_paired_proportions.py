"""Intervals of paired proportions and the mid-p McNemar test (DESIGN 33) against references.

Three kinds of reference: published worked examples at their printed precision
(Fagerland, Lydersen & Laake), a second implementation written from the papers in
tests/references.py (per-table brentq for Tango, Newcombe's formula, the binomial
sum for mid-p) to 1e-6 on many tables, and statsmodels for Wilson.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from references import (
    ci_wilson_clustered,
    midp_mcnemar_sum,
    newcombe_interval_formula,
    tango_interval_brentq,
)
from statsmodels.stats.proportion import proportion_confint

from pdcompare.stats import items as items_core
from pdcompare.stats import paired_proportions as pp

# Cavo et al. (2012), 161 patients: a = 59, b = 6, c = 16, d = 80. Fagerland, Lydersen &
# Laake, "Statistical Analysis of Contingency Tables" (2017), chapter 8, print these limits
# (checked to their 4 decimals by the book's R package, ocbe-uio/contingencytables,
# tests/testthat/test-ch8.R): Tango (-0.1240, -0.0054), Newcombe square-and-add
# (-0.1186, -0.0046), Wald (-0.1184, -0.0058), mid-p McNemar P = 0.034690, exact
# conditional McNemar P = 0.052479.
CAVO = (59, 6, 16, 80)
# Bentur et al. (2009), 21 children: a = 1, b = 1, c = 7, d = 12. Fagerland, Lydersen &
# Laake, Statistics in Medicine 33 (2014) 2850-2875, Table V: Tango (-0.517, -0.026).
BENTUR = (1, 1, 7, 12)


def tables(n_max=16):
    """Every 2x2 table (a, b, c, d) with n from 1 to ``n_max``, plus some larger ones."""
    rows = [
        (a, b, c, n - a - b - c)
        for n in range(1, n_max + 1)
        for a, b, c in itertools.product(range(n + 1), repeat=3)
        if a + b + c <= n
    ]
    rng = np.random.default_rng(3)
    for n in (30, 60, 100, 500):
        cuts = np.sort(rng.integers(0, n + 1, (40, 3)), axis=1)
        rows += [(x, y - x, z - y, n - z) for x, y, z in cuts.tolist()]
    return np.array(rows, dtype=float)


def test_published_tango_limits():
    low, high = pp.tango_interval(CAVO[1], CAVO[2], sum(CAVO))
    assert_allclose([low, high], [-0.1240, -0.0054], atol=5e-5)
    low, high = pp.tango_interval(BENTUR[1], BENTUR[2], sum(BENTUR))
    assert_allclose([low, high], [-0.517, -0.026], atol=5e-4)


def test_published_newcombe_and_wald_limits():
    assert_allclose(pp.newcombe_interval(*CAVO), [-0.1186, -0.0046], atol=5e-5)
    assert_allclose(pp.wald_interval(CAVO[1], CAVO[2], sum(CAVO)), [-0.1184, -0.0058], atol=5e-5)


def test_published_mcnemar_p_values():
    assert_allclose(pp.midp_mcnemar(6, 16), 0.034690, atol=5e-7)
    assert_allclose(
        items_core.exact_mcnemar(np.array([6.0]), np.array([16.0]))[1], 0.052479, atol=5e-7
    )


def test_tango_equals_brentq_reference_on_every_small_table():
    t = tables()
    n = t.sum(axis=1)
    low, high = pp.tango_interval(t[:, 1], t[:, 2], n)
    reference = np.array(
        [tango_interval_brentq(b, c, m) for b, c, m in zip(t[:, 1], t[:, 2], n, strict=True)]
    )
    assert_allclose(low, reference[:, 0], atol=1e-8)
    assert_allclose(high, reference[:, 1], atol=1e-8)


@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.99])
def test_tango_other_levels(confidence):
    t = tables(8)
    n = t.sum(axis=1)
    low, high = pp.tango_interval(t[:, 1], t[:, 2], n, confidence=confidence)
    reference = np.array(
        [
            tango_interval_brentq(b, c, m, confidence)
            for b, c, m in zip(t[:, 1], t[:, 2], n, strict=True)
        ]
    )
    assert_allclose(np.c_[low, high], reference, atol=1e-8)


def test_newcombe_equals_the_written_out_formula_on_every_small_table():
    t = tables()
    low, high = pp.newcombe_interval(*t.T)
    reference = np.array([newcombe_interval_formula(*row) for row in t])
    assert_allclose(np.c_[low, high], reference, atol=1e-12)


def test_wald_written_out():
    t = tables(10)
    n = t.sum(axis=1)
    low, high = pp.wald_interval(t[:, 1], t[:, 2], n, confidence=0.9)
    estimate = (t[:, 1] - t[:, 2]) / n
    se = np.sqrt(t[:, 1] / n + t[:, 2] / n - estimate**2) / np.sqrt(n)
    assert_allclose(low, np.clip(estimate - 1.6448536269514722 * se, -1, 1), atol=1e-12)
    assert_allclose(high, np.clip(estimate + 1.6448536269514722 * se, -1, 1), atol=1e-12)


def test_midp_equals_the_binomial_sum():
    b, c = np.meshgrid(np.arange(40), np.arange(40))
    b, c = b.ravel(), c.ravel()
    reference = [midp_mcnemar_sum(int(x), int(y)) for x, y in zip(b, c, strict=True)]
    assert_allclose(pp.midp_mcnemar(b, c), reference, rtol=1e-10, atol=1e-15)


def test_midp_is_the_exact_p_value_less_the_observed_probability():
    from scipy import stats

    b, c = np.array([1.0, 4, 10, 30]), np.array([9.0, 5, 2, 12])
    exact = items_core.exact_mcnemar(b, c)[1]
    k, total = np.minimum(b, c), b + c
    assert_allclose(pp.midp_mcnemar(b, c), exact - stats.binom.pmf(k, total, 0.5))


def test_wilson_equals_statsmodels():
    for x, n in [(0, 10), (3, 10), (14, 20), (20, 20), (57, 113)]:
        expected = proportion_confint(x, n, alpha=0.1, method="wilson")
        got = pp.wilson_interval(x / n, n, 1.6448536269514722)
        assert_allclose(got, expected, atol=1e-12)


def test_clustered_wilson_equals_inspect_ai_written_out():
    rng = np.random.default_rng(5)
    for n_clusters in (2, 4, 12, 40):
        clusters = rng.integers(0, n_clusters, 120)
        clusters[:n_clusters] = np.arange(n_clusters)
        values = (rng.random(120) < rng.uniform(0.2, 0.8)).astype(float)
        p = values.mean()
        variance = items_core.clustered_se(values[None, :], clusters, n_clusters)[0] ** 2
        got = pp.clustered_wilson_interval(p, 120, variance, n_clusters, 0.9)
        assert_allclose(got, ci_wilson_clustered(values, clusters, 0.9), atol=1e-12)


def test_the_n_over_design_effect_reading_is_the_same():
    # Korn & Graubard's n* = n_eff (z/t)^2 with the normal z equals Wilson with t and n_eff.
    from scipy import stats

    p, n, variance, clusters = 0.3, 200, 0.0021, 9
    n_eff = p * (1 - p) / variance
    z, t = stats.norm.ppf(0.975), stats.t.ppf(0.975, clusters - 1)
    via_z = pp.wilson_interval(p, n_eff * (z / t) ** 2, z)
    assert_allclose(pp.clustered_wilson_interval(p, n, variance, clusters, 0.95), via_z)


def test_all_pairs_are_vectorised_with_repeats_and_nan():
    b = np.array([3.0, 3.0, np.nan, 0.0] * 30)
    c = np.array([1.0, 1.0, 2.0, 0.0] * 30)
    n = np.array([10.0, 10.0, 10.0, 10.0] * 30)
    low, high = pp.tango_interval(b, c, n)
    assert np.isnan(low[2::4]).all()
    assert np.isnan(high[2::4]).all()
    assert_allclose(low[0::4], tango_interval_brentq(3, 1, 10)[0], atol=1e-9)
    assert_allclose(high[3::4], tango_interval_brentq(0, 0, 10)[1], atol=1e-9)
    assert np.isnan(pp.midp_mcnemar(np.nan, 2.0))


counts = st.tuples(*(st.integers(0, 40) for _ in range(4))).filter(lambda t: sum(t) > 0)


@given(counts, st.sampled_from(pp.INTERVALS), st.sampled_from([0.8, 0.95, 0.99]))
def test_interval_properties(table, method, confidence):
    a, b, c, d = table
    n = sum(table)
    low, high = (float(x) for x in pp.paired_interval(method, a, b, c, d, confidence=confidence))
    estimate = (b - c) / n
    assert -1.0 <= low <= estimate + 1e-9
    assert estimate - 1e-9 <= high <= 1.0
    # Swapping the models turns the interval around zero.
    low_2, high_2 = (
        float(x) for x in pp.paired_interval(method, a, c, b, d, confidence=confidence)
    )
    assert_allclose([low_2, high_2], [-high, -low], atol=1e-9)
    # A higher level gives a wider interval.
    wider = pp.paired_interval(method, a, b, c, d, confidence=0.999)
    assert wider[0] <= low + 1e-9
    assert wider[1] >= high - 1e-9


@given(st.integers(0, 60), st.integers(0, 60))
def test_midp_properties(b, c):
    p = float(pp.midp_mcnemar(b, c))
    exact = float(items_core.exact_mcnemar(np.array([b]), np.array([c]))[1][0])
    assert 0.0 < p <= 1.0
    assert p <= exact + 1e-12
    assert p == pytest.approx(float(pp.midp_mcnemar(c, b)))


def test_no_items_gives_nan_without_warnings():
    # Warnings are errors in this suite: 0/0 must stay quiet and give NaN.
    for limits in (
        pp.tango_interval(0, 0, 0),
        pp.newcombe_interval(0, 0, 0, 0),
        pp.wald_interval(0, 0, 0),
    ):
        assert np.isnan(limits).all()
    assert float(pp.midp_mcnemar(0, 0)) == 1.0  # no discordant item: p = 1, as exact McNemar

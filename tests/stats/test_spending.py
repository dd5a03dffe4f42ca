"""Lan–DeMets spending bounds against ldbounds/gsDesign's published values and a simulation."""

import numpy as np
import pytest
from scipy import stats

from pdcompare.stats.spending import critical_values, look_levels, spent

FIVE = [0.2, 0.4, 0.6, 0.8, 1.0]
# ldbounds / gsDesign, two-sided symmetric 0.05, five equal looks (DESIGN section 30).
POCOCK = [2.438, 2.427, 2.410, 2.397, 2.386]
OBF = [4.877, 3.357, 2.680, 2.290, 2.031]


@pytest.mark.parametrize(("rule", "expected"), [("pocock", POCOCK), ("obf", OBF)])
def test_five_equal_looks_match_published_bounds(rule, expected):
    np.testing.assert_allclose(critical_values(FIVE, 0.05, rule), expected, atol=2e-3)


@pytest.mark.parametrize("rule", ["pocock", "obf"])
def test_crossing_probability_is_alpha_by_simulation(rule):
    bounds = critical_values(FIVE, 0.05, rule)
    rng = np.random.default_rng(20260101)
    n = 400_000
    steps = rng.standard_normal((n, 5)) * np.sqrt(0.2)
    z = np.cumsum(steps, axis=1) / np.sqrt(FIVE)
    crossed = (np.abs(z) >= bounds).any(axis=1).mean()
    se = np.sqrt(0.05 * 0.95 / n)
    assert abs(crossed - 0.05) < 4 * se


def test_first_look_spends_the_function_by_the_normal_tail():
    # At the first look no recursion: P(|Z| >= c_1) = alpha(t_1), read on scipy's normal.
    for rule in ("pocock", "obf"):
        c1 = critical_values([0.25, 0.5, 1.0], 0.05, rule)[0]
        assert 2 * stats.norm.sf(c1) == pytest.approx(spent(rule, 0.25, 0.05), rel=1e-8)


def test_spending_functions_written_out():
    t = np.array([0.1, 0.5, 1.0])
    np.testing.assert_allclose(spent("pocock", t, 0.05), 0.05 * np.log(1 + (np.e - 1) * t))
    side = 2 * stats.norm.sf(stats.norm.isf(0.05 / 4) / np.sqrt(t))  # 2 - 2 Phi(.)
    np.testing.assert_allclose(spent("obf", t, 0.05), 2 * side)


def test_bonferroni_is_alpha_over_looks():
    np.testing.assert_allclose(critical_values(FIVE, 0.05, "bonferroni"), stats.norm.isf(0.005))
    np.testing.assert_allclose(look_levels(4, 0.1, "bonferroni"), 0.025)


def test_one_look_is_the_fixed_test():
    for rule in ("pocock", "obf", "bonferroni"):
        assert critical_values([1.0], 0.05, rule)[0] == pytest.approx(stats.norm.isf(0.025))


def test_bad_fractions_and_rule_are_refused():
    with pytest.raises(ValueError, match="`fractions` must increase"):
        critical_values([0.5, 0.4], 0.05, "obf")
    with pytest.raises(ValueError, match="`spending` must be one of"):
        spent("linear", 0.5, 0.05)

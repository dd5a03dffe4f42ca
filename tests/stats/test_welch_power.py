"""Power of Welch's t-test of independent runs, against scipy's noncentral t and statsmodels."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.power import TTestIndPower

from pdcompare.stats._common import welch_df
from pdcompare.stats.welch_power import runs_needed, welch_mdd, welch_power


def reference_power(delta, s1, s2, n1, n2, alpha=0.05, tails=2):
    """The Welch noncentral-t power written out with scipy.stats.nct."""
    v1, v2 = s1**2 / n1, s2**2 / n2
    df = (v1 + v2) ** 2 / (v1**2 / (n1 - 1) + v2**2 / (n2 - 1))
    nc = abs(delta) / np.sqrt(v1 + v2)
    crit = stats.t.ppf(1 - alpha / tails, df)
    upper = stats.nct.sf(crit, df, nc)
    return upper + (stats.nct.cdf(-crit, df, nc) if tails == 2 else 0.0)


@pytest.mark.parametrize(
    ("delta", "s1", "s2", "n1", "n2"),
    [(0.01, 0.01, 0.02, 5, 5), (0.02, 0.005, 0.03, 10, 4), (0.3, 1.0, 0.5, 30, 12)],
)
def test_welch_power_is_the_noncentral_t_written_out(delta, s1, s2, n1, n2):
    assert welch_power(delta, s1, s2, n1, n2) == pytest.approx(
        reference_power(delta, s1, s2, n1, n2), abs=1e-10
    )
    one = welch_power(delta, s1, s2, n1, n2, alternative="greater")
    assert one == pytest.approx(reference_power(delta, s1, s2, n1, n2, tails=1), abs=1e-10)


@pytest.mark.parametrize(("effect", "n"), [(0.5, 20), (0.8, 10), (0.3, 64)])
def test_equal_spread_and_runs_match_statsmodels_pooled_power(effect, n):
    # Welch's df equals the pooled 2n - 2 when the spreads and the runs are equal.
    assert welch_df(1.0 / n, 1.0 / n, n, n) == pytest.approx(2 * n - 2)
    expected = TTestIndPower().power(effect, n, 0.05)
    assert welch_power(effect, 1.0, 1.0, n, n) == pytest.approx(expected, abs=1e-8)
    needed = TTestIndPower().solve_power(effect, power=0.8, alpha=0.05)
    assert runs_needed(effect, 1.0, 1.0) == np.ceil(needed)


@settings(max_examples=40, deadline=None)
@given(
    s1=st.floats(0.001, 0.1),
    s2=st.floats(0.001, 0.1),
    n1=st.integers(2, 40),
    n2=st.integers(2, 40),
    target=st.floats(0.2, 0.95),
)
def test_mdd_has_the_target_power_and_runs_needed_is_the_least(s1, s2, n1, n2, target):
    mdd = welch_mdd(s1, s2, n1, n2, target=target)
    assert welch_power(mdd, s1, s2, n1, n2) == pytest.approx(target, abs=1e-6)
    delta = 0.5 * (s1 + s2)
    n = runs_needed(delta, s1, s2, target=target)
    assert welch_power(delta, s1, s2, n, n) >= target
    if n > 2:
        assert welch_power(delta, s1, s2, n - 1, n - 1) < target

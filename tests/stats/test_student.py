"""Student t quantiles without scipy.special, against scipy.special.stdtrit."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

from pdcompare.stats import _student
from pdcompare.stats._student import MAX_DF, t_quantile

LEVELS = [
    1e-4,
    0.001,
    0.01,
    0.025,
    0.05,
    0.1,
    0.3,
    0.45,
    0.5,
    0.55,
    0.8,
    0.9,
    0.95,
    0.975,
    0.99,
    0.995,
    0.999,
    0.9999,
]


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 9, 10, 29, 30, 99, 100, 299, 500, 999, 1000])
def test_quantiles_equal_scipy(df):
    got = np.array([t_quantile(df, p) for p in LEVELS], dtype=float)
    np.testing.assert_allclose(got, special.stdtrit(df, LEVELS), rtol=2e-12, atol=1e-15)


def test_textbook_values():
    # the two-sided 95 % t table: t(0.975; 1, 2, 5, 10, 30)
    np.testing.assert_allclose(
        t_quantile([1, 2, 5, 10, 30], 0.975), [12.706, 4.303, 2.571, 2.228, 2.042], atol=5e-4
    )


def test_arrays_nan_and_out_of_range_degrees_of_freedom():
    df = np.array([[4.0, np.nan], [0.0, 4.0]])
    got = t_quantile(df, 0.9)
    assert got.shape == (2, 2)
    assert np.isnan(got[0, 1])
    assert np.isnan(got[1, 0])
    assert got[0, 0] == got[1, 1] == pytest.approx(special.stdtrit(4, 0.9), rel=1e-13)


def test_fractional_huge_and_far_tail_go_to_scipy():
    for df, p in [(7.5, 0.975), (MAX_DF + 1, 0.975), (12, 1e-7), (12, 1 - 1e-7)]:
        assert t_quantile(df, p) == special.stdtrit(df, p)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, MAX_DF), st.floats(1e-4, 1 - 1e-4))
def test_quantile_inverts_scipys_distribution_function(df, p):
    q = float(t_quantile(df, p))
    assert q == pytest.approx(float(special.stdtrit(df, p)), rel=2e-12, abs=1e-14)
    assert float(t_quantile(df, 1 - p)) == pytest.approx(-q, rel=2e-12, abs=1e-14)


def test_two_sided_probability_and_density_equal_scipy():
    for df in (1, 2, 3, 8, 51):
        for t in (0.0, 0.3, 1.7, 6.0):
            inside, density = _student._two_sided(t, df)
            assert inside == pytest.approx(1 - 2 * special.stdtr(df, -t), abs=1e-14)
            assert density == pytest.approx(
                np.exp(special.gammaln((df + 1) / 2) - special.gammaln(df / 2))
                / np.sqrt(df * np.pi)
                * (1 + t * t / df) ** (-(df + 1) / 2),
                rel=1e-13,
            )

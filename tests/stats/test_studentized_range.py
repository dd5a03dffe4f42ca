"""The studentized range with infinite degrees of freedom (pdcompare.stats.studentized_range).

References: ``scipy.stats.studentized_range`` (sf and isf, k up to 1000), and
the closed form of the range of two normals, P(Q >= q) = erfc(q / 2).
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import special, stats

from pdcompare.stats import studentized_range as sr


@pytest.mark.parametrize("k", [2, 3, 5, 10, 50, 200, 1000])
def test_studentized_range_sf_matches_scipy(k):
    q = np.concatenate([np.linspace(0, 8, 41), [0.05, 10.0, 12.0]])
    expected = stats.studentized_range.sf(q, k, np.inf)
    # scipy computes 1 - cdf: accurate to about 1e-14 absolute, not relative.
    assert_allclose(sr.studentized_range_sf(q, k), expected, rtol=1e-8, atol=5e-12)
    assert_allclose(sr.studentized_range_isf(0.05, k),
                    stats.studentized_range.isf(0.05, k, np.inf), rtol=1e-8)


def test_studentized_range_sf_tail_of_two_groups():
    # The range of two standard normals is |Z1 - Z2| ~ sqrt(2) |Z|: P(Q >= q) = erfc(q / 2).
    q = np.array([0.001, 0.5, 3.0, 10.0, 20.0, 35.0, 50.0])
    assert_allclose(sr.studentized_range_sf(q, 2), special.erfc(q / 2), rtol=1e-10)


@pytest.mark.parametrize("k", [2, 7, 100, 100_000])
def test_studentized_range_sf_interpolated_and_step(k, monkeypatch):
    q = np.random.default_rng(k).uniform(0, 25, 6000)
    direct = sr._sf_direct(q, k)
    interpolated = sr._sf_interpolated(q, k)
    assert_allclose(interpolated, direct, rtol=1e-9, atol=1e-300)
    # Many distinct values take the interpolated path.
    assert_allclose(sr.studentized_range_sf(q, k), interpolated, rtol=0, atol=0)
    # Half the z step changes nothing: the trapezoidal rule has converged.
    monkeypatch.setattr(sr, "_Z_STEP", sr._Z_STEP / 2)
    assert_allclose(sr._sf_direct(q[:200], k), direct[:200], rtol=1e-12, atol=1e-300)


def test_studentized_range_sf_edges():
    out = sr.studentized_range_sf([np.nan, -1.0, 0.0, np.inf], 4)
    assert_array_equal(out, [np.nan, 1.0, 1.0, 0.0])
    with pytest.raises(ValueError, match="`k` must be an integer of at least 2"):
        sr.studentized_range_sf(1.0, 1)

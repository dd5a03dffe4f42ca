"""Parameter values in model names keep 4 significant digits unless names would collide."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pdcompare.inputs.cv_results import names_from_params


def test_random_search_values_keep_four_significant_digits():
    params = [{"C": 2.0166372, "gamma": 0.091245126}, {"C": 0.5, "gamma": np.float64(0.1)}]
    # Four significant digits written out: 2.0166372 -> 2.017, 0.091245126 -> 0.09125.
    assert names_from_params(params) == ["C=2.017, gamma=0.09125", "C=0.5, gamma=0.1"]


def test_more_digits_only_when_names_would_collide():
    params = [{"C": 1.23451, "gamma": 0.5}, {"C": 1.23449, "gamma": 0.5}, {"C": 7.0, "gamma": 0.5}]
    # 4 digits: 1.235 and 1.234 differ already; gamma is the same for all, left out.
    assert names_from_params(params) == ["C=1.235", "C=1.234", "C=7"]
    # 1.000011 and 1.000012 agree to 6 digits: 7 are needed.
    assert names_from_params([{"C": 1.000011}, {"C": 1.000012}]) == ["C=1.000011", "C=1.000012"]


def test_whole_numbers_are_written_in_full():
    assert names_from_params([{"C": 10000.0}, {"C": 123456.0}]) == ["C=10000", "C=123456"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(1e-6, 1e6), min_size=2, max_size=30, unique=True))
def test_distinct_values_give_distinct_names(values):
    names = names_from_params([{"C": v} for v in values])
    assert len(set(names)) == len(values)
    for name, value in zip(names, values, strict=True):
        # At least 4 significant digits: within half a unit of the 4th digit.
        assert np.isclose(float(name.removeprefix("C=")), value, rtol=5e-4, atol=0)

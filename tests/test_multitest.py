"""Multiple-testing correction: the statsmodels wrapper and the fast Holm of the core.

Reference: ``statsmodels.stats.multitest.multipletests`` itself, method by method.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from statsmodels.stats.multitest import multipletests

from pdcompare.datasets import load_grid_search_scores
from pdcompare.stats.multitest import CORRECTIONS, adjust_pvalues, check_correction, holm

PVALUES = np.array([0.001, 0.2, 0.03, 0.04, 0.5, 0.011, 0.9, 0.04, 0.0125, 0.3])


@pytest.mark.parametrize("method", CORRECTIONS)
def test_every_method_matches_statsmodels(method):
    expected = multipletests(PVALUES, alpha=0.1, method=method)[1]
    assert_allclose(adjust_pvalues(PVALUES, method, alpha=0.1), np.clip(expected, 0, 1),
                    rtol=1e-12)


@pytest.mark.parametrize("method", CORRECTIONS)
def test_nan_left_out_of_the_family(method):
    with_nan = np.insert(PVALUES, [2, 5], np.nan)
    out = adjust_pvalues(with_nan, method)
    assert np.isnan(out[[2, 6]]).all()
    expected = multipletests(PVALUES, alpha=0.05, method=method)[1]
    assert_allclose(out[~np.isnan(out)], np.clip(expected, 0, 1), rtol=1e-12)
    assert np.isnan(with_nan).sum() == 2  # the input is not modified


def test_none_and_all_nan():
    assert_array_equal(adjust_pvalues(PVALUES, None), PVALUES)
    assert np.isnan(adjust_pvalues([np.nan, np.nan], "holm")).all()


def test_unknown_method_lists_the_valid_ones():
    with pytest.raises(ValueError, match=r"`correction` must be one of 'bonferroni', 'sidak', "
                                         r"'holm-sidak', 'holm', .*'fdr_tsbky', None; "
                                         r"got 'hochberg'"):
        check_correction("hochberg")
    with pytest.raises(ValueError, match="`correction` must be one of"):
        adjust_pvalues(PVALUES, "bh")


def test_every_method_through_a_test():
    scores = load_grid_search_scores()
    for method in CORRECTIONS:
        res = scores.cmp.pairwise("ttest", correction=method, alpha=0.1)
        expected = np.clip(multipletests(res["pvalue"], alpha=0.1, method=method)[1], 0, 1)
        assert_allclose(res["pvalue_adj"], expected, rtol=1e-12, err_msg=method)
        assert_array_equal(res["reject"], expected <= 0.1)


def test_holm_matches_statsmodels_with_ties_and_nan():
    p = np.array([0.01, 0.01, 0.5, np.nan, 0.02, 1.0, 0.0, 0.01])
    finite = ~np.isnan(p)
    expected = multipletests(p[finite], method="holm")[1]
    out = holm(p)
    assert_allclose(out[finite], expected, rtol=1e-15)
    assert np.isnan(out[3])
    assert holm([]).size == 0


def holm_by_definition(p):
    """Holm (1979) written out: min(1, max over l <= k of (n - l + 1) p_(l))."""
    n = len(p)
    ranked = sorted(range(n), key=lambda k: p[k])
    out = [0.0] * n
    running = 0.0
    for position, k in enumerate(ranked):
        running = max(running, (n - position) * p[k])
        out[k] = min(1.0, running)
    return out


@settings(deadline=None, max_examples=50, derandomize=True)
@given(st.lists(st.one_of(st.floats(0, 1), st.just(np.nan), st.sampled_from([0.01, 0.05])),
                min_size=1, max_size=40))
def test_holm_property(pvalues):
    p = np.array(pvalues, dtype=float)
    finite = ~np.isnan(p)
    out = holm(p)
    assert_array_equal(np.isnan(out), ~finite)
    assert_allclose(out[finite], holm_by_definition(list(p[finite])), rtol=1e-12, atol=1e-300)
    assert (out[finite] >= p[finite]).all()
    assert (out[finite] <= 1).all()

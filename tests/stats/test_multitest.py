"""Multiple-testing correction: the statsmodels wrapper and the fast Holm of the core.

Reference: ``statsmodels.stats.multitest.multipletests`` itself, method by method.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from statsmodels.stats.multitest import multipletests, multitest_alias

from pdcompare._validation import CORRECTIONS, check_correction
from pdcompare.datasets import load_grid_search_scores
from pdcompare.stats import multitest
from pdcompare.stats.multitest import (
    adjust_pvalues,
    holm,
    possible_true_hypotheses,
    shaffer,
    shaffer_multipliers,
)

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
                                         r"'holm-sidak', 'holm', .*'fdr_tsbky', .*'shaffer', "
                                         r"'none' or None, or a statsmodels alias \('b', 'bonf', "
                                         r".*; got 'hochberg'"):
        check_correction("hochberg")
    with pytest.raises(ValueError, match="`correction` must be one of"):
        adjust_pvalues(PVALUES, "bh")


def test_every_method_through_a_test():
    scores = load_grid_search_scores()
    scores.attrs = {}  # design unknown: the plain t-test runs without the overlap warning
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


# --- every statsmodels name and alias ---------------------------------------


@pytest.mark.parametrize("alias", [*sorted(multitest_alias), "HOLM", "Bonf", "FDR_I"])
def test_every_statsmodels_alias_matches_multipletests(alias):
    expected = np.clip(multipletests(PVALUES, alpha=0.1, method=alias)[1], 0, 1)
    assert_allclose(adjust_pvalues(PVALUES, alias, alpha=0.1), expected, rtol=1e-12)
    # The canonical name gives the same numbers.
    canonical = check_correction(alias)
    assert_allclose(adjust_pvalues(PVALUES, canonical, alpha=0.1), expected, rtol=1e-12)


def test_canonical_names():
    assert check_correction("b") == "bonferroni"
    assert check_correction("hs") == "holm-sidak"
    assert check_correction("fdr_i") == "fdr_bh"
    assert check_correction("fdr_twostage") == "fdr_tsbky"
    assert check_correction("fdr_gbs") == "fdr_gbs"
    assert check_correction("lfdr_sl") == "lfdr"
    assert check_correction("Shaffer") == "shaffer"
    assert check_correction(None) is None
    assert check_correction("none") is None
    assert check_correction("None") is None
    with pytest.raises(ValueError, match="`correction` must be one of"):
        check_correction(3)


def test_a_name_statsmodels_lists_but_refuses(monkeypatch):
    # A statsmodels whose alias table lists a method its multipletests does not know.
    monkeypatch.setitem(multitest_alias, "fdr_future", "fdr_future")
    assert check_correction("fdr_future") == "fdr_future"
    with pytest.raises(ValueError, match=r"`correction='fdr_future'` is listed by statsmodels "
                                         r".* but its `multipletests` refuses it"):
        adjust_pvalues(PVALUES, "fdr_future")


# --- Shaffer's static procedure --------------------------------------------
# S(k) and the multipliers t_j = max{s in S(k): s <= m - j + 1} by hand, from
# S(k) = union over j of {C(j, 2) + s : s in S(k - j)}, S(0) = S(1) = {0}
# (Shaffer 1986; Garcia & Herrera 2008, section 3.2):
#   S(2) = {0, 1}, S(3) = {0, 1, 3}, S(4) = {0, 1, 2, 3, 6},
#   S(5) = {0, 1, 2, 3, 4, 6, 10}, S(6) = {0, 1, 2, 3, 4, 6, 7, 10, 15}.

SHAFFER_CASES = {
    # k: (p-values sorted ascending, adjusted by hand)
    # t = 6 3 3 3 2 1
    4: ([0.001, 0.01, 0.02, 0.03, 0.04, 0.5],
        [0.006, 0.03, 0.06, 0.09, 0.09, 0.5]),
    # t = 10 6 6 6 6 4 4 3 2 1
    5: ([0.001, 0.002, 0.004, 0.005, 0.01, 0.02, 0.03, 0.04, 0.2, 0.6],
        [0.01, 0.012, 0.024, 0.03, 0.06, 0.08, 0.12, 0.12, 0.4, 0.6]),
    # t = 15 10 10 10 10 10 7 7 7 6 4 4 3 2 1; 6 x 0.0045 = 0.027 < 0.028 (running max)
    6: ([0.0001, 0.0002, 0.0003, 0.0004, 0.0005, 0.001, 0.002, 0.003, 0.004, 0.0045,
         0.01, 0.02, 0.03, 0.1, 0.7],
        [0.0015, 0.002, 0.003, 0.004, 0.005, 0.01, 0.014, 0.021, 0.028, 0.028,
         0.04, 0.08, 0.09, 0.2, 0.7]),
}


def test_possible_true_hypotheses_by_hand():
    assert possible_true_hypotheses(2).tolist() == [0, 1]
    assert possible_true_hypotheses(3).tolist() == [0, 1, 3]
    assert possible_true_hypotheses(4).tolist() == [0, 1, 2, 3, 6]
    assert possible_true_hypotheses(5).tolist() == [0, 1, 2, 3, 4, 6, 10]
    assert possible_true_hypotheses(6).tolist() == [0, 1, 2, 3, 4, 6, 7, 10, 15]
    assert shaffer_multipliers(4).tolist() == [6, 3, 3, 3, 2, 1]
    assert shaffer_multipliers(6).tolist() == [15, 10, 10, 10, 10, 10, 7, 7, 7, 6, 4, 4, 3, 2, 1]


@pytest.mark.parametrize("k", sorted(SHAFFER_CASES))
def test_shaffer_by_hand(k):
    pvalues, expected = (np.array(v) for v in SHAFFER_CASES[k])
    order = np.random.default_rng(k).permutation(pvalues.size)  # any order of the pairs
    out = adjust_pvalues(pvalues[order], "shaffer", n_models=k)
    assert_allclose(out, expected[order], rtol=1e-12)
    assert_allclose(shaffer(pvalues, k), expected, rtol=1e-12)


def test_shaffer_with_nan_left_out():
    # m' = 5 of 6: t = min(6 3 3 3 2, 5 4 3 2 1) = 5 3 3 2 1.
    p = [0.001, np.nan, 0.02, 0.03, 0.04, 0.5]
    assert_allclose(adjust_pvalues(p, "shaffer", n_models=4),
                    [0.005, np.nan, 0.06, 0.09, 0.09, 0.5], rtol=1e-12)


def test_shaffer_errors():
    with pytest.raises(ValueError, match="`correction='shaffer'` needs `n_models`"):
        adjust_pvalues([0.1, 0.2, 0.3], "shaffer")
    with pytest.raises(ValueError, match=r"all pairs of the 4 models: expected 6 p-values; got 3"):
        adjust_pvalues([0.1, 0.2, 0.3], "shaffer", n_models=4)
    with pytest.raises(ValueError, match="`n_models` must be an integer of at least 2"):
        shaffer([], 1)


@settings(deadline=None, max_examples=40, derandomize=True)
@given(st.integers(2, 12).flatmap(
    lambda k: st.tuples(st.just(k), st.lists(st.one_of(st.floats(0, 1), st.just(np.nan)),
                                             min_size=k * (k - 1) // 2,
                                             max_size=k * (k - 1) // 2))))
def test_shaffer_between_raw_and_holm(case):
    k, pvalues = case
    p = np.array(pvalues)
    out = shaffer(p, k)
    finite = ~np.isnan(p)
    assert_array_equal(np.isnan(out), ~finite)
    assert (out[finite] >= p[finite]).all()
    assert (out[finite] <= holm(p)[finite] + 1e-15).all()
    assert (multitest.shaffer_multipliers(k) <= np.arange(k * (k - 1) // 2, 0, -1)).all()

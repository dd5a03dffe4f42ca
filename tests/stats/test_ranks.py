"""Rank tests over several data sets (pdcompare.stats.ranks).

References: scipy.stats (rankdata, friedmanchisquare, studentized_range),
scikit-posthocs (posthoc_nemenyi_friedman, posthoc_conover_friedman), autorank
(mean ranks and critical difference), Demšar 2006 Table 5 (q_alpha), and the
closed form of the range of two normals.
"""

from __future__ import annotations

import contextlib
import io
import math
import warnings

import numpy as np
import pandas as pd
import pytest
import scikit_posthocs as sp
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

from pdcompare.stats import ranks, studentized_range

# Demšar (2006), "Statistical comparisons of classifiers over multiple data
# sets", JMLR 7, Table 5(a): critical values q_alpha of the two-tailed Nemenyi
# test (studentized range statistic divided by sqrt(2)), k = 2..10.
DEMSAR_Q = {
    0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
    0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920],
}


def random_table(k, n, seed, decimals=None):
    rng = np.random.default_rng(seed)
    values = rng.normal(0.8, 0.05, (k, 1)) + rng.normal(0, 0.05, (1, n))
    values = values + rng.normal(0, 0.03, (k, n))
    return values.round(decimals) if decimals is not None else values


def tie_heavy_table():
    """Accuracies of 8 models on 12 data sets: easy data sets where many reach 1.0."""
    rng = np.random.default_rng(7)
    values = np.minimum(1.0, rng.choice([0.9, 0.95, 1.0, 1.0, 1.0], size=(8, 12)))
    values[:, 0] = 1.0  # a data set every model solves
    values[:4, 1] = 1.0
    return values


def all_pairs(k):
    return np.triu_indices(k, 1)


# --- ranks -----------------------------------------------------------------


@pytest.mark.parametrize("greater_is_better", [True, False])
@pytest.mark.parametrize("decimals", [None, 1, 2])
def test_ranks_match_scipy_rankdata(greater_is_better, decimals):
    values = random_table(9, 30, 1, decimals)
    expected = stats.rankdata(-values if greater_is_better else values, axis=0)
    out = ranks.rank_within_columns(values, greater_is_better=greater_is_better)
    assert_array_equal(out, expected)


def test_ranks_with_missing_scores_rank_the_present_ones():
    values = random_table(6, 10, 2, 1)
    values[[0, 3], [2, 2]] = np.nan
    values[5, 7] = np.nan
    expected = stats.rankdata(-values, axis=0, nan_policy="omit")
    assert_array_equal(ranks.rank_within_columns(values), expected)


@given(arrays(np.float64, st.tuples(st.integers(1, 7), st.integers(0, 6)),
              elements=st.sampled_from([0.0, 0.5, 1.0, -2.0, 3.25, np.inf])))
def test_ranks_property_matches_scipy(values):
    expected = stats.rankdata(-values, axis=0) if values.size else values
    assert_array_equal(ranks.rank_within_columns(values), expected)


def test_mean_ranks_match_autorank():
    from autorank import autorank

    values = random_table(6, 14, 3, 2)
    frame = pd.DataFrame(values.T, columns=[f"m{k}" for k in range(6)])
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        result = autorank(frame, alpha=0.05, verbose=False, order="descending",
                          force_mode="nonparametric")
    expected = result.rankdf["meanrank"].reindex(frame.columns).to_numpy()
    assert_allclose(ranks.mean_ranks(values), expected, rtol=1e-12)
    # autorank's critical difference (Nemenyi, df = inf) uses statsmodels' qsturng,
    # an interpolation of tables good to about 1e-4: the same CD to that accuracy.
    assert_allclose(ranks.critical_difference(6, 14, 0.05), result.cd, rtol=1e-4)


def test_best_counts_include_ties():
    values = np.array([[1.0, 0.9, 0.5], [1.0, 0.8, 0.9], [0.7, 0.95, 0.1]])
    assert_array_equal(ranks.best_counts(values), [1, 2, 1])
    assert_array_equal(ranks.best_counts(values, greater_is_better=False), [0, 1, 2])


# --- Friedman --------------------------------------------------------------


@pytest.mark.parametrize(
    "values",
    [random_table(5, 20, 4), random_table(12, 7, 5, 1), tie_heavy_table(),
     np.array([[0.9, 0.7], [0.8, 0.8], [0.7, 0.9], [0.6, 0.5]])],
    ids=["continuous", "rounded", "tie-heavy", "two-datasets"],
)
def test_friedman_matches_scipy(values):
    expected = stats.friedmanchisquare(*values)
    res = ranks.friedman(values)
    assert_allclose(res["statistic"], expected.statistic, rtol=1e-12)
    assert_allclose(res["pvalue"], expected.pvalue, rtol=1e-10)
    k, n = values.shape
    assert (res["n_models"], res["n_datasets"], res["df"]) == (k, n, k - 1)
    # Iman & Davenport (1980), as written in Demšar (2006), section 3.2.2.
    chi2 = expected.statistic
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert_allclose(res["f_statistic"], f, rtol=1e-12)
    assert (res["f_df1"], res["f_df2"]) == (k - 1, (k - 1) * (n - 1))
    assert_allclose(res["f_pvalue"], stats.f.sf(f, k - 1, (k - 1) * (n - 1)), rtol=1e-10)
    assert res["degenerate"] is False


def test_friedman_direction_and_ranked_input_do_not_change_it():
    values = tie_heavy_table()
    res = ranks.friedman(values)
    for other in (ranks.friedman(values, greater_is_better=False),
                  ranks.friedman(ranks.rank_within_columns(values), ranked=True)):
        assert_allclose(other["statistic"], res["statistic"], rtol=1e-12)


def test_friedman_degenerate_tables():
    ties = np.ones((4, 6))
    res = ranks.friedman(ties)
    assert (res["statistic"], res["pvalue"], res["f_statistic"], res["f_pvalue"]) == (0, 1, 0, 1)
    assert res["degenerate"] is True
    # Perfect agreement: chi2 = N (k - 1), F infinite.
    agree = np.tile(np.array([[3.0], [2.0], [1.0]]), 5)
    res = ranks.friedman(agree)
    assert_allclose(res["statistic"], 5 * 2, rtol=1e-12)
    assert res["f_statistic"] == np.inf
    assert res["f_pvalue"] == 0.0
    # One data set: no denominator degrees of freedom for F.
    assert math.isnan(ranks.friedman(random_table(4, 1, 8))["f_pvalue"])


def test_nan_policy():
    values = random_table(5, 9, 9)
    values[2, 4] = np.nan
    i, j = all_pairs(5)
    complete = np.delete(values, 4, axis=1)
    omit = ranks.friedman(values, nan_policy="omit")
    assert omit["n_datasets"] == 8
    assert_allclose(omit["statistic"], stats.friedmanchisquare(*complete).statistic)
    assert math.isnan(ranks.friedman(values)["statistic"])
    assert np.isnan(ranks.nemenyi(values, i, j)["pvalue"]).all()
    assert np.isnan(ranks.conover(values, i, j)["pvalue"]).all()
    assert np.isnan(ranks.mean_ranks(values)).all()
    assert_allclose(ranks.mean_ranks(values, nan_policy="omit"), ranks.mean_ranks(complete))
    assert_allclose(ranks.nemenyi(values, i, j, nan_policy="omit")["pvalue"],
                    ranks.nemenyi(complete, i, j)["pvalue"])
    with pytest.raises(ValueError, match=r"missing scores in the data sets at positions \[4\]"):
        ranks.nemenyi(values, i, j, nan_policy="raise")
    with pytest.raises(ValueError, match="`nan_policy` must be one of"):
        ranks.friedman(values, nan_policy="drop")


def test_input_errors():
    with pytest.raises(ValueError, match="at least 2 models"):
        ranks.friedman(np.ones((1, 4)))
    with pytest.raises(ValueError, match="2-D array"):
        ranks.mean_ranks(np.ones(4))
    with pytest.raises(ValueError, match="`ranked=True`"):
        ranks.friedman(random_table(3, 4, 1), ranked=True)
    with pytest.raises(ValueError, match="positions of models, from 0 to 2"):
        ranks.nemenyi(random_table(3, 4, 1), [0], [3])
    with pytest.raises(ValueError, match="`alpha` must be strictly between 0 and 1"):
        ranks.critical_difference(4, 10, 1.5)


# --- Nemenyi and Conover against scikit-posthocs ---------------------------


@pytest.mark.parametrize(
    "values",
    [random_table(5, 20, 10), random_table(12, 7, 11, 1), tie_heavy_table(),
     random_table(30, 40, 12)],
    ids=["continuous", "rounded", "tie-heavy", "30-models"],
)
def test_nemenyi_matches_scikit_posthocs(values):
    k, n = values.shape
    i, j = all_pairs(k)
    # scikit-posthocs: rows are blocks (data sets), ranks ascending (low = rank 1).
    expected = sp.posthoc_nemenyi_friedman(-values.T).to_numpy()[i, j]
    out = ranks.nemenyi(values, i, j)
    assert_allclose(out["pvalue"], expected, rtol=1e-7, atol=1e-12)
    mean = stats.rankdata(-values, axis=0).mean(axis=1)
    assert_allclose(out["rank_diff"], mean[j] - mean[i], rtol=1e-12, atol=1e-12)
    assert_allclose(out["statistic"], np.abs(mean[j] - mean[i]) / np.sqrt(k * (k + 1) / (12 * n)),
                    rtol=1e-12)


@pytest.mark.parametrize(
    "values",
    [random_table(5, 20, 13), random_table(12, 7, 14, 1), tie_heavy_table(),
     random_table(30, 40, 15)],
    ids=["continuous", "rounded", "tie-heavy", "30-models"],
)
def test_conover_matches_scikit_posthocs(values):
    k, n = values.shape
    i, j = all_pairs(k)
    expected = sp.posthoc_conover_friedman(-values.T, p_adjust=None).to_numpy()[i, j]
    out = ranks.conover(values, i, j)
    assert_allclose(out["pvalue"], expected, rtol=1e-9, atol=1e-15)
    assert_array_equal(out["df"], (n - 1) * (k - 1))
    # The sign follows rank_diff: positive when model_1 has the better mean rank.
    assert_array_equal(np.sign(out["statistic"]), np.sign(out["rank_diff"]))
    assert_allclose(2 * stats.t.sf(np.abs(out["statistic"]), (n - 1) * (k - 1)), out["pvalue"],
                    rtol=1e-10)


def test_conover_degenerate():
    i, j = all_pairs(4)
    out = ranks.conover(np.ones((4, 5)), i, j)
    assert_array_equal(out["statistic"], 0)
    assert_array_equal(out["pvalue"], 1)
    agree = np.tile(np.array([[4.0], [3.0], [2.0], [1.0]]), 5)
    out = ranks.conover(agree, i, j)
    assert np.isinf(out["statistic"]).all()
    assert_array_equal(out["pvalue"], 0)


# --- studentized range and the critical difference -------------------------


@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_critical_values_match_demsar_table_5(alpha):
    # Demšar's values are a 3-decimal studentized range table divided by sqrt(2)
    # (k = 3: 3.314 / sqrt(2) = 2.3433 -> 2.343, exact 2.3437), so within 1e-3.
    for k, expected in zip(range(2, 11), DEMSAR_Q[alpha], strict=True):
        # CD = q_alpha sqrt(k (k + 1) / (6 N))
        q_alpha = ranks.critical_difference(k, 1, alpha) / math.sqrt(k * (k + 1) / 6)
        assert abs(q_alpha - expected) <= 1e-3, (k, q_alpha, expected)


def test_critical_difference_agrees_with_the_pvalues():
    values = random_table(8, 11, 16, 2)
    k, n = values.shape
    i, j = all_pairs(k)
    out = ranks.nemenyi(values, i, j)
    for alpha in (0.01, 0.05, 0.1, 0.3):
        cd = ranks.critical_difference(k, n, alpha)
        assert_array_equal(np.abs(out["rank_diff"]) >= cd, out["pvalue"] <= alpha)
        # At the boundary itself the p-value is alpha.
        q = cd / math.sqrt(k * (k + 1) / (12 * n))
        assert_allclose(studentized_range.studentized_range_sf(q, k), alpha, rtol=1e-10)


# --- invariances -------------------------------------------------------------

tables = st.tuples(st.integers(2, 8), st.integers(1, 12), st.integers(0, 10_000)).map(
    lambda spec: random_table(spec[0], spec[1], spec[2], decimals=1)
)


@given(tables, st.data())
def test_rank_results_invariant_to_shifting_one_dataset(values, data):
    column = data.draw(st.integers(0, values.shape[1] - 1))
    shift = data.draw(st.floats(-5, 5).filter(lambda x: x == 0 or abs(x) > 1e-3))
    shifted = values.copy()
    shifted[:, column] = shifted[:, column] * 2 + shift  # any increasing map of one data set
    i, j = all_pairs(values.shape[0])
    for function in (ranks.nemenyi, ranks.conover):
        assert_allclose(function(shifted, i, j)["pvalue"], function(values, i, j)["pvalue"],
                        rtol=1e-12)
    assert_allclose(ranks.mean_ranks(shifted), ranks.mean_ranks(values), rtol=1e-12)
    assert_allclose(ranks.friedman(shifted)["statistic"], ranks.friedman(values)["statistic"],
                    rtol=1e-12)


@given(tables, st.randoms(use_true_random=False))
def test_rank_results_invariant_to_permuting_datasets(values, random):
    order = list(range(values.shape[1]))
    random.shuffle(order)
    i, j = all_pairs(values.shape[0])
    permuted = values[:, order]
    for function in (ranks.nemenyi, ranks.conover):
        a, b = function(values, i, j), function(permuted, i, j)
        for key in a:
            assert_allclose(a[key], b[key], rtol=1e-12, atol=1e-15)
    a, b = ranks.friedman(values), ranks.friedman(permuted)
    assert_allclose(a["statistic"], b["statistic"], rtol=1e-12, atol=1e-15)


@given(tables)
def test_swapping_models_mirrors_the_pairs(values):
    i, j = all_pairs(values.shape[0])
    for function in (ranks.nemenyi, ranks.conover):
        forward, backward = function(values, i, j), function(values, j, i)
        assert_array_equal(backward["rank_diff"], -forward["rank_diff"])
        assert_array_equal(backward["pvalue"], forward["pvalue"])
    assert_array_equal(ranks.conover(values, j, i)["statistic"],
                       -ranks.conover(values, i, j)["statistic"])
    assert_array_equal(ranks.nemenyi(values, j, i)["statistic"],
                       ranks.nemenyi(values, i, j)["statistic"])


@given(tables)
def test_lower_is_better_reverses_the_ranks(values):
    k = values.shape[0]
    assert_allclose(ranks.mean_ranks(values, greater_is_better=False),
                    k + 1 - ranks.mean_ranks(values), rtol=1e-12)

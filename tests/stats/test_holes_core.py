"""Skillings–Mack, Durbin and the available-case covariance (pdcompare.stats.holes).

References: Skillings & Mack (1981) Table 1 (the paper's 15.493, and R's value from
tests/data/holes/skillings_mack_table1.R); Conover (1999, p. 391) ice-cream example
for Durbin (T1 = 12, T2 = 8; R's PMCMRplus ``durbinTest`` example, p = 0.06197);
``scipy.stats.friedmanchisquare`` on complete data; the loop-based
``tests.references.slow_skillings_mack`` / ``slow_durbin``; pandas' pairwise-complete
``DataFrame.cov`` for the covariance.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from references import slow_durbin, slow_skillings_mack
from scipy import stats

from pdcompare.stats.holes import (
    available_case_covariance,
    balanced,
    design_problems,
    durbin,
    skillings_mack,
    skillings_mack_many,
)

NA = np.nan
#: Skillings & Mack (1981), Table 1: methods A-D (rows) in nine blocks.
TABLE1 = np.array([
    [3.2, 3.1, 4.3, 3.5, 3.6, 4.5, NA, 4.3, 3.5],
    [4.1, 3.9, 3.5, 3.6, 4.2, 4.7, 4.2, 4.6, NA],
    [3.8, 3.4, 4.6, 3.9, 3.7, 3.7, 3.4, 4.4, 3.7],
    [4.2, 4.0, 4.8, 4.0, 3.9, NA, NA, 4.9, 3.9],
])  # fmt: skip


def _ice_cream():
    """Conover (1999, p. 391): 7 varieties x 7 judges, each judge ranks 3 (PMCMRplus data)."""
    judges = [(0, 1, 3), (1, 2, 4), (2, 3, 5), (3, 4, 6), (0, 4, 5), (1, 5, 6), (0, 2, 6)]
    ranks = [(2, 3, 1), (3, 1, 2), (2, 1, 3), (1, 2, 3), (3, 1, 2), (3, 1, 2), (3, 1, 2)]
    x = np.full((7, 7), np.nan)
    for judge, (varieties, r) in enumerate(zip(judges, ranks, strict=True)):
        x[list(varieties), judge] = r
    return -x  # rank 1 best: as scores, higher is better


def test_skillings_mack_published_table1():
    stored = Path(__file__).parents[1] / "data" / "holes" / "skillings_mack_table1.txt"
    statistic, df, pvalue = stored.read_text().splitlines()[1].split()
    out = skillings_mack(TABLE1)
    assert round(out["statistic"], 3) == 15.493  # the paper
    assert_allclose(out["statistic"], float(statistic), rtol=1e-12)  # R
    assert out["df"] == int(df)
    assert_allclose(out["pvalue"], float(pvalue), rtol=1e-10)
    assert out["n_missing"] == 4
    assert out["n_datasets"] == 9


def test_skillings_mack_equals_loop_reference_on_table1():
    t, p = slow_skillings_mack(TABLE1)
    out = skillings_mack(TABLE1)
    assert_allclose([out["statistic"], out["pvalue"]], [t, p], rtol=1e-12)


def test_reference_covariance_is_the_papers_sigma0_without_ties():
    # Without ties the block covariance w² v (I - J/k) is the paper's Σ₀: -λ_jl off the
    # diagonal. Checked through the statistic: with Σ₀ built from the counts.
    present = ~np.isnan(TABLE1)
    lam = present.astype(int) @ present.T.astype(int)
    sigma0 = -lam.astype(float)
    np.fill_diagonal(sigma0, 0.0)
    np.fill_diagonal(sigma0, -sigma0.sum(axis=1))
    k_i = present.sum(axis=0)
    ranks = np.column_stack(
        [stats.rankdata(-TABLE1[:, i], nan_policy="omit") for i in range(TABLE1.shape[1])]
    )
    a = np.nansum(np.sqrt(12 / (k_i + 1)) * (ranks - (k_i + 1) / 2), axis=1)
    assert_allclose(skillings_mack(TABLE1)["statistic"], a @ np.linalg.pinv(sigma0) @ a)


def test_durbin_published_ice_cream():
    x = _ice_cream()
    out = durbin(x)
    assert out["statistic"] == 12.0
    assert out["f_statistic"] == 8.0
    assert (out["df"], out["f_df1"], out["f_df2"]) == (6, 6, 8)
    assert round(out["pvalue"], 5) == 0.06197  # PMCMRplus durbinTest
    t1, p1, t2, p2 = slow_durbin(x)
    assert_allclose(
        [out["statistic"], out["pvalue"], out["f_statistic"], out["f_pvalue"]],
        [t1, p1, t2, p2],
        rtol=1e-12,
    )


def test_skillings_mack_equals_durbin_on_a_balanced_design():
    # Skillings & Mack (1981): on a BIBD the statistic is Durbin's.
    rng = np.random.default_rng(3)
    x = _ice_cream()
    x[~np.isnan(x)] = rng.normal(size=int((~np.isnan(x)).sum()))
    assert balanced(x) == (True, "")
    assert_allclose(skillings_mack(x)["statistic"], durbin(x)["statistic"], rtol=1e-12)


def test_balanced_says_why_not():
    ok, why = balanced(TABLE1)
    assert not ok
    assert why == "the data sets hold 2 to 4 models"


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ties", [False, True])
def test_complete_data_equal_scipy_friedman(seed, ties):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(5, 12))
    if ties:
        x = np.round(x)  # many ties: scipy's tie-corrected statistic
    expected = stats.friedmanchisquare(*x)
    out = skillings_mack(x)
    assert_allclose(out["statistic"], expected.statistic, rtol=1e-12, atol=1e-12)
    assert_allclose(out["pvalue"], expected.pvalue, rtol=1e-12, atol=1e-15)
    d = durbin(x)
    assert_allclose(d["statistic"], expected.statistic, rtol=1e-12, atol=1e-12)


def _holes(seed, m=6, n=15, fill=0.6):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n))
    x[rng.random((m, n)) > fill] = np.nan
    return x


@pytest.mark.parametrize("seed", range(8))
def test_holes_equal_loop_reference(seed):
    x = _holes(seed)
    assert not any(design_problems(x))  # each of these seeds draws a connected benchmark
    t, p = slow_skillings_mack(x)
    out = skillings_mack(x)
    assert_allclose([out["statistic"], out["pvalue"]], [t, p], rtol=1e-10)


def test_holes_with_ties_equal_loop_reference():
    x = np.round(_holes(11) * 2)
    t, _ = slow_skillings_mack(x)
    assert_allclose(skillings_mack(x)["statistic"], t, rtol=1e-10)


@given(st.integers(0, 2**32 - 1), st.data())
def test_model_permutation_changes_nothing(seed, data):
    x = _holes(seed, m=5, n=10, fill=0.7)
    if any(design_problems(x)):
        return
    order = data.draw(st.permutations(range(5)))
    a, b = skillings_mack(x), skillings_mack(x[list(order)])
    assert_allclose(b["statistic"], a["statistic"], rtol=1e-9, atol=1e-12)


@given(st.integers(0, 2**32 - 1))
def test_complete_data_is_friedman_property(seed):
    x = np.round(np.random.default_rng(seed).normal(size=(4, 7)), 1)
    expected = stats.friedmanchisquare(*x).statistic
    if np.isnan(expected):  # every block a complete tie
        return
    assert_allclose(skillings_mack(x)["statistic"], expected, rtol=1e-11, atol=1e-11)


def test_direction_does_not_change_the_statistic():
    a = skillings_mack(TABLE1)["statistic"]
    assert_allclose(skillings_mack(TABLE1, greater_is_better=False)["statistic"], a)


def test_every_block_tied_is_degenerate():
    x = np.ones((3, 4))
    x[0, 0] = np.nan
    out = skillings_mack(x)
    assert out["degenerate"]
    assert out["statistic"] == 0.0
    assert out["pvalue"] == 1.0


def test_design_problems_name_models():
    x = TABLE1.copy()
    x[3] = np.nan
    x[3, 0] = 1.0
    assert design_problems(x) == ([3], [])


def test_available_case_covariance_equals_pandas_pairwise():
    x = _holes(2, m=5, n=30, fill=0.7)
    mean, cov, shared = available_case_covariance(x)
    pairwise = pd.DataFrame(x.T).cov(min_periods=2).to_numpy()
    count = (~np.isnan(x)).sum(axis=1)
    n_jk = (~np.isnan(x)).astype(int) @ (~np.isnan(x)).T.astype(int)
    expected = np.where(n_jk >= 2, n_jk * np.nan_to_num(pairwise) / np.outer(count, count), 0)
    assert_allclose(mean, np.nanmean(x, axis=1), rtol=1e-14)
    assert_allclose(shared, n_jk)
    if np.linalg.eigvalsh(expected)[0] >= 0:
        assert_allclose(cov, expected, rtol=1e-10, atol=1e-15)
    assert np.linalg.eigvalsh(cov)[0] > -1e-12


def test_available_case_covariance_complete_is_cov_over_n():
    x = np.random.default_rng(0).normal(size=(4, 9))
    mean, cov, _ = available_case_covariance(x)
    assert_allclose(cov, np.cov(x) / 9, rtol=1e-14)
    assert_allclose(mean, x.mean(axis=1))


def test_many_equals_one_at_a_time_and_the_reference():
    rng = np.random.default_rng(12)
    x = np.round(rng.normal(size=(20, 5, 9)), 1)  # ties too
    x[rng.random(x.shape) < 0.35] = np.nan
    many = skillings_mack_many(x)
    for table, value in zip(x, many, strict=True):
        if design_problems(table)[1]:
            assert np.isnan(value)
            continue
        assert_allclose(value, slow_skillings_mack(table)[0], rtol=1e-9, atol=1e-12)

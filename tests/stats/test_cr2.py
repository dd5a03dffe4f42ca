"""CR2 (Bell–McCaffrey) clustered standard errors and Satterthwaite df against R's clubSandwich.

The reference values were made by ``tests/data/clubsandwich/make_reference.R``
(R 4.2, clubSandwich 0.5.8: ``coef_test(lm(d ~ 1), vcov = "CR2", cluster =
..., test = "Satterthwaite")``) on the data sets stored beside it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdcompare.stats.cr2 import cr2_factors, satterthwaite_df
from pdcompare.stats.items import clustered_df, clustered_paired_ttest, clustered_se

HERE = Path(__file__).resolve().parents[1] / "data" / "clubsandwich"
ITEMS = pd.read_csv(HERE / "items.csv")
REFERENCE = pd.read_csv(HERE / "reference.csv", skipinitialspace=True)
MODELS = ["a", "b", "c"]


def _core(name, se_type):
    rows = ITEMS[ITEMS["dataset"] == name]
    values = rows[MODELS].to_numpy(dtype=float).T
    codes, cluster = np.unique(rows["cluster"], return_inverse=True)
    ref = REFERENCE[REFERENCE["dataset"] == name]
    i = np.array([MODELS.index(m) for m in ref["model_1"]])
    j = np.array([MODELS.index(m) for m in ref["model_2"]])
    out = clustered_paired_ttest(
        values, cluster, len(codes), i, j, clustered=True, se_type=se_type
    )
    return out, ref


@pytest.mark.parametrize("name", sorted(REFERENCE["dataset"].unique()))
def test_cr2_equals_clubsandwich(name):
    out, ref = _core(name, "cr2")
    np.testing.assert_allclose(out["mean_diff"], ref["estimate"], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(out["se"], ref["se_cr2"], rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(out["df"], ref["df_cr2"], rtol=1e-8)
    np.testing.assert_allclose(out["pvalue"], ref["p_cr2"], rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("name", sorted(REFERENCE["dataset"].unique()))
def test_cr1_equals_clubsandwich(name):
    out, ref = _core(name, "cr1")
    np.testing.assert_allclose(out["se"], ref["se_cr1"], rtol=1e-8, atol=1e-12)
    np.testing.assert_allclose(out["df"], ref["df_cr1"], rtol=1e-12)
    np.testing.assert_allclose(out["pvalue"], ref["p_cr1"], rtol=1e-8, atol=1e-12)


def test_clustered_se_of_one_model_equals_clubsandwich():
    # The standard error of one model's mean is the pair's with a model scoring 0 everywhere.
    rows = ITEMS[ITEMS["dataset"] == "twelve_unequal"]
    codes, cluster = np.unique(rows["cluster"], return_inverse=True)
    values = np.vstack([rows[MODELS].to_numpy(dtype=float).T, np.zeros(len(rows))])
    pair = clustered_paired_ttest(values, cluster, len(codes), [0], [3], se_type="cr2")
    se = clustered_se(values[:1], cluster, len(codes), "cr2")
    np.testing.assert_allclose(se, pair["se"], rtol=1e-12)
    assert clustered_df(cluster, len(codes), "cr2") == pytest.approx(
        float(REFERENCE.loc[REFERENCE["dataset"] == "twelve_unequal", "df_cr2"].iloc[0]),
        rel=1e-10,
    )


def test_design_21_holds_under_cr2():
    # Equal clusters: 1/(1 − 1/C) = C/(C − 1) and Satterthwaite's df are C − 1 exactly.
    ref = REFERENCE[REFERENCE["dataset"] == "design21"].iloc[0]
    assert ref["se_cr2"] == pytest.approx(0.25, abs=1e-12)
    assert ref["df_cr2"] == pytest.approx(3.0, abs=1e-10)
    out, _ = _core("design21", "cr2")
    assert out["se"][0] == pytest.approx(0.25, abs=1e-12)
    assert out["df"][0] == pytest.approx(3.0, abs=1e-10)


def _brute_force_df(sizes):
    """clubSandwich's Satterthwaite df by the matrices written out (Pustejovsky & Tipton 2018)."""
    n = int(np.sum(sizes))
    cluster = np.repeat(np.arange(len(sizes)), sizes)
    hat = np.full((n, n), 1.0 / n)
    resid = np.eye(n) - hat
    ws = []
    for g, size in enumerate(sizes):
        rows = cluster == g
        block = np.eye(size) - hat[np.ix_(rows, rows)]
        values, vectors = np.linalg.eigh(block)
        adjust = vectors @ np.diag(values**-0.5) @ vectors.T
        ws.append(resid[rows].T @ adjust @ np.ones(size) / n)
    w = np.array(ws)
    inner = w @ w.T
    return np.trace(inner) ** 2 / np.sum(inner**2), w


sizes_strategy = st.lists(st.integers(1, 12), min_size=2, max_size=9).filter(
    lambda s: sum(s) > max(s)
)


@settings(max_examples=40, deadline=None)
@given(sizes=sizes_strategy)
def test_closed_form_df_equals_the_matrices(sizes):
    expected, _ = _brute_force_df(sizes)
    assert satterthwaite_df(np.array(sizes, float), sum(sizes)) == pytest.approx(
        expected, rel=1e-9
    )


@settings(max_examples=40, deadline=None)
@given(sizes=sizes_strategy, seed=st.integers(0, 2**31))
def test_closed_form_se_equals_the_adjustment_matrices(sizes, seed):
    rng = np.random.default_rng(seed)
    n = sum(sizes)
    cluster = np.repeat(np.arange(len(sizes)), sizes)
    d = rng.normal(size=n) + np.repeat(rng.normal(size=len(sizes)), sizes)
    _, w = _brute_force_df(sizes)  # the rows w_g: V = Σ_g (w_g · d)²
    expected = np.sqrt(np.sum((w @ d) ** 2))
    got = clustered_se(d[None, :], cluster, len(sizes), "cr2")[0]
    assert got == pytest.approx(expected, rel=1e-9)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 60), seed=st.integers(0, 2**31))
def test_singleton_clusters_give_the_plain_standard_error(n, seed):
    # HC2 of a mean: each residual over (1 − 1/n), which is the plain var(d)/n on n − 1 df.
    d = np.random.default_rng(seed).normal(size=n)
    se = clustered_se(d[None, :], np.arange(n), n, "cr2")[0]
    assert se == pytest.approx(np.std(d, ddof=1) / np.sqrt(n), rel=1e-10)
    assert satterthwaite_df(np.ones(n), n) == pytest.approx(n - 1.0, rel=1e-12)
    np.testing.assert_allclose(cr2_factors(np.ones(n), n), n / (n - 1.0))


@settings(max_examples=40, deadline=None)
@given(c=st.integers(2, 20), size=st.integers(1, 10), seed=st.integers(0, 2**31))
def test_equal_clusters_give_cr1(c, size, seed):
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(3, c * size))
    cluster = np.repeat(np.arange(c), size)
    cr1 = clustered_paired_ttest(values, cluster, c, [0, 0, 1], [1, 2, 2], se_type="cr1")
    cr2 = clustered_paired_ttest(values, cluster, c, [0, 0, 1], [1, 2, 2], se_type="cr2")
    np.testing.assert_allclose(cr2["se"], cr1["se"], rtol=1e-10)
    np.testing.assert_allclose(cr2["df"], c - 1.0, rtol=1e-10)


@settings(max_examples=40, deadline=None)
@given(sizes=sizes_strategy)
def test_satterthwaite_df_lie_between_one_and_c_minus_one(sizes):
    # ‖M‖²_F ≥ (tr M)²/rank(M), rank C − 1: df ≤ C − 1; (tr M)² ≥ ‖M‖²_F: df ≥ 1.
    df = satterthwaite_df(np.array(sizes, float), sum(sizes))
    assert 1.0 - 1e-9 <= df <= len(sizes) - 1.0 + 1e-9


@settings(max_examples=60, deadline=None)
@given(sizes=sizes_strategy, seed=st.integers(0, 2**31))
def test_cr2_lies_between_the_bounds_of_its_factors(sizes, seed):
    # 1 ≤ 1/(1 − n_c/n) ≤ 1/(1 − max n_c/n), so with V1 = C/(C − 1) Σ S_c² / n²:
    # (C − 1)/C · V1 ≤ V2 ≤ (C − 1)/C · V1 / (1 − max n_c/n).
    rng = np.random.default_rng(seed)
    n, c = sum(sizes), len(sizes)
    cluster = np.repeat(np.arange(c), sizes)
    d = rng.normal(size=(2, n)) + rng.normal(size=(2, c))[:, cluster]
    cr1 = clustered_se(d, cluster, c, "cr1")
    cr2 = clustered_se(d, cluster, c, "cr2")
    low = cr1 * np.sqrt((c - 1) / c)
    high = low / np.sqrt(1 - max(sizes) / n)
    assert np.all(cr2 >= low * (1 - 1e-12))
    assert np.all(cr2 <= high * (1 + 1e-12))

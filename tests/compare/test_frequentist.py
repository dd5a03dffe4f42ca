"""Frequentist comparisons: corrected and plain t-tests, Wilcoxon, sign test, pairwise, matrix.

Every number is checked against an independent reference: DESIGN.md section 8
(the scikit-learn gallery example), scipy.stats (ttest_rel, wilcoxon, binomtest),
statsmodels (multipletests) or a formula written out here.
"""

from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from frames import correlated_scores as random_scores
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from statsmodels.stats.multitest import multipletests

import pdcompare
from pdcompare import PdcompareWarning
from pdcompare.datasets import load_grid_search_scores
from pdcompare.inputs.scores import ALL_PAIRS
from pdcompare.stats import _moments, paired

ALTERNATIVES = ["two-sided", "greater", "less"]
TESTS = ["corrected_ttest", "ttest", "wilcoxon", "sign_test"]

# 5-fold x 3 repeats = 15 splits; n_train 120, n_test 30: 1/15, 30/120 = 0.25 and
# 1/n_samples = 1/150 all differ, so a wrong formula cannot pass by coincidence.
N_TRAIN, N_TEST, N_SPLITS = 120, 30, 15


def corrected_t_by_hand(x, y, n_train, n_test):
    """Nadeau–Bengio corrected t written out (Bouckaert & Frank 2004, eq. 2)."""
    d = np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    n = d.size
    mean = math.fsum(d) / n
    var = math.fsum((v - mean) ** 2 for v in d) / (n - 1)
    t = mean / math.sqrt(var * (1.0 / n + n_test / n_train))
    return mean, t, n - 1


# --------------------------------------------------------------------------- DESIGN.md section 8


def test_reference_rbf_vs_linear_corrected():
    # DESIGN.md section 8 (scikit-learn gallery example): t = 0.750, p = 0.227.
    scores = load_grid_search_scores()
    res = scores.cmp.corrected_ttest("rbf", "linear", alternative="greater")
    assert_allclose(res["statistic"], [0.750], atol=5e-4)
    assert_allclose(res["pvalue"], [0.227], atol=5e-4)
    assert_allclose(res["df"], [99])
    mean, t, _ = corrected_t_by_hand(scores.loc["rbf"], scores.loc["linear"], 90, 10)
    assert_allclose(res["statistic"], [t], rtol=1e-12)
    assert_allclose(res["mean_diff"], [mean], rtol=1e-12)
    assert_allclose(res["pvalue"], [stats.t.sf(t, 99)], rtol=1e-10)


def test_reference_rbf_vs_linear_plain():
    # DESIGN.md section 8: uncorrected t = 2.611, p = 0.005.
    scores = load_grid_search_scores()
    # 10x10 repeated CV: the plain test warns that the splits overlap.
    with pytest.warns(PdcompareWarning, match=r"splits overlap.*corrected_ttest"):
        res = scores.cmp.ttest("rbf", "linear", alternative="greater")
    assert_allclose(res["statistic"], [2.611], atol=5e-4)
    assert_allclose(res["pvalue"], [0.005], atol=5e-4)


def test_reference_bonferroni_table():
    # DESIGN.md section 8: pairwise corrected t, alternative "greater", Bonferroni.
    scores = load_grid_search_scores()
    res = scores.cmp.pairwise(alternative="greater", correction="bonferroni")
    expected = [
        ("rbf", "linear", 0.750, 1.000),
        ("rbf", "3_poly", 1.657, 0.302),
        ("rbf", "2_poly", 4.565, 0.000),
        ("linear", "3_poly", 1.111, 0.807),
        ("linear", "2_poly", 4.276, 0.000),
        ("3_poly", "2_poly", 3.851, 0.001),
    ]
    assert list(res.columns) == [
        "model_1", "model_2", "mean_diff", "statistic", "df",
        "pvalue", "pvalue_adj", "reject", "ci_low", "ci_high",
    ]  # fmt: skip
    assert list(zip(res["model_1"], res["model_2"], strict=True)) == [e[:2] for e in expected]
    assert_allclose(res["statistic"], [e[2] for e in expected], atol=5e-4)
    assert_allclose(res["pvalue_adj"], [e[3] for e in expected], atol=5e-4)
    # The gallery's Bonferroni: p * number of comparisons, capped at 1.
    assert_allclose(res["pvalue_adj"], np.minimum(res["pvalue"] * 6, 1.0), rtol=1e-12)
    assert res.attrs["pdcompare"]["scope"] == "all_pairs"
    assert res.attrs["pdcompare"]["models"] == ["rbf", "linear", "3_poly", "2_poly"]


# --------------------------------------------------------------------------- scipy references


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_ttest_matches_scipy_ttest_rel(alternative):
    scores = random_scores(n_models=5)
    alpha = 0.1
    res = scores.cmp.pairwise("ttest", alternative=alternative, alpha=alpha, correction=None)
    assert len(res) == 10
    for row in res.itertuples():
        ref = stats.ttest_rel(scores.loc[row.model_1], scores.loc[row.model_2],
                              alternative=alternative)
        ci = ref.confidence_interval(1 - alpha)
        assert_allclose(row.statistic, ref.statistic, rtol=1e-10)
        assert_allclose(row.pvalue, ref.pvalue, rtol=1e-10)
        assert_allclose(row.df, ref.df)
        assert_allclose([row.ci_low, row.ci_high], [ci.low, ci.high], rtol=1e-10)
        assert_allclose(row.mean_diff, (scores.loc[row.model_1] - scores.loc[row.model_2]).mean(),
                        rtol=1e-10)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_corrected_ttest_matches_formula(alternative):
    scores = random_scores(n_models=4, seed=1)
    alpha = 0.05
    res = scores.cmp.pairwise(alternative=alternative, correction=None,
                              n_train=N_TRAIN, n_test=N_TEST)
    for row in res.itertuples():
        mean, t, df = corrected_t_by_hand(scores.loc[row.model_1], scores.loc[row.model_2],
                                          N_TRAIN, N_TEST)
        se = mean / t
        if alternative == "two-sided":
            p = 2 * stats.t.sf(abs(t), df)
            q = stats.t.ppf(1 - alpha / 2, df)
            ci = (mean - q * se, mean + q * se)
        elif alternative == "greater":
            p = stats.t.sf(t, df)
            ci = (mean - stats.t.ppf(1 - alpha, df) * se, np.inf)
        else:
            p = stats.t.cdf(t, df)
            ci = (-np.inf, mean + stats.t.ppf(1 - alpha, df) * se)
        assert_allclose(row.statistic, t, rtol=1e-10)
        assert_allclose(row.pvalue, p, rtol=1e-10)
        assert_allclose([row.ci_low, row.ci_high], ci, rtol=1e-10)
        assert row.df == df


def test_corrected_ttest_design_sources_agree():
    scores = random_scores()
    by_sizes = scores.cmp.corrected_ttest(n_train=120, n_test=30)
    by_fraction = scores.cmp.corrected_ttest(test_size=0.2)
    by_attrs = scores.cmp.set_design(test_size=0.2).cmp.corrected_ttest()
    assert_allclose(by_sizes["statistic"], by_fraction["statistic"], rtol=1e-12)
    assert_allclose(by_attrs["pvalue"], by_fraction["pvalue"], rtol=1e-12)
    # cv=5 is 5-fold: n_test/n_train = 1/4, the same ratio.
    assert_allclose(scores.cmp.corrected_ttest(cv=5)["pvalue"], by_sizes["pvalue"], rtol=1e-12)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize(("n_splits", "decimals"), [(15, None), (15, 2), (60, None), (60, 2)])
def test_wilcoxon_matches_scipy(alternative, n_splits, decimals):
    # Rounded scores give ties and zero differences; 60 splits take the normal approximation.
    scores = random_scores(n_models=4, n_splits=n_splits, seed=2, decimals=decimals)
    res = scores.cmp.pairwise("wilcoxon", alternative=alternative, correction=None)
    assert list(res.columns) == ["model_1", "model_2", "mean_diff", "statistic", "pvalue",
                                 "pvalue_adj", "reject"]
    for row in res.itertuples():
        ref = stats.wilcoxon(scores.loc[row.model_1], scores.loc[row.model_2],
                             alternative=alternative)
        assert_allclose(row.statistic, ref.statistic, rtol=1e-10)
        assert_allclose(row.pvalue, ref.pvalue, rtol=1e-10)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("decimals", [None, 2])
def test_sign_test_matches_binomtest(alternative, decimals):
    scores = random_scores(n_models=5, n_splits=25, seed=3, decimals=decimals)
    res = scores.cmp.pairwise("sign_test", alternative=alternative, correction=None)
    for row in res.itertuples():
        d = (scores.loc[row.model_1] - scores.loc[row.model_2]).to_numpy()
        wins, losses = int((d > 0).sum()), int((d < 0).sum())
        ref = stats.binomtest(wins, wins + losses, 0.5, alternative=alternative)
        assert (row.wins, row.losses, row.ties) == (wins, losses, int((d == 0).sum()))
        assert row.statistic == wins
        assert_allclose(row.pvalue, ref.pvalue, rtol=1e-10)


@pytest.mark.parametrize("greater_is_better", [True, False])
def test_sign_test_counts_are_integers(greater_is_better):
    # wins, losses and ties were floats (34.0); counts are int64.
    scores = random_scores(n_models=4, n_splits=12, seed=5, decimals=2)
    res = scores.cmp.pairwise(test="sign_test", greater_is_better=greater_is_better)
    for column in ("wins", "losses", "ties"):
        assert res[column].dtype == np.int64
    sign = 1 if greater_is_better else -1
    for row in res.itertuples():
        d = sign * (scores.loc[row.model_1] - scores.loc[row.model_2]).to_numpy()
        assert (row.wins, row.losses, row.ties) == ((d > 0).sum(), (d < 0).sum(), (d == 0).sum())


def test_sign_test_counts_of_a_pair_with_a_missing_score_are_missing():
    scores = random_scores(n_models=3, n_splits=10, seed=6)
    scores.iloc[2, 4] = np.nan
    with pytest.warns(UserWarning, match="missing"):
        res = scores.cmp.sign_test()
    assert str(res["wins"].dtype) == "Int64"
    complete = res["model_2"] != scores.index[2]
    assert res.loc[~complete, "wins"].isna().all()
    assert res.loc[complete, "wins"].notna().all()


def test_sign_test_two_sided_formula_small_n():
    # For p = 1/2, binomtest's two-sided p is min(1, 2 min(P(X <= k), P(X >= k))).
    k = np.array([0, 1, 2, 3, 5, 7, 10])
    n = np.full_like(k, 10)
    values = np.zeros((2 * k.size, 10))
    for row, wins in enumerate(k):
        values[2 * row, :wins] = 1.0
        values[2 * row, wins:] = -1.0
    i, j = np.arange(0, 2 * k.size, 2), np.arange(1, 2 * k.size, 2)
    out = paired.sign_test(values, i, j)
    by_formula = np.minimum(1, 2 * np.minimum(stats.binom.cdf(k, n, 0.5),
                                              stats.binom.sf(k - 1, n, 0.5)))
    assert_allclose(out["pvalue"], by_formula, rtol=1e-12)
    assert_allclose(out["pvalue"], [stats.binomtest(int(x), 10).pvalue for x in k], rtol=1e-12)


# --------------------------------------------------------------------------- accuracy


def near_identical_scores(n_models=6, noise=1e-8, seed=4):
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.7, 0.95, size=100)
    values = base + rng.normal(0.0, noise, size=(n_models, 100))
    values[-1] = rng.uniform(0.7, 0.95, size=100)  # one model far from the rest
    return pd.DataFrame(values, index=[f"g{k}" for k in range(n_models)])


def test_nearly_identical_models_are_accurate():
    # Grid searches give models that differ by noise of 1e-8: the covariance shortcut
    # var a + var b - 2 cov(a, b) cancels there. Reference: the explicit differences,
    # summed exactly with math.fsum.
    scores = near_identical_scores()
    res = scores.cmp.pairwise("corrected_ttest", cv=10, correction=None)
    for row in res.itertuples():
        mean, t, _ = corrected_t_by_hand(scores.loc[row.model_1], scores.loc[row.model_2], 9, 1)
        assert_allclose(row.statistic, t, rtol=1e-9)
        assert_allclose(row.mean_diff, mean, rtol=1e-9)
    plain = scores.cmp.pairwise("ttest", correction=None)
    for row in plain.itertuples():
        ref = stats.ttest_rel(scores.loc[row.model_1], scores.loc[row.model_2])
        assert_allclose(row.statistic, ref.statistic, rtol=1e-9)


def test_shortcut_alone_would_be_inaccurate():
    # The test above is meaningful: without the recomputation the error is far above 1e-9.
    values = near_identical_scores().to_numpy()
    cov = np.cov(values)
    shortcut = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    exact = np.var(values[0] - values[1], ddof=1)
    assert abs(shortcut - exact) / exact > 1e-8


def test_many_pairs_are_chunked(monkeypatch):
    # Small chunks force several passes over the explicit differences: same answer.
    scores = near_identical_scores(n_models=8)
    whole = scores.cmp.pairwise("ttest", correction=None)
    monkeypatch.setattr(_moments, "_CHUNK_ELEMENTS", 150)
    chunked = scores.cmp.pairwise("ttest", correction=None)
    assert_allclose(chunked["statistic"], whole["statistic"], rtol=1e-13)
    w_whole = scores.cmp.pairwise("wilcoxon", correction=None)
    monkeypatch.setattr(_moments, "_CHUNK_ELEMENTS", 150)
    w_chunked = scores.cmp.pairwise("wilcoxon", correction=None)
    assert_allclose(w_chunked["pvalue"], w_whole["pvalue"], rtol=1e-13)


def test_threaded_pvalues_are_the_same(monkeypatch):
    # Many pairs compute the p-values on two threads: exactly the same numbers.
    scores = random_scores(n_models=7, seed=18)
    for alternative in ALTERNATIVES:
        one = scores.cmp.pairwise("ttest", alternative=alternative)
        monkeypatch.setattr(paired, "_THREADED_PAIRS", 4)
        two = scores.cmp.pairwise("ttest", alternative=alternative)
        monkeypatch.setattr(paired, "_THREADED_PAIRS", 10**9)
        assert_array_equal(two["pvalue"], one["pvalue"])
        ref = stats.ttest_rel(scores.loc[two["model_1"]].to_numpy(),
                              scores.loc[two["model_2"]].to_numpy(), axis=1,
                              alternative=alternative)
        assert_allclose(two["pvalue"], ref.pvalue, rtol=1e-10)


def test_few_pairs_use_the_same_numbers_as_all_pairs():
    # One pair takes the einsum path, all pairs the covariance matrix: same values.
    scores = random_scores(n_models=6, seed=5)
    everything = scores.cmp.pairwise("ttest", correction=None).set_index(["model_1", "model_2"])
    one = scores.cmp.ttest("m0", "m3", correction=None)
    assert_allclose(one["statistic"], everything.loc[[("m0", "m3")], "statistic"], rtol=1e-12)


# --------------------------------------------------------------------------- scopes and ordering


def test_scopes_and_ordering():
    scores = random_scores(n_models=4, seed=6)
    means = scores.mean(axis=1).sort_values(ascending=False)
    ranked = list(means.index)
    pair = scores.cmp.ttest(ranked[2], ranked[0])
    assert pair.attrs["pdcompare"]["scope"] == "pair"
    assert (pair["model_1"].item(), pair["model_2"].item()) == (ranked[2], ranked[0])
    assert pair["mean_diff"].item() < 0

    one = scores.cmp.ttest(ranked[2])
    assert one.attrs["pdcompare"]["scope"] == "one_vs_rest"
    assert list(one["model_1"]) == [ranked[2]] * 3
    assert list(one["model_2"]) == [ranked[0], ranked[1], ranked[3]]

    best = scores.cmp.wilcoxon()
    assert best.attrs["pdcompare"]["scope"] == "best_vs_rest"
    assert list(best["model_2"]) == ranked[1:]
    assert (best["mean_diff"] >= 0).all()

    every = scores.cmp.sign_test(ALL_PAIRS)
    assert every.attrs["pdcompare"]["scope"] == "all_pairs"
    assert (every["mean_diff"] >= 0).all()
    assert list(zip(every["model_1"], every["model_2"], strict=True)) == [
        (ranked[a], ranked[b]) for a in range(4) for b in range(a + 1, 4)
    ]


def test_lower_is_better_reverses_the_order():
    scores = random_scores(n_models=3, seed=7)
    res = scores.cmp.pairwise("ttest", greater_is_better=False)
    assert res.attrs["pdcompare"]["models"] == list(scores.mean(axis=1).sort_values().index)
    assert (res["mean_diff"] <= 0).all()
    assert res.attrs["pdcompare"]["greater_is_better"] is False


def test_metadata():
    scores = random_scores(n_models=3)
    res = scores.cmp.corrected_ttest(alternative="less", alpha=0.1, correction="fdr_bh", cv=5)
    meta = res.attrs["pdcompare"]
    assert meta["kind"] == "result"
    assert meta["test"] == "corrected_ttest"
    assert (meta["alternative"], meta["alpha"], meta["correction"]) == ("less", 0.1, "fdr_bh")
    assert_allclose(meta["design"]["test_train_ratio"], 0.25)
    assert meta["models"] == list(scores.mean(axis=1).sort_values(ascending=False).index)


@pytest.mark.parametrize("test", TESTS)
def test_never_mutates_the_frame(test):
    scores = random_scores(n_models=4).cmp.set_design(cv=N_SPLITS)
    scores.iloc[1, 2] = np.nan
    before, attrs = scores.copy(), {k: dict(v) for k, v in scores.attrs.items()}
    with pytest.warns(PdcompareWarning, match="missing"):
        getattr(scores.cmp, test)()
    scores.cmp.pairwise(test, nan_policy="omit")
    pd.testing.assert_frame_equal(scores, before)
    assert scores.attrs == attrs


def test_cv_results_frame_is_accepted():
    cv_results = pd.DataFrame({
        "params": [{"C": 1}, {"C": 10}, {"C": 100}],
        **{f"split{k}_test_score": np.random.default_rng(k).uniform(0.7, 0.9, 3)
           for k in range(6)},
    })
    res = cv_results.cmp.pairwise("corrected_ttest", cv=6)
    scores = cv_results.cmp.scores()
    _, t, _ = corrected_t_by_hand(scores.loc[res["model_1"][0]],
                                     scores.loc[res["model_2"][0]], 5, 1)
    assert_allclose(res["statistic"][0], t, rtol=1e-10)


# --------------------------------------------------------------------------- corrections


@pytest.mark.parametrize("correction", ["holm", "bonferroni", "fdr_bh", "hommel", "sidak"])
def test_correction_over_rows_matches_statsmodels(correction):
    scores = random_scores(n_models=6, seed=8)
    res = scores.cmp.pairwise("ttest", correction=correction, alpha=0.1)
    _, adjusted, _, _ = multipletests(res["pvalue"], alpha=0.1, method=correction)
    assert_allclose(res["pvalue_adj"], np.clip(adjusted, 0, 1), rtol=1e-12)
    assert_array_equal(res["reject"], res["pvalue_adj"] <= 0.1)


def test_default_correction_is_holm():
    scores = random_scores(n_models=4, seed=9)
    res = scores.cmp.ttest()
    assert res.attrs["pdcompare"]["correction"] == "holm"
    assert_allclose(res["pvalue_adj"], multipletests(res["pvalue"], method="holm")[1],
                    rtol=1e-12)


# --------------------------------------------------------------------------- missing scores


def scores_with_nan():
    scores = random_scores(n_models=4, seed=10)
    scores.loc["m1", "s3"] = np.nan
    scores.loc["m1", "s7"] = np.nan
    return scores


@pytest.mark.parametrize("test", TESTS)
def test_nan_propagate(test):
    scores = scores_with_nan()
    with pytest.warns(PdcompareWarning, match=r"'m1'.*nan_policy='omit'"):
        res = scores.cmp.pairwise(test, cv=N_SPLITS)
    involved = (res["model_1"] == "m1") | (res["model_2"] == "m1")
    assert res.loc[involved, ["mean_diff", "statistic", "pvalue", "pvalue_adj"]].isna().all().all()
    assert not res.loc[involved, "reject"].any()
    rest = res.loc[~involved]
    assert rest[["statistic", "pvalue"]].notna().all().all()
    # NaN p-values are left out of the family: Holm over the other pairs only.
    assert_allclose(rest["pvalue_adj"], multipletests(rest["pvalue"], method="holm")[1],
                    rtol=1e-12)


def test_nan_omit_matches_scipy():
    scores = scores_with_nan()
    res = scores.cmp.pairwise("ttest", nan_policy="omit", correction=None)
    for row in res.itertuples():
        ref = stats.ttest_rel(scores.loc[row.model_1], scores.loc[row.model_2],
                              nan_policy="omit")
        assert_allclose(row.statistic, ref.statistic, rtol=1e-10)
        assert_allclose(row.pvalue, ref.pvalue, rtol=1e-10)
        assert row.df == (12 if "m1" in (row.model_1, row.model_2) else 14)
    w = scores.cmp.pairwise("wilcoxon", nan_policy="omit", correction=None)
    for row in w.itertuples():
        ref = stats.wilcoxon(scores.loc[row.model_1], scores.loc[row.model_2],
                             nan_policy="omit")
        assert_allclose(row.pvalue, ref.pvalue, rtol=1e-10)
    s = scores.cmp.pairwise("sign_test", nan_policy="omit", correction=None)
    assert (s["wins"] + s["losses"] + s["ties"]).tolist() == [
        13 if "m1" in pair else 15 for pair in zip(s["model_1"], s["model_2"], strict=True)
    ]


def test_nan_omit_corrected_formula():
    scores = scores_with_nan()
    res = scores.cmp.corrected_ttest("m1", "m2", nan_policy="omit", n_train=N_TRAIN,
                                     n_test=N_TEST)
    both = scores.loc[["m1", "m2"]].dropna(axis=1)
    _, t, _ = corrected_t_by_hand(both.loc["m1"], both.loc["m2"], N_TRAIN, N_TEST)
    assert_allclose(res["statistic"], [t], rtol=1e-10)


def test_nan_raise_and_unaffected_pairs():
    scores = scores_with_nan()
    with pytest.raises(ValueError, match=r"'m1'.*nan_policy='omit'"):
        scores.cmp.ttest(nan_policy="raise")
    # Pairs without a NaN run silently under any policy.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scores.cmp.ttest("m0", "m2", nan_policy="raise")
        scores.cmp.ttest("m0", "m2")


# --------------------------------------------------------------------------- degenerate data


@pytest.mark.parametrize("test", TESTS)
def test_identical_models(test):
    scores = random_scores(n_models=3, seed=11)
    scores.loc["m2"] = scores.loc["m0"]
    with pytest.warns(PdcompareWarning, match=r"'m0' vs 'm2'.*identical"):
        res = getattr(scores.cmp, test)("m0", "m2", cv=N_SPLITS)
    assert res["statistic"].item() == 0
    assert res["pvalue"].item() == 1
    assert res["mean_diff"].item() == 0


@pytest.mark.parametrize(("alternative", "sign", "p"),
                         [("two-sided", 1, 0.0), ("greater", 1, 0.0), ("less", 1, 1.0),
                          ("greater", -1, 1.0), ("less", -1, 0.0)])
@pytest.mark.parametrize("test", ["corrected_ttest", "ttest"])
def test_constant_difference(test, alternative, sign, p):
    scores = random_scores(n_models=3, seed=12)
    scores.loc["m2"] = scores.loc["m0"] - sign * 0.05
    same = r"'m0' vs 'm2' have a score difference that is the same on every split"
    with pytest.warns(PdcompareWarning, match=same):
        res = getattr(scores.cmp, test)("m0", "m2", alternative=alternative, cv=N_SPLITS)
    assert res["statistic"].item() == sign * np.inf
    assert res["pvalue"].item() == p
    assert_allclose(res["mean_diff"].item(), sign * 0.05, rtol=1e-12)


def test_degenerate_warning_is_issued_once_naming_pairs():
    scores = random_scores(n_models=4, seed=13)
    scores.loc["m1"] = scores.loc["m0"]
    scores.loc["m2"] = scores.loc["m0"]
    with pytest.warns(PdcompareWarning) as record:
        res = scores.cmp.pairwise("ttest")
    messages = [str(w.message) for w in record]
    assert len(messages) == 1
    # One line: the count, one pair for an example, how to list them.
    assert messages[0] == (
        "3 pairs of models (e.g. 'm0' vs 'm1') have identical scores on every split, so they "
        "do not differ (p-value 1, prob_rope 1); `df[df.duplicated(keep=False)]` lists the "
        "models."
    )
    assert scores[scores.duplicated(keep=False)].index.tolist() == ["m0", "m1", "m2"]
    assert (res["pvalue"] == 1).sum() == 3


def test_degenerate_pairs_among_many_are_found():
    # The covariance path must hand degenerate pairs to the explicit one in all-pairs runs.
    scores = random_scores(n_models=6, seed=17)
    scores.loc["m4"] = scores.loc["m1"]
    scores.loc["m5"] = scores.loc["m2"] + 0.25
    with pytest.warns(PdcompareWarning, match=r"identical scores.*; 'm5' vs 'm2' have a "
                                              r"score difference that is the same") as record:
        res = scores.cmp.pairwise("corrected_ttest", cv=5).set_index(["model_1", "model_2"])
    assert len(record) == 1
    same = res.loc[("m1", "m4")] if ("m1", "m4") in res.index else res.loc[("m4", "m1")]
    assert (same["statistic"], same["pvalue"]) == (0.0, 1.0)
    assert res.loc[("m5", "m2"), "statistic"] == np.inf
    assert res.loc[("m5", "m2"), "pvalue"] == 0.0


def test_constant_models_different_levels():
    # Both models constant: the difference is constant and non-zero.
    scores = pd.DataFrame([[0.9] * 6, [0.8] * 6, [0.5, 0.6, 0.7, 0.5, 0.6, 0.7]],
                          index=["a", "b", "c"])
    with pytest.warns(PdcompareWarning, match="the same on every split"):
        res = scores.cmp.ttest("a", "b")
    assert res["statistic"].item() == np.inf
    assert res["pvalue"].item() == 0
    assert_allclose([res["ci_low"].item(), res["ci_high"].item()], [0.1, 0.1], rtol=1e-12)


# --------------------------------------------------------------------------- errors


def test_errors():
    scores = random_scores(n_models=3)
    with pytest.raises(ValueError, match=r"`alternative` must be one of 'two-sided', 'greater', "
                                         r"'less', 'better', 'worse'; got 'two_sided'"):
        scores.cmp.ttest(alternative="two_sided")
    with pytest.raises(ValueError, match=r"`alpha` must be strictly between 0 and 1; got 1.5"):
        scores.cmp.wilcoxon(alpha=1.5)
    with pytest.raises(TypeError, match="`alpha` must be a number"):
        scores.cmp.sign_test(alpha="0.05")
    with pytest.raises(ValueError, match=r"`correction` must be one of 'bonferroni'.*'holm'.*"
                                         r"got 'holmes'"):
        scores.cmp.ttest(correction="holmes")
    with pytest.raises(ValueError, match=r"`nan_policy` must be one of 'propagate', 'omit', "
                                         r"'raise'; got 'drop'"):
        scores.cmp.ttest(nan_policy="drop")
    with pytest.raises(ValueError, match=r"`corrected_ttest` needs the cross-validation design"
                                         r".*`cv=`"):
        scores.cmp.corrected_ttest()
    with pytest.raises(ValueError, match=r"`a`: unknown model 'm9'"):
        scores.cmp.ttest("m9")
    with pytest.raises(ValueError, match=r"`b` needs `a`"):
        scores.cmp.ttest(b="m1")
    with pytest.raises(TypeError, match="Unexpected keyword argument `folds`"):
        scores.cmp.ttest(folds=5)
    with pytest.raises(ValueError, match=r"`test` must be one of 'corrected_ttest', 'ttest', "
                                         r"'wilcoxon', 'sign_test', 'bayes', 'ttest_5x2cv', "
                                         r"'ftest_5x2cv'(, '\w+')*; got 't'"):
        scores.cmp.pairwise("t")
    with pytest.raises(TypeError, match=r"`pairwise` compares every pair and takes no `a`"):
        scores.cmp.pairwise("ttest", a="m0")


def test_core_input_errors():
    with pytest.raises(ValueError, match="`values` must be a 2-D array"):
        paired.paired_ttest(np.zeros(3), [0], [1])
    with pytest.raises(ValueError, match="`i` and `j` must have the same length"):
        paired.wilcoxon(np.zeros((2, 3)), [0, 1], [1])
    with pytest.raises(ValueError, match="`alternative` must be one of"):
        paired.sign_test(np.zeros((2, 3)), [0], [1], alternative="both")


# --------------------------------------------------------------------------- pairwise dispatch


def test_pairwise_passes_design_keywords_to_every_test():
    scores = random_scores(n_models=3)
    for test in TESTS:
        overlap = pytest.warns(PdcompareWarning, match="overlap")  # 15 splits of a 5-fold
        with overlap if test != "corrected_ttest" else contextlib.nullcontext():
            res = scores.cmp.pairwise(test, cv=5, correction="bonferroni", alpha=0.2)
        assert res.attrs["pdcompare"]["test"] == test
        assert res.attrs["pdcompare"]["correction"] == "bonferroni"
        assert res.attrs["pdcompare"]["alpha"] == 0.2
        assert len(res) == 3
    with pytest.warns(PdcompareWarning, match="overlap"):
        with_cv = scores.cmp.pairwise("ttest", cv=5)
    assert_allclose(with_cv["pvalue"], scores.cmp.pairwise("ttest")["pvalue"], rtol=0)


def test_pairwise_bayes_calls_bayes_with_all_pairs(monkeypatch):
    # The Bayesian method belongs to issue 3; only the dispatch is tested here.
    calls = []

    def fake_bayes(scores, a=None, b=None, **keywords):
        calls.append((a, keywords))
        return pd.DataFrame()

    import dataclasses

    from pdcompare.compare import registry

    fake = dataclasses.replace(registry.BY_NAME["bayes"], function=fake_bayes)
    monkeypatch.setitem(registry.BY_NAME, "bayes", fake)
    random_scores().cmp.pairwise("bayes", alpha=0.1, correction="bonferroni", rope=0.01, cv=5)
    assert calls == [(ALL_PAIRS, {"alpha": 0.1, "rope": 0.01, "cv": 5})]


# --------------------------------------------------------------------------- matrix


def test_matrix_textbook_tables():
    scores = load_grid_search_scores()
    res = scores.cmp.pairwise(alternative="greater", correction="bonferroni")
    models = ["rbf", "linear", "3_poly", "2_poly"]
    p = res.cmp.matrix("pvalue_adj")
    assert list(p.index) == models
    assert list(p.columns) == models
    assert np.isnan(np.diag(p.to_numpy())).all()
    assert_allclose(p.to_numpy(), p.to_numpy().T)
    assert_allclose(p.loc["linear", "3_poly"], 0.807, atol=5e-4)
    assert_allclose(p.loc["3_poly", "linear"], 0.807, atol=5e-4)
    t = res.cmp.matrix("statistic")
    assert_allclose(t.to_numpy(), -t.to_numpy().T)
    assert_allclose(t.loc["rbf", "3_poly"], 1.657, atol=5e-4)
    assert_allclose(t.loc["3_poly", "rbf"], -1.657, atol=5e-4)
    advantage = res.cmp.matrix("mean_diff")
    means = scores.mean(axis=1)
    assert_allclose(advantage.to_numpy(), (means.to_numpy()[:, None] - means.to_numpy())
                    + np.diag(np.full(4, np.nan)), rtol=1e-12)
    significant = res.cmp.matrix("reject")
    assert significant.dtypes.eq(bool).all()
    assert not np.diag(significant.to_numpy()).any()
    assert significant.loc["2_poly", "rbf"]
    assert significant.loc["rbf", "2_poly"]
    assert not significant.loc["rbf", "linear"]


def test_matrix_interval_and_partner_columns():
    scores = random_scores(n_models=3, seed=14)
    res = scores.cmp.pairwise("ttest")
    low, high = res.cmp.matrix("ci_low"), res.cmp.matrix("ci_high")
    first = res.iloc[0]
    a, b = first["model_1"], first["model_2"]
    assert_allclose([low.loc[b, a], high.loc[b, a]], [-first["ci_high"], -first["ci_low"]])
    sign = scores.cmp.pairwise("sign_test")
    s, wins = sign.cmp.matrix("statistic"), sign.cmp.matrix("wins")
    row = sign.iloc[1]
    assert s.loc[row["model_2"], row["model_1"]] == row["losses"]
    assert wins.loc[row["model_2"], row["model_1"]] == row["losses"]
    # A Bayesian-like result: prob_better and prob_worse trade places.
    bayes_like = pd.DataFrame({"model_1": ["x"], "model_2": ["y"], "prob_better": [0.7],
                               "prob_rope": [0.2], "prob_worse": [0.1],
                               "decision": ["undecided"]})
    better = bayes_like.cmp.matrix("prob_better")
    assert (better.loc["x", "y"], better.loc["y", "x"]) == (0.7, 0.1)
    assert bayes_like.cmp.matrix("prob_rope").loc["y", "x"] == 0.2
    assert bayes_like.cmp.matrix("decision").loc["y", "x"] == "undecided"


def test_matrix_partial_result_and_errors():
    scores = random_scores(n_models=4, seed=15)
    best = scores.cmp.ttest()  # best vs the others: the other pairs stay empty
    p = best.cmp.matrix("pvalue")
    ranked = best.attrs["pdcompare"]["models"]
    assert list(p.index) == ranked
    assert np.isnan(p.loc[ranked[1], ranked[2]])
    assert_allclose(p.loc[ranked[2], ranked[0]], best["pvalue"].iloc[1])
    reject = best.cmp.matrix("reject")
    assert str(reject.dtypes.iloc[0]) == "boolean"
    assert reject.loc[ranked[1], ranked[2]] is pd.NA
    with pytest.raises(ValueError, match=r"`value` must be a column of the result: one of "
                                         r"'mean_diff', 'statistic', 'df', 'pvalue'.*got 'p'"):
        best.cmp.matrix("p")
    with pytest.raises(ValueError, match="`matrix` needs a pairwise result frame"):
        scores.cmp.matrix()
    doubled = pd.concat([best, best])
    with pytest.raises(ValueError, match="compares some pair twice"):
        doubled.cmp.matrix()


def test_one_sided_wilcoxon_statistic_matrix_leaves_mirror_empty():
    scores = random_scores(n_models=3, seed=16)
    res = scores.cmp.pairwise("wilcoxon", alternative="greater")
    m = res.cmp.matrix("statistic")
    first = res.iloc[0]
    assert m.loc[first["model_1"], first["model_2"]] == first["statistic"]
    assert np.isnan(m.loc[first["model_2"], first["model_1"]])
    two = scores.cmp.pairwise("wilcoxon").cmp.matrix("statistic").to_numpy()
    assert_allclose(two, two.T)


# --------------------------------------------------------------------------- properties

score_frames = st.integers(min_value=0, max_value=2**32 - 1).flatmap(
    lambda seed: st.tuples(st.just(seed), st.integers(3, 5), st.integers(6, 30))
)


@settings(deadline=None, max_examples=25, derandomize=True)
@given(params=score_frames, shift=st.floats(-0.5, 0.5))
def test_properties(params, shift):
    seed, n_models, n_splits = params
    scores = random_scores(n_models=n_models, n_splits=n_splits, seed=seed)
    # Few splits: the rank tests may not reach alpha after the correction, and say so.
    warnings.filterwarnings("ignore", "`(wilcoxon|sign_test)` cannot reject")
    for test in TESTS:
        ab = getattr(scores.cmp, test)("m0", "m1", cv=n_splits)
        ba = getattr(scores.cmp, test)("m1", "m0", cv=n_splits)
        assert_allclose(ba["mean_diff"], -ab["mean_diff"], rtol=1e-12)
        assert_allclose(ba["pvalue"], ab["pvalue"], rtol=1e-9)
        if test.endswith("ttest"):
            assert_allclose(ba["statistic"], -ab["statistic"], rtol=1e-12)
            assert_allclose(ba["ci_low"], -ab["ci_high"], rtol=1e-12)
        every = scores.cmp.pairwise(test, cv=n_splits)
        moved = (scores + shift).cmp.pairwise(test, cv=n_splits)
        assert_allclose(moved["pvalue"], every["pvalue"], rtol=1e-8, atol=1e-12)
        assert (every["pvalue_adj"] >= every["pvalue"] - 1e-15).all()
        assert every["pvalue"].between(0, 1).all()
        assert every["pvalue_adj"].between(0, 1).all()
        assert (every["mean_diff"] >= 0).all()


@settings(deadline=None, max_examples=40, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    alternative=st.sampled_from(ALTERNATIVES),
    ratio=st.floats(0.05, 1.0),
)
def test_core_matches_scipy_on_random_arrays(seed, alternative, ratio):
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(4, 12)) * rng.uniform(0.01, 10)
    i, j = np.triu_indices(4, 1)
    out = paired.paired_ttest(values, i, j, alternative=alternative)
    ref = stats.ttest_rel(values[i], values[j], axis=1, alternative=alternative)
    assert_allclose(out["statistic"], ref.statistic, rtol=1e-10)
    assert_allclose(out["pvalue"], ref.pvalue, rtol=1e-10, atol=1e-300)
    corrected = paired.paired_ttest(values, i, j, test_train_ratio=ratio,
                                    alternative=alternative)
    # Corrected t = plain t * sqrt((1/n) / (1/n + ratio)).
    assert_allclose(corrected["statistic"],
                    ref.statistic * np.sqrt((1 / 12) / (1 / 12 + ratio)), rtol=1e-10)


def test_package_import_stays_light():
    # scipy.stats must not be imported by `import pdcompare` (lazy imports only).
    import subprocess
    import sys

    code = ("import sys, pdcompare, pdcompare.stats.paired; "
            "print('scipy.stats' in sys.modules, 'statsmodels' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "False"]
    assert pdcompare.__version__

"""Dietterich's 5x2cv paired t-test and Alpaydin's combined 5x2cv F-test."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

import pdcompare
from pdcompare import PdcompareWarning
from pdcompare.inputs.scores import ALL_PAIRS
from pdcompare.stats.dietterich import combined_ftest_5x2cv, paired_ttest_5x2cv

COLUMNS = ["model_1", "model_2", "mean_diff", "statistic", "pvalue", "pvalue_adj", "reject"]


def _ttest_formula(d):
    """Dietterich (1998), eq. for t~: d_11 / sqrt(1/5 sum s_i^2), written out per pair."""
    d = np.asarray(d, dtype=float).reshape(-1, 2)
    means = d.mean(axis=1)
    s2 = (d[:, 0] - means) ** 2 + (d[:, 1] - means) ** 2
    t = d[0, 0] / np.sqrt(s2.sum() / len(d))
    return t, len(d)


def _ftest_formula(d):
    """Alpaydin (1999): sum of the 10 squared differences / (2 sum s_i^2), F(10, 5)."""
    d = np.asarray(d, dtype=float).reshape(-1, 2)
    means = d.mean(axis=1)
    s2 = (d[:, 0] - means) ** 2 + (d[:, 1] - means) ** 2
    return (d**2).sum() / (2 * s2.sum()), 2 * len(d), len(d)


def _mlxtend_scores(estimators, X, y, random_seed):
    """The 10 fold scores mlxtend's 5x2cv tests compute, in repeat-major order.

    mlxtend (evaluate/ttest.py and f_test.py, v0.25): `rng = RandomState(random_seed)`,
    per repeat `train_test_split(X, y, test_size=0.5, random_state=rng.randint(0, 32767))`,
    fold 1 trains on the first half and scores on the second, fold 2 the reverse.
    """
    from sklearn.base import clone
    from sklearn.model_selection import train_test_split

    rng = np.random.RandomState(random_seed)
    rows = {name: [] for name in estimators}
    for _ in range(5):
        seed = rng.randint(low=0, high=32767)
        X_1, X_2, y_1, y_2 = train_test_split(X, y, test_size=0.5, random_state=seed)
        for X_train, X_test, y_train, y_test in ((X_1, X_2, y_1, y_2), (X_2, X_1, y_2, y_1)):
            for name, estimator in estimators.items():
                fitted = clone(estimator).fit(X_train, y_train)
                rows[name].append(fitted.score(X_test, y_test))
    columns = pd.MultiIndex.from_product([range(1, 6), range(1, 3)], names=["repeat", "fold"])
    return pd.DataFrame.from_dict(rows, orient="index", columns=columns)


@pytest.fixture(scope="module")
def wine():
    from sklearn.datasets import load_wine

    return load_wine(return_X_y=True)


@pytest.fixture
def scores():
    """Four models, 5x2 scores, distinct enough that every pair differs."""
    rng = np.random.default_rng(7)
    base = rng.normal(0.8, 0.03, size=10)
    values = np.vstack(
        [base + shift + rng.normal(0, 0.02, 10) for shift in (0.0, 0.03, -0.02, 0.06)]
    )
    return pd.DataFrame(values, index=["tree", "forest", "stump", "boost"])


# ------------------------------------------------------------------ mlxtend agreement


@pytest.mark.parametrize("random_seed", [0, 123])
def test_agrees_with_mlxtend(wine, random_seed):
    from mlxtend.evaluate import combined_ftest_5x2cv as mlx_ftest
    from mlxtend.evaluate import paired_ttest_5x2cv as mlx_ttest
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = wine
    # Cheap deterministic models: the point is the statistics, not the fits.
    estimators = {
        "bayes": GaussianNB(),
        "tree": DecisionTreeClassifier(max_depth=2, random_state=0),
    }
    frame = _mlxtend_scores(estimators, X, y, random_seed)
    est1, est2 = estimators.values()
    t_ref, p_ref = mlx_ttest(est1, est2, X, y, random_seed=random_seed)
    f_ref, pf_ref = mlx_ftest(est1, est2, X, y, random_seed=random_seed)

    t_res = frame.cmp.ttest_5x2cv("bayes", "tree")
    f_res = frame.cmp.ftest_5x2cv("bayes", "tree")
    assert_allclose(t_res["statistic"], [t_ref], rtol=1e-10)
    assert_allclose(t_res["pvalue"], [p_ref], rtol=1e-10)
    assert_allclose(f_res["statistic"], [f_ref], rtol=1e-10)
    assert_allclose(f_res["pvalue"], [pf_ref], rtol=1e-10)
    # Sign convention a - b: swapping the models negates mlxtend's t.
    assert_allclose(frame.cmp.ttest_5x2cv("tree", "bayes")["statistic"], [-t_ref], rtol=1e-10)
    # A shuffled (repeat, fold) MultiIndex is sorted back to repeat-major order.
    shuffled = frame.iloc[:, [9, 3, 0, 5, 2, 8, 1, 7, 4, 6]]
    assert_allclose(shuffled.cmp.ttest_5x2cv("bayes", "tree")["statistic"], [t_ref], rtol=1e-10)
    # A flat frame in repeat-major order gives the same.
    flat = pd.DataFrame(frame.to_numpy(), index=frame.index)
    assert_allclose(flat.cmp.ftest_5x2cv("bayes", "tree")["statistic"], [f_ref], rtol=1e-10)


def test_regression_scores_agree_with_mlxtend():
    from mlxtend.evaluate import paired_ttest_5x2cv as mlx_ttest
    from sklearn.datasets import make_regression
    from sklearn.linear_model import LinearRegression, Ridge

    X, y = make_regression(n_samples=80, n_features=5, noise=20.0, random_state=3)
    estimators = {"ols": LinearRegression(), "ridge": Ridge(alpha=30.0)}
    frame = _mlxtend_scores(estimators, X, y, random_seed=5)
    t_ref, p_ref = mlx_ttest(*estimators.values(), X, y, random_seed=5)  # r2 scores
    result = frame.cmp.ttest_5x2cv("ols", "ridge")
    assert_allclose(result[["statistic", "pvalue"]].to_numpy()[0], [t_ref, p_ref], rtol=1e-10)


# ------------------------------------------------------------------ formulas, scopes


def test_columns_and_formula_every_pair(scores):
    result = scores.cmp.ttest_5x2cv(ALL_PAIRS, correction=None)
    assert list(result.columns) == COLUMNS
    assert len(result) == 6
    values = scores.to_numpy()
    for row in result.itertuples():
        d = values[scores.index.get_loc(row.model_1)] - values[scores.index.get_loc(row.model_2)]
        t, df = _ttest_formula(d)
        assert_allclose(row.statistic, t, rtol=1e-12)
        assert_allclose(row.pvalue, 2 * stats.t.sf(abs(t), df), rtol=1e-10)
        assert_allclose(row.mean_diff, d.mean(), rtol=1e-12)
    f_result = scores.cmp.ftest_5x2cv(ALL_PAIRS, correction=None)
    for row in f_result.itertuples():
        d = values[scores.index.get_loc(row.model_1)] - values[scores.index.get_loc(row.model_2)]
        f, df1, df2 = _ftest_formula(d)
        assert_allclose(row.statistic, f, rtol=1e-12)
        assert_allclose(row.pvalue, stats.f.sf(f, df1, df2), rtol=1e-10)


def test_scopes_best_first(scores):
    # Means: boost > forest > tree > stump.
    best = scores.cmp.ttest_5x2cv()
    assert best["model_1"].tolist() == ["boost"] * 3
    assert best["model_2"].tolist() == ["forest", "tree", "stump"]
    assert (best["mean_diff"] > 0).all()
    one = scores.cmp.ttest_5x2cv("tree")
    assert one["model_1"].tolist() == ["tree"] * 3
    assert one["model_2"].tolist() == ["boost", "forest", "stump"]
    pair = scores.cmp.ttest_5x2cv("stump", "tree")
    assert pair[["model_1", "model_2"]].to_numpy().tolist() == [["stump", "tree"]]
    all_pairs = scores.cmp.ftest_5x2cv(ALL_PAIRS)
    assert all_pairs[["model_1", "model_2"]].to_numpy().tolist() == [
        ["boost", "forest"], ["boost", "tree"], ["boost", "stump"],
        ["forest", "tree"], ["forest", "stump"], ["tree", "stump"],
    ]  # fmt: skip
    # Each row equals the single-pair call.
    for row in all_pairs.itertuples():
        single = scores.cmp.ftest_5x2cv(row.model_1, row.model_2)
        assert_allclose(single["pvalue"], [row.pvalue], rtol=1e-12)
    attrs = best.attrs["pdcompare"]
    assert attrs["test"] == "ttest_5x2cv"
    assert attrs["scope"] == "best_vs_rest"
    assert attrs["models"] == ["boost", "forest", "tree", "stump"]
    assert all_pairs.attrs["pdcompare"]["scope"] == "all_pairs"
    assert all_pairs.attrs["pdcompare"]["test"] == "ftest_5x2cv"


def test_holm_correction_matches_statsmodels(scores):
    from statsmodels.stats.multitest import multipletests

    result = scores.cmp.ttest_5x2cv(alpha=0.1)
    reject, adjusted, *_ = multipletests(result["pvalue"], alpha=0.1, method="holm")
    assert_allclose(result["pvalue_adj"], adjusted, rtol=1e-12)
    assert_array_equal(result["reject"], reject)
    bonferroni = scores.cmp.ftest_5x2cv(correction="bonferroni")
    assert_allclose(
        bonferroni["pvalue_adj"], np.minimum(3 * bonferroni["pvalue"], 1.0), rtol=1e-12
    )


@pytest.mark.parametrize("alternative", ["greater", "less"])
def test_one_sided(scores, alternative):
    result = scores.cmp.ttest_5x2cv("forest", "tree", alternative=alternative)
    t, df = _ttest_formula(scores.loc["forest"] - scores.loc["tree"])
    expected = stats.t.sf(t, df) if alternative == "greater" else stats.t.cdf(t, df)
    assert_allclose(result["pvalue"], [expected], rtol=1e-10)
    assert result.attrs["pdcompare"]["alternative"] == alternative


def test_greater_is_better_false_picks_lowest_mean(scores):
    result = scores.cmp.ttest_5x2cv(greater_is_better=False)
    assert result["model_1"].tolist() == ["stump"] * 3
    assert (result["mean_diff"] < 0).all()


def test_frame_and_attrs_unchanged(scores):
    designed = scores.cmp.set_design(cv=2)
    before = designed.copy()
    attrs = {k: dict(v) for k, v in designed.attrs.items()}
    designed.cmp.ttest_5x2cv()
    designed.cmp.ftest_5x2cv()
    pd.testing.assert_frame_equal(designed, before)
    assert designed.attrs == attrs


def test_cv_scores_repeated_kfold_layout(wine):
    # pdcompare.cv_scores with RepeatedKFold(2, 5) yields repeat-major columns.
    from sklearn.model_selection import RepeatedStratifiedKFold
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    X, y = wine
    cv = RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=0)
    frame = pdcompare.cv_scores(
        {"bayes": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)},
        X,
        y,
        cv=cv,
    )
    result = frame.cmp.ttest_5x2cv("bayes", "tree")
    t, _ = _ttest_formula(frame.loc["bayes"] - frame.loc["tree"])
    assert_allclose(result["statistic"], [t], rtol=1e-12)


# ------------------------------------------------------------------ missing and degenerate


def test_nan_policies(scores):
    holed = scores.copy()
    holed.iloc[1, 4] = np.nan  # forest, repeat 3 fold 1
    with pytest.warns(PdcompareWarning, match="forest"):
        propagated = holed.cmp.ttest_5x2cv(ALL_PAIRS)
    forest_rows = (propagated["model_1"] == "forest") | (propagated["model_2"] == "forest")
    assert propagated.loc[forest_rows, ["statistic", "pvalue", "pvalue_adj"]].isna().all().all()
    assert not propagated.loc[forest_rows, "reject"].any()
    assert propagated.loc[~forest_rows, "pvalue"].notna().all()

    with pytest.raises(ValueError, match=r"forest.*nan_policy='omit'"):
        holed.cmp.ftest_5x2cv(nan_policy="raise")

    # "omit" drops repeat 3 of that pair: t with 4 df, F with (8, 4) df, by the formula.
    omitted = holed.cmp.ttest_5x2cv("forest", "tree", nan_policy="omit")
    d = np.delete((scores.loc["forest"] - scores.loc["tree"]).to_numpy(), [4, 5])
    t, df = _ttest_formula(d)
    assert df == 4
    assert_allclose(omitted["statistic"], [t], rtol=1e-12)
    assert_allclose(omitted["pvalue"], [2 * stats.t.sf(abs(t), 4)], rtol=1e-10)
    assert_allclose(omitted["mean_diff"], [d.mean()], rtol=1e-12)
    f_omitted = holed.cmp.ftest_5x2cv("forest", "tree", nan_policy="omit")
    f, df1, df2 = _ftest_formula(d)
    assert_allclose(f_omitted["pvalue"], [stats.f.sf(f, df1, df2)], rtol=1e-10)


def test_omit_first_repeat_missing_uses_next_repeat(scores):
    holed = scores.copy()
    holed.iloc[0, 1] = np.nan  # tree, repeat 1 fold 2
    result = holed.cmp.ttest_5x2cv("tree", "forest", nan_policy="omit")
    d = (scores.loc["tree"] - scores.loc["forest"]).to_numpy()[2:]
    t, df = _ttest_formula(d)
    assert_allclose(result["statistic"], [t], rtol=1e-12)
    assert_allclose(result["pvalue"], [2 * stats.t.sf(abs(t), df)], rtol=1e-10)


def test_identical_models_give_p_one_with_warning():
    frame = pd.DataFrame(
        [np.linspace(0.7, 0.9, 10), np.linspace(0.7, 0.9, 10)], index=["a", "b"]
    )
    with pytest.warns(PdcompareWarning, match=r"'a' vs 'b': .*variance is 0"):
        result = frame.cmp.ttest_5x2cv("a", "b", alternative="greater")
    assert_allclose(result[["statistic", "pvalue"]].to_numpy()[0], [0.0, 1.0])
    with pytest.warns(PdcompareWarning, match="denominator is 0"):
        f_result = frame.cmp.ftest_5x2cv("a", "b")
    assert_allclose(f_result[["statistic", "pvalue"]].to_numpy()[0], [0.0, 1.0])


def test_constant_difference_gives_infinite_statistic():
    base = np.linspace(0.7, 0.9, 10)
    frame = pd.DataFrame([base + 0.05, base], index=["a", "b"])
    with pytest.warns(PdcompareWarning, match="variance is 0"):
        result = frame.cmp.ttest_5x2cv("a", "b")
    assert result["statistic"].iloc[0] == np.inf
    assert result["pvalue"].iloc[0] == 0.0
    with pytest.warns(PdcompareWarning, match="variance is 0"):
        less = frame.cmp.ttest_5x2cv("a", "b", alternative="less")
    assert less["pvalue"].iloc[0] == 1.0
    with pytest.warns(PdcompareWarning, match="denominator is 0"):
        f_result = frame.cmp.ftest_5x2cv("a", "b")
    assert f_result["statistic"].iloc[0] == np.inf
    assert f_result["pvalue"].iloc[0] == 0.0


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize("n_splits", [2, 9, 20])
def test_wrong_split_count(n_splits):
    frame = pd.DataFrame(np.random.default_rng(0).random((2, n_splits)), index=["a", "b"])
    with pytest.raises(ValueError, match=rf"exactly 10 split columns.*has {n_splits} split"):
        frame.cmp.ttest_5x2cv()
    with pytest.raises(ValueError, match=r"`ftest_5x2cv` needs the scores of 5 repetitions"):
        frame.cmp.ftest_5x2cv()


def test_known_design_must_be_two_fold(scores):
    with pytest.raises(ValueError, match=r"2-fold cross-validation.*\(cv=10\) has ratio 0.111"):
        scores.cmp.ttest_5x2cv(cv=10)
    with pytest.raises(ValueError, match=r"`ftest_5x2cv` needs scores of 2-fold"):
        scores.cmp.set_design(test_size=0.2).cmp.ftest_5x2cv()
    # Half-and-half designs pass, odd sample counts included (n_train 45, n_test 44).
    assert len(scores.cmp.ttest_5x2cv(n_train=45, n_test=44)) == 3


def test_wrong_multiindex_layout():
    columns = pd.MultiIndex.from_product([range(2), range(5)], names=["repeat", "fold"])
    frame = pd.DataFrame(np.random.default_rng(0).random((2, 10)), columns=columns)
    with pytest.raises(ValueError, match=r"2 repeat\(s\) x 5 fold\(s\)"):
        frame.cmp.ttest_5x2cv()
    three = pd.MultiIndex.from_product([range(5), range(2), ["x"]])
    with pytest.raises(ValueError, match="MultiIndex of 3 levels"):
        pd.DataFrame(np.ones((2, 10)), columns=three).cmp.ftest_5x2cv()


def test_bad_arguments(scores):
    with pytest.raises(ValueError, match=r"`a`: unknown model 'forrest'. Did you mean 'forest'"):
        scores.cmp.ttest_5x2cv("forrest")
    with pytest.raises(ValueError, match="`alternative` must be one of"):
        scores.cmp.ttest_5x2cv(alternative="two_sided")
    with pytest.raises(ValueError, match="`correction` must be one of"):
        scores.cmp.ftest_5x2cv(correction="holmes")
    with pytest.raises(ValueError, match="`alpha` must be strictly between 0 and 1"):
        scores.cmp.ftest_5x2cv(alpha=5)
    with pytest.raises(ValueError, match="`nan_policy` must be one of"):
        scores.cmp.ttest_5x2cv(nan_policy="drop")
    with pytest.raises(ValueError, match="shape"):
        paired_ttest_5x2cv(np.zeros((5, 3)))


# ------------------------------------------------------------------ properties

_score_arrays = arrays(
    np.float64, (3, 10), elements=st.floats(0.0, 1.0, allow_nan=False, width=32)
)


@settings(deadline=None, max_examples=50, derandomize=True)
@given(values=_score_arrays)
def test_properties(values):
    import warnings

    frame = pd.DataFrame(values, index=["a", "b", "c"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PdcompareWarning)  # ties are allowed here
        ab = frame.cmp.ttest_5x2cv("a", "b", correction=None)
        ba = frame.cmp.ttest_5x2cv("b", "a", correction=None)
        f_ab = frame.cmp.ftest_5x2cv("a", "b", correction=None)
        f_ba = frame.cmp.ftest_5x2cv("b", "a", correction=None)
        every = frame.cmp.ttest_5x2cv(ALL_PAIRS)
        f_every = frame.cmp.ftest_5x2cv(ALL_PAIRS, correction="fdr_bh")
    assert_allclose(ab["pvalue"], ba["pvalue"], rtol=1e-12)
    assert_allclose(ab["statistic"], -ba["statistic"], rtol=1e-12)
    assert_allclose(f_ab[["statistic", "pvalue"]], f_ba[["statistic", "pvalue"]], rtol=1e-12)
    for result in (every, f_every):
        assert result["pvalue"].between(0, 1).all()
        assert (result["pvalue_adj"] >= result["pvalue"] - 1e-15).all()


@settings(deadline=None, max_examples=30, derandomize=True)
@given(differences=arrays(np.float64, (4, 5, 2), elements=st.floats(-1, 1, width=32)))
def test_core_vectorised_equals_one_pair_at_a_time(differences):
    together = paired_ttest_5x2cv(differences)
    f_together = combined_ftest_5x2cv(differences)
    for k in range(len(differences)):
        alone = paired_ttest_5x2cv(differences[k])
        f_alone = combined_ftest_5x2cv(differences[k])
        assert_allclose(together["statistic"][k], alone["statistic"], rtol=1e-12)
        assert_allclose(together["pvalue"][k], alone["pvalue"], rtol=1e-12)
        assert_allclose(f_together["pvalue"][k], f_alone["pvalue"], rtol=1e-12)


def test_pairwise_runs_the_5x2cv_tests_on_every_pair():
    rng = np.random.default_rng(5)
    scores = pd.DataFrame(
        rng.normal(0.8, 0.05, size=(4, 10)), index=["w", "x", "y", "z"]
    )
    for test in ("ttest_5x2cv", "ftest_5x2cv"):
        table = scores.cmp.pairwise(test, correction="bonferroni")
        assert len(table) == 6
        assert table.attrs["pdcompare"]["test"] == test
        for _, row in table.iterrows():
            single = getattr(scores.cmp, test)(row["model_1"], row["model_2"])
            np.testing.assert_allclose(row["statistic"], single.loc[0, "statistic"], rtol=1e-12)
            np.testing.assert_allclose(
                row["pvalue_adj"], min(1.0, 6 * single.loc[0, "pvalue"]), rtol=1e-12
            )

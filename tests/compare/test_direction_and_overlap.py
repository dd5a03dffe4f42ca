"""Losses ("better"/"worse"), direction-aware wins, and warnings on overlapping splits."""

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare
import pdcompare.inputs.data
from pdcompare import PdcompareWarning
from pdcompare.inputs.design import design_from_cv


def losses(seed=0, n_splits=10):
    """Errors of three models; m_best has a quarter of the others' error."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.2, 0.3, n_splits)
    frame = pd.DataFrame(
        {
            "m_best": base / 4 + rng.normal(0, 0.002, n_splits),
            "m_mid": base + rng.normal(0, 0.01, n_splits),
            "m_bad": base * 1.2 + rng.normal(0, 0.01, n_splits),
        }
    ).T
    return frame.cmp.set_design(cv=n_splits, greater_is_better=False)


def test_better_is_greater_for_scores_and_less_for_losses():
    errors = losses()
    best_vs_rest = errors.cmp.corrected_ttest(alternative="better")
    assert (best_vs_rest["model_1"] == "m_best").all()
    assert (best_vs_rest["pvalue"] < 1e-4).all()
    # "greater"/"less" are about the raw difference and warn on losses (DESIGN §20).
    with pytest.warns(PdcompareWarning, match=r"`alternative='less'` is about the raw scores"):
        raw = errors.cmp.corrected_ttest(alternative="less")
    assert_allclose(best_vs_rest["pvalue"], raw["pvalue"])
    # The old trap: "greater" is about the raw difference, which is negative for losses.
    with pytest.warns(PdcompareWarning, match=r"asks whether model_1 is worse"):
        greater = errors.cmp.corrected_ttest(alternative="greater")
    assert (greater["pvalue"] > 0.99).all()
    meta = best_vs_rest.attrs["pdcompare"]
    assert meta["alternative"] == "less"
    assert meta["asked_alternative"] == "better"
    assert meta["greater_is_better"] is False
    # Against scipy on the raw differences, with the corrected variance written out.
    d = errors.loc["m_best"] - errors.loc["m_mid"]
    t = d.mean() / np.sqrt(d.var(ddof=1) * (1 / 10 + 1 / 9))
    assert_allclose(best_vs_rest["pvalue"].iloc[0], stats.t.cdf(t, 9), rtol=1e-10)
    scores = (1 - errors).cmp.set_design(cv=10, greater_is_better=True)
    assert_allclose(
        scores.cmp.corrected_ttest(alternative="better")["pvalue"],
        scores.cmp.corrected_ttest(alternative="greater")["pvalue"],
    )
    worse = errors.cmp.corrected_ttest(alternative="worse")
    assert_allclose(worse["pvalue"], greater["pvalue"])


# The 10 splits of 5 x 2-fold overlap: the plain tests say so (not the 5x2cv test).
@pytest.mark.filterwarnings("ignore:`(ttest|wilcoxon|sign_test)` treats the CV splits")
@pytest.mark.parametrize("method", ["ttest", "wilcoxon", "sign_test", "ttest_5x2cv"])
def test_better_on_every_test_with_an_alternative(method):
    errors = losses().cmp.set_design(cv=2, greater_is_better=False)
    better = getattr(errors.cmp, method)(alternative="better")
    with pytest.warns(PdcompareWarning, match=r"`alternative='less'` is about the raw scores"):
        raw = getattr(errors.cmp, method)(alternative="less")
    assert_allclose(better["pvalue"], raw["pvalue"])


def test_wins_are_direction_aware():
    errors = losses()
    result = errors.cmp.sign_test()
    assert (result["wins"] == 10).all()
    assert (result["losses"] == 0).all()
    assert (result["statistic"] == result["wins"]).all()
    assert_allclose(result["pvalue"], stats.binomtest(10, 10).pvalue)
    gains = (1 - errors).cmp.set_design(cv=10, greater_is_better=True).cmp.sign_test()
    assert (gains["wins"] == 10).all()


def test_proportions_and_bootstrap_take_better():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 400)
    preds = pd.DataFrame({"y": y, "good": np.where(rng.random(400) < 0.9, y, 1 - y),
                          "poor": np.where(rng.random(400) < 0.7, y, 1 - y)})
    assert_allclose(
        preds.cmp.proportions_ztest(alternative="better")["pvalue"],
        preds.cmp.proportions_ztest(alternative="greater")["pvalue"],
    )
    truth = rng.normal(size=300)
    regs = pd.DataFrame({"y": truth, "close": truth + rng.normal(0, 0.1, 300),
                         "far": truth + rng.normal(0, 0.5, 300)})
    better = regs.cmp.bootstrap_diff(score="mean_squared_error", alternative="better",
                                     random_state=0, n_resamples=200)
    with pytest.warns(PdcompareWarning, match=r"`alternative='less'` is about the raw scores"):
        less = regs.cmp.bootstrap_diff(score="mean_squared_error", alternative="less",
                                       random_state=0, n_resamples=200)
    assert_allclose(better["pvalue"], less["pvalue"])


def test_design_records_repeats():
    from sklearn.model_selection import (
        KFold,
        RepeatedStratifiedKFold,
        ShuffleSplit,
        StratifiedKFold,
    )

    assert design_from_cv(10).n_repeats == 1
    assert design_from_cv(KFold(5)).n_repeats == 1
    assert design_from_cv(StratifiedKFold(5)).n_repeats == 1
    assert design_from_cv(RepeatedStratifiedKFold(n_splits=5, n_repeats=3)).n_repeats == 3
    assert design_from_cv(ShuffleSplit(n_splits=20, test_size=0.2)).repeated
    X = np.zeros((30, 1))
    once = list(KFold(3).split(X))
    assert design_from_cv(once).n_repeats == 1
    twice = once + list(KFold(3, shuffle=True, random_state=0).split(X))
    assert design_from_cv(twice).n_repeats == 2
    assert pdcompare.datasets.load_grid_search_scores().attrs["pdcompare"]["design"][
        "n_repeats"] == 10


@pytest.mark.parametrize("method", ["ttest", "wilcoxon", "sign_test"])
def test_plain_tests_warn_once_on_overlapping_splits(method):
    scores = pdcompare.datasets.load_grid_search_scores()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        getattr(scores.cmp, method)()
        scores.cmp.pairwise(method)
    overlap = [w for w in caught if "overlap" in str(w.message)]
    assert len(overlap) == 2  # once per call
    assert all(issubclass(w.category, PdcompareWarning) for w in overlap)
    assert all("corrected_ttest" in str(w.message) for w in overlap)


def test_plain_tests_are_silent_on_a_single_kfold_or_unknown_design():
    scores = pdcompare.datasets.load_grid_search_scores()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scores.cmp.set_design(cv=100).cmp.ttest()
        unknown = scores.copy()
        unknown.attrs = {}
        unknown.cmp.wilcoxon()
        scores.cmp.corrected_ttest()


def _hundred_splits():
    """The gallery's 10 x 10-fold scores without their stored design."""
    scores = pdcompare.datasets.load_grid_search_scores()
    return pd.DataFrame(scores.to_numpy(), index=scores.index)


@pytest.mark.parametrize(
    ("how", "reason"),
    [
        ("multiindex", r"the split columns are a \(repeat, fold\) MultiIndex with 10 repeats"),
        ("cv", r"cv=10 tests 1/10 of the data in each of 100 splits"),
        ("test_size", r"test_size=0\.1 tests 0\.1 of the data in each of 100 splits"),
        ("sizes", r"n_train=90, n_test=10 tests 0\.1 of the data in each of 100 splits"),
    ],
)
@pytest.mark.parametrize("method", ["ttest", "wilcoxon", "sign_test"])
def test_repeated_cv_is_recognised_however_the_design_is_given(how, reason, method):
    plain = _hundred_splits()
    keywords = {}
    if how == "multiindex":
        plain.columns = pd.MultiIndex.from_product([range(10), range(10)],
                                                   names=["repeat", "fold"])
    elif how == "cv":
        keywords = {"cv": 10}
    elif how == "test_size":
        keywords = {"test_size": 0.1}
    else:
        keywords = {"n_train": 90, "n_test": 10}
    with pytest.warns(PdcompareWarning, match=f"these splits overlap \\({reason}") as caught:
        getattr(plain.cmp, method)(**keywords)
    assert len([w for w in caught if "overlap" in str(w.message)]) == 1
    # The one rule, asked directly.
    data = pdcompare.inputs.data.scores_data(plain, **keywords)
    assert pdcompare.inputs.design.overlapping_splits(data.design, data.splits) is not None


def test_a_single_kfold_stays_silent_however_given():
    plain = _hundred_splits().iloc[:, :10]
    single = pd.MultiIndex.from_product([[0], range(10)], names=["repeat", "fold"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for keywords in ({"cv": 10}, {"test_size": 0.1}, {"n_train": 90, "n_test": 10}, {}):
            plain.cmp.ttest(**keywords)
        plain.set_axis(single, axis=1).cmp.ttest(cv=10)
        # A 100-fold on 100 splits: each sample tested once.
        _hundred_splits().cmp.ttest(cv=100)

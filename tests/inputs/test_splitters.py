"""Splitters without a fixed test/train ratio: TimeSeriesSplit, LeaveOneOut, PredefinedSplit."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from sklearn import model_selection as ms
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from sklearn.tree import DecisionTreeRegressor

import pdcompare
from pdcompare import PdcompareWarning

X, Y = load_diabetes(return_X_y=True)
MAE = "neg_mean_absolute_error"  # R² is undefined on one test sample
TIME_ORDERED = r"time-ordered splits.*no such correction.*cv_predictions.*diebold_mariano"


def _search(cv, n=None, groups=None, **options):
    """A ridge grid search on the first n rows of the diabetes data."""
    rows = slice(None) if n is None else slice(0, n)
    grid = {"alpha": [0.1, 1.0, 10.0]}
    search = ms.GridSearchCV(Ridge(), grid, cv=cv, **options)
    return search.fit(X[rows], Y[rows], groups=groups)


def _measured(cv, n):
    """Mean n_test / n_train of the splitter's real splits (scikit-learn's own split)."""
    splits = list(cv.split(X[:n]))
    return float(np.mean([len(test) / len(train) for train, test in splits]))


def test_time_series_search_loads_as_time_ordered_and_refuses_corrected_tests():
    scores = pdcompare.from_search(_search(ms.TimeSeriesSplit(5)))
    assert scores.shape == (3, 5)
    design = scores.attrs["pdcompare"]["design"]
    assert design["time_ordered"] is True
    assert design["test_train_ratio"] is None
    assert design["source"] == "cv=TimeSeriesSplit(n_splits=5)"
    for method in ("corrected_ttest", "bayes", "posterior"):
        options = {"a": "alpha=0.1", "b": "alpha=1"} if method == "posterior" else {}
        with pytest.raises(ValueError, match=TIME_ORDERED):
            getattr(scores.cmp, method)(**options)
    with pytest.raises(ValueError, match=TIME_ORDERED):
        scores.cmp.pairwise()
    with pytest.warns(PdcompareWarning, match="time-ordered splits.*diebold_mariano"):
        summary = scores.cmp.summary()
    assert summary.attrs["pdcompare"]["interval"] == "t"
    # A ratio given with the search does not make expanding windows correctable.
    given = pdcompare.from_search(_search(ms.TimeSeriesSplit(5)), test_size=0.2)
    assert given.attrs["pdcompare"]["design"]["test_train_ratio"] == pytest.approx(0.25)
    with pytest.raises(ValueError, match=TIME_ORDERED):
        given.cmp.corrected_ttest()
    # A design passed to the call itself is the caller's decision (first match wins).
    out = scores.cmp.corrected_ttest(test_size=0.2)
    assert len(out) == 2


def test_set_design_with_a_time_series_split_is_time_ordered():
    scores = pd.DataFrame(np.random.default_rng(0).normal(size=(3, 5)), index=list("abc"))
    designed = scores.cmp.set_design(cv=ms.TimeSeriesSplit(5))
    with pytest.raises(ValueError, match=TIME_ORDERED):
        designed.cmp.corrected_ttest()


def test_leave_one_out_search_has_ratio_one_over_n_minus_one():
    scores = pdcompare.from_search(_search(ms.LeaveOneOut(), n=41, scoring=MAE))
    design = scores.attrs["pdcompare"]["design"]
    assert scores.shape == (3, 41)
    assert design["test_train_ratio"] == pytest.approx(1 / 40)
    assert design["test_train_ratio"] == pytest.approx(_measured(ms.LeaveOneOut(), 41))
    assert (design["n_train"], design["n_test"], design["time_ordered"]) == (40.0, 1.0, False)


def test_predefined_split_search_measures_its_folds():
    folds = np.repeat([-1, 0, 1, 2], [100, 120, 110, 112])
    cv = ms.PredefinedSplit(folds)
    scores = pdcompare.from_search(_search(cv))
    design = scores.attrs["pdcompare"]["design"]
    assert_allclose(design["test_train_ratio"], _measured(cv, len(folds)))
    assert design["n_repeats"] == 1
    out = scores.cmp.corrected_ttest()
    assert out["pvalue"].notna().all()


def test_unknown_splitter_takes_test_size_or_n_train_n_test():
    search = _search(ms.GroupKFold(4), groups=np.arange(len(Y)) % 8)
    assert pdcompare.from_search(search).attrs["pdcompare"]["design"]["test_train_ratio"] == (
        pytest.approx(1 / 3)
    )
    cv = ms.LeavePOut(1)
    search = _search(cv, n=20, scoring=MAE)
    with pytest.raises(ValueError, match=r"cannot tell the test/train size ratio.*`test_size=`"):
        pdcompare.from_search(search)
    given = pdcompare.from_search(search, test_size=0.05)
    assert given.attrs["pdcompare"]["design"]["test_train_ratio"] == pytest.approx(0.05 / 0.95)
    counts = pdcompare.from_search(search, n_train=19, n_test=1)
    assert counts.attrs["pdcompare"]["design"]["test_train_ratio"] == pytest.approx(1 / 19)
    with pytest.raises(ValueError, match="Conflicting design keywords"):
        pdcompare.from_search(search, test_size=0.05, n_train=19, n_test=1)


def test_cv_scores_with_time_series_split_and_leave_one_out():
    models = {"ridge": Ridge(1.0), "tree": DecisionTreeRegressor(max_depth=2, random_state=0)}
    scores = pdcompare.cv_scores(models, X, Y, cv=ms.TimeSeriesSplit(4))
    for name, model in models.items():
        reference = ms.cross_val_score(model, X, Y, cv=ms.TimeSeriesSplit(4))
        assert_allclose(scores.loc[name], reference)
    design = scores.attrs["pdcompare"]["design"]
    assert design["time_ordered"] is True
    assert_allclose(design["test_train_ratio"], _measured(ms.TimeSeriesSplit(4), len(Y)))
    with pytest.raises(ValueError, match=TIME_ORDERED):
        scores.cmp.corrected_ttest()
    loo = pdcompare.cv_scores(
        models, X[:30], Y[:30], cv=ms.LeaveOneOut(), scoring=MAE
    )
    assert loo.shape == (2, 30)
    assert loo.attrs["pdcompare"]["design"]["test_train_ratio"] == pytest.approx(1 / 29)
    given = pdcompare.cv_scores(
        models, X[:20], Y[:20], cv=ms.LeavePOut(1), scoring=MAE, test_size=0.05
    )
    assert given.attrs["pdcompare"]["design"]["test_train_ratio"] == pytest.approx(0.05 / 0.95)


def test_cv_predictions_of_time_series_windows_feed_diebold_mariano():
    models = {"ridge": Ridge(1.0), "tree": DecisionTreeRegressor(max_depth=2, random_state=0)}
    cv = ms.TimeSeriesSplit(4)
    preds = pdcompare.cv_predictions(models, X, Y, cv=cv)
    tested = np.concatenate([test for _, test in cv.split(X)])
    assert preds.index.tolist() == tested.tolist()
    assert_allclose(preds["y"], Y[tested])
    for train, test in cv.split(X):  # scikit-learn fitted window by window
        for name, model in models.items():
            fitted = model.fit(X[train], Y[train])
            assert_allclose(preds.loc[test, name], fitted.predict(X[test]))
    assert preds.attrs["pdcompare"]["design"]["time_ordered"] is True
    out = preds.cmp.diebold_mariano()
    assert out["model_1"].tolist() == ["ridge"]
    frame = pd.DataFrame(X).iloc[::-1].reset_index(drop=True).set_axis(
        pd.RangeIndex(1000, 1000 + len(Y))
    )
    indexed = pdcompare.cv_predictions(models, frame, Y[::-1], cv=cv)
    assert indexed.index.tolist() == (1000 + tested).tolist()

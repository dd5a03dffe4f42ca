"""cv_scores and cv_predictions: one joblib.Parallel for every (model, split) fit.

References: scikit-learn's cross_val_score, cross_validate and cross_val_predict
on the same splits, model by model.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

sklearn = pytest.importorskip("sklearn")
joblib = pytest.importorskip("joblib")

from sklearn.base import BaseEstimator, ClassifierMixin  # noqa: E402
from sklearn.datasets import make_classification  # noqa: E402
from sklearn.exceptions import FitFailedWarning  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import make_scorer, recall_score  # noqa: E402
from sklearn.model_selection import (  # noqa: E402
    KFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    cross_val_predict,
    cross_val_score,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402

import pdcompare  # noqa: E402


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(n_samples=120, n_features=6, random_state=0)
    return X, y


def models():
    return {
        "logreg": LogisticRegression(max_iter=500),
        "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
        "nb": GaussianNB(),
    }


CV = StratifiedKFold(4, shuffle=True, random_state=1)


def reference(X, y, cv=CV, scoring=None):
    return {
        name: cross_val_score(est, X, y, cv=cv, scoring=scoring) for name, est in models().items()
    }


@pytest.mark.parametrize("backend", [None, "loky", "threading"])
def test_cv_scores_equal_cross_val_score_on_every_backend(data, backend):
    X, y = data
    if backend is None:
        scores = pdcompare.cv_scores(models(), X, y, cv=CV)
    else:
        with joblib.parallel_config(backend=backend, n_jobs=2):
            scores = pdcompare.cv_scores(models(), X, y, cv=CV)
    expected = reference(X, y)
    assert list(scores.index) == list(expected)
    for name, values in expected.items():
        np.testing.assert_array_equal(scores.loc[name].to_numpy(), values)
    assert scores.attrs["pdcompare"]["design"]["n_test"] == 30.0


def test_cv_scores_on_a_dask_cluster(data):
    distributed = pytest.importorskip("distributed")
    X, y = data
    with (
        distributed.LocalCluster(
            processes=False,
            n_workers=2,
            threads_per_worker=1,
            # No fixed port: the scheduler's HTTP server binds 8787 unless told otherwise.
            scheduler_port=0,
            dashboard_address=":0",
        ) as cluster,
        distributed.Client(cluster),
        joblib.parallel_config(backend="dask"),
    ):
        scores = pdcompare.cv_scores(models(), X, y, cv=CV, n_jobs=-1)
    for name, values in reference(X, y).items():
        np.testing.assert_array_equal(scores.loc[name].to_numpy(), values)


def test_every_fit_is_one_parallel_run(data, monkeypatch):
    import sklearn.utils.parallel

    runs = []

    class Counting(sklearn.utils.parallel.Parallel):
        def __call__(self, iterable):
            tasks = list(iterable)
            runs.append(len(tasks))
            return super().__call__(tasks)

    monkeypatch.setattr(sklearn.utils.parallel, "Parallel", Counting)
    X, y = data
    pdcompare.cv_scores(models(), X, y, cv=CV, n_jobs=2)
    pdcompare.cv_predictions(models(), X, y, cv=5, n_jobs=2)
    assert runs == [3 * 4, 3 * 5]  # m x k tasks, in one run each


def test_multi_metric_frames_equal_single_metric_calls(data):
    X, y = data
    scoring = ["accuracy", "f1_macro", "roc_auc"]
    frames = pdcompare.cv_scores(models(), X, y, cv=CV, scoring=scoring)
    assert list(frames) == scoring
    for metric in scoring:
        single = pdcompare.cv_scores(models(), X, y, cv=CV, scoring=metric)
        pd.testing.assert_frame_equal(frames[metric], single)
        assert frames[metric].attrs == single.attrs
    results = cross_validate(models()["tree"], X, y, cv=CV, scoring=scoring)
    for metric in scoring:
        np.testing.assert_array_equal(frames[metric].loc["tree"], results[f"test_{metric}"])


def test_dict_scoring_with_callables(data):
    X, y = data
    scoring = {"recall": make_scorer(recall_score), "acc": "accuracy"}
    frames = pdcompare.cv_scores(models(), X, y, cv=CV, scoring=scoring)
    assert list(frames) == ["recall", "acc"]
    expected = reference(X, y, scoring=make_scorer(recall_score))
    for name, values in expected.items():
        np.testing.assert_array_equal(frames["recall"].loc[name], values)


class FailsOnSmallFolds(ClassifierMixin, BaseEstimator):
    """Fails to fit on fewer than ``limit`` samples, or when the first feature sums above 0."""

    def __init__(self, limit=100):
        self.limit = limit

    def fit(self, X, y):
        if len(y) < self.limit or X[:, 0].sum() > 0:
            msg = "too few samples"
            raise ValueError(msg)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def test_a_failing_fit_scores_nan_with_a_warning_naming_it(data):
    X, y = data
    estimators = {"tree": DecisionTreeClassifier(random_state=0), "fragile": FailsOnSmallFolds(0)}
    with pytest.warns(UserWarning, match=r"'fragile' on split\d .*ValueError: too few samples"):
        scores = pdcompare.cv_scores(estimators, X, y, cv=CV)
    with pytest.warns(FitFailedWarning):
        expected = cross_val_score(FailsOnSmallFolds(0), X, y, cv=CV, error_score=np.nan)
    assert 0 < np.isnan(expected).sum() < len(expected)
    np.testing.assert_array_equal(scores.loc["fragile"].isna(), np.isnan(expected))
    assert scores.loc["tree"].notna().all()


def test_every_fit_failing_is_an_error(data):
    X, y = data
    with pytest.raises(ValueError, match=r"Every fit failed.*too few samples"):
        pdcompare.cv_scores({"a": FailsOnSmallFolds(10_000)}, X, y, cv=CV)


@pytest.mark.parametrize("method", ["predict", "predict_proba", "decision_function"])
def test_cv_predictions_equal_cross_val_predict(data, method):
    X, y = data
    estimators = {"logreg": LogisticRegression(max_iter=500), "svm-free": GaussianNB()}
    if method == "decision_function":
        estimators = {"logreg": LogisticRegression(max_iter=500)}
    cv = KFold(5, shuffle=True, random_state=3)
    preds = pdcompare.cv_predictions(estimators, X, y, cv=cv, method=method)
    assert list(preds.columns) == ["y", *estimators]
    np.testing.assert_array_equal(preds["y"], y)
    for name, estimator in estimators.items():
        expected = cross_val_predict(estimator, X, y, cv=cv, method=method)
        if method == "predict_proba":
            expected = expected[:, 1]
        np.testing.assert_array_equal(preds[name].to_numpy(), expected)


def test_cv_predictions_keep_the_index_of_a_dataframe_and_feed_mcnemar(data):
    X, y = data
    frame = pd.DataFrame(X, index=pd.RangeIndex(1000, 1120, name="sample"))
    target = pd.Series(y, index=frame.index, name="label")
    preds = pdcompare.cv_predictions(models(), frame, target, cv=4)
    assert preds.index.equals(frame.index)
    labels = pd.Series(pd.Categorical(np.where(y == 1, "yes", "no")), index=frame.index)
    coded = pdcompare.cv_predictions({"nb": GaussianNB()}, frame, labels, cv=4)
    assert coded["y"].dtype == labels.dtype  # the truth keeps its dtype
    np.testing.assert_array_equal(coded["y"].to_numpy(), labels.to_numpy())
    result = preds.cmp.mcnemar()
    assert set(result["model_1"]) | set(result["model_2"]) == set(models())


@pytest.mark.parametrize(
    ("cv", "problem"),
    [
        (RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0), "2 times"),
        (ShuffleSplit(n_splits=1, test_size=0.2, random_state=0), "never tests 96"),
    ],
)
def test_cv_predictions_refuse_splitters_that_do_not_partition(data, cv, problem):
    X, y = data
    with pytest.raises(ValueError, match=f"{problem}.*partitions the data once"):
        pdcompare.cv_predictions(models(), X, y, cv=cv)


def test_cv_predictions_refuse_multiclass_probabilities():
    X, y = make_classification(n_samples=90, n_classes=3, n_informative=4, random_state=0)
    with pytest.raises(ValueError, match=r"3 columns.*method='predict'"):
        pdcompare.cv_predictions({"nb": GaussianNB()}, X, y, cv=3, method="predict_proba")


def test_bad_arguments_are_named(data):
    X, y = data
    with pytest.raises(TypeError, match="non-empty dict"):
        pdcompare.cv_scores([GaussianNB()], X, y, cv=3)
    with pytest.raises(TypeError, match=r"estimators\['x'\].*fit"):
        pdcompare.cv_scores({"x": "GaussianNB"}, X, y, cv=3)
    with pytest.raises(ValueError, match="scorer names"):
        pdcompare.cv_scores(models(), X, y, cv=3, scoring=["accuracy", len])
    with pytest.raises(ValueError, match="`method` must be one of"):
        pdcompare.cv_predictions(models(), X, y, cv=3, method="predict_log")
    with pytest.raises(ValueError, match="clash with the truth column"):
        pdcompare.cv_predictions({"y": GaussianNB()}, X, y, cv=3)

"""Frames of the wrong shape or type at every public function: pdcompare's own error, with the fix.

Each case is one a user met with scikit-learn's own data sets: a benchmark
with data sets as rows (the shape autorank and scikit-posthocs take), a
Series or an array, MultiIndex or tuple model names, a predictions column
labelled None, a one-row predictions frame, the scores of two runs
concatenated (duplicate split labels).
"""

import warnings

import matplotlib
import pandas as pd
import pytest
from frames import label_predictions
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.datasets import load_benchmark

matplotlib.use("Agg")

#: Every public function of a scores frame, with the keywords it needs.
SCORES_CALLS = {
    "scores": {},
    "summary": {},
    "corrected_ttest": {"cv": 5},
    "ttest": {},
    "wilcoxon": {},
    "sign_test": {},
    "bayes": {"cv": 5, "rope": 0.01},
    "posterior": {"a": "ridge", "b": "ols", "cv": 5},
    "pairwise": {"cv": 5},
    "ttest_5x2cv": {},
    "ftest_5x2cv": {},
    "select": {"rule": "one_se", "by": ["ols", "ridge", "lasso"], "cv": 5},
    "friedman": {},
    "means": {},
    "per_dataset": {},
    "random_effects": {"cv": 5},
    "report": {"cv": 5},
    "plot": {"kind": "folds"},
}
PREDICTION_CALLS = ("mcnemar", "cochrans_q", "proportions_ztest", "accuracy_ci", "bootstrap")


@pytest.fixture(scope="module")
def regressors():
    """Three regressors on scikit-learn's diabetes data, models as rows, 5 folds."""
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import Lasso, LinearRegression, Ridge
    from sklearn.model_selection import KFold, cross_val_score

    X, y = load_diabetes(return_X_y=True)
    cv = KFold(5, shuffle=True, random_state=0)
    models = {"ridge": Ridge(), "ols": LinearRegression(), "lasso": Lasso(alpha=0.5)}
    scores = {name: cross_val_score(m, X, y, cv=cv) for name, m in models.items()}
    return pd.DataFrame(scores).T.set_axis([f"split{i}" for i in range(5)], axis=1)


@pytest.fixture(scope="module")
def predictions():
    """Predicted labels of two classifiers (the refusals below read labels, not fits)."""
    return label_predictions(n=569)


def call(name, frame, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(pdcompare, name)(frame, **options)


@pytest.mark.parametrize("name", list(SCORES_CALLS))
def test_datasets_as_rows_are_refused_by_every_method(name):
    # bench.cmp.means().T: 22 data sets as rows were summarised as 22 "models".
    means = load_benchmark().cmp.means()
    with pytest.raises(ValueError, match=r"models must be the rows: pass `df\.T`"):
        call(name, means.T, **SCORES_CALLS[name])


@pytest.mark.parametrize("name", list(SCORES_CALLS))
def test_models_as_columns_axis_is_refused_by_every_method(name, regressors):
    frame = regressors.T.rename_axis(columns="model")  # as pivot(columns="model") names it
    with pytest.raises(ValueError, match=r"the column axis is named 'model'.*pass `df\.T`"):
        call(name, frame, **SCORES_CALLS[name])


def test_transposed_back_the_benchmark_is_compared():
    means = load_benchmark().cmp.means()
    summary = pdcompare.summary(means.T.T)
    # Mean ranks written out: rank within every data set (1 = best, ties averaged).
    ranks = means.rank(axis=0, ascending=False).mean(axis=1)
    assert_allclose(summary["mean_rank"], ranks[summary.index], rtol=1e-12)


@pytest.mark.parametrize("name", [*SCORES_CALLS, *PREDICTION_CALLS, "matrix"])
@pytest.mark.parametrize(
    ("kind", "make", "fix"),
    [
        ("pandas.Series", lambda f: f.loc["ridge"], r"series\.unstack\(\)"),
        ("numpy.ndarray", lambda f: f.to_numpy(), r"pd\.DataFrame\(array, index=names\)"),
        ("list", lambda f: f.to_numpy().tolist(), r"a scores frame"),
    ],
)
def test_non_frames_raise_type_error_naming_type_and_fix(name, kind, make, fix, regressors):
    # pdcompare.summary(series) raised AttributeError: 'Series' object has no attribute 'columns'.
    options = SCORES_CALLS.get(name, {})
    with pytest.raises(TypeError, match=rf"DataFrame; got {kind}\. .*{fix}"):
        call(name, make(regressors), **options)


@pytest.mark.parametrize("name", list(SCORES_CALLS))
def test_multiindex_model_rows_are_refused_alike(name, regressors):
    # summary() worked while pairwise() raised "isna is not defined for MultiIndex".
    frame = regressors.set_axis(
        pd.MultiIndex.from_tuples([("linear", "ridge"), ("linear", "ols"), ("sparse", "lasso")])
    )
    with pytest.raises(
        ValueError, match=r'MultiIndex .*`df\.index = df\.index\.map\(", "\.join\)`'
    ):
        call(name, frame, **SCORES_CALLS[name])


def test_flattened_multiindex_compares(regressors):
    frame = regressors.set_axis(
        pd.MultiIndex.from_tuples([("linear", "ridge"), ("linear", "ols"), ("sparse", "lasso")])
    )
    frame.index = frame.index.map(", ".join)
    summary = pdcompare.summary(frame, cv=5)
    assert_allclose(summary.loc["linear, ols", "mean"], regressors.loc["ols"].mean())


@pytest.mark.parametrize("name", ["bayes", "summary", "pairwise", "report"])
def test_tuple_model_names_are_refused(name, regressors):
    # bayes raised numpy's "setting an array element with a sequence ... inhomogeneous shape".
    frame = regressors.set_axis(
        pd.Index([("linear", 1), ("linear", 2), ("sparse", 1)], tupleize_cols=False)
    )
    options = {k: v for k, v in SCORES_CALLS[name].items() if k != "rope"}
    with pytest.raises(ValueError, match=r"Model names must be single labels, not tuples"):
        call(name, frame, **options)


def test_missing_model_name_is_refused(regressors):
    frame = regressors.set_axis(["ridge", None, "lasso"])
    with pytest.raises(ValueError, match=r"Model names must not be missing"):
        pdcompare.summary(frame)


@pytest.mark.parametrize("name", PREDICTION_CALLS)
def test_prediction_column_labelled_none_is_refused(name, predictions):
    frame = predictions.rename(columns={"tree": None})
    with pytest.raises(ValueError, match=r"prediction columns\) must be given; a column is "):
        call(name, frame)


@pytest.mark.parametrize("name", [*PREDICTION_CALLS, "bootstrap_diff"])
def test_one_row_predictions_frame_is_refused(name, predictions):
    # mcnemar on one row labelled None raised pandas' KeyError: '[nan] not in index'.
    with pytest.raises(ValueError, match=r"The predictions frame has 1 row"):
        call(name, predictions.iloc[:1])
    with pytest.raises(ValueError, match=r"The predictions frame has 1 row"):
        call(name, predictions.rename(columns={"tree": None}).iloc[:1])


@pytest.mark.parametrize("name", ["summary", "corrected_ttest", "wilcoxon", "pairwise", "means"])
def test_duplicate_split_labels_are_refused(name, regressors):
    # Two runs concatenated: 10 columns, split0..split4 twice, counted as 10 "splits".
    twice = pd.concat([regressors, regressors + 0.01], axis=1)
    if name != "means":  # means() of a scores frame says it needs a benchmark
        with pytest.raises(ValueError, match=r"Split labels must be unique; \['split0', "):
            call(name, twice, **SCORES_CALLS.get(name, {}))
    benchmark = pd.concat({"diabetes": twice}, axis=1, names=["dataset", "split"])
    with pytest.raises(ValueError, match=r"Split labels must be unique; \[\('diabetes', "):
        call(name, benchmark, **SCORES_CALLS.get(name, {}))


def test_numbered_afresh_the_splits_compare(regressors):
    twice = pd.concat([regressors, regressors + 0.01], axis=1)
    twice.columns = range(10)
    summary = pdcompare.summary(twice, cv=5)
    assert_allclose(summary.loc["ols", "mean"], regressors.loc["ols"].mean() + 0.005)
    assert (summary["n_splits"] == 10).all()


def test_predictions_pivoted_by_model_stay_valid(predictions):
    # Columns named "model" (a pivot of long predictions) are models: not refused there.
    frame = predictions.rename_axis(columns="model")
    result = pdcompare.mcnemar(frame)
    first, second = result.loc[0, "model_1"], result.loc[0, "model_2"]
    right = frame[["logistic", "tree"]].eq(frame["y"], axis=0)
    assert result.loc[0, "only_1_correct"] == int((right[first] & ~right[second]).sum())
    assert result.loc[0, "only_2_correct"] == int((~right[first] & right[second]).sum())


@pytest.mark.parametrize("name", [n for n in SCORES_CALLS if n not in ("means", "per_dataset")])
@pytest.mark.parametrize("missing", [None, float("nan")])
def test_missing_split_labels_are_refused_naming_the_position(name, missing, regressors):
    # A split column labelled None was read as a split "nan" without a word.
    frame = regressors.set_axis(["split0", "split1", missing, "split3", "split4"], axis=1)
    with pytest.raises(
        ValueError,
        match=r"Split labels must not be missing; the column at position 2 \(counting from 0\) "
        r"has none \(None or NaN\)\. Give every split a label, e\.g\. `df\.columns = ",
    ):
        call(name, frame, **SCORES_CALLS[name])


def test_missing_split_labels_of_a_benchmark_are_refused(regressors):
    benchmark = pd.concat({"diabetes": regressors}, axis=1, names=["dataset", "split"])
    benchmark.columns = pd.MultiIndex.from_arrays(
        [["diabetes"] * 5, ["s0", None, "s2", None, "s4"]], names=["dataset", "split"]
    )
    with pytest.raises(ValueError, match=r"position 1 \(counting from 0\) has none .*1 more"):
        pdcompare.summary(benchmark)
    with pytest.raises(ValueError, match=r"Split labels must not be missing"):
        pdcompare.per_dataset(benchmark)


@pytest.mark.parametrize(
    "name", ["summary", "corrected_ttest", "wilcoxon", "friedman", "pairwise", "report"]
)
def test_one_column_of_dataset_means_names_corrected_ttest_and_per_dataset(name, regressors):
    # A table of per-data-set means with one data set was refused as "1 split column".
    means = regressors.mean(axis=1).to_frame("diabetes").rename_axis(columns="dataset")
    with pytest.raises(
        ValueError,
        match=r"one score per model on one data set \('diabetes'; its columns are named "
        r"'dataset'\).*`corrected_ttest`.*`per_dataset\(test=\.\.\.\)`",
    ):
        call(name, means, **SCORES_CALLS.get(name, {}))


@pytest.mark.parametrize(
    ("kind", "make"),
    [
        ("pandas.Series", lambda f: f.loc["ridge"]),
        ("numpy.ndarray", lambda f: f.to_numpy()),
        ("list", lambda f: f.to_numpy().tolist()),
    ],
)
def test_style_of_a_non_frame_raises_type_error_naming_dataframe(kind, make, regressors):
    # pdcompare.style(series) raised AttributeError: 'Series' object has no attribute 'columns'.
    with pytest.raises(TypeError, match=rf"`style` formats a pandas DataFrame .*; got {kind}\."):
        pdcompare.style(make(regressors))


@pytest.mark.parametrize(
    ("kind", "make"),
    [
        ("pandas.Series", lambda f: f.loc["ridge"]),
        ("numpy.ndarray", lambda f: f.to_numpy()),
        ("list", lambda f: f.to_numpy().tolist()),
    ],
)
def test_permutation_test_of_a_non_frame_raises_type_error_naming_dataframe(
    kind, make, regressors
):
    with pytest.raises(TypeError, match=rf"pandas DataFrame; got {kind}\."):
        pdcompare.permutation_test(make(regressors))

"""The cmp accessor on dask frames equals the pandas one, from counts computed by dask.

Reference: the same method on the pandas frame (itself checked against
statsmodels, mlxtend and scikit-learn elsewhere), and, for the counts, the
expanded rows.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")

import pdcompare  # noqa: E402
import pdcompare.dask  # noqa: E402
from pdcompare.stats.bootstrap import label_patterns  # noqa: E402

METHODS = [
    ("mcnemar", {}),
    ("mcnemar", {"a": "m1"}),
    ("mcnemar", {"a": "m0", "b": "m2", "exact": False}),
    ("cochrans_q", {}),
    ("cochrans_q", {"models": ["m0", "m2"]}),
    ("proportions_ztest", {"alternative": "better"}),
    ("accuracy_ci", {"method": "beta"}),
    ("bootstrap", {"random_state": 0}),
    ("bootstrap", {"score": "balanced_accuracy", "random_state": 3, "method": "normal"}),
    ("bootstrap_diff", {"random_state": 0}),
    ("bootstrap_diff", {"a": "m2", "score": "f1_macro", "random_state": 1}),
]


# A dask scheduler starts for these tests: seconds each, the full suite's.
pytestmark = pytest.mark.slow


def predictions(labels, n=3000, seed=0, missing=False):
    rng = np.random.default_rng(seed)
    y = rng.choice(labels, n)
    frame = pd.DataFrame({"y": y})
    for k in range(4):
        right = rng.random(n) < 0.55 + 0.08 * k
        frame[f"m{k}"] = np.where(right, y, rng.choice(labels, n))
    if missing:
        frame = frame.astype({"m1": object})
        frame.loc[rng.choice(n, 40, replace=False), "m1"] = None
        frame.loc[rng.choice(n, 5, replace=False), "y"] = None
    return frame


@pytest.mark.parametrize(("method", "options"), METHODS)
@pytest.mark.parametrize("labels", [[0, 1, 2], ["cat", "dog"]], ids=["int", "str"])
def test_dask_results_equal_pandas_results(method, options, labels):
    frame = predictions(labels)
    big = dd.from_pandas(frame, npartitions=4)
    expected = getattr(frame.cmp, method)(**options)
    got = getattr(big.cmp, method)(**options)
    assert isinstance(got, pd.DataFrame)
    pd.testing.assert_frame_equal(got, expected)
    assert got.attrs == expected.attrs


@pytest.mark.parametrize("nan_policy", ["omit", "propagate"])
@pytest.mark.parametrize(("method", "options"), METHODS)
def test_missing_values_follow_the_same_policy(method, options, nan_policy):
    frame = predictions(["a", "b", "c"], missing=True)
    big = dd.from_pandas(frame, npartitions=4)
    with warnings.catch_warnings(record=True) as expected_warnings:
        warnings.simplefilter("always")
        expected = getattr(frame.cmp, method)(nan_policy=nan_policy, **options)
    with warnings.catch_warnings(record=True) as got_warnings:
        warnings.simplefilter("always")
        got = getattr(big.cmp, method)(nan_policy=nan_policy, **options)
    pd.testing.assert_frame_equal(got, expected)
    assert [str(w.message) for w in got_warnings] == [str(w.message) for w in expected_warnings]
    if nan_policy == "propagate":
        assert expected_warnings
        assert got.isna().any().any()


def test_categorical_labels():
    frame = predictions(["low", "mid", "high"]).astype("category")
    big = dd.from_pandas(frame, npartitions=4)
    for method, options in METHODS:
        expected = getattr(frame.cmp, method)(**options)
        pd.testing.assert_frame_equal(getattr(big.cmp, method)(**options), expected)


def test_distinct_rows_are_the_counts_of_the_expanded_rows():
    frame = predictions([0, 1, 2], n=500)
    rows = pdcompare.dask.distinct_rows(dd.from_pandas(frame, npartitions=3), list(frame))
    assert rows.weights.sum() == len(frame)
    expanded = rows.frame.loc[rows.frame.index.repeat(rows.weights)]
    columns = list(frame)
    pd.testing.assert_frame_equal(
        expanded.sort_values(columns).reset_index(drop=True),
        frame.sort_values(columns).reset_index(drop=True),
    )
    # The patterns the bootstrap resamples: the same on the counts as on the rows.
    full = label_patterns(frame["y"].to_numpy(), frame[columns[1:]].to_numpy())
    weighted = label_patterns(
        rows.frame["y"].to_numpy(), rows.frame[columns[1:]].to_numpy(), rows.weights
    )
    for a, b in zip(full, weighted, strict=True):
        np.testing.assert_array_equal(a, b)


def test_scores_that_need_every_row_say_to_compute_first():
    big = dd.from_pandas(predictions([0, 1]), npartitions=2)
    with pytest.raises(TypeError, match=r"mean_squared_error.*\.compute\(\)"):
        big.cmp.bootstrap("mean_squared_error")
    with pytest.raises(TypeError, match=r"needs every row.*\.compute\(\)"):
        big.cmp.bootstrap_diff(score=lambda t, p: float(np.mean(t == p)))


def test_other_methods_say_what_to_do():
    big = dd.from_pandas(predictions([0, 1]), npartitions=2)
    with pytest.raises(AttributeError, match=r"`summary` is not offered.*\.compute\(\)"):
        big.cmp.summary()
    with pytest.raises(ValueError, match="no truth column 'label'"):
        big.cmp.mcnemar(y="label")


def test_probabilities_are_refused_as_on_pandas():
    frame = predictions([0, 1])
    frame["m0"] = np.linspace(0, 1, len(frame))
    big = dd.from_pandas(frame, npartitions=2)
    with pytest.raises(ValueError, match="'m0' holds non-integer numbers"):
        big.cmp.mcnemar()


def test_import_pdcompare_alone_never_imports_dask():
    code = "import sys, pdcompare; print('dask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_every_test_of_a_predictions_frame_is_offered_with_the_pandas_signature():
    import inspect

    for name in pdcompare.dask.DASK_METHODS:
        method = getattr(pdcompare.dask.DaskCompareAccessor, name)
        pandas_method = getattr(pdcompare, name)
        # The dask method's own keywords are the pandas method's (the rest pass through).
        own = set(inspect.signature(method).parameters) - {"self", "options"}
        assert own <= set(inspect.signature(pandas_method).parameters), name

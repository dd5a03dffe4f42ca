"""The fast paths of issue 16 give what the slow, obvious code gives.

* model name columns are categoricals that behave like the strings they were;
* predictions compared as numbers or integer codes equal Python's ``==`` on
  the labels, and the packed pair counts equal the matrix products of all pairs;
* the loss bootstrap in the bincount-weights form equals the mean of the
  gathered losses on the same draws;
* the "min" rank of ``summary`` equals ``scipy.stats.rankdata``.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

import pdcompare
from pdcompare.inputs.predictions import predictions_data
from pdcompare.results import model_columns
from pdcompare.stats.predictions import PackedCorrectness, correctness
from pdcompare.stats.summary import min_rank

# --------------------------------------------------------------------------- name columns


@pytest.fixture
def result():
    rng = np.random.default_rng(0)
    names = ["rbf", "linear", "3_poly", "2_poly"]
    scores = pd.DataFrame(rng.normal(0.8, 0.05, size=(4, 10)), index=names)
    return scores.cmp.pairwise("corrected_ttest", cv=10)


def as_strings(frame: pd.DataFrame) -> pd.DataFrame:
    """The same frame with the name columns as plain object strings (the old columns)."""
    return frame.astype({"model_1": object, "model_2": object})


def test_name_columns_are_categoricals_that_compare_like_strings(result):
    assert isinstance(result["model_1"].dtype, pd.CategoricalDtype)
    plain = as_strings(result)
    assert_array_equal(result["model_1"] == "rbf", plain["model_1"] == "rbf")
    assert_array_equal(result["model_1"] != "rbf", plain["model_1"] != "rbf")
    assert_array_equal(result["model_1"] == result["model_2"], np.zeros(len(result), bool))
    pd.testing.assert_frame_equal(
        as_strings(result.query("model_1 == 'rbf' or model_2 == 'rbf'")),
        plain.query("model_1 == 'rbf' or model_2 == 'rbf'"),
    )
    assert result["model_2"].isin(["linear"]).sum() == (plain["model_2"] == "linear").sum()
    assert result["model_1"].str.upper().tolist() == [m.upper() for m in plain["model_1"]]
    # Sorting orders the names as strings.
    assert result.sort_values("model_2")["model_2"].tolist() == sorted(plain["model_2"])


def test_name_columns_merge_and_write_like_strings(result):
    plain = as_strings(result)
    families = pd.DataFrame({"model_1": ["rbf", "linear", "3_poly"], "kernel": ["a", "b", "c"]})
    merged = result.merge(families, on="model_1")
    expected = plain.merge(families, on="model_1")
    assert merged[["model_1", "model_2", "kernel"]].astype(str).values.tolist() == (
        expected[["model_1", "model_2", "kernel"]].astype(str).values.tolist()
    )
    written, expected_text = io.StringIO(), io.StringIO()
    result.to_csv(written)
    plain.to_csv(expected_text)
    assert written.getvalue() == expected_text.getvalue()


def test_result_columns_never_share_memory():
    # The frame takes the core's arrays without a copy; one array used for two columns
    # (sign_test on losses: statistic is the wins) must not let a write to one change
    # the other (pandas 2 writes in place without copy-on-write).
    rng = np.random.default_rng(1)
    scores = pd.DataFrame(rng.normal(0.3, 0.05, size=(4, 12)), index=list("abcd"))
    result = scores.cmp.sign_test(greater_is_better=False, cv=12)
    columns = [c for c in result.columns if c not in ("model_1", "model_2")]
    arrays = {c: result[c].to_numpy() for c in columns}
    for k, first in enumerate(columns):
        for second in columns[k + 1 :]:
            assert not np.shares_memory(arrays[first], arrays[second]), (first, second)
    expected = result["statistic"].copy()
    result.loc[0, "wins"] = -1
    pd.testing.assert_series_equal(result["statistic"], expected)


def test_names_that_cannot_be_categories_stay_objects():
    i, j = np.array([0, 1]), np.array([1, 2])
    first, second = model_columns(pd.Index(["a", None, "c"], dtype=object), i, j)
    assert first.tolist() == ["a", None]
    assert second.tolist() == [None, "c"]
    # Names of mixed types do not sort: categories in frame order.
    first, second = model_columns(pd.Index([2, "b", 1.5], dtype=object), i, j)
    assert first.tolist() == [2, "b"]
    assert list(first.categories) == [2, "b", 1.5]


@given(
    st.one_of(
        st.lists(st.text(max_size=6), min_size=2, max_size=12, unique=True),
        st.lists(st.integers(-50, 50), min_size=2, max_size=12, unique=True),
    ),
    st.data(),
)
def test_name_columns_equal_the_public_categorical(names, data):
    # The checks and the sort are done on the names as Python objects and pandas'
    # own check of the categories is skipped: the columns must equal what the public
    # constructor gives for the sorted names.
    labels = pd.Index(names)
    n = len(names)
    i = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=20)))
    j = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=len(i), max_size=len(i))))
    first, second = model_columns(labels, i, j)
    expected = pd.CategoricalDtype(labels.sort_values(), ordered=False)
    assert first.dtype == expected
    assert second.dtype == expected
    pd.testing.assert_index_equal(first.categories, labels.sort_values())
    assert first.tolist() == [names[k] for k in i]
    assert second.tolist() == [names[k] for k in j]


@given(
    st.lists(
        st.one_of(
            st.lists(st.sampled_from("abcde"), min_size=2, max_size=5, unique=True),
            st.lists(st.sampled_from("abc"), min_size=3, max_size=4),  # repeated: objects
        ),
        min_size=1,
        max_size=4,
    ),
    st.lists(st.integers(0, 3), min_size=1, max_size=8),
)
def test_remembered_categories_serve_only_the_same_names(lists, calls):
    # model_columns remembers the categories of the last Index it saw (the tests of one
    # report share one frame's names): any sequence of calls, on the same Index objects
    # or on equal or different new ones, gives the columns of the names it is given.
    indexes = [pd.Index(names, dtype=object) for names in lists]
    for call in calls:
        labels = indexes[call % len(indexes)]
        if call >= len(indexes):
            labels = pd.Index(list(labels), dtype=object)  # equal names, another object
        n = len(labels)
        i, j = np.arange(n) % n, (np.arange(n) + 1) % n
        first, second = model_columns(labels, i, j)
        assert list(first) == [labels[k] for k in i]
        assert list(second) == [labels[k] for k in j]
        if labels.is_unique:
            assert list(first.categories) == sorted(labels)
        else:
            assert first.dtype == object


def test_repeated_names_stay_objects():
    first, _ = model_columns(pd.Index(["b", "a", "b"], dtype=object), np.array([0, 1]), [2, 2])
    assert first.dtype == object
    assert first.tolist() == ["b", "a"]


# --------------------------------------------------------------------------- predictions

LABEL_FRAMES = {
    "int": lambda y, p: (y, p),
    "float and int": lambda y, p: (y.astype(float), p),
    "bool and int": lambda y, p: ((y > 0), p),
    "str": lambda y, p: (
        pd.Series(y).map({0: "cat", 1: "dog", 2: "eel"}).astype("str"),
        [pd.Series(c).map({0: "cat", 1: "dog", 2: "fox"}).astype("str") for c in p],
    ),
    "categorical": lambda y, p: (
        pd.Categorical(pd.Series(y).map({0: "cat", 1: "dog", 2: "eel"})),
        [pd.Categorical(pd.Series(c).map({0: "dog", 1: "cat", 2: "eel"})) for c in p],
    ),
    "nullable": lambda y, p: (
        pd.array(y, dtype="Int64"),
        [pd.array(c, dtype="Float64") for c in p],
    ),
    "mixed": lambda y, p: (y, [c.astype(str) if k == 0 else c for k, c in enumerate(p)]),
    "huge ints and floats": lambda y, p: (
        y.astype(np.int64) + 2**53,
        [c.astype(float) + 2**53 for c in p],
    ),
}


@pytest.mark.parametrize("kind", list(LABEL_FRAMES))
@given(seed=st.integers(0, 2**16), with_missing=st.booleans())
def test_coded_labels_match_python_equality(kind, seed, with_missing):
    rng = np.random.default_rng(seed)
    n = 30
    y = rng.integers(0, 3, n)
    columns = [rng.integers(0, 3, n) for _ in range(3)]
    truth, predictions = LABEL_FRAMES[kind](y, columns)
    frame = pd.DataFrame({"y": truth, **{f"m{k}": c for k, c in enumerate(predictions)}})
    if with_missing and kind in ("str", "categorical", "nullable"):
        frame.loc[rng.choice(n, 4), "m1"] = None
        frame.loc[rng.choice(n, 2), "y"] = None
    data = predictions_data(frame, as_codes=True)
    correct, valid = correctness(data.y_true, data.y_pred, data.missing)
    # The reference: Python's == on the labels as objects, missing entries not correct.
    objects = frame.to_numpy(dtype=object)
    missing = frame.isna().to_numpy()
    expected_valid = ~missing[:, 1:] & ~missing[:, [0]]
    expected = np.array(
        [
            [bool(expected_valid[r, k] and objects[r, 0] == objects[r, k + 1]) for k in range(3)]
            for r in range(n)
        ],
        dtype=bool,
    )
    assert_array_equal(valid, expected_valid)
    assert_array_equal(correct, expected & expected_valid)


@given(
    seed=st.integers(0, 2**16),
    n=st.integers(1, 70),
    m=st.integers(2, 6),
    missing_share=st.sampled_from([0.0, 0.2]),
)
def test_packed_pair_counts_equal_matrix_products(seed, n, m, missing_share):
    rng = np.random.default_rng(seed)
    valid = rng.random((n, m)) >= missing_share
    correct = (rng.random((n, m)) < 0.6) & valid
    i, j = np.triu_indices(m, 1)
    out = PackedCorrectness(correct, valid).pair_counts(i, j)
    right, usable = correct.astype(float), valid.astype(float)
    wrong = usable - right
    expected = {
        "n": (usable.T @ usable)[i, j],
        "correct_1": (right.T @ usable)[i, j],
        "correct_2": (right.T @ usable)[j, i],
        "only_1": (right.T @ wrong)[i, j],
        "only_2": (right.T @ wrong)[j, i],
    }
    for key, values in expected.items():
        assert_array_equal(out[key], values)
    with np.errstate(invalid="ignore"):
        accuracy = right.sum(axis=0) / usable.sum(axis=0)
    assert_array_equal(PackedCorrectness(correct, valid).accuracies(), accuracy)


def test_mcnemar_on_string_labels_equals_integer_labels():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 400)
    ints = pd.DataFrame(
        {"y": y, **{f"m{k}": np.where(rng.random(400) < 0.8, y, 0) for k in range(4)}}
    )
    words = ints.replace({0: "cat", 1: "dog", 2: "eel"}).astype("str")
    mine, expected = words.cmp.mcnemar(), ints.cmp.mcnemar()
    pd.testing.assert_frame_equal(as_strings(mine), as_strings(expected))


# --------------------------------------------------------------------------- bootstrap


def test_loss_bootstrap_weights_form_equals_gathered_means():
    from pdcompare.stats.bootstrap import _index_chunks, paired_bootstrap

    rng = np.random.default_rng(4)
    y = rng.normal(size=300)
    preds = y[:, None] + rng.normal(0, [0.3, 0.5, 0.7], size=(300, 3))
    dist = paired_bootstrap(y, preds, "mean_absolute_error", n_resamples=50, random_state=9)
    losses = np.abs(preds - y[:, None])
    index = np.concatenate(list(_index_chunks(300, 50, np.random.default_rng(9), 16)))
    expected = np.stack([losses[rows].mean(axis=0) for rows in index])
    assert_allclose(dist.replicates, expected, rtol=1e-13)


# --------------------------------------------------------------------------- ranks


@given(st.lists(st.sampled_from([0.1, 0.2, 0.3, np.inf, -1.0]), min_size=1, max_size=20))
def test_min_rank_equals_scipy(values):
    key = np.array(values)
    assert_array_equal(min_rank(key), stats.rankdata(key, method="min"))


def test_first_summary_does_not_import_scipy_stats():
    import subprocess
    import sys

    code = (
        "import sys, numpy as np, pandas as pd, pdcompare\n"
        "pd.DataFrame(np.arange(20.0).reshape(4, 5)).cmp.summary(cv=5)\n"
        "print('scipy.stats' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    assert pdcompare.summary  # the function under test


def test_benchmark_rank_sums_and_order_are_computed_once_and_match_scipy():
    from pdcompare.inputs.benchmark import benchmark_data

    rng = np.random.default_rng(4)
    values = np.round(rng.normal(0.8, 0.03, (6, 12)), 2)  # rounded: tied ranks
    frame = pd.DataFrame(values, index=list("abcdef"), columns=pd.Index(range(12), name="dataset"))
    data = benchmark_data(frame)
    expected = np.sum([stats.rankdata(-values[:, d]) for d in range(12)], axis=0)
    assert_array_equal(data.rank_sums, expected)
    # Best first: lowest rank sum, ties broken by the larger mean.
    written = sorted(range(6), key=lambda k: (expected[k], -values[k].mean()))
    assert_array_equal(data.order, written)
    assert data.rank_sums is data.rank_sums  # computed once
    assert data.order is data.order

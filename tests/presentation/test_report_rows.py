"""``report.rows``: a result frame's columns as numpy arrays, read once, for the report's words.

Reference: pandas itself, reading the same frame the ordinary way
(``frame[column].to_numpy(...)``, ``frame.loc[mask]``, ``np.isin``), on the
result frames of real tests and on generated frames with every kind of column
a result frame can hold (categorical model names with missing ones, floats
with NaN, bools, Arrow strings, nullable floats).
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from pdcompare.compare.analysis import analyse
from pdcompare.datasets import load_benchmark, load_grid_search_scores
from pdcompare.inputs.attrs import ATTRS_KEY
from pdcompare.presentation.report.rows import in_names, rows_of


def as_pandas_reads(frame, column):
    """The column as pandas reads it: names and strings as objects, numbers as numbers."""
    values = frame[column]
    if isinstance(values.dtype, np.dtype) and values.dtype != object:
        return values.to_numpy()  # float, int, bool as stored
    if isinstance(values.dtype, pd.CategoricalDtype) or not pd.api.types.is_numeric_dtype(
        values.dtype
    ):
        return values.to_numpy(dtype=object)
    if pd.api.types.is_bool_dtype(values.dtype):
        return values.to_numpy(dtype=bool)
    return values.to_numpy(dtype=float, na_value=np.nan)


def assert_same(ours, theirs):
    assert ours.dtype == theirs.dtype
    if ours.dtype == object:
        # Missing (None, NaN, pd.NA) in both; everything else the same Python value.
        assert [None if pd.isna(x) else x for x in ours] == [
            None if pd.isna(x) else x for x in theirs
        ]
    else:
        assert_array_equal(ours, theirs)


@pytest.mark.parametrize("rope", [None, 0.01])
def test_result_frames_read_as_pandas_reads_them(rope):
    for frame in (load_grid_search_scores(), load_benchmark()):
        found = analyse(frame, rope=rope)
        for result in (found.summary, found.significance, found.bayes, found.effect_sizes):
            if result is None:
                continue
            rows = rows_of(result)
            stored = result.attrs[ATTRS_KEY]
            assert (rows.info.test, rows.info.alpha) == (stored["test"], stored.get("alpha"))
            assert rows.info.stated == frozenset(stored)
            assert_same(rows.index, result.index.to_numpy(dtype=object))
            mask = np.arange(len(result)) % 2 == 0
            part = rows.take(mask)
            assert part.info is rows.info  # read once, shared by the rows taken
            for column in result.columns:
                assert_same(rows[column], as_pandas_reads(result, column))
                assert_same(part[column], as_pandas_reads(result.loc[mask], column))
            assert_same(part.index, result.index[mask].to_numpy(dtype=object))
            assert len(part) == mask.sum()
            assert len(rows) == len(result)


@settings(max_examples=40, deadline=None)
@given(
    names=st.lists(st.sampled_from(["a", "b, c", "d", "é"]), min_size=1, max_size=8),
    values=st.lists(st.one_of(st.floats(allow_nan=True), st.none()), min_size=8, max_size=8),
    missing=st.integers(0, 7),
    picks=st.lists(st.integers(0, 7), max_size=8),
)
def test_any_column_kind_reads_as_pandas_reads_it(names, values, missing, picks):
    n = len(names)
    model = pd.Categorical(names, categories=sorted(set(names)))
    model[missing % n] = np.nan  # a missing model name: code -1
    frame = pd.DataFrame(
        {
            "model_1": model,
            "plain": pd.Series(np.asarray(values[:n], dtype=float)),
            "nullable": pd.array(values[:n], dtype="Float64"),
            "reject": np.asarray([v is None for v in values[:n]]),
            "decision": pd.array([str(v) for v in values[:n]], dtype="string"),
            "objects": pd.Series([v if v is None else str(v) for v in values[:n]], dtype=object),
        }
    )
    frame.attrs[ATTRS_KEY] = {"models": sorted(set(names))}
    attrs = {**frame.attrs}
    rows = rows_of(frame)
    positions = np.array([p % n for p in picks], dtype=int)
    part = rows.take(positions)
    for column in frame.columns:
        assert_same(rows[column], as_pandas_reads(frame, column))
        assert_same(part[column], as_pandas_reads(frame.iloc[positions], column))
        assert not rows[column].flags.writeable  # the words read, never write
    assert frame.attrs == attrs  # the caller's frame is left as it was
    assert rows_of(rows) is rows


def test_a_column_that_is_not_there_names_the_columns():
    rows = rows_of(pd.DataFrame({"pvalue": [0.1]}))
    with pytest.raises(KeyError, match=r"no column 'statistic'; it has \['pvalue'\]"):
        rows["statistic"]
    with pytest.raises(TypeError):
        rows_of([0.1])


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.sampled_from(["a", "b", "c", "d", 1, 2.0]), max_size=12),
    names=st.lists(st.sampled_from(["a", "c", 1, 3]), max_size=4),
)
def test_in_names_is_numpy_isin(values, names):
    array = np.asarray(values, dtype=object).reshape(-1)
    expected = np.array([any(value == name for name in names) for value in values], dtype=bool)
    assert_array_equal(in_names(array, names), expected)
    if names and values:
        assert_array_equal(in_names(array, names), np.isin(array, np.asarray(names, dtype=object)))


def test_without_pandas_column_arrays_the_public_reads_give_the_same(monkeypatch):
    # column_values hands over pandas' stored array (a private accessor); a pandas without
    # it reads through iloc: the same arrays either way.
    found = analyse(load_grid_search_scores(), rope=0.01)
    frames = (found.summary, found.significance, found.bayes, found.effect_sizes)
    fast = [{c: rows_of(f)[c] for c in f.columns} for f in frames]
    monkeypatch.delattr(pd.DataFrame, "_get_column_array")
    for frame, expected in zip(frames, fast, strict=True):
        rows = rows_of(frame)
        for column, values in expected.items():
            assert_same(rows[column], values)

"""A polars lazy frame streamed to an items frame: the pandas path's frame, batch by batch.

References: pandas' own group-by (mean, count, ``var(ddof=1)``) of the same rows,
and ``from_items`` on the pandas table. The running moments (Chan et al.'s
update) are checked against ``numpy.var`` for any split of the rows into
batches, including the switch from 0/1 scores (no sums of squares kept) to
graded ones.
"""

import json
from itertools import pairwise

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.inputs.items import items_data
from pdcompare.stats.cell_moments import CellMoments

pl = pytest.importorskip("polars")
pytest.importorskip("narwhals")
from pdcompare.inputs.polars_stream import streamed_cells, streams  # noqa: E402


def rows_table(seed, n_models=3, n_items=12, n_samples=4, binary=True, text_items=False):
    rng = np.random.default_rng(seed)
    cells = [(m, i) for m in range(n_models) for i in range(n_items)]
    rows = [(f"m{m}", i, k) for m, i in cells for k in range(n_samples)]
    table = pd.DataFrame(rows, columns=["model", "item", "sample"])
    scores = rng.random(len(table))
    table["score"] = (scores < 0.6).astype(float) if binary else (100 * scores).round(2)
    if text_items:
        table["item"] = "q" + table["item"].astype(str).str.zfill(3)
    return table.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def lazy_scan(table, tmp_path, row_group_size=7, categorical=False):
    frame = pl.from_pandas(table)
    if categorical:
        frame = frame.with_columns(pl.col("model").cast(pl.Categorical))
    path = tmp_path / "rows.parquet"
    frame.write_parquet(path, row_group_size=row_group_size)
    return pl.scan_parquet(path)


@settings(max_examples=40, deadline=None)
@given(
    cuts=st.lists(st.integers(1, 59), max_size=8),
    first_binary=st.integers(0, 60),
    seed=st.integers(0, 10**6),
)
def test_running_moments_equal_numpy_for_any_batches(cuts, first_binary, seed):
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, 9, 60)
    values = rng.integers(0, 2, 60).astype(float)
    values[first_binary:] += rng.random(60 - first_binary) * 50  # graded from here on
    values[rng.random(60) < 0.1] = np.nan
    running = CellMoments(9)
    bounds = [0, *sorted(set(cuts)), 60]
    for start, stop in pairwise(bounds):
        running.add(cells[start:stop], values[start:stop])
    variance = running.variance()
    for cell in range(9):
        own = values[(cells == cell) & ~np.isnan(values)]
        assert running.count[cell] == own.size
        if own.size:
            assert_allclose(running.mean[cell], own.mean(), rtol=1e-12, atol=1e-12)
        if own.size > 1:
            assert_allclose(variance[cell], own.var(ddof=1), rtol=1e-10, atol=1e-12)
        else:
            assert np.isnan(variance[cell])
    missing = np.bincount(cells[np.isnan(values)], minlength=9)
    assert_allclose(running.missing if missing.any() else 0, missing)
    assert running.binary == (first_binary >= 60)


def test_scattered_batches_take_the_distinct_cells():
    # cells far apart in one batch: reduced over its distinct cells, not their range
    running = CellMoments(10**7)
    running.add(np.array([5, 9_999_990, 5]), np.array([1.0, 2.0, 3.0]))
    assert running.count[5] == 2
    assert running.mean[5] == 2.0
    assert running.variance()[5] == 2.0
    assert running.count[9_999_990] == 1


@pytest.mark.parametrize("binary", [True, False])
@pytest.mark.parametrize("text_items", [False, True])
@pytest.mark.parametrize("categorical", [False, True])
def test_streamed_cells_equal_pandas_group_by(tmp_path, binary, text_items, categorical):
    table = rows_table(1, binary=binary, text_items=text_items)
    lazy = lazy_scan(table, tmp_path, categorical=categorical)
    assert streams(lazy, model="model", item="item")
    cells = streamed_cells(lazy, model="model", item="item", score="score", sample="sample")
    grouped = table.groupby(["model", "item"])["score"]
    for name, got in (("mean", cells.mean), ("count", cells.count), ("var", cells.var)):
        if got is None:  # 0/1 scores: the variances follow from the means
            assert binary
            assert name == "var"
            continue
        expected = grouped.agg(name).unstack()  # noqa: PD010 (a Series to models x items)
        assert expected.index.tolist() == cells.models.tolist()
        assert expected.columns.tolist() == cells.items.tolist()
        assert_allclose(got, expected.to_numpy(), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("binary", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
def test_from_items_on_a_lazy_scan_equals_the_pandas_path(tmp_path, binary, sparse):
    table = rows_table(2, n_models=4, n_items=30, binary=binary)
    if sparse:  # ids far apart: a binary search instead of a table of offsets
        table["item"] = table["item"] * 10**9
    table["cluster"] = table["item"] // 5
    expected = pdcompare.from_items(table, sample="sample", cluster="cluster")
    got = pdcompare.from_items(lazy_scan(table, tmp_path), sample="sample", cluster="cluster")
    got = got.loc[expected.index, expected.columns]
    assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)
    ours, theirs = items_data(got), items_data(expected)
    for name in ("samples", "within_var"):
        assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=0, atol=1e-12)
    same_clusters = pd.factorize(ours.cluster)[0] == pd.factorize(theirs.cluster)[0]
    assert same_clusters.all()  # the same partition of the items (numbered apart)
    columns = ["mean", "se", "within_item_share"]
    assert_allclose(
        got.cmp.summary()[columns].sort_index(),
        expected.cmp.summary()[columns].sort_index(),
        rtol=1e-12,
    )


def test_missing_scores_and_keys_as_on_a_pandas_table(tmp_path):
    table = rows_table(3)
    table.loc[[0, 5], "score"] = np.nan
    table["item"] = table["item"].astype("Int64")
    table.loc[7, "item"] = pd.NA  # a row of no item: no cell, as in a group-by
    lazy = lazy_scan(table, tmp_path)
    message = r"2 rows have no score \(NaN in column 'score'"
    with pytest.raises(ValueError, match=message):
        pdcompare.from_items(lazy, sample="sample")
    with pytest.warns(UserWarning, match=message):
        got = pdcompare.from_items(lazy, sample="sample", nan_policy="omit")
    with pytest.warns(UserWarning, match=message):
        expected = pdcompare.from_items(table.dropna(subset=["item"]), sample="sample",
                                        nan_policy="omit")  # fmt: skip
    got = got.loc[expected.index, expected.columns]
    assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)
    assert_allclose(items_data(got).samples, items_data(expected).samples)


def test_repeated_rows_without_sample_are_refused_naming_the_cell(tmp_path):
    lazy = lazy_scan(rows_table(4), tmp_path)
    with pytest.raises(ValueError, match=r"Model 'm0' has 4 rows for item 0\. .*`sample=`"):
        pdcompare.from_items(lazy)


def test_a_binomial_design_is_stored_as_two_words_and_survives_a_save(tmp_path):
    table = rows_table(5)
    frame = pdcompare.from_items(lazy_scan(table, tmp_path), sample="sample")
    stored = frame.attrs["pdcompare"]["items"]
    assert stored["samples"] == {"fill": 4}
    assert stored["within_var"] == "binomial"
    json.dumps(frame.attrs)  # JSON-able, as section 34 asks
    path = tmp_path / "frame.parquet"
    frame.to_parquet(path)
    back = pd.read_parquet(path)
    expected = pdcompare.from_items(table, sample="sample")
    for read in (frame, back, back.cmp.set_design(items=True, cluster=dict.fromkeys(back, "c")
                                                  | {0: "d"})):  # fmt: skip
        data = items_data(read)
        samples = np.full(read.shape, 4.0)
        written = samples / (samples - 1) * read.to_numpy() * (1 - read.to_numpy())
        assert_allclose(data.within_var, written, rtol=1e-12)
        reference = items_data(expected.loc[read.index, read.columns])
        assert_allclose(data.within_var, reference.within_var, rtol=0, atol=1e-12)
    assert_allclose(
        back.cmp.summary()["within_item_share"].sort_index(),
        expected.cmp.summary()["within_item_share"].sort_index(),
        rtol=1e-12,
    )


def test_graded_scores_keep_their_variances(tmp_path):
    frame = pdcompare.from_items(lazy_scan(rows_table(6, binary=False), tmp_path), sample="sample")
    stored = frame.attrs["pdcompare"]["items"]
    assert isinstance(stored["within_var"], list)
    assert stored["samples"] == {"fill": 4}


def test_other_tables_take_the_engines_group_by():
    lazy = pl.LazyFrame({"model": [1, 2], "item": [0.5, 1.5], "score": [1.0, 0.0]})
    assert not streams(lazy, model="model", item="item")  # numbered models: no categorical
    assert not streams(lazy.collect(), model="model", item="item")  # eager: in memory already
    text = pl.LazyFrame({"model": ["a"], "item": [1.5], "score": [1.0]})
    assert not streams(text, model="model", item="item")  # float items


@settings(max_examples=25, deadline=None)
@given(
    data=st.data(),
    n_models=st.integers(2, 4),
    n_items=st.integers(2, 6),
    binary=st.booleans(),
    row_group=st.integers(1, 9),
)
def test_any_lazy_scan_gives_the_pandas_frame(data, n_models, n_items, binary, row_group):
    import tempfile
    from pathlib import Path

    samples = st.lists(
        st.sampled_from([0.0, 1.0]) if binary else st.floats(-5, 5, allow_nan=False),
        min_size=1,
        max_size=3,
    )
    rows = [
        (f"m{m}", i, k, score)
        for m in range(n_models)
        for i in range(n_items)
        for k, score in enumerate(data.draw(samples))
    ]
    table = pd.DataFrame(rows, columns=["model", "item", "sample", "score"])
    table = table.sample(frac=1.0, random_state=data.draw(st.integers(0, 99)))
    extra = pd.DataFrame({"model": [None], "item": [0], "sample": [0], "score": [1.0]})
    with_null = pd.concat([table, extra], ignore_index=True)  # a row of no model: no cell
    expected = pdcompare.from_items(table, sample="sample")
    with tempfile.TemporaryDirectory() as folder:
        lazy = lazy_scan(with_null, Path(folder), row_group_size=row_group)
        got = pdcompare.from_items(lazy, sample="sample")
    assert got.index.tolist() == sorted(expected.index)
    got = got.loc[expected.index, expected.columns]
    assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)
    ours, theirs = items_data(got), items_data(expected)
    for name in ("samples", "within_var"):
        if getattr(theirs, name) is None:
            assert getattr(ours, name) is None
        else:
            assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=1e-12, atol=1e-12)


def test_an_empty_scan_is_refused_in_words(tmp_path):
    lazy = lazy_scan(rows_table(7).iloc[:0], tmp_path)
    with pytest.raises(ValueError, match="The table has no scored rows"):
        pdcompare.from_items(lazy, sample="sample")

"""Arrow in: polars (eager, lazy), pyarrow and DuckDB tables give the pandas path's frames."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.inputs.items import items_data

pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")
duckdb = pytest.importorskip("duckdb")
nw = pytest.importorskip("narwhals")

ENGINES = {
    "polars": lambda t: pl.from_pandas(t),
    "polars-lazy": lambda t: pl.from_pandas(t).lazy(),
    "pyarrow": lambda t: pa.Table.from_pandas(t, preserve_index=False),
    "duckdb": lambda t: duckdb.from_arrow(pa.Table.from_pandas(t, preserve_index=False)),
}


def item_table(seed=0, n=3000):
    rng = np.random.default_rng(seed)
    table = pd.DataFrame(
        {
            "model": rng.choice(["m-a", "m-b", "m-c", "m-d"], n),
            "task": rng.choice(["arc", "gsm8k"], n),
            "item": rng.integers(0, 40, n),
            "epoch": rng.integers(0, 1000, n),
            "score": rng.random(n).round(3),
        }
    ).drop_duplicates(["model", "task", "item", "epoch"])
    table["cluster"] = table["task"] + "-" + (table["item"] // 5).astype(str)
    return table


@pytest.mark.parametrize("engine", list(ENGINES))
def test_items_equal_the_pandas_path(engine):
    table = item_table()
    keys = {"sample": "epoch", "cluster": "cluster", "task": "task"}
    expected = pdcompare.from_items(table, **keys)
    got = pdcompare.from_items(ENGINES[engine](table), **keys)
    assert sorted(got.index) == got.index.tolist()  # an engine's frame comes out sorted
    got = got.loc[expected.index, expected.columns]
    assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)
    for column in ("mean", "se", "n_clusters", "samples_per_item", "within_item_share"):
        assert_allclose(
            got.cmp.summary()[column].loc[expected.index],
            expected.cmp.summary()[column].loc[expected.index],
            rtol=1e-12,
            atol=1e-12,
        )
    pairs = ["m-a", "m-b"]
    assert_allclose(
        got.cmp.ttest(*pairs)[["statistic", "pvalue", "se"]].to_numpy(),
        expected.cmp.ttest(*pairs)[["statistic", "pvalue", "se"]].to_numpy(),
        rtol=1e-12,
    )


@pytest.mark.parametrize("engine", list(ENGINES))
def test_booleans_and_missing_scores_as_in_pandas(engine):
    table = pd.DataFrame(
        {
            "model": ["a", "a", "a", "b", "b", "b", "b"],
            "item": ["q1", "q2", "q3", "q1", "q2", "q3", "q3"],
            "score": [1.0, 0.0, None, 1.0, 1.0, 0.0, np.nan],
        }
    )
    for source in (table, ENGINES[engine](table)):  # a missing score is refused, counted
        with pytest.raises(ValueError, match=r"2 rows have no score .*model '[ab]', item 'q3'"):
            pdcompare.from_items(source)
    correct = pd.DataFrame(
        {"model": ["a", "a", "b", "b"], "item": [1, 2, 1, 2], "score": [True, False, True, True]}
    )
    got = pdcompare.from_items(ENGINES[engine](correct))
    assert got.to_numpy().tolist() == [[1.0, 0.0], [1.0, 1.0]]


@pytest.mark.parametrize("engine", list(ENGINES))
def test_long_tables_equal_the_pandas_path(engine):
    rng = np.random.default_rng(1)
    table = pd.DataFrame(
        [(m, d, s, rng.random()) for m in "xyz" for d in ("iris", "wine") for s in range(4)],
        columns=["model", "dataset", "split", "score"],
    )
    expected = pdcompare.from_long(table, split="split")
    got = pdcompare.from_long(ENGINES[engine](table), split="split")
    pd.testing.assert_frame_equal(got, expected, check_exact=False, rtol=0, atol=1e-12)
    runs = table.loc[table["dataset"] == "iris"].drop(columns="dataset")
    expected = pdcompare.from_long(runs, split="split", paired=False)
    got = pdcompare.from_long(ENGINES[engine](runs), split="split", paired=False)
    pd.testing.assert_frame_equal(got, expected)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_battles_count_the_same_wins(engine):
    rng = np.random.default_rng(2)
    n = 500
    a = rng.choice(["p", "q", "r"], n)
    b = np.where(a == "p", "q", np.where(a == "q", "r", "p"))
    winner = rng.choice(["model_a", "model_b", "tie"], n)
    table = pd.DataFrame({"model_a": a, "model_b": b, "winner": winner})
    expected = pdcompare.from_battles(table)
    got = pdcompare.from_battles(ENGINES[engine](table))
    pd.testing.assert_frame_equal(got, expected)
    assert got.attrs["pdcompare"]["ties"] == expected.attrs["pdcompare"]["ties"]


def test_a_lazy_table_is_collected_only_as_its_reduction(monkeypatch, tmp_path):
    table = item_table(n=4000)
    path = tmp_path / "rows.parquet"
    table.to_parquet(path)
    heights = []
    original = nw.LazyFrame.collect

    engines = []

    def collect(self, *args, **kwargs):
        out = original(self, *args, **kwargs)
        heights.append(out.shape[0])
        engines.append(kwargs.get("engine"))
        return out

    monkeypatch.setattr(nw.LazyFrame, "collect", collect)
    frame = pdcompare.from_items(pl.scan_parquet(path), sample="epoch", task="task")
    n_cells = frame.shape[0] * frame.shape[1]
    assert heights == [n_cells]  # one collect, of the per-cell reduction
    assert n_cells < len(table) / 10
    # by polars' streaming engine (the rows read in batches), where polars has it
    version = tuple(int(part) for part in pl.__version__.split(".")[:2])
    assert engines == (["streaming"] if version >= (1, 23) else [None])
    expected = pdcompare.from_items(table, sample="epoch", task="task")
    pd.testing.assert_frame_equal(frame, expected.loc[frame.index, frame.columns], rtol=1e-12)


def test_wrong_column_names_name_the_keyword():
    table = pl.DataFrame({"llm": ["a"], "question": ["q"], "score": [1.0]})
    with pytest.raises(ValueError, match=r"`model`: the table has no column 'model'; its columns"):
        pdcompare.from_items(table)
    with pytest.raises(ValueError, match=r"`item`: the table has no column 'item'"):
        pdcompare.from_items(table, model="llm")
    with pytest.raises(ValueError, match=r"`dataset`: the table has no column 'dataset'"):
        pdcompare.from_long(table, model="llm")
    with pytest.raises(ValueError, match=r"`winner`: the table has no column 'winner'"):
        pdcompare.from_battles(table, model_a="llm", model_b="question")


def test_a_text_score_is_refused_naming_the_column():
    relation = duckdb.sql("select 'a' as model, 'q1' as item, 'correct' as verdict")
    with pytest.raises(
        TypeError, match=r"`score`: column 'verdict' must hold numbers.*its type is String"
    ):
        pdcompare.from_items(relation, score="verdict")


@pytest.mark.slow
def test_import_pdcompare_loads_no_arrow_library():
    code = (
        "import sys, pandas; before = set(sys.modules); import pdcompare; "
        "new = [m for m in ('narwhals', 'polars', 'pyarrow', 'duckdb') "
        "if m in sys.modules and m not in before]; print(new)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@settings(max_examples=15, deadline=None)
@given(data=st.data(), n_models=st.integers(2, 3), n_items=st.integers(2, 5))
def test_any_table_gives_the_pandas_frame_through_polars(data, n_models, n_items):
    samples = st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=4)
    rows = [
        (f"m{m}", i, k, score)
        for m in range(n_models)
        for i in range(n_items)
        for k, score in enumerate(data.draw(samples))
    ]
    table = pd.DataFrame(rows, columns=["model", "item", "sample", "score"])
    expected = pdcompare.from_items(table, sample="sample")
    got = pdcompare.from_items(pl.from_pandas(table), sample="sample")
    got = got.loc[expected.index, expected.columns]
    assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)
    ours, theirs = items_data(got), items_data(expected)
    for name in ("samples", "within_var"):
        if getattr(theirs, name) is None:
            assert getattr(ours, name) is None
        else:
            assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=0, atol=1e-12)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_one_task_equals_the_pandas_path_through_the_coded_cells(engine):
    # Without `task=` the engine numbers the models and items itself (arrow.coded_cells)
    table = item_table(seed=5).query("task == 'arc'").drop(columns="task")
    keys = {"sample": "epoch", "cluster": "cluster"}
    expected = pdcompare.from_items(table, **keys)
    got = pdcompare.from_items(ENGINES[engine](table), **keys)
    assert got.index.tolist() == sorted(expected.index)
    assert got.columns.tolist() == sorted(expected.columns)
    got = got.loc[expected.index, expected.columns]
    assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)
    ours, theirs = items_data(got), items_data(expected)
    for name in ("samples", "within_var"):
        assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=0, atol=1e-12)
    assert_allclose(
        got.cmp.summary()["se"].sort_index(),
        expected.cmp.summary()["se"].sort_index(),
        rtol=1e-12,
    )  # the clustered standard errors: the same clusters


def test_categorical_models_and_a_lazy_scan_of_one_task(monkeypatch, tmp_path):
    table = item_table(n=4000).query("task == 'gsm8k'").drop(columns=["task", "cluster"])
    path = tmp_path / "rows.parquet"
    categorical = pl.from_pandas(table).with_columns(pl.col("model").cast(pl.Categorical))
    categorical.write_parquet(path, row_group_size=500)
    batches, collected = [], []
    original_batches, original_all = pl.LazyFrame.collect_batches, pl.collect_all

    def collect_batches(self, *args, **kwargs):
        for batch in original_batches(self, *args, **kwargs):
            batches.append(batch.height)
            yield batch

    def collect_all(queries, *args, **kwargs):
        out = original_all(queries, *args, **kwargs)
        collected.extend(frame.height for frame in out)
        return out

    monkeypatch.setattr(pl.LazyFrame, "collect_batches", collect_batches)
    monkeypatch.setattr(pl, "collect_all", collect_all)
    monkeypatch.setattr(nw.LazyFrame, "collect", lambda *a, **k: pytest.fail("collected"))
    frame = pdcompare.from_items(pl.scan_parquet(path), sample="epoch")
    # streamed (inputs/polars_stream.py): the distinct items and models, then the rows in
    # batches of a row group, never all at once
    assert collected == [frame.shape[1], frame.shape[0]]
    assert sum(batches) == len(table)
    assert max(batches) <= 500 < len(table)
    assert frame.index.tolist() == ["m-a", "m-b", "m-c", "m-d"]  # labels, not categories
    assert frame.index.dtype != "category"
    expected = pdcompare.from_items(table, sample="epoch").loc[frame.index, frame.columns]
    assert_allclose(frame.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)


def test_categories_no_row_has_are_not_models():
    table = pd.DataFrame(
        {"model": ["b", "b", "a", "a"], "item": [1, 2, 1, 2], "score": [1.0, 0.0, 1.0, 1.0]}
    )
    expected = pdcompare.from_items(table).sort_index()
    enum = pl.from_pandas(table).with_columns(pl.col("model").cast(pl.Enum(["z", "b", "a"])))
    dictionary = pa.table(
        {
            "model": pa.DictionaryArray.from_arrays(
                pa.array([1, 1, 2, 2], pa.int32()), pa.array(["z", "b", "a"])
            ),
            "item": [1, 2, 1, 2],
            "score": [1.0, 0.0, 1.0, 1.0],
        }
    )
    for source in (enum, enum.lazy(), dictionary):
        got = pdcompare.from_items(source)
        assert got.index.tolist() == ["a", "b"]  # sorted labels; "z" has no row
        assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=0, atol=0)


@pytest.mark.parametrize("ids", [[-3, 0, 7, 2], [10**12, 5, -3, 40], [4, 4, 6, 5]])
def test_integer_items_dense_or_sparse_give_the_pandas_frame(ids):
    # dense integer ids are their own codes (offset), sparse ones are dictionary-encoded
    rng = np.random.default_rng(7)
    items = np.repeat(ids, 3)
    table = pd.DataFrame(
        {
            "model": np.tile(["b", "a", "c"], len(ids)),
            "item": items,
            "score": rng.random(items.size).round(4),
            "epoch": np.arange(items.size),
        }
    )
    expected = pdcompare.from_items(table, sample="epoch")
    got = pdcompare.from_items(pa.Table.from_pandas(table), sample="epoch")
    assert got.columns.tolist() == sorted(set(ids))
    got = got.loc[expected.index, expected.columns]
    assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)

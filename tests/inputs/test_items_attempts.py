"""from_items(estimand="pass@k" | "pass^k", k=): per-item estimates of repeated attempts.

DESIGN section 33. The per-cell reference is the binomial-coefficient form
(scipy.special.comb) of Chen et al. 2021 (pass@k) and τ-bench (pass^k).
"""

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy.special import comb

import pdcompare
from pdcompare.inputs.items import items_data


def attempts_table(n_models=3, n_items=30, attempts=8, seed=0, ragged=False):
    """Models x tasks x attempts of 0/1 successes, each task with its own success probability."""
    rng = np.random.default_rng(seed)
    p = rng.beta(0.7, 0.7, n_items)
    rows = []
    for m in range(n_models):
        for i in range(n_items):
            n = attempts - (i % 3 if ragged else 0)
            success = rng.random(n) < np.clip(p[i] - 0.1 * m, 0, 1)
            rows += [
                (f"m{m}", f"t{i:02d}", e, int(s), f"r{i // 5}") for e, s in enumerate(success)
            ]
    return pd.DataFrame(rows, columns=["model", "task", "attempt", "score", "repo"])


def written_out(table, estimand, k):
    """Each model x task's estimate from comb(), in the pandas path's order."""
    cells = table.groupby(["model", "task"], sort=False)["score"].agg(["sum", "count"])
    n, c = cells["count"].to_numpy(), cells["sum"].to_numpy()
    value = 1 - comb(n - c, k) / comb(n, k) if estimand == "pass@k" else comb(c, k) / comb(n, k)
    return pd.Series(value, index=cells.index).unstack("task")  # noqa: PD010


@pytest.mark.parametrize("estimand", ["pass@k", "pass^k"])
@pytest.mark.parametrize("k", [1, 3, 8])
def test_cells_are_the_written_out_estimates(estimand, k):
    table = attempts_table(ragged=False)
    frame = pdcompare.from_items(table, item="task", sample="attempt", estimand=estimand, k=k)
    expected = written_out(table, estimand, k)
    assert_allclose(frame.to_numpy(), expected.loc[frame.index, frame.columns].to_numpy(), 1e-12)
    stored = frame.attrs["pdcompare"]["items"]
    assert (stored["estimand"], stored["k"]) == (estimand, k)
    assert np.asarray(stored["attempts"]).tolist() == [[8] * 30] * 3
    data = items_data(frame)
    assert data.samples is None  # one estimate per cell
    assert data.within_var is None
    assert data.meta()["estimand_label"] == estimand.replace("k", str(k))


def test_default_mean_keeps_todays_frame():
    table = attempts_table()
    today = pdcompare.from_items(table, item="task", sample="attempt")
    explicit = pdcompare.from_items(table, item="task", sample="attempt", estimand="mean")
    pd.testing.assert_frame_equal(today, explicit)
    stored = today.attrs["pdcompare"]["items"]
    assert not {"estimand", "k", "attempts"} & set(stored)
    assert "estimand" not in items_data(today).meta()
    # pass@1 is the mean of the attempts, c / n.
    one = pdcompare.from_items(table, item="task", sample="attempt", estimand="pass@k", k=1)
    assert_allclose(one.to_numpy(), today.to_numpy(), rtol=1e-15)


def test_scores_that_are_not_0_1_are_refused_naming_the_column():
    table = attempts_table()
    table["score"] = table["score"].astype(float)
    table.loc[5, "score"] = 0.5
    with pytest.raises(ValueError, match=r"column 'score' must hold 0/1.*model 'm0'.*0\.5"):
        pdcompare.from_items(table, item="task", sample="attempt", estimand="pass@k", k=2)
    booleans = attempts_table().assign(score=lambda t: t["score"].astype(bool))
    frame = pdcompare.from_items(booleans, item="task", sample="attempt", estimand="pass^k", k=2)
    assert frame.shape == (3, 30)


def test_too_few_attempts_refused_or_left_out_and_counted():
    table = attempts_table(ragged=True)  # tasks i % 3 == 1, 2 have 7, 6 attempts
    with pytest.raises(
        ValueError, match=r"Model 'm0' has 7 attempts of item 't01', fewer than k=8"
    ):
        pdcompare.from_items(table, item="task", sample="attempt", estimand="pass@k", k=8)
    with pytest.warns(UserWarning, match=r"left out the 20 items they are in \(kept 10 of 30\)"):
        frame = pdcompare.from_items(
            table, item="task", sample="attempt", estimand="pass@k", k=8, nan_policy="omit"
        )
    assert frame.columns.tolist() == [f"t{i:02d}" for i in range(0, 30, 3)]
    assert frame.attrs["pdcompare"]["items"]["dropped_items"] == 20
    # k = 6: every cell has enough; the attempts recorded range 6 to 8.
    six = pdcompare.from_items(table, item="task", sample="attempt", estimand="pass^k", k=6)
    assert items_data(six).meta()["attempts_range"] == [6, 8]


def test_k_larger_than_every_cell_and_k_missing_are_refused():
    table = attempts_table()
    with pytest.raises(ValueError, match=r"`k`=9 is more than the attempts of every .* at most 8"):
        pdcompare.from_items(table, item="task", sample="attempt", estimand="pass@k", k=9)
    with pytest.raises(ValueError, match=r"needs `k`"):
        pdcompare.from_items(table, item="task", sample="attempt", estimand="pass@k")
    with pytest.raises(ValueError, match=r"`k`=3 is for `estimand='pass@k'`"):
        pdcompare.from_items(table, item="task", sample="attempt", k=3)
    with pytest.raises(ValueError, match=r"`estimand` must be one of"):
        pdcompare.from_items(table, item="task", sample="attempt", estimand="pass@5")
    once = table[table["attempt"] == 0]
    with pytest.raises(ValueError, match=r"without `sample=`"):
        pdcompare.from_items(once, item="task", estimand="pass@k", k=2)


def test_clusters_and_set_design_keep_the_estimand():
    table = attempts_table()
    frame = pdcompare.from_items(
        table, item="task", sample="attempt", cluster="repo", estimand="pass@k", k=4
    )
    assert items_data(frame).n_clusters == 6
    again = frame.cmp.set_design(items=True, cluster={f"t{i:02d}": i // 10 for i in range(30)})
    assert items_data(again).meta()["estimand_label"] == "pass@4"
    assert items_data(again).n_clusters == 3
    # Selecting models and items keeps the attempts aligned.
    assert items_data(frame.iloc[:2, :5]).attempts.shape == (2, 5)


def test_the_estimand_survives_a_parquet_round_trip():
    pytest.importorskip("pyarrow")
    table = attempts_table(ragged=True)
    frame = pdcompare.from_items(table, item="task", sample="attempt", estimand="pass^k", k=3)
    buffer = io.BytesIO()
    frame.to_parquet(buffer)
    back = pd.read_parquet(io.BytesIO(buffer.getvalue()))
    meta = items_data(back).meta()
    assert (meta["estimand_label"], meta["attempts_range"]) == ("pass^3", [6, 8])
    assert_allclose(back.cmp.summary()["se"], frame.cmp.summary()["se"], rtol=1e-12)
    assert "pass^3 over 30 tasks, 6 to 8 attempts each" in back.cmp.report()


@pytest.mark.parametrize("engine", ["polars", "polars-lazy", "pyarrow", "duckdb"])
def test_engines_equal_the_pandas_path(engine):
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    native = {
        "polars": pl.from_pandas,
        "polars-lazy": lambda t: pl.from_pandas(t).lazy(),
        "pyarrow": lambda t: pa.Table.from_pandas(t, preserve_index=False),
        "duckdb": lambda t: duckdb.from_arrow(pa.Table.from_pandas(t, preserve_index=False)),
    }[engine]
    table = attempts_table(ragged=True)
    keys = {"item": "task", "sample": "attempt", "cluster": "repo"}
    for estimand in ("pass@k", "pass^k"):
        expected = pdcompare.from_items(table, **keys, estimand=estimand, k=5)
        got = pdcompare.from_items(native(table), **keys, estimand=estimand, k=5)
        got = got.loc[expected.index, expected.columns]
        assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)
        assert_allclose(got.cmp.ttest()["se"], expected.cmp.ttest()["se"], rtol=1e-12)
        assert items_data(got).meta()["attempts_range"] == [6, 8]
    bad = table.assign(score=table["score"] * 0.5)
    with pytest.raises(ValueError, match=r"must hold 0/1 .* scores item 't\d+' neither 0 nor 1"):
        pdcompare.from_items(native(bad), **keys, estimand="pass@k", k=5)
    with pytest.raises(ValueError, match=r"fewer than k=7"):
        pdcompare.from_items(native(table), **keys, estimand="pass@k", k=7)


def test_dask_equals_the_pandas_path():
    dd = pytest.importorskip("dask.dataframe")
    table = attempts_table(ragged=True)
    keys = {"item": "task", "sample": "attempt", "cluster": "repo"}
    expected = pdcompare.from_items(table, **keys, estimand="pass@k", k=4)
    got = pdcompare.from_items(
        dd.from_pandas(table, npartitions=3), **keys, estimand="pass@k", k=4
    )
    got = got.loc[expected.index, expected.columns]
    assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=0, atol=1e-12)
    bad = table.assign(score=table["score"] * 2)
    with pytest.raises(ValueError, match=r"column 'score' must hold 0/1"):
        pdcompare.from_items(dd.from_pandas(bad, npartitions=2), **keys, estimand="pass@k", k=4)


def test_concat_items_keeps_one_estimand_and_refuses_mixed_ones():
    table = attempts_table(ragged=True)
    keys = {"item": "task", "sample": "attempt"}
    first = pdcompare.from_items(table[table["task"] < "t15"], **keys, estimand="pass@k", k=4)
    second = pdcompare.from_items(table[table["task"] >= "t15"], **keys, estimand="pass@k", k=4)
    suite = pdcompare.concat_items([first, second], keys=["a", "b"])
    meta = items_data(suite).meta()
    assert (meta["estimand_label"], meta["attempts_range"]) == ("pass@4", [6, 8])
    whole = pdcompare.from_items(table, **keys, estimand="pass@k", k=4)
    assert_allclose(suite.to_numpy(), whole.to_numpy(), rtol=1e-15)
    means = pdcompare.from_items(table[table["task"] >= "t15"], **keys)
    with pytest.raises(ValueError, match=r"'a': pass@4, 'b': mean"):
        pdcompare.concat_items([first, means], keys=["a", "b"])


def test_a_result_on_the_estimand_survives_a_parquet_round_trip():
    pytest.importorskip("pyarrow")
    frame = pdcompare.from_items(
        attempts_table(), item="task", sample="attempt", cluster="repo", estimand="pass@k", k=3
    )
    result = frame.cmp.ttest()
    buffer = io.BytesIO()
    result.to_parquet(buffer)
    back = pd.read_parquet(io.BytesIO(buffer.getvalue()))
    assert back.attrs["pdcompare"]["estimand_label"] == "pass@3"
    assert back.attrs["pdcompare"]["attempts_range"] == [8, 8]
    numbers = result.select_dtypes("number").columns
    assert_allclose(back[numbers].to_numpy(float), result[numbers].to_numpy(float), rtol=0)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 4),
    st.integers(2, 6),
    st.integers(1, 7),
    st.sampled_from(["pass@k", "pass^k"]),
    st.integers(0, 2**16),
)
def test_any_table_gives_the_written_out_estimates(n_models, n_items, attempts, estimand, seed):
    rng = np.random.default_rng(seed)
    table = attempts_table(n_models, n_items, attempts, seed=seed)
    table = table.sample(frac=1.0, random_state=seed)  # rows in any order
    k = int(rng.integers(1, attempts + 1))
    frame = pdcompare.from_items(table, item="task", sample="attempt", estimand=estimand, k=k)
    expected = written_out(table, estimand, k)
    assert_allclose(frame.to_numpy(), expected.loc[frame.index, frame.columns].to_numpy(), 1e-12)
    assert ((frame.to_numpy() >= 0) & (frame.to_numpy() <= 1)).all()

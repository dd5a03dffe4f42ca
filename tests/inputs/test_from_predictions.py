"""from_predictions: a long table of per-row predictions -> the predictions frame (section 32)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import pdcompare
from pdcompare import PdcompareWarning
from pdcompare.inputs.kinds import FrameKind, frame_kind

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


def melt(wide: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """The long table of a predictions frame (one row per model x row), shuffled."""
    long = (
        wide.drop(columns="y")
        .rename_axis(index="row", columns="model")
        .reset_index()
        .melt(id_vars="row", var_name="model", value_name="prediction")
    )
    long = long.merge(wide["y"].rename_axis("row").reset_index(), on="row")
    return long.sample(frac=1.0, random_state=seed).reset_index(drop=True)


def wide_frame(seed: int = 0, n: int = 200) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return pd.DataFrame(
        {
            "y": y,
            "forest": np.where(rng.random(n) < 0.85, y, 1 - y),
            "tree": np.where(rng.random(n) < 0.75, y, 1 - y),
            "svc": np.where(rng.random(n) < 0.8, y, 1 - y),
        },
        index=pd.Index(np.arange(n) * 7 % n + 1000, name="row"),
    )


def test_the_hand_written_frame_from_a_shuffled_long_table():
    long = pd.DataFrame(
        {
            "model": ["b", "a", "a", "b", "a", "b"],
            "row": ["r2", "r1", "r2", "r1", "r3", "r3"],
            "prediction": ["cat", "dog", "cat", "cat", "dog", "dog"],
            "y": ["cat", "dog", "cat", "dog", "cat", "cat"],
        }
    )
    got = pdcompare.from_predictions(long)
    expected = pd.DataFrame(
        {"y": ["cat", "dog", "cat"], "b": ["cat", "cat", "dog"], "a": ["cat", "dog", "dog"]},
        index=pd.Index(["r2", "r1", "r3"], name="row"),
    )
    pd.testing.assert_frame_equal(got, expected)  # first appearance order, pandas' dtypes
    assert frame_kind(got) is FrameKind.PREDICTIONS
    assert got.attrs["pdcompare"]["source"] == {
        "format": "long table",
        "model": "model",
        "row": "row",
        "prediction": "prediction",
        "y": "y",
    }


def test_a_comparison_on_it_equals_the_one_on_the_wide_frame():
    wide = wide_frame()
    got = pdcompare.from_predictions(melt(wide)).loc[wide.index, wide.columns]
    pd.testing.assert_frame_equal(got, wide)
    ours = got.cmp.mcnemar("forest", "tree", exact=True)
    # McNemar's exact test written out: discordant pairs b, c, two-sided binomial(b + c, 1/2)
    right_a = wide["forest"] == wide["y"]
    right_b = wide["tree"] == wide["y"]
    b, c = int((right_a & ~right_b).sum()), int((~right_a & right_b).sum())
    from scipy import stats

    reference = stats.binomtest(min(b, c), b + c, 0.5).pvalue
    assert_allclose(ours["pvalue"].iloc[0], reference, rtol=1e-12)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_every_engine_gives_the_pandas_frame(engine):
    rng = np.random.default_rng(3)
    wide = wide_frame(seed=3, n=300)
    wide["proba"] = (0.6 * wide["y"] + 0.7 * rng.random(len(wide))).round(6)  # probabilities
    wide["margin"] = wide["y"] + rng.normal(size=len(wide))  # decision values, every digit
    long = melt(wide, seed=4)
    long["prediction"] = long["prediction"].astype(float)
    expected = pdcompare.from_predictions(long)
    got = pdcompare.from_predictions(ENGINES[engine](long))
    assert got.index.is_monotonic_increasing  # an engine's rows and models come out sorted
    assert list(got.columns) == ["y", *sorted(c for c in expected.columns if c != "y")]
    got = got.loc[expected.index, expected.columns]
    assert_allclose(got.to_numpy(dtype=float), expected.to_numpy(dtype=float), rtol=0, atol=1e-12)
    auc_ours = got.cmp.delong("proba", "margin")[["statistic", "pvalue"]].to_numpy()
    auc_theirs = expected.cmp.delong("proba", "margin")[["statistic", "pvalue"]].to_numpy()
    assert_allclose(auc_ours, auc_theirs, rtol=1e-12)


def test_a_lazy_table_is_collected_once_and_only_its_named_columns(monkeypatch):
    long = melt(wide_frame()).assign(prompt="a long prompt " * 20)
    shapes = []
    original = nw.LazyFrame.collect

    def collect(self, *args, **kwargs):
        out = original(self, *args, **kwargs)
        shapes.append(out.shape)
        return out

    monkeypatch.setattr(nw.LazyFrame, "collect", collect)
    pdcompare.from_predictions(pl.from_pandas(long).lazy())
    assert shapes == [(len(long), 4)]  # the prompt column stays in polars


def test_repeated_keys_are_refused_naming_them():
    long = melt(wide_frame(n=20))
    repeated = pd.concat([long, long.iloc[[3]]], ignore_index=True)
    model, row = long.loc[3, "model"], long.loc[3, "row"]
    for table in (repeated, pl.from_pandas(repeated)):
        with pytest.raises(
            ValueError,
            match=rf"Each \(model, row\) must appear once; 2 rows share their keys, for example "
            rf"model='{model}', row={row}",
        ):
            pdcompare.from_predictions(table)


def test_a_truth_that_differs_between_models_is_refused_naming_the_row():
    long = melt(wide_frame(n=20))
    at = long.index[(long["row"] == 1003) & (long["model"] == "tree")][0]
    long.loc[at, "y"] = 1 - long.loc[at, "y"]
    with pytest.raises(ValueError, match=r"The truth differs between models for 1 rows: row 1003"):
        pdcompare.from_predictions(long)
    with pytest.raises(ValueError, match=r"The truth differs between models for 1 rows: row 1003"):
        pdcompare.from_predictions(duckdb.from_arrow(pa.Table.from_pandas(long)))


def test_a_row_without_some_model_is_refused_omitted_or_kept():
    wide = wide_frame(n=30)
    long = melt(wide)
    gone = long.index[(long["row"] == 1007) & (long["model"] == "svc")]
    long = long.drop(index=gone)
    with pytest.raises(
        ValueError,
        match=r"1 of 30 rows lack the truth or a model's prediction \(row 1007 first, "
        r"lacking 'svc'\).*nan_policy='omit'",
    ):
        pdcompare.from_predictions(long)
    with pytest.warns(PdcompareWarning, match=r"1 of 30 rows lack .*left them out"):
        omitted = pdcompare.from_predictions(long, nan_policy="omit")
    assert 1007 not in omitted.index
    assert len(omitted) == 29
    assert_allclose(
        omitted.loc[wide.index.drop(1007), wide.columns].to_numpy(dtype=float),
        wide.drop(index=1007).to_numpy(dtype=float),
    )
    kept = pdcompare.from_predictions(long, nan_policy="propagate")
    assert np.isnan(kept.loc[1007, "svc"])
    assert kept.loc[1007, "forest"] == wide.loc[1007, "forest"]


def test_bad_keywords_and_columns_are_named():
    long = melt(wide_frame(n=10))
    with pytest.raises(ValueError, match=r"`row`: the table has no column 'row_id'"):
        pdcompare.from_predictions(long, row="row_id")
    with pytest.raises(ValueError, match=r"`prediction`: the table has no column 'label'"):
        pdcompare.from_predictions(pl.from_pandas(long).lazy(), prediction="label")
    with pytest.raises(ValueError, match=r"nan_policy"):
        pdcompare.from_predictions(long, nan_policy="drop")
    named_y = long.assign(model=long["model"].replace({"svc": "y"}))
    with pytest.raises(ValueError, match=r"model 'y' has the name of the truth column"):
        pdcompare.from_predictions(named_y)
    with pytest.raises(TypeError, match=r"`table` must be a pandas, polars or pyarrow table"):
        pdcompare.from_predictions(long.to_numpy())


@settings(max_examples=25, deadline=None)
@given(
    n_models=st.integers(1, 4),
    n_rows=st.integers(2, 30),
    seed=st.integers(0, 10_000),
)
def test_the_long_table_of_a_predictions_frame_reads_back_as_it(n_models, n_rows, seed):
    rng = np.random.default_rng(seed)
    wide = pd.DataFrame(
        {"y": rng.integers(0, 3, n_rows)}
        | {f"m{k}": rng.normal(size=n_rows) for k in range(n_models)},
        index=pd.Index(rng.permutation(n_rows) * 3, name="row"),
    )
    long = melt(wide, seed=seed)
    got = pdcompare.from_predictions(long).loc[wide.index, wide.columns]
    pd.testing.assert_frame_equal(got, wide, check_exact=True)
    polars = pdcompare.from_predictions(pl.from_pandas(long)).loc[wide.index, wide.columns]
    pd.testing.assert_frame_equal(polars, wide, check_exact=True, check_dtype=False)

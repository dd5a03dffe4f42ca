"""from_mlflow: the frame of mlflow.search_runs() (fixture in tests/data/mlflow)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pdcompare

DATA = Path(__file__).resolve().parents[1] / "data" / "mlflow" / "search_runs.csv"
ACCURACY = {
    "svc": [0.91, 0.88, 0.93, 0.90, 0.89],
    "forest": [0.90, 0.89, 0.92, 0.91, 0.88],
    "tree": [0.84, 0.86, 0.85, 0.83, 0.87],
}


@pytest.fixture
def runs():
    return pd.read_csv(DATA)


def test_folds_give_the_scores_frame_written_by_hand(runs):
    frame = pdcompare.from_mlflow(runs, model="model", metric="accuracy")
    expected = pd.DataFrame(
        list(ACCURACY.values()),
        index=pd.Index(list(ACCURACY), name="model"),
        columns=pd.Index(np.arange(5), name="fold"),
    )
    pd.testing.assert_frame_equal(frame, expected)
    assert frame.attrs["pdcompare"]["source"] == {
        "format": "mlflow",
        "model": ["params.model"],
        "split": "params.fold",
        "metric": "metrics.accuracy",
        "runs": 15,  # the FAILED run is left out
    }
    # the corrected t-test reads it once the CV design is given
    result = frame.cmp.corrected_ttest("svc", "tree", cv=5)
    d = np.subtract(ACCURACY["svc"], ACCURACY["tree"])
    t = d.mean() / np.sqrt((1 / 5 + 1 / 4) * d.var(ddof=1))
    assert result["statistic"].iloc[0] == pytest.approx(t)


def test_seeds_give_a_runs_frame(runs):
    frame = pdcompare.from_mlflow(
        runs, model="params.model", metric="metrics.accuracy", paired=False
    )
    assert frame.attrs["pdcompare"]["design"]["paired"] is False
    assert frame.loc["tree"].tolist() == ACCURACY["tree"]


def test_a_cost_metric_is_the_per_split_cost_frame_of_pareto(runs):
    scores = pdcompare.from_mlflow(runs, model="model", metric="accuracy")
    fit_time = pdcompare.from_mlflow(
        runs, model="model", metric="fit_time", greater_is_better=False
    )
    result = scores.cmp.pareto(fit_time, cv=5)
    assert result.loc["tree", "cost"] == pytest.approx(np.mean([0.51, 0.58, 0.72, 0.79, 0.92]))
    assert result.loc["forest", "cost"] == pytest.approx(np.mean([3.48, 3.66, 3.69, 3.83, 3.91]))


def test_several_params_name_the_model(runs):
    frame = pdcompare.from_mlflow(runs, model=["model", "n_splits"], metric="accuracy")
    assert frame.index.tolist() == [
        "model=svc, n_splits=5",
        "model=forest, n_splits=5",
        "model=tree, n_splits=5",
    ]


def test_missing_columns_name_the_keyword_and_the_columns(runs):
    with pytest.raises(ValueError, match=r"`metric`: name the metric.*'metrics.fit_time'"):
        pdcompare.from_mlflow(runs, model="model")
    with pytest.raises(ValueError, match=r"`model`: the runs have no column 'learner' nor"):
        pdcompare.from_mlflow(runs, model="learner", metric="accuracy")
    with pytest.raises(ValueError, match=r"`split`: the runs have no column 'seed'"):
        pdcompare.from_mlflow(runs, model="model", metric="accuracy", split="seed")


def test_two_runs_of_one_fold_are_refused(runs):
    doubled = pd.concat([runs, runs.iloc[[0]]], ignore_index=True)
    with pytest.raises(ValueError, match=r"model 'svc' has 2 runs sharing their params.fold"):
        pdcompare.from_mlflow(doubled, model="model", metric="accuracy")


def test_a_text_metric_is_refused(runs):
    runs["metrics.accuracy"] = runs["metrics.accuracy"].astype(str).str.replace("0.9", "high")
    with pytest.raises(TypeError, match=r"`score`: column 'metrics.accuracy' must hold numbers"):
        pdcompare.from_mlflow(runs, model="model", metric="accuracy")


@pytest.mark.parametrize("engine", ["polars", "polars-lazy", "pyarrow", "duckdb"])
def test_a_table_of_runs_in_any_engine_gives_the_same_frame(runs, engine):
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("narwhals")
    table = {
        "polars": lambda: pl.from_pandas(runs),
        "polars-lazy": lambda: pl.from_pandas(runs).lazy(),
        "pyarrow": lambda: pa.Table.from_pandas(runs, preserve_index=False),
        "duckdb": lambda: duckdb.from_arrow(pa.Table.from_pandas(runs, preserve_index=False)),
    }[engine]()
    expected = pdcompare.from_mlflow(runs, model="model", metric="accuracy")
    got = pdcompare.from_mlflow(table, model="model", metric="accuracy")
    pd.testing.assert_frame_equal(got, expected, check_exact=False, rtol=0, atol=1e-12)

"""The command line on files of other shapes: models as columns (--transpose), data sets as
columns (--benchmark) or as rows, and the refusal of a first column of numbers."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

from pdcompare.cli import main
from pdcompare.datasets import load_benchmark
from pdcompare.inputs.files import read_frame

NUMBERS = (
    "pdcompare: error: the first column holds numbers, not model names: are the models the "
    "columns? pass --transpose; a file of predictions (one row per test sample) names its "
    "truth column with --y COLUMN\n"
)


def call(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def regressors_as_columns():
    """cross_validate on scikit-learn's diabetes data, one column per model (the natural shape)."""
    from sklearn.datasets import load_diabetes
    from sklearn.linear_model import Lasso, LinearRegression, Ridge
    from sklearn.model_selection import cross_validate

    X, y = load_diabetes(return_X_y=True)
    models = {"ridge": Ridge(), "ols": LinearRegression(), "lasso": Lasso(alpha=0.5)}
    return pd.DataFrame(
        {name: cross_validate(model, X, y, cv=5, scoring="r2")["test_score"]
         for name, model in models.items()}
    )  # fmt: skip


@pytest.mark.parametrize("index", [False, True])
def test_models_as_columns_are_refused_then_read_with_transpose(
    capsys, tmp_path, regressors_as_columns, index
):
    # Saved with models as columns, the first model's fold scores became the row names
    # ("Best model: -2831.2...") and that model disappeared, with exit status 0.
    path = tmp_path / "regs_cols.csv"
    regressors_as_columns.to_csv(path, index=index)
    code, out, err = call(capsys, path, "--cv", "5")
    assert (code, out, err) == (2, "", NUMBERS)

    frame = read_frame(path, transpose=True)
    assert list(frame.index) == ["ridge", "ols", "lasso"]
    assert frame.shape == (3, 5)
    assert_allclose(frame.to_numpy(), regressors_as_columns.to_numpy().T, rtol=0, atol=0)
    code, out, err = call(capsys, path, "--cv", "5", "--transpose")
    assert code == 0, err
    means = regressors_as_columns.mean()  # numpy's means of the columns, the reference
    best = means.idxmax()
    assert best == "ols"
    assert f"Best model: {best}" in out
    assert f"{means[best]:.4f}" in out


def test_first_column_of_split_labels_gives_the_split_labels(tmp_path):
    path = tmp_path / "folds.csv"
    path.write_text("fold,a,b\nf0,0.9,0.8\nf1,0.85,0.7\nf2,0.95,0.75\n")
    frame = read_frame(path, transpose=True)
    assert list(frame.columns) == ["f0", "f1", "f2"]
    assert frame.loc["b"].tolist() == [0.8, 0.7, 0.75]


def test_means_table_reads_as_a_benchmark_with_benchmark(capsys, tmp_path):
    # What bench.cmp.means().to_csv() writes was read as 22 CV splits of one data set.
    bench = load_benchmark()
    means = bench.cmp.means()
    path = tmp_path / "means.csv"
    means.to_csv(path)
    frame = read_frame(path, benchmark=True)
    assert frame.columns.name == "dataset"
    assert_allclose(frame.to_numpy(), means.to_numpy(), rtol=0, atol=0)
    code, out, err = call(capsys, path, "--benchmark")
    assert code == 0, err
    assert "Data: 7 models x 22 data sets; higher scores are better." in out
    # The mean ranks, written out: rank within every data set (1 = best), averaged.
    ranks = means.rank(axis=0, ascending=False).mean(axis=1)
    assert f"Best model: {ranks.idxmin()}, mean rank {ranks.min():.2f}" in out


def test_datasets_as_rows_are_refused_then_read_with_transpose(capsys, tmp_path):
    # The shape autorank and scikit-posthocs take: bench.cmp.means().T
    means = load_benchmark().cmp.means()
    path = tmp_path / "means_T.csv"
    means.T.to_csv(path)
    code, out, err = call(capsys, path)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert "models must be the rows: pass --transpose" in err
    frame = read_frame(path, transpose=True)
    assert frame.columns.name == "dataset"  # the first column's name: a benchmark already
    assert_allclose(frame.to_numpy(), means.to_numpy(), rtol=0, atol=0)
    code, out, err = call(capsys, path, "--transpose", "--benchmark")
    assert code == 0, err
    assert "Data: 7 models x 22 data sets" in out


def test_transpose_and_benchmark_refused_where_they_mean_nothing(capsys, tmp_path):
    bench = load_benchmark()
    wide = tmp_path / "bench.csv"
    bench.to_csv(wide)
    code, _, err = call(capsys, wide, "--transpose")
    assert code == 2
    assert "read it without --transpose" in err
    cv_results = pd.DataFrame(
        {"params": ["{'C': 1}", "{'C': 10}"], "param_C": [1, 10],
         "split0_test_score": [0.9, 0.8], "split1_test_score": [0.85, 0.7]}
    )  # fmt: skip
    saved = tmp_path / "cv_results.csv"
    cv_results.to_csv(saved, index=False)
    for option in ("--transpose", "--benchmark"):
        code, _, err = call(capsys, saved, option)
        assert code == 2
        assert "this file is a cv_results_ table" in err
    long = tmp_path / "long.csv"
    pd.DataFrame({"model": ["a", "b"], "dataset": ["d", "d"], "score": [1.0, 2.0]}).to_csv(
        long, index=False
    )
    code, _, err = call(capsys, long, "--long", "--transpose")
    assert (code, err) == (
        2,
        "pdcompare: error: --transpose and --benchmark read wide tables; --long reads a "
        "long one\n",
    )


def test_model_names_first_still_read_as_before(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("model,s0,s1,s2\na,0.9,0.85,0.95\nb,0.8,0.8,0.7\n")
    frame = read_frame(path)
    assert list(frame.index) == ["a", "b"]
    assert np.array_equal(frame.to_numpy(), [[0.9, 0.85, 0.95], [0.8, 0.8, 0.7]])


def test_long_table_with_splits_but_no_split_col_names_the_option(capsys, tmp_path):
    stacked = load_benchmark().stack(["dataset", "split"], future_stack=True)  # noqa: PD013
    path = tmp_path / "long.csv"
    stacked.rename("score").reset_index().to_csv(path, index=False)
    code, out, err = call(capsys, path, "--long")
    assert code == 2
    assert out == ""
    assert "name the split column with --split-col" in err
    assert "`split=`" not in err

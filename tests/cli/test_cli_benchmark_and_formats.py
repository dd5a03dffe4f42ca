"""The command line on benchmark files, model choice, large frames and other file formats."""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.cli import main
from pdcompare.datasets import load_benchmark, load_grid_search_scores


def call(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def long_csv(tmp_path_factory):
    bench = load_benchmark()
    stacked = bench.stack(["dataset", "split"], future_stack=True)  # noqa: PD013
    long = stacked.rename("auc").reset_index()
    long = long.rename(columns={"model": "framework", "dataset": "task", "split": "fold"})
    path = tmp_path_factory.mktemp("long") / "results.csv"
    long.sample(frac=1.0, random_state=0).to_csv(path, index=False)  # row order must not matter
    return path


@pytest.mark.parametrize("separator", [",", ";", "\t"])
def test_wide_benchmark_file_written_by_to_csv_reads_as_a_benchmark(capsys, tmp_path, separator):
    # Its data sets used to be read as text columns of a scores frame (an error
    # that told the user to call astype(float)).
    from pdcompare.cli import read_frame

    bench = load_benchmark()
    path = tmp_path / "bench.csv"
    bench.to_csv(path, sep=separator)
    frame = read_frame(path)
    assert frame.columns.names == ["dataset", "split"]
    assert_allclose(frame.to_numpy(), bench.to_numpy(), rtol=0, atol=0)
    assert list(frame.index) == list(bench.index)
    figure = tmp_path / "cd.png"
    code, out, err = call(capsys, path, "--plot", figure)
    assert code == 0, err
    assert err == ""  # no layout warning from the critical-difference diagram
    assert "Data: 7 models x 22 data sets; higher scores are better." in out
    summary = bench.cmp.summary()
    assert f"Best model: {summary.index[0]}, mean rank {summary['mean_rank'].iloc[0]:.2f}" in out
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_long_table_whose_first_column_is_dataset_stays_long(capsys, long_csv, tmp_path):
    # Its header starts "dataset,": a long table, not the first line of a wide one.
    table = pd.read_csv(long_csv).rename(columns={"task": "dataset"})
    path = tmp_path / "long.csv"
    table[["dataset", "framework", "fold", "auc"]].to_csv(path, index=False)
    code, out, err = call(
        capsys, path, "--long", "--model-col", "framework", "--split-col", "fold",
        "--score-col", "auc",
    )  # fmt: skip
    assert code == 0, err
    assert "Data: 7 models x 22 data sets" in out


def test_long_benchmark_file_with_cd_plot(capsys, long_csv, tmp_path):
    figure = tmp_path / "cd.png"
    code, out, err = call(
        capsys,
        long_csv,
        "--long",
        "--model-col", "framework",
        "--dataset-col", "task",
        "--split-col", "fold",
        "--score-col", "auc",
        "--plot", figure,
    )  # fmt: skip
    assert code == 0, err
    bench = load_benchmark()
    assert "Data: 7 models x 22 data sets; higher scores are better." in out
    assert "Pairwise comparisons: Wilcoxon signed-rank test across data sets, holm" in out
    summary = bench.cmp.summary()
    table = out.split("Summary (best first; higher scores are better)\n")[1].split("\n\n")[0]
    rows = table.splitlines()[2:]
    assert [r.split()[0] for r in rows] == list(summary.index)
    assert_allclose([float(r.split()[1]) for r in rows], summary["mean_rank"], atol=5e-5)
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, out, err = call(
        capsys, long_csv, "--long", "--model-col", "framework", "--dataset-col", "task",
        "--split-col", "fold", "--score-col", "auc", "--test", "nemenyi",
    )  # fmt: skip
    assert code == 0, err
    cd = bench.cmp.pairwise(test="nemenyi").attrs["pdcompare"]["cd"]
    assert f"critical difference of mean ranks {cd:.3f}" in out
    assert "Nemenyi test of mean ranks, family-wise p-values" in out


def test_long_file_errors_name_the_column(capsys, long_csv):
    code, _, err = call(capsys, long_csv, "--long", "--score-col", "auc")
    assert code == 2
    assert "--model-col" in err
    assert err.count("\n") == 1


@pytest.fixture(scope="module")
def cv_results_csv(tmp_path_factory):
    from sklearn.datasets import load_breast_cancer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GridSearchCV
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_breast_cancer(return_X_y=True)
    search = GridSearchCV(
        make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
        {"logisticregression__C": np.logspace(-3, 1, 5)},
        cv=5,
    ).fit(X, y)
    path = tmp_path_factory.mktemp("cvr") / "cvr.csv"
    pd.DataFrame(search.cv_results_).to_csv(path)
    return path


@pytest.mark.slow
def test_select_on_a_saved_search(capsys, cv_results_csv, tmp_path):
    figure = tmp_path / "choice.png"
    code, out, err = call(
        capsys, cv_results_csv, "--cv", "5", "--select", "one_se", "--by", "C", "--plot", figure
    )
    assert code == 0, err
    choice = pd.read_csv(cv_results_csv, index_col=0).cmp.select("one_se", by="C", cv=5)
    selected = choice.attrs["pdcompare"]["selected"]
    assert f"selected: {selected}." in out
    assert choice.attrs["pdcompare"]["reason"] in out
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_select_errors_speak_the_command_line(capsys, cv_results_csv):
    code, _, err = call(capsys, cv_results_csv, "--select", "one_se", "--by", "C")
    assert code == 2
    assert "--cv" in err
    assert "cv=" not in err
    code, _, err = call(capsys, cv_results_csv, "--cv", "5", "--select", "one_se")
    assert code == 2
    assert "--select needs --by" in err


def test_top_caps_tables_and_report(capsys, tmp_path):
    rng = np.random.default_rng(0)
    names = [f"model, {i}" for i in range(30)]
    scores = pd.DataFrame(
        np.linspace(0.9, 0.7, 30)[:, None] + rng.normal(0, 0.02, (30, 10)),
        index=pd.Index(names, name="model"),
        columns=[f"split{i}" for i in range(10)],
    )
    path = tmp_path / "scores.csv"
    scores.to_csv(path)
    code, out, err = call(capsys, path, "--cv", "10", "--top", "5")
    assert code == 0, err
    assert "(25 more models; --top 0 shows them all)" in out
    # 30 models: the family is the best against the 29 others, 4 of them among the top 5.
    assert "(25 more pairs; --top 0 shows them all)" in out
    summary = out.split("are better)\n")[1].split("\n\n")[0].splitlines()
    assert len(summary) == 2 + 5 + 1
    assert "and 25 other models." in out
    code, out, _ = call(capsys, path, "--cv", "10", "--top", "0")
    assert "more models" not in out


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"pdcompare {pdcompare.__version__}"


def test_tsv_semicolon_and_directory(capsys, tmp_path):
    scores = load_grid_search_scores()
    expected = scores.cmp.summary(cv=10)
    tsv = tmp_path / "scores.tsv"
    scores.to_csv(tsv, sep="\t")
    semicolon = tmp_path / "scores_eu.csv"
    scores.to_csv(semicolon, sep=";", decimal=",")
    for path in (tsv, semicolon):
        code, out, err = call(capsys, path, "--cv", "10")
        assert code == 0, err
        assert f"Best model: rbf, mean score {expected['mean'].iloc[0]:.4f}" in out
    code, _, err = call(capsys, tmp_path, "--cv", "10")
    assert code == 2
    assert "is a directory" in err

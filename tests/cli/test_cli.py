"""Tests of the ``pdcompare`` command, run as ``python -m pdcompare`` in a subprocess."""

import numpy as np
import pandas as pd
import pytest
from _cli import run_cli as run
from numpy.testing import assert_allclose

from pdcompare.cli import build_parser, read_frame
from pdcompare.datasets import load_grid_search_scores


def assert_usage_error(process, *fragments):
    assert process.returncode == 2
    assert process.stdout == ""
    lines = process.stderr.splitlines()
    assert len(lines) == 1, process.stderr
    assert lines[0].startswith("pdcompare: error: ")
    assert "Traceback" not in process.stderr
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.fixture
def scores_csv(tmp_path):
    path = tmp_path / "scores.csv"
    load_grid_search_scores().to_csv(path)
    return path


def test_missing_file(tmp_path):
    assert_usage_error(run(tmp_path / "nope.csv"), "no such file", "nope.csv")


def test_malformed_csv(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("model,s0,s1\na,0.9,0.8\nb,0.7,0.6,0.5,0.4\n")
    assert_usage_error(run(path), "bad.csv is not a readable CSV file")


def test_empty_csv(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("")
    assert_usage_error(run(path), "empty.csv is empty")


def test_binary_file(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_bytes(bytes(range(256)) * 4)
    assert_usage_error(run(path), "not a readable CSV file")


def test_non_numeric_scores(tmp_path):
    path = tmp_path / "text.csv"
    path.write_text("model,s0,s1\na,0.9,high\nb,0.7,0.6\n")
    assert_usage_error(run(path), "numeric scores", "'s1'")


def test_saved_cv_results_without_param_columns(tmp_path):
    # The params text is never evaluated; without param_* columns the error says what to save.
    path = tmp_path / "cv_results.csv"
    path.write_text("params,split0_test_score,split1_test_score\n__import__('os'),0.9,0.8\n")
    assert_usage_error(run(path), "no `param_*` columns", "pd.DataFrame(search.cv_results_)")


@pytest.mark.parametrize(
    ("option", "fragment"),
    [
        (["--alpha", "2"], "--alpha"),
        (["--alpha", "x"], "--alpha"),
        (["--cv", "1"], "--cv"),
        (["--test-size", "1.5"], "--test-size"),
        (["--rope", "-0.1"], "--rope"),
        (["--correction", "holmes"], "--correction"),
        (["--test", "anova"], "--test"),
        (["--cv", "5", "--test-size", "0.2"], "not allowed with"),
        (["--unknown"], "unrecognized arguments"),
    ],
)
@pytest.mark.slow
def test_bad_options(option, fragment):
    assert_usage_error(run("demo", *option), fragment)


def test_no_arguments():
    assert_usage_error(run(), "FILE|demo")


def test_metric_on_scores_file(scores_csv):
    assert_usage_error(run(scores_csv, "--metric", "roc_auc"), "`--metric` applies")


def test_parquet_without_engine_or_with_it(tmp_path):
    path = tmp_path / "scores.parquet"
    path.write_bytes(b"PAR1")
    process = run(path)
    assert process.returncode == 2
    assert len(process.stderr.splitlines()) == 1
    assert "Traceback" not in process.stderr


def test_help():
    process = run("--help")
    assert process.returncode == 0
    for option in (
        "--cv",
        "--test-size",
        "--rope",
        "--correction",
        "--alpha",
        "--test",
        "--plot",
        "--metric",
    ):
        assert option in process.stdout


def test_help_says_nemenyi_and_conover_read_a_benchmark_file(tmp_path):
    from pdcompare.datasets import load_benchmark

    text = " ".join(build_parser().format_help().split())
    assert "nemenyi and conover need several data sets: --long data or a --benchmark file" in text
    # And they do: the per-data-set means of the bundled benchmark, read with --benchmark.
    path = tmp_path / "means.csv"
    load_benchmark().cmp.means().to_csv(path)
    process = run(path, "--benchmark", "--test", "nemenyi")
    assert process.returncode == 0, process.stderr
    assert "Nemenyi" in process.stdout


def test_parser_defaults():
    args = build_parser().parse_args(["file.csv"])
    assert (args.source, args.cv, args.test_size, args.rope) == ("file.csv", None, None, None)
    assert (args.correction, args.alpha, args.test, args.plot) == ("default", 0.05, None, None)
    assert build_parser().parse_args(["x", "--correction", "none"]).correction is None


def test_read_frame_scores(scores_csv):
    frame = read_frame(scores_csv)
    reference = load_grid_search_scores()
    assert frame.index.tolist() == reference.index.tolist()
    np.testing.assert_allclose(frame.to_numpy(), reference.to_numpy(), rtol=0, atol=0)


def test_read_frame_cv_results(tmp_path):
    cv_results = pd.DataFrame(
        {
            "param_C": [1, 10],
            "param_kernel": ["rbf", "linear"],
            "params": [{"C": 1, "kernel": "rbf"}, {"C": 10, "kernel": "linear"}],
            "split0_test_score": [0.8, 0.9],
            "split1_test_score": [0.7, 0.95],
            "mean_test_score": [0.75, 0.925],
        }
    )
    path = tmp_path / "cv_results.csv"
    cv_results.to_csv(path, index=False)
    frame = read_frame(path)
    assert frame["params"].tolist() == cv_results["params"].astype(str).tolist()
    scores = frame.cmp.scores()
    assert (
        list(scores.index)
        == list(cv_results.cmp.scores().index)
        == [
            "C=1, kernel=rbf",
            "C=10, kernel=linear",
        ]
    )
    assert scores.attrs["pdcompare"]["params"] == dict(
        zip(scores.index, cv_results["params"], strict=True)
    )
    np.testing.assert_allclose(scores.to_numpy(), [[0.8, 0.7], [0.9, 0.95]])


@pytest.mark.slow
def test_demo_prints_summary_pairwise_table_and_report(tmp_path):
    figure = tmp_path / "figure.png"
    process = run("demo", "--rope", "0.01", "--correction", "bonferroni", "--plot", figure)
    assert process.returncode == 0, process.stderr
    out = process.stdout
    assert "Summary (best first; higher scores are better)" in out
    # DESIGN.md §8 means, best first.
    summary = out.split("higher scores are better)\n")[1].split("\n\n")[0].splitlines()
    assert summary[0].split() == ["mean", "std", "n_splits", "rank", "ci_low", "ci_high"]
    means = [float(line.split()[1]) for line in summary[2:]]
    assert_allclose(means, [0.9400, 0.9300, 0.9044, 0.6852], atol=5e-5)
    table = out.split("Pairwise comparisons: ")[1].split("\n\n")[0].splitlines()
    assert table[0].startswith("Nadeau–Bengio corrected resampled t-test, bonferroni")
    header = table[1].split()
    assert header[:6] == ["model_1", "model_2", "mean_diff", "statistic", "df", "pvalue"]
    stats = [float(line.split()[3]) for line in table[2:]]
    # DESIGN.md §8 pairwise corrected t statistics (best-first pairs).
    assert_allclose(stats, [0.750, 1.657, 4.565, 1.111, 4.276, 3.851], atol=5e-4)
    assert "Best model: rbf" in out
    assert "P(rbf better) = 0.500, P(equivalent) = 0.432, P(linear better) = 0.068" in out
    assert f"Figure saved to {figure}" in out
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_scores_file_with_and_without_design(scores_csv):
    process = run(scores_csv)
    assert process.returncode == 0, process.stderr
    assert "WARNING: the CV design is unknown" in process.stdout
    assert "plain paired t-test" in process.stdout
    process = run(scores_csv, "--cv", "10", "--test", "wilcoxon", "--correction", "none")
    assert process.returncode == 0, process.stderr
    assert "CV design: --cv 10" in process.stdout
    assert "Wilcoxon signed-rank test, no correction" in process.stdout


@pytest.mark.slow
def test_cv_results_file(tmp_path):
    scores = load_grid_search_scores()
    columns = {"param_kernel": list(scores.index), "params": [{"kernel": k} for k in scores.index]}
    for i in range(scores.shape[1]):
        columns[f"split{i}_test_roc_auc"] = scores.iloc[:, i].to_numpy()
        columns[f"split{i}_test_accuracy"] = np.full(len(scores), 0.5)
    cv_results = pd.DataFrame(columns)
    path = tmp_path / "cv_results.csv"
    cv_results.to_csv(path, index=False)
    process = run(path, "--cv", "10")
    assert_usage_error(process, "several metrics", "choose one with --metric")
    process = run(path, "--cv", "10", "--metric", "roc_auc", "--alpha", "0.1")
    assert process.returncode == 0, process.stderr
    # cv=10 gives n_test/n_train = 1/9 = 10/90: the gallery's corrected t (DESIGN.md §8).
    assert "rbf vs linear: difference +0.0100, 90% CI" in process.stdout
    assert "t = 0.750" in process.stdout

"""The command line on a long file of item scores (``--items``)."""


import pytest
from _cli import run_cli as run
from frames import eval_items_long


@pytest.fixture
def items_csv(tmp_path):
    path = tmp_path / "answers.csv"
    long = eval_items_long(n_models=3, n_samples=3).rename(columns={"item": "question"})
    long.to_csv(path, index=False)
    return path


def test_items_file_prints_the_clustered_comparison(items_csv, tmp_path):
    figure = tmp_path / "items.png"
    process = run(
        items_csv, "--items", "--item-col", "question", "--cluster-col", "passage",
        "--sample-col", "sample", "--plot", figure,
    )  # fmt: skip
    assert process.returncode == 0, process.stderr
    out = process.stdout
    assert "Pairwise comparisons: paired t-test over items, clustered, holm" in out
    assert "40 questions in 8 passages, clustered by passage; 3 samples per question" in out
    assert "within_item_share" in out
    assert figure.exists()


def test_items_file_errors_name_the_options(items_csv):
    process = run(items_csv, "--items", "--item-col", "nope")
    assert process.returncode == 2
    assert "Traceback" not in process.stderr
    assert "--item-col" in process.stderr
    repeated = run(items_csv, "--items", "--item-col", "question")
    assert repeated.returncode == 2
    assert "--sample-col" in repeated.stderr

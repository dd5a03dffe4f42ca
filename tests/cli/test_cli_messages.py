"""Command-line messages in the command line's words: no pandas method, no raw OS error."""

import json

import pandas as pd
import pytest
from frames import seed_runs

from pdcompare.cli import main


def call(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("option", ["--plot", "--html", "--markdown"])
def test_missing_output_folder_is_named_before_any_work(capsys, tmp_path, option):
    path = tmp_path / "no_such_folder" / "out.file"
    code, out, err = call(capsys, "demo", option, path)
    assert code == 2
    assert out == ""
    assert f"folder {path.parent} does not exist" in err
    assert "Errno" not in err


def test_gate_markdown_in_a_missing_folder(capsys, tmp_path):
    path = tmp_path / "missing" / "gate.md"
    code = main(["gate", "demo", "--candidate", "rbf", "--baseline", "linear",
                 "--margin", "0.01", "--markdown", str(path)])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 3
    assert f"folder {path.parent} does not exist" in err


def test_json_and_header_only_files_get_a_sentence(capsys, tmp_path):
    json_path = tmp_path / "scores.json"
    json_path.write_text(json.dumps({"a": [0.8, 0.9], "b": [0.7, 0.6]}))
    code, _, err = call(capsys, json_path)
    assert code == 2
    assert "scores.json is a JSON file; pdcompare reads CSV" in err
    assert "shape" not in err
    header = tmp_path / "header.csv"
    header.write_text("model,s0,s1\n")
    code, _, err = call(capsys, header)
    assert code == 2
    assert "header.csv holds a header line and no rows of scores" in err
    assert "shape" not in err


def test_repeated_rows_of_a_long_file_name_no_pandas_method(capsys, tmp_path):
    path = tmp_path / "long.csv"
    pd.DataFrame(
        {"model": ["a", "a", "b", "b"], "dataset": ["x", "x", "x", "x"], "score": [0.8] * 4}
    ).to_csv(path, index=False)
    code, _, err = call(capsys, path, "--long")
    assert code == 2
    assert "name the split column with --split-col" in err
    assert "groupby" not in err
    assert "table." not in err


def test_seed_named_columns_get_a_hint_naming_runs(capsys, tmp_path):
    path = tmp_path / "seeds.csv"
    seed_runs().to_csv(path)
    code, _, err = call(capsys, path)
    assert code == 0
    assert "named like random seeds or runs" in err
    assert "pass --runs" in err
    assert "set_design" not in err
    code, out, err = call(capsys, path, "--runs")
    assert code == 0
    assert "seeds" not in err
    assert "Welch's unequal-variance t-test" in out


@pytest.fixture
def one_score_per_dataset(tmp_path):
    path = tmp_path / "long.csv"
    rows = [(m, f"d{d}", 0.8 + 0.01 * d - 0.02 * k) for k, m in enumerate("abc") for d in range(5)]
    pd.DataFrame(rows, columns=["model", "dataset", "score"]).to_csv(path, index=False)
    return path


def test_hierarchical_and_runs_without_folds_speak_in_options(capsys, one_score_per_dataset):
    code, _, err = call(
        capsys, one_score_per_dataset, "--long", "--hierarchical", "--rope", "0.01", "--cv", "5"
    )
    assert code == 2
    assert "one row per fold (--long with --split-col)" in err
    assert "pd.concat" not in err
    assert "from_long" not in err
    code, _, err = call(capsys, one_score_per_dataset, "--long", "--runs")
    assert code == 2
    assert "for example --split-col seed" in err
    assert "split='seed'" not in err

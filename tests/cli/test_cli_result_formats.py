"""The command line on evaluation results of other tools (``--format``) and parquet item files."""

import json
from pathlib import Path

import pandas as pd
import pytest

import pdcompare
from pdcompare.cli import main
from pdcompare.inputs.files import result_format

DATA = Path(__file__).resolve().parents[1] / "data"
HELM = [
    DATA / "helm" / "mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2",
    DATA / "helm" / "mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2-xl",
]


def call(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        (DATA / "eee" / "instance", "eee"),
        (DATA / "eee" / "aggregate" / "demo-org_model-a.json", "eee"),
        (HELM[0], "helm"),
        (DATA / "lighteval" / "details", "lighteval"),
        (DATA / "swebench" / "evaluation", "swebench"),
        (DATA / "promptfoo" / "results.json", "promptfoo"),
        (DATA / "mlflow" / "search_runs.csv", None),
        (DATA / "eee" / "other_tool.json", None),
    ],
)
def test_formats_are_recognised_by_their_shape(path, fmt):
    assert result_format(path) == fmt


def test_format_eee_prints_the_paired_test_over_items(capsys):
    code, out, err = call(capsys, DATA / "eee" / "instance", "--format", "eee")
    assert code == 0, err
    assert "Pairwise comparisons: paired t-test over items" in out
    assert "openai/gpt2-xl 0.7500" in out


def test_format_auto_and_metric(capsys):
    code, out, err = call(capsys, DATA / "promptfoo" / "results.json", "--format", "auto")
    assert code == 0, err
    assert "anthropic:messages:claude-3-5-haiku-20241022 0.9375" in out
    code, out, err = call(
        capsys, DATA / "promptfoo" / "results.json", "--format", "promptfoo", "--metric", "success"
    )
    assert code == 0, err
    assert "openai:gpt-4o-mini                           0.7500" in out


def test_format_helm_without_metric_names_the_stats(capsys):
    code, _, err = call(capsys, HELM[0], "--format", "helm")
    assert code == 2
    assert "'exact_match', 'quasi_exact_match'" in err


@pytest.mark.parametrize(
    ("path", "options"),
    [
        (DATA / "eee" / "instance", []),
        (DATA / "lighteval" / "details", ["--metric", "acc"]),
        (DATA / "swebench" / "evaluation", []),
        (DATA / "promptfoo" / "results.json", []),
    ],
)
def test_a_results_file_without_format_is_read_as_format_auto(capsys, path, options):
    code, out, err = call(capsys, path, *options)
    assert code == 0, err
    assert "Pairwise comparisons: paired t-test over items" in out
    assert (code, out, err) == call(capsys, path, *options, "--format", "auto")


def test_an_option_naming_the_file_kind_is_not_overridden(capsys, tmp_path):
    # --items on a file whose name lighteval would use: read as the long table it is
    table = pd.DataFrame(
        {"model": [*"aaaabbbb"], "item": [0, 1, 2, 3] * 2, "score": [1, 0, 1, 1, 0, 0, 1, 0]}
    )
    path = tmp_path / "details_mine.parquet"
    table.to_parquet(path)
    assert result_format(path) == "lighteval"
    code, out, err = call(capsys, path, "--items")
    assert code == 0, err
    assert "a     0.7500 0.2500" in out  # the long table's means, not lighteval's details
    assert "b     0.2500 0.2500" in out


def test_a_folder_or_json_of_no_tool_names_format(capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("nothing here")
    code, _, err = call(capsys, tmp_path)
    assert code == 2
    assert "is a directory; give the path of a CSV or parquet file in it" in err
    assert "--format: eee, helm, lighteval, swebench, promptfoo" in err
    code, _, err = call(capsys, DATA / "eee" / "other_tool.json")
    assert code == 2
    assert "other_tool.json is a JSON file; pdcompare reads CSV" in err
    assert "read with --format (eee, helm, lighteval, swebench, promptfoo)" in err


def test_format_of_a_file_of_another_tool_is_one_line(capsys):
    code, _, err = call(capsys, DATA / "eee" / "other_tool.json", "--format", "auto")
    assert code == 2
    assert "is not a results file this reader recognises; name its format with --format" in err
    assert len(err.strip().splitlines()) == 1


def test_parquet_items_file_reads_through_the_lazy_scan_as_the_csv(capsys, tmp_path):
    pytest.importorskip("polars")
    pytest.importorskip("narwhals")
    rows = [
        {"model": m, "item": f"q{i}", "score": float((i * (k + 2)) % 3 == 0)}
        for k, m in enumerate(["alpha", "beta", "gamma"])
        for i in range(12)
    ]
    table = pd.DataFrame(rows)
    table.to_csv(tmp_path / "items.csv", index=False)
    table.to_parquet(tmp_path / "items.parquet")
    _, from_csv, _ = call(capsys, tmp_path / "items.csv", "--items")
    code, from_parquet, err = call(capsys, tmp_path / "items.parquet", "--items")
    assert code == 0, err
    summary = from_csv.split("Pairwise")[0].splitlines()[1:]
    assert from_parquet.split("Pairwise")[0].splitlines()[1:] == summary


@pytest.mark.parametrize("kind", ["txt", "json", "csv"])
def test_format_swebench_reads_the_split_from_instances(capsys, tmp_path, kind):
    # The fixture's 6 ids plus 4 that no submission resolved: each mean is over 10 items
    ids = (DATA / "swebench" / "instances.txt").read_text().split()
    ids += [f"astropy__astropy-{k}" for k in range(4)]
    path = tmp_path / f"split.{kind}"
    if kind == "txt":
        path.write_text("\n".join(ids) + "\n")
    elif kind == "json":
        path.write_text(json.dumps([{"instance_id": i, "repo": "x"} for i in ids]))
    else:
        pd.DataFrame({"repo": "x", "instance_id": ids}).to_csv(path, index=False)
    evaluation = DATA / "swebench" / "evaluation"
    code, out, err = call(capsys, evaluation, "--format", "swebench", "--instances", path)
    assert code == 0, err
    assert "--instances not given" not in err
    # resolved 3, 2 and 1 of the 10 (written out), as the library reads them with instances=
    expected = pdcompare.from_swebench(evaluation, instances=ids).mean(axis=1)
    assert expected.round(12).tolist() == [0.1, 0.2, 0.3]
    assert "20240620_sweagent_claude3.5sonnet 0.3000" in out
    assert "20231010_rag_claude2              0.1000" in out
    assert "Data: 3 models x 10 items" in out


def test_instances_without_swebench_is_one_line(capsys, tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("a\n")
    code, _, err = call(capsys, DATA / "eee" / "instance", "--format", "eee", "--instances", ids)
    assert code == 2
    assert "--instances applies to --format swebench only" in err
    code, _, err = call(
        capsys, DATA / "swebench" / "evaluation", "--format", "swebench", "--instances",
        tmp_path / "missing.txt",
    )  # fmt: skip
    assert code == 2
    assert "missing.txt" in err

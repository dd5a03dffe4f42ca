"""The command line on evaluation results of other tools (``--format``) and parquet item files."""

from pathlib import Path

import pandas as pd
import pytest

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

"""from_eee: Every Eval Ever instance-level and aggregate files (fixtures in tests/data/eee)."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pdcompare

DATA = Path(__file__).resolve().parents[1] / "data" / "eee"


def test_instance_files_give_the_items_frame_written_by_hand():
    frame = pdcompare.from_eee(DATA / "instance")
    expected = pd.DataFrame(
        [[0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 1.0, 1.0]],
        index=pd.Index(["openai/gpt2", "openai/gpt2-xl"], name="model"),
        columns=pd.Index(["id147", "id11", "id65", "id344"], name="sample_id"),
    )
    pd.testing.assert_frame_equal(frame, expected)
    source = frame.attrs["pdcompare"]["source"]
    assert source["item"] == "sample_id"
    assert source["model"] == "model_id"
    assert source["metric"] == "evaluation.score"
    assert source["sample"] is None
    assert len(source["files"]) == 2
    json.dumps(source)  # JSON-able
    json.dumps(frame.attrs["pdcompare"]["costs"])


def test_costs_are_the_means_of_the_records_and_reach_pareto():
    frame = pdcompare.from_eee(DATA / "instance")
    latency = pdcompare.costs(frame, "latency_ms")
    # (680 + 678 + 680 + 679) / 4 and (900 + 1100 + 1000 + 1000) / 4
    assert latency.to_dict() == {"openai/gpt2": 679.25, "openai/gpt2-xl": 1000.0}
    assert pdcompare.costs(frame, "total_tokens").tolist() == [385.0, 385.0]  # 1540 / 4
    result = frame.cmp.pareto(latency)
    assert result.loc["openai/gpt2", "cost"] == 679.25
    assert result.loc["openai/gpt2-xl", "score"] == 0.75
    assert result.loc["openai/gpt2", "score"] == 0.25


def test_is_correct_reads_correctness_as_zero_one():
    frame = pdcompare.from_eee(DATA / "instance", metric="is_correct")
    assert frame.to_numpy().tolist() == [[0, 0, 1, 0], [1, 0, 1, 1]]
    assert frame.attrs["pdcompare"]["source"]["metric"] == "evaluation.is_correct"


def test_epochs_are_samples_of_an_item():
    frame = pdcompare.from_eee(DATA / "epochs")
    assert_allclose(frame.to_numpy(), [[1.0, 0.5, 0.5], [0.0, 0.5, 0.0]])
    assert frame.attrs["pdcompare"]["source"]["sample"] == "metadata.epoch"
    summary = frame.cmp.summary()
    assert summary.loc["demo-org/model-a", "samples_per_item"] == 2.0


def test_aggregate_files_give_a_benchmark_frame_with_standard_errors():
    frame = pdcompare.from_eee(DATA / "aggregate")
    expected = pd.DataFrame(
        [[0.75, 0.60], [0.70, 0.66]],
        index=pd.Index(["demo-org/model-a", "demo-org/model-b"], name="model"),
        columns=pd.Index(["demo_bench", "gsm8k"], name="dataset"),
    )
    pd.testing.assert_frame_equal(frame, expected)
    se = frame.attrs["pdcompare"]["source"]["standard_error"]
    assert se == {
        "demo-org/model-a": {"demo_bench": 0.02, "gsm8k": 0.03},
        "demo-org/model-b": {"demo_bench": 0.02, "gsm8k": 0.03},
    }


def test_aggregate_scores_and_errors_give_rank_sets():
    frame = pdcompare.from_eee(DATA / "aggregate")
    se = frame.attrs["pdcompare"]["source"]["standard_error"]
    ranks = pdcompare.rank_sets(
        frame["gsm8k"], pd.Series({model: v["gsm8k"] for model, v in se.items()})
    )
    # z = 0.06 / sqrt(0.03**2 + 0.03**2) = 1.414 < 1.96: both may be first
    assert ranks["rank_low"].tolist() == [1, 1]
    assert ranks.index.tolist() == ["demo-org/model-b", "demo-org/model-a"]


def test_a_folder_with_both_reads_the_samples_unless_told(tmp_path):
    (tmp_path / "a_samples.jsonl").write_text(
        (DATA / "instance/openai/gpt2/5917cc37_samples.jsonl").read_text()
    )
    (tmp_path / "b_samples.jsonl").write_text(
        (DATA / "instance/openai/gpt2-xl/7c57f847_samples.jsonl").read_text()
    )
    for name in ("demo-org_model-a.json", "demo-org_model-b.json"):
        (tmp_path / name).write_text((DATA / "aggregate" / name).read_text())
    assert pdcompare.from_eee(tmp_path).shape == (2, 4)
    assert pdcompare.from_eee(tmp_path, level="aggregate").shape == (2, 2)


def test_a_newer_schema_version_is_refused_naming_the_file():
    with pytest.raises(ValueError, match=r"f00_samples\.jsonl.*schema version 0\.4\.0, newer"):
        pdcompare.from_eee(DATA / "newer")


def test_a_json_of_another_tool_is_refused_naming_the_file():
    with pytest.raises(ValueError, match=r"other_tool\.json.*no `evaluation_results`"):
        pdcompare.from_eee(DATA / "other_tool.json")


def test_a_jsonl_of_another_tool_is_refused(tmp_path):
    path = tmp_path / "samples_arc_2024.jsonl"
    path.write_text(json.dumps({"doc_id": 0, "acc": 1.0}) + "\n")
    with pytest.raises(ValueError, match=r"samples_arc_2024\.jsonl.*no `sample_id`"):
        pdcompare.from_eee(path)


def test_a_repeated_sample_without_epochs_is_refused(tmp_path):
    line = (DATA / "instance/openai/gpt2/5917cc37_samples.jsonl").read_text().splitlines()[0]
    path = tmp_path / "x_samples.jsonl"
    path.write_text(line + "\n" + line + "\n")
    with pytest.raises(ValueError, match=r"x_samples\.jsonl.*id147.*more than once"):
        pdcompare.from_eee(path)


def test_a_bad_metric_is_refused_naming_the_keyword():
    with pytest.raises(ValueError, match="`metric`"):
        pdcompare.from_eee(DATA / "instance", metric="acc")


def test_the_frame_survives_parquet(tmp_path):
    frame = pdcompare.from_eee(DATA / "aggregate")
    frame.to_parquet(tmp_path / "f.parquet")
    back = pd.read_parquet(tmp_path / "f.parquet")
    assert back.attrs["pdcompare"]["source"] == frame.attrs["pdcompare"]["source"]
    assert np.array_equal(back.to_numpy(), frame.to_numpy())


def test_several_results_per_sample_are_told_apart_by_result(tmp_path):
    lines = (DATA / "instance/openai/gpt2/5917cc37_samples.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    exact = [{**r, "evaluation_result_id": "mmlu.exact_match"} for r in records]
    judged = [
        {
            **r,
            "evaluation_result_id": "mmlu.judge",
            "evaluation": {"score": 0.5, "is_correct": False},
        }
        for r in records
    ]
    path = tmp_path / "both_samples.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in exact + judged))
    with pytest.raises(
        ValueError, match=r"both_samples\.jsonl.*several evaluation results.*`result=`"
    ):
        pdcompare.from_eee(path)
    frame = pdcompare.from_eee(path, result="mmlu.judge")
    assert frame.to_numpy().tolist() == [[0.5, 0.5, 0.5, 0.5]]
    assert frame.attrs["pdcompare"]["source"]["result"] == "mmlu.judge"
    with pytest.raises(ValueError, match="`result`: no sample has evaluation_result_id 'x'"):
        pdcompare.from_eee(path, result="x")

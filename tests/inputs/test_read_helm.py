"""from_helm: HELM run directories (fixtures in tests/data/helm, from Every Eval Ever's copy)."""

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

import pdcompare

DATA = Path(__file__).resolve().parents[1] / "data" / "helm"
GPT2 = DATA / "mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2"
GPT2_XL = DATA / "mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2-xl"


def test_two_runs_give_the_items_frame_written_by_hand():
    frame = pdcompare.from_helm([GPT2, GPT2_XL], metric="exact_match")
    # id11's stats are of the valid split in HELM's own file; the perturbed id147 is left out
    expected = pd.DataFrame(
        [[0.0, 0.0, 0.0], [1.0, 0.0, 1.0]],
        index=pd.Index(["openai/gpt2", "openai/gpt2-xl"], name="model"),
        columns=pd.Index(["id147", "id65", "id344"], name="instance_id"),
    )
    pd.testing.assert_frame_equal(frame, expected)
    source = frame.attrs["pdcompare"]["source"]
    assert source["metric"] == "exact_match"
    assert source["split"] == "test"
    assert source["model"] == "run_spec.adapter_spec.model"
    json.dumps(frame.attrs["pdcompare"]["costs"])


def test_runtime_is_kept_as_a_cost_and_reaches_pareto():
    frame = pdcompare.from_helm([GPT2, GPT2_XL], metric="exact_match")
    runtime = pdcompare.costs(frame, "inference_runtime")
    # the test-split instances id147, id65, id344 of each run
    gpt2 = (0.6803672313690186 + 0.6800699234008789 + 0.6793179512023926) / 3
    assert runtime["openai/gpt2"] == pytest.approx(gpt2, rel=1e-15)
    assert runtime["openai/gpt2-xl"] == pytest.approx((1.5 + 1.0 + 1.25) / 3, rel=1e-15)
    result = frame.cmp.pareto(runtime)
    assert result["cost"].to_dict() == runtime.to_dict()
    assert result.loc["openai/gpt2-xl", "score"] == pytest.approx(2 / 3)


def test_a_folder_of_runs_is_searched_and_the_valid_split_can_be_read(tmp_path):
    for run in (GPT2, GPT2_XL):
        shutil.copytree(run, tmp_path / run.name)
    assert pdcompare.from_helm(tmp_path, metric="exact_match").shape == (2, 3)
    with pytest.raises(ValueError, match="has 1 item"):
        pdcompare.from_helm(tmp_path, metric="exact_match", split="valid")


def test_without_a_metric_the_shared_stats_are_listed():
    with pytest.raises(ValueError, match=r"`metric`.*'exact_match', 'quasi_exact_match'"):
        pdcompare.from_helm([GPT2, GPT2_XL])


def test_a_run_without_per_instance_stats_is_refused_naming_it():
    with pytest.raises(
        ValueError, match=r"openai_gpt2-medium': it has no per_instance_stats\.json"
    ):
        pdcompare.from_helm([GPT2, DATA / "unfinished"], metric="exact_match")


def test_a_metric_a_run_lacks_is_refused_naming_the_run():
    with pytest.raises(ValueError, match=r"`metric` 'f1_score' is not in .*openai_gpt2"):
        pdcompare.from_helm([GPT2, GPT2_XL], metric="f1_score")


def test_runs_that_do_not_cover_the_same_instances_are_refused(tmp_path):
    shutil.copytree(GPT2, tmp_path / "a")
    shutil.copytree(GPT2_XL, tmp_path / "b")
    stats = json.loads((tmp_path / "b" / "per_instance_stats.json").read_text())
    (tmp_path / "b" / "per_instance_stats.json").write_text(json.dumps(stats[:2]))
    with pytest.raises(ValueError, match=r"'openai/gpt2-xl'.*lacks 2 of the 3 instances"):
        pdcompare.from_helm([tmp_path / "a", tmp_path / "b"], metric="exact_match")


def test_a_json_of_another_tool_is_refused(tmp_path):
    shutil.copytree(GPT2, tmp_path / "a")
    (tmp_path / "a" / "per_instance_stats.json").write_text(json.dumps({"results": {}}))
    with pytest.raises(ValueError, match=r"per_instance_stats\.json.*not a list of per-instance"):
        pdcompare.from_helm(tmp_path / "a", metric="exact_match")


def test_two_scenarios_key_items_by_task(tmp_path):
    for run in (GPT2, GPT2_XL):
        shutil.copytree(run, tmp_path / run.name)
        other = tmp_path / (run.name + "-other")
        shutil.copytree(run, other)
        spec = json.loads((other / "run_spec.json").read_text())
        spec["name"] = spec["name"].replace("philosophy", "astronomy")
        (other / "run_spec.json").write_text(json.dumps(spec))
    frame = pdcompare.from_helm(tmp_path, metric="exact_match")
    assert frame.shape == (2, 6)
    assert frame.columns.names == ["task", "instance_id"]
    assert sorted(set(frame.columns.get_level_values(0))) == [
        "mmlu:subject=astronomy,method=multiple_choice_joint",
        "mmlu:subject=philosophy,method=multiple_choice_joint",
    ]

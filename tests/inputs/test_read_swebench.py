"""from_swebench: SWE-bench experiments results.json (fixtures in tests/data/swebench)."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pdcompare
from pdcompare import PdcompareWarning

DATA = Path(__file__).resolve().parents[1] / "data" / "swebench"
INSTANCES = (DATA / "instances.txt").read_text().split()


def test_submissions_give_resolved_as_one_and_every_other_instance_as_zero():
    frame = pdcompare.from_swebench(DATA / "evaluation", instances=INSTANCES)
    expected = pd.DataFrame(
        [
            [0, 1, 0, 0, 0, 0],  # 20231010_rag_claude2: django__django-11099
            [1, 1, 0, 0, 0, 0],  # 20240402_sweagent_gpt4
            [1, 1, 0, 0, 1, 0],  # 20240620_sweagent_claude3.5sonnet
        ],
        index=pd.Index(
            [
                "20231010_rag_claude2",
                "20240402_sweagent_gpt4",
                "20240620_sweagent_claude3.5sonnet",
            ],
            name="model",
        ),
        columns=pd.Index(INSTANCES, name="instance_id"),
        dtype=float,
    )
    pd.testing.assert_frame_equal(frame, expected)
    assert frame.attrs["pdcompare"]["source"]["instances"] == "given"
    assert np.allclose(frame.mean(axis=1), [1 / 6, 2 / 6, 3 / 6])


def test_without_instances_the_listed_ids_are_the_items_with_a_warning():
    with pytest.warns(PdcompareWarning, match="`instances` not given: the items are the 6"):
        frame = pdcompare.from_swebench(DATA / "evaluation")
    assert sorted(frame.columns) == sorted(INSTANCES)


def test_a_harness_report_is_read_too(tmp_path):
    report = {
        "total_instances": 3,
        "completed_ids": ["a-1", "a-2"],
        "incomplete_ids": ["a-3"],
        "resolved_ids": ["a-2"],
        "unresolved_ids": ["a-1"],
        "schema_version": 2,
    }
    (tmp_path / "my-model.run1.json").write_text(json.dumps(report))
    frame = pdcompare.from_swebench(
        tmp_path / "my-model.run1.json", instances=["a-1", "a-2", "a-3"]
    )
    assert frame.index.tolist() == ["my-model"]
    assert frame.to_numpy().tolist() == [[0.0, 1.0, 0.0]]


def test_a_json_of_another_tool_is_refused_naming_the_file():
    with pytest.raises(ValueError, match=r"other.results\.json.*no list `resolved`"):
        pdcompare.from_swebench(DATA / "other")


def test_a_resolved_instance_outside_the_split_is_refused():
    with pytest.raises(ValueError, match=r"resolves 1 instance\(s\) not in `instances`"):
        pdcompare.from_swebench(DATA / "evaluation", instances=INSTANCES[1:])


def test_one_string_of_instances_is_refused():
    with pytest.raises(TypeError, match="`instances` must be a list"):
        pdcompare.from_swebench(DATA / "evaluation", instances="django__django-11099")


def test_the_paired_test_runs_on_the_frame():
    frame = pdcompare.from_swebench(DATA / "evaluation", instances=INSTANCES)
    result = frame.cmp.mcnemar("20240620_sweagent_claude3.5sonnet", "20231010_rag_claude2")
    # discordant: 2 instances only the first resolves, 0 only the second: exact p = 2 * 0.5**2
    assert result["pvalue"].iloc[0] == pytest.approx(0.5)

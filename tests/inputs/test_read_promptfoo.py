"""from_promptfoo: promptfoo's --output results.json, version 3 (tests/data/promptfoo)."""

import json
from pathlib import Path

import pandas as pd
import pytest

import pdcompare

DATA = Path(__file__).resolve().parents[1] / "data" / "promptfoo"
MINI = "openai:gpt-4o-mini"
HAIKU = "anthropic:messages:claude-3-5-haiku-20241022"


def test_results_give_the_items_frame_written_by_hand():
    frame = pdcompare.from_promptfoo(DATA / "results.json")
    expected = pd.DataFrame(
        [[1.0, 0.5, 1.0, 0.0], [1.0, 1.0, 0.75, 1.0]],
        index=pd.Index([MINI, HAIKU], name="model"),
        columns=pd.Index([0, 1, 2, 3], name="test"),
    )
    pd.testing.assert_frame_equal(frame, expected)
    source = frame.attrs["pdcompare"]["source"]
    assert source["item"] == "testIdx"
    assert source["eval_id"] == "eval-2024-10-01T12:00:00"


def test_success_and_named_scores():
    success = pdcompare.from_promptfoo(DATA / "results.json", score="success")
    assert success.to_numpy().tolist() == [[1, 1, 1, 0], [1, 1, 1, 1]]  # score >= 0.5 passes
    named = pdcompare.from_promptfoo(DATA / "results.json", score="faithful")
    pd.testing.assert_frame_equal(named, pdcompare.from_promptfoo(DATA / "results.json"))
    with pytest.raises(ValueError, match=r"`score` 'tone' is not 'score', 'success' nor"):
        pdcompare.from_promptfoo(DATA / "results.json", score="tone")


def test_latency_and_price_are_kept_and_reach_pareto():
    frame = pdcompare.from_promptfoo(DATA / "results.json")
    latency = pdcompare.costs(frame, "latency_ms")
    assert latency.to_dict() == {
        MINI: 300.0,
        HAIKU: 620.0,
    }  # (310+290+300+300)/4, (600+640+620+620)/4
    assert pdcompare.costs(frame, "cost").to_dict() == {MINI: 0.00012, HAIKU: 0.0004}
    assert pdcompare.costs(frame, "total_tokens").tolist() == [21.5, 21.5]
    result = frame.cmp.pareto(pdcompare.costs(frame, "cost"))
    assert result.loc[MINI, "cost"] == 0.00012
    assert result.loc[HAIKU, "score"] == pytest.approx(0.9375)
    assert result.loc[MINI, "score"] == pytest.approx(0.625)


def test_repeated_tests_are_samples_of_the_item():
    frame = pdcompare.from_promptfoo(DATA / "repeat.json")
    assert frame.to_numpy().tolist() == [[0.5, 1.0], [1.0, 0.5]]
    assert frame.attrs["pdcompare"]["source"]["sample"] == "repeated tests"


def test_several_prompts_make_provider_and_prompt_the_model(tmp_path):
    data = json.loads((DATA / "results.json").read_text())
    second = [dict(r, promptIdx=1) for r in data["results"]["results"]]
    data["results"]["results"] += second
    data["results"]["prompts"].append({"raw": "French: {{text}}", "label": "short"})
    path = tmp_path / "two_prompts.json"
    path.write_text(json.dumps(data))
    frame = pdcompare.from_promptfoo(path)
    assert frame.index.tolist() == [
        f"{MINI} / Translate to French: {{{{text}}}}",
        f"{HAIKU} / Translate to French: {{{{text}}}}",
        f"{MINI} / short",
        f"{HAIKU} / short",
    ]


def test_an_older_version_is_refused_naming_the_file():
    with pytest.raises(ValueError, match=r"version2\.json.*version 2; this reader knows"):
        pdcompare.from_promptfoo(DATA / "version2.json")


def test_a_json_of_another_tool_is_refused_naming_the_file():
    other = DATA.parent / "swebench" / "evaluation" / "lite" / "20231010_rag_claude2"
    with pytest.raises(ValueError, match=r"results\.json.*not the output of `promptfoo eval"):
        pdcompare.from_promptfoo(other / "results" / "results.json")

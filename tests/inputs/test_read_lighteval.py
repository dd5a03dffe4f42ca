"""from_lighteval: lighteval details parquet files (fixtures in tests/data/lighteval)."""

import shutil
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pdcompare

DATA = Path(__file__).resolve().parents[1] / "data" / "lighteval"
DATE = "2025-06-01T12-00-00.000000"


def test_details_give_the_items_frame_written_by_hand():
    frame = pdcompare.from_lighteval(DATA / "details", metric="acc")
    expected = pd.DataFrame(
        [[1.0, 0.0, 1.0, 0.0], [1.0, 1.0, 1.0, 0.0]],
        index=pd.Index(["HuggingFaceTB/SmolLM2-135M", "HuggingFaceTB/SmolLM2-360M"], name="model"),
        columns=pd.Index(["q0", "q1", "q2", "q3"], name="doc_id"),
    )
    pd.testing.assert_frame_equal(frame, expected)
    source = frame.attrs["pdcompare"]["source"]
    assert source["metric"] == "acc"
    assert source["item"] == "doc.id"
    assert len(source["files"]) == 2


def test_another_metric_of_the_struct():
    frame = pdcompare.from_lighteval(DATA / "details", metric="acc_norm")
    assert frame.to_numpy().tolist() == [[1, 1, 1, 0], [1, 1, 1, 1]]


def test_several_metrics_without_metric_are_listed():
    with pytest.raises(ValueError, match=r"several metrics: 'acc', 'acc_norm'; pick one"):
        pdcompare.from_lighteval(DATA / "details")


def test_a_parquet_of_another_tool_is_refused_naming_the_file():
    with pytest.raises(ValueError, match=r"details_scores_2025\.parquet.*no `metric` column"):
        pdcompare.from_lighteval(DATA / "other")


def test_a_file_that_is_not_parquet_is_refused_naming_the_file():
    with pytest.raises(ValueError, match=r"details_arc-easy_2025-06-01\.parquet.*not a parquet"):
        pdcompare.from_lighteval(DATA / "broken")


def test_a_misnamed_file_is_refused(tmp_path):
    source = next((DATA / "details").rglob("*.parquet"))
    shutil.copy(source, tmp_path / "scores.parquet")
    with pytest.raises(ValueError, match=r"scores\.parquet.*details_<task>_<date>\.parquet"):
        pdcompare.from_lighteval(tmp_path / "scores.parquet", metric="acc")


def test_documents_without_ids_are_numbered_and_tasks_key_the_items(tmp_path):
    for model, scores in [("org/a", [1.0, 0.0]), ("org/b", [0.0, 0.0])]:
        folder = tmp_path / "details" / model / DATE
        folder.mkdir(parents=True)
        for task in ("arc-easy", "gsm8k"):
            rows = [{"doc": {"id": "", "query": "?"}, "metric": {"em": s}} for s in scores]
            pq.write_table(pa.Table.from_pylist(rows), folder / f"details_{task}_{DATE}.parquet")
    frame = pdcompare.from_lighteval(tmp_path)
    assert frame.columns.tolist() == [("arc-easy", 0), ("arc-easy", 1), ("gsm8k", 0), ("gsm8k", 1)]
    assert frame.loc["org/a"].tolist() == [1.0, 0.0, 1.0, 0.0]


def test_models_without_the_same_documents_are_refused(tmp_path):
    for model, n in [("org/a", 3), ("org/b", 2)]:
        folder = tmp_path / "details" / model / DATE
        folder.mkdir(parents=True)
        rows = [{"doc": {"id": f"d{i}"}, "metric": {"em": 1.0}} for i in range(n)]
        pq.write_table(pa.Table.from_pylist(rows), folder / f"details_arc_{DATE}.parquet")
    with pytest.raises(ValueError, match=r"model 'org/b'.*lacks 1 of the 3 documents"):
        pdcompare.from_lighteval(tmp_path)

"""Every reader records in attrs what it read and chose (DESIGN section 32's first paragraph).

The model, item, sample, task and metric it took, and the files: one test per
reader, on the small files of ``tests/data/`` (or logs written here), each
record written out in full, and kept through a parquet round trip.
"""

import json
from pathlib import Path

import pandas as pd
import pytest

import pdcompare

DATA = Path(__file__).resolve().parents[1] / "data"


def source(frame):
    return frame.attrs["pdcompare"]["source"]


def inspect_frame(tmp_path):
    pytest.importorskip("inspect_ai")
    from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalSample, EvalSpec
    from inspect_ai.scorer import Score

    def log(model, values):
        spec = EvalSpec(
            created="2024-05-01T10:00:00",
            task="quiz",
            model=model,
            dataset=EvalDataset(),
            config=EvalConfig(),
        )
        samples = [
            EvalSample(
                id=f"q{i}",
                epoch=1,
                input="?",
                target="!",
                scores={"match": Score(value=v), "length": Score(value=float(i))},
            )
            for i, v in enumerate(values)
        ]
        return EvalLog(eval=spec, samples=samples)

    return pdcompare.from_inspect(
        [log("mockllm/a", "CIC"), log("mockllm/b", "IIC")], scorer="length"
    )


def lm_eval_frame(tmp_path):
    for model, acc in [("org/small", [1, 0, 1]), ("org/large", [1, 1, 1])]:
        folder = tmp_path / model.replace("/", "__")
        folder.mkdir()
        (folder / "results_2024-05-01T10-00-00.json").write_text(json.dumps({"model_name": model}))
        lines = [
            json.dumps(
                {"doc_id": i, "filter": "strict", "metrics": ["exact_match", "f1"],
                 "exact_match": a, "f1": 0.5}
            )
            for i, a in enumerate(acc)
        ]  # fmt: skip
        (folder / "samples_gsm8k_2024-05-01T10-00-00.jsonl").write_text("\n".join(lines))
    return pdcompare.from_lm_eval(tmp_path, metric="exact_match")


def test_from_inspect_records_the_scorer_it_read(tmp_path):
    got = source(inspect_frame(tmp_path))
    assert got == {
        "format": "inspect",
        "files": ["the EvalLog of mockllm/a", "the EvalLog of mockllm/b"],  # objects, not files
        "model": "eval.model",
        "item": "sample id",
        "sample": "epoch",
        "task": "eval.task",
        "metric": "length",
        "cluster": None,
    }


def test_from_lm_eval_records_the_metric_and_filter_it_read(tmp_path):
    frame = lm_eval_frame(tmp_path)
    got = source(frame)
    assert got["metric"] == "exact_match,strict"  # lm-evaluation-harness's key
    assert sorted(got["files"]) == sorted(str(p) for p in tmp_path.rglob("samples_*.jsonl"))
    assert {k: got[k] for k in ("format", "item", "task")} == {
        "format": "lm-eval",
        "item": "doc_id",
        "task": "samples_<task>_<date>.jsonl",
    }
    assert frame.loc["org/small"].tolist() == [1.0, 0.0, 1.0]


def test_from_lm_eval_names_each_files_metric_when_they_differ(tmp_path):
    for task, name in [("arc", "acc"), ("hella", "acc_norm")]:
        folder = tmp_path / "org__m"
        folder.mkdir(exist_ok=True)
        lines = [json.dumps({"doc_id": i, "metrics": [name], name: i % 2}) for i in range(3)]
        (folder / f"samples_{task}_2024-05-01T10-00-00.jsonl").write_text("\n".join(lines))
    got = source(pdcompare.from_lm_eval(tmp_path))
    assert sorted(got["metric"].values()) == ["acc", "acc_norm"]
    assert sorted(got["metric"]) == sorted(got["files"])


@pytest.mark.parametrize(
    ("read", "expected"),
    [
        (
            lambda: pdcompare.from_eee(DATA / "eee" / "epochs"),
            {"format": "eee", "level": "instance", "model": "model_id", "item": "sample_id",
             "sample": "metadata.epoch", "task": "evaluation_name",
             "metric": "evaluation.score", "result": None},
        ),
        (
            lambda: pdcompare.from_eee(DATA / "eee" / "aggregate"),
            {"format": "eee", "level": "aggregate", "model": "model_info.id",
             "task": "evaluation_name"},
        ),
        (
            lambda: pdcompare.from_helm(sorted((DATA / "helm").glob("mmlu-*")),
                                        metric="exact_match"),
            {"format": "helm", "model": "run_spec.adapter_spec.model", "item": "instance_id",
             "task": "run_spec.name", "metric": "exact_match", "split": "test"},
        ),
        (
            lambda: pdcompare.from_lighteval(DATA / "lighteval" / "details", metric="acc"),
            {"format": "lighteval", "item": "doc.id", "metric": "acc"},
        ),
        (
            lambda: pdcompare.from_swebench(
                DATA / "swebench" / "evaluation",
                instances=(DATA / "swebench" / "instances.txt").read_text().split(),
            ),
            {"format": "swebench", "model": "submission folder", "item": "instance_id",
             "metric": "resolved", "instances": "given"},
        ),
        (
            lambda: pdcompare.from_promptfoo(DATA / "promptfoo" / "repeat.json"),
            {"format": "promptfoo", "item": "testIdx", "sample": "repeated tests",
             "metric": "score"},
        ),
        (
            lambda: pdcompare.from_mlflow(
                pd.read_csv(DATA / "mlflow" / "search_runs.csv"), model="model",
                metric="accuracy",
            ),
            {"format": "mlflow", "model": ["params.model"], "split": "params.fold",
             "metric": "metrics.accuracy", "runs": 15},
        ),
    ],
    ids=["eee-instance", "eee-aggregate", "helm", "lighteval", "swebench", "promptfoo",
         "mlflow"],
)  # fmt: skip
def test_every_file_reader_records_its_choices(read, expected, tmp_path):
    frame = read()
    got = source(frame)
    assert {k: got.get(k) for k in expected} == expected
    if expected["format"] != "mlflow":  # a frame of runs, not a file
        assert got["files"]
        assert all(Path(f).exists() for f in got["files"])
    pytest.importorskip("pyarrow")
    path = tmp_path / "frame.parquet"
    frame.to_parquet(path)  # the record is JSON-able: it survives a save
    assert source(pd.read_parquet(path)) == got

"""The same evaluation read natively and through an Every Eval Ever conversion gives one frame.

lm-evaluation-harness ``--log_samples`` files are written here as lm-eval writes
them, then converted to EEE instance records field by field as EEE's own
converter does (``every_eval_ever/converters/lm_eval/instance_level_adapter.py``,
``LMEvalInstanceLevelAdapter._transform_sample``, github.com/evaleval/every_eval_ever):
``model_id`` the model, ``evaluation_name`` the task (``task/filter`` when the
filter is not "none"), ``sample_id`` ``str(doc_id)``, ``evaluation.score`` the
value of the first metric the sample lists, ``is_correct`` ``score == 1.0``.
"""

import json

import numpy as np
import pandas as pd

import pdcompare

DATE = "2024-05-01T10-00-00"
SCORES = {  # model -> task -> per-document exact_match
    "org/small": {"gsm8k": [1, 0, 0, 1, 0], "arc": [0, 1, 1]},
    "org/large": {"gsm8k": [1, 1, 0, 1, 1], "arc": [1, 1, 1]},
}


def write_lm_eval(out):
    for model, tasks in SCORES.items():
        folder = out / model.replace("/", "__")
        folder.mkdir(parents=True)
        (folder / f"results_{DATE}.json").write_text(json.dumps({"model_name": model}))
        for task, values in tasks.items():
            lines = [
                json.dumps(
                    {"doc_id": i, "doc": {"q": f"{task} {i}"}, "target": "1",
                     "arguments": {"gen_args_0": {"arg_0": f"{task} {i}?", "arg_1": " 1"}},
                     "resps": [["1"]], "filtered_resps": ["1"], "filter": "none",
                     "metrics": ["exact_match", "f1"], "exact_match": v, "f1": 0.5}
                )
                for i, v in enumerate(values)
            ]  # fmt: skip
            (folder / f"samples_{task}_{DATE}.jsonl").write_text("\n".join(lines) + "\n")


def eee_record(sample, model, task):
    """One lm-eval sample as EEE's lm-eval adapter writes it (the fields the reader reads)."""
    score = next(
        float(sample[m]) for m in sample["metrics"] if isinstance(sample.get(m), int | float)
    )
    name = task if sample["filter"] == "none" else f"{task}/{sample['filter']}"
    return {
        "schema_version": "0.3.0",
        "evaluation_id": f"{task}/{model}/1714557600",
        "model_id": model,
        "evaluation_name": name,
        "sample_id": str(sample["doc_id"]),
        "interaction_type": "single_turn",
        "input": {"raw": sample["arguments"]["gen_args_0"]["arg_0"], "reference": ["1"]},
        "output": {"raw": ["1"]},
        "evaluation": {"score": score, "is_correct": score == 1.0},
        "metadata": {"filter": sample["filter"]},
    }


def convert(lm_eval, out):
    for path in sorted(lm_eval.rglob("samples_*.jsonl")):
        model = json.loads(next(path.parent.glob("results_*.json")).read_text())["model_name"]
        task = path.name[len("samples_") : -len(f"_{DATE}.jsonl")]
        lines = path.read_text().splitlines()
        records = [eee_record(json.loads(line), model, task) for line in lines]
        target = out / path.parent.name / f"{task}_samples.jsonl"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_lm_eval_natively_and_through_eee_give_one_frame(tmp_path):
    write_lm_eval(tmp_path / "lm_eval")
    convert(tmp_path / "lm_eval", tmp_path / "eee")
    native = pdcompare.from_lm_eval(tmp_path / "lm_eval", metric="exact_match")
    through = pdcompare.from_eee(tmp_path / "eee")
    # EEE writes the doc ids as text: the same items, labelled "0", "1", ...
    as_text = pd.MultiIndex.from_tuples([(task, str(doc)) for task, doc in native.columns])
    assert sorted(as_text) == sorted(through.columns)
    through = through.loc[native.index, as_text]
    np.testing.assert_array_equal(through.to_numpy(), native.to_numpy())
    # the hand-written scores, the same way
    assert native.loc["org/small", ("gsm8k", 3)] == 1.0
    assert native.loc["org/large"].mean() == np.mean([1, 1, 0, 1, 1, 1, 1, 1])
    paired = ["org/large", "org/small"]
    ours = native.cmp.ttest(*paired)[["mean_diff", "statistic", "pvalue"]].to_numpy()
    theirs = through.cmp.ttest(*paired)[["mean_diff", "statistic", "pvalue"]].to_numpy()
    np.testing.assert_allclose(theirs, ours, rtol=1e-12)

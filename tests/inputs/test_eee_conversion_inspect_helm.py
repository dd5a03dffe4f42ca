"""inspect_ai logs and HELM runs read natively and through an Every Eval Ever conversion.

The conversions follow EEE's own instance-level converters field by field
(github.com/evaleval/every_eval_ever):

- inspect_ai: ``every_eval_ever/converters/inspect/instance_level_adapter.py``
  and ``adapter.py`` at commit eb3513c88ab29e1f868f3321fde8385cf83c1647
  (``InspectInstanceLevelDataAdapter.convert_instance_level_logs``): one record
  per sample and epoch; ``model_id`` the id ``extract_model_info_from_model_path``
  (``inspect/utils.py`` at ea45d77e73ccd314a96bc5e4c5d502e463186ea9) gives the
  log's model path with the sample output's model name: a provider its map does
  not know (``mockllm``) keeps the path (``mockllm/good``); ``evaluation_name``
  ``eval.task_display_name or eval.task``, ``sample_id`` ``str(sample.id)``,
  ``metadata.epoch`` ``str(sample.epoch)``; ``evaluation.score`` from
  ``_resolve_evaluation_score``: the log's reduction of the sample's first
  scorer when the log has reductions (the epochs' mean, written into every
  epoch's record), else the first score value that parses ("C" 1, "I" 0,
  numbers); ``is_correct`` ``score > 0``.
- HELM: ``every_eval_ever/converters/helm/instance_level_adapter.py`` and
  ``adapter.py`` at commit 60a1c34d89e68f3a3a217be38388019eac927991
  (``HELMInstanceLevelDataAdapter.convert_instance_level_logs``): one record per
  request state; ``model_id`` the deployment's model name (``adapter_spec.model``
  for these Hugging Face deployments), ``evaluation_name`` the data set
  (``scenario.json``'s name, else the run name before ":"), ``sample_id`` the
  instance id, ``evaluation.score`` the ``mean`` of the *first* ``exact_match``
  stat listed for that instance id (any split, any perturbation), no epoch.
  The fixtures (tests/data/helm) have no ``scenario_state.json``: its request
  states are taken to be the per-instance stats' entries, one per evaluated
  instance (HELM evaluates the valid and test splits).

What EEE's HELM records lose: the split and the perturbation. The valid-split
instance ``id11`` becomes one more item, and a perturbed copy of an instance a
second record with the same ``sample_id`` (which ``from_eee`` refuses).
"""

import gc
import json
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pdcompare

HELM = Path(__file__).resolve().parents[1] / "data" / "helm"
RUNS = [
    HELM / "mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2",
    HELM / "mmlu-subject=philosophy,method=multiple_choice_joint,model=openai_gpt2-xl",
]
COLUMNS = ["mean_diff", "statistic", "pvalue"]


def assert_one_frame(native, through, pair):
    """Labels equal, values to 1e-12, the same paired t-test."""
    assert list(through.index) == list(native.index)
    assert list(through.columns) == list(native.columns)
    np.testing.assert_allclose(through.to_numpy(), native.to_numpy(), rtol=1e-12, atol=1e-12)
    ours = native.cmp.ttest(*pair)[COLUMNS].to_numpy()
    theirs = through.cmp.ttest(*pair)[COLUMNS].to_numpy()
    np.testing.assert_allclose(theirs, ours, rtol=1e-12)


def write_jsonl(path, records):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


# --- inspect_ai --------------------------------------------------------------------------


def make_inspect_logs(folder):
    """Two mockllm models, four questions, two epochs (the answers of test_read_inspect.py).

    "good": q0, q1 right, q2 right on its first epoch only, q3 wrong -> 1, 1, 0.5, 0;
    "weak": q0 right, q1 right on its first epoch only -> 1, 0.5, 0, 0.
    """
    pytest.importorskip("inspect_ai")
    from inspect_ai import Task, eval
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import match

    def mock(name, always, once):
        calls = Counter()

        def answer(messages, tools, tool_choice, config):
            i = int(messages[-1].text[1:])
            calls[i] += 1
            right = i in always or (i in once and calls[i] == 1)
            out = ModelOutput.from_content(name, f"a{i}" if right else "no idea")
            # usage given, so that mockllm does not count tokens (tiktoken would download)
            out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
            return out

        return get_model(f"mockllm/{name}", custom_outputs=answer)

    questions = MemoryDataset(
        [Sample(input=f"q{i}", target=f"a{i}", id=f"q{i}") for i in range(4)], name="quiz"
    )
    task = Task(dataset=questions, scorer=match(), epochs=2, name="quiz")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", ResourceWarning)
        logs = eval(
            task,
            model=[mock("good", {0, 1}, {2}), mock("weak", {0}, {1})],
            log_dir=str(folder),
            display="none",
        )
        gc.collect()  # inspect_ai's event loop leaves anyio streams for the collector
    return [log.location for log in logs]


def parse_score(value):
    """EEE's ``_parse_score_value``: booleans, numbers, "C"/"I"/"TRUE"/"FALSE", numeric text."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        text = value.strip().upper()
        named = {"C": 1.0, "I": 0.0, "TRUE": 1.0, "FALSE": 0.0}
        if text in named:
            return named[text]
        try:
            return float(text)
        except ValueError:
            return None
    return None


def inspect_to_eee(location, out, use_reductions):
    """One inspect_ai log as EEE's inspect converter writes its ``*_samples.jsonl``."""
    from inspect_ai.log import read_eval_log

    log = read_eval_log(location)
    samples = log.samples
    prefix, rest = log.eval.model.split("/", 1)
    detailed = samples[0].output.model
    model_id = f"{prefix}/{detailed}" if rest != detailed else log.eval.model
    by_scorer = {}
    for reduction in (log.reductions or []) if use_reductions else []:
        for reduced in reduction.samples:
            score = parse_score(reduced.value)
            if score is not None:
                by_scorer[(str(reduced.sample_id), str(reduction.scorer))] = score
    records = []
    for sample in samples:
        sample_id = str(sample.id)
        reduced = [by_scorer.get((sample_id, name)) for name in sample.scores]
        reduced = [s for s in reduced if s is not None]
        if reduced:
            score = reduced[0]
        else:
            parsed = [parse_score(s.value) for s in sample.scores.values()]
            score = next(s for s in parsed if s is not None)
        records.append(
            {
                "schema_version": "0.3.0",
                "evaluation_id": f"quiz/{model_id.replace('/', '_')}/1714557600",
                "model_id": model_id,
                "evaluation_name": log.eval.task_display_name or log.eval.task,
                "sample_id": sample_id,
                "interaction_type": "single_turn",
                "input": {"raw": sample.input, "reference": [sample.target]},
                "output": {"raw": [sample.output.completion]},
                "evaluation": {"score": score, "is_correct": score > 0},
                "token_usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2},
                "metadata": {"stop_reason": "stop", "epoch": str(sample.epoch)},
            }
        )
    write_jsonl(out / model_id / "quiz_samples.jsonl", records)
    return records


@pytest.fixture(scope="module")
def inspect_locations(tmp_path_factory):
    return make_inspect_logs(tmp_path_factory.mktemp("inspect_eee"))


@pytest.mark.parametrize("use_reductions", [True, False], ids=["reductions", "epoch-scores"])
def test_inspect_natively_and_through_eee_give_one_frame(
    inspect_locations, tmp_path, use_reductions
):
    records = []
    for location in inspect_locations:
        records += inspect_to_eee(location, tmp_path, use_reductions)
    native = pdcompare.from_inspect(inspect_locations)
    through = pdcompare.from_eee(tmp_path)
    through.columns = through.columns.rename(native.columns.name)
    through.index = through.index.rename(native.index.name)
    assert_one_frame(native, through, ["mockllm/good", "mockllm/weak"])
    # the hand-computed epoch means (see make_inspect_logs)
    assert native.loc["mockllm/good"].tolist() == [1.0, 1.0, 0.5, 0.0]
    assert native.loc["mockllm/weak"].tolist() == [1.0, 0.5, 0.0, 0.0]
    # with reductions, EEE writes the epochs' mean into every epoch's record
    q2 = [r["evaluation"]["score"] for r in records if r["model_id"] == "mockllm/good"
          and r["sample_id"] == "q2"]  # fmt: skip
    assert sorted(q2) == ([0.5, 0.5] if use_reductions else [0.0, 1.0])


# --- HELM --------------------------------------------------------------------------------


def helm_to_eee(run, out, keep_perturbed=False):
    """One HELM run as EEE's HELM converter writes its ``*_samples.jsonl``."""
    spec = json.loads((run / "run_spec.json").read_text())
    stats = json.loads((run / "per_instance_stats.json").read_text())
    model_id = spec["adapter_spec"]["model"]
    dataset = spec["name"].split(":")[0]
    states = [s for s in stats if keep_perturbed or not s.get("perturbation")]
    records = []
    for state in states:
        first = next(s for s in stats if s["instance_id"] == state["instance_id"])
        em = next((s for s in first["stats"] if s["name"]["name"] == "exact_match"), None)
        score = em["mean"] if em else 0.0
        tokens = {s["name"]["name"]: s["sum"] for s in first["stats"]}
        prompt = int(tokens.get("num_prompt_tokens", 0))
        completion = tokens.get("num_completion_tokens", 0)
        records.append(
            {
                "schema_version": "0.3.0",
                "evaluation_id": f"{dataset}/{model_id.replace('/', '_')}/1714557600",
                "model_id": model_id,
                "evaluation_name": dataset,
                "sample_id": str(state["instance_id"]),
                "interaction_type": "single_turn",
                "input": {"raw": "Question: ...", "reference": ["A"]},
                "output": {"raw": ["A"]},
                "evaluation": {"score": float(score), "is_correct": score > 0},
                "token_usage": {
                    "input_tokens": prompt,
                    "output_tokens": int(tokens.get("num_output_tokens", 0)),
                    "total_tokens": int(prompt + completion),
                },
            }
        )
    write_jsonl(out / model_id / "None_samples.jsonl", records)


def test_helm_natively_and_through_eee_give_one_frame(tmp_path):
    for run in RUNS:
        helm_to_eee(run, tmp_path)
    native = pdcompare.from_helm(RUNS, metric="exact_match")
    through = pdcompare.from_eee(tmp_path)
    # EEE's records carry no split: the valid-split instance id11 is one more item
    # (exact_match 0 for both models in the fixtures, tests/data/helm/README.md)
    assert sorted(through.columns) == sorted([*native.columns, "id11"])
    assert through["id11"].tolist() == [0.0, 0.0]
    through = through.loc[:, list(native.columns)]
    through.columns = through.columns.rename(native.columns.name)
    through.index = through.index.rename(native.index.name)
    assert_one_frame(native, through, ["openai/gpt2-xl", "openai/gpt2"])
    # the hand-set exact_match of the test-split instances id147, id65, id344
    expected = pd.DataFrame(
        [[0.0, 0.0, 0.0], [1.0, 0.0, 1.0]],
        index=pd.Index(["openai/gpt2", "openai/gpt2-xl"], name="model"),
        columns=pd.Index(["id147", "id65", "id344"], name="instance_id"),
    )
    pd.testing.assert_frame_equal(native, expected)


def test_helm_perturbed_copy_through_eee_is_a_repeated_sample(tmp_path):
    # the perturbed request state of id147 (gpt2-xl) gets the first id147 stats and no
    # perturbation field: two records of sample id147 that from_eee cannot tell apart
    helm_to_eee(RUNS[1], tmp_path, keep_perturbed=True)
    with pytest.raises(ValueError, match=r"sample 'id147'.*metadata\.epoch"):
        pdcompare.from_eee(tmp_path)

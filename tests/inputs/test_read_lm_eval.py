"""from_lm_eval: lm-evaluation-harness --log_samples files, written here as its source writes them.

The writer below follows lm-evaluation-harness (EleutherAI/lm-evaluation-harness at
4e7e0d4): the per-document object of ``lm_eval/evaluator.py`` (``doc_id, doc, target,
arguments, resps, filtered_resps, filter, metrics, doc_hash, prompt_hash, target_hash`` and
one key per metric), sanitised and dumped one per line by
``EvaluationTracker.save_results_samples`` (``arguments`` as ``gen_args_i``/``arg_j``,
responses as strings) into ``<output>/<model_name_sanitized>/samples_<task>_<date>.jsonl``,
beside ``results_<date>.json`` (``save_results_aggregated``: the results with
``higher_is_better``, ``task_hashes`` and the general config tracker's ``model_name``).
"""

import hashlib
import json
import re
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.inputs.lm_eval import _lm_eval_table

DATE = "2024-05-01T10-11-12.345678"


def hash_string(string):
    return hashlib.sha256(string.encode("utf-8")).hexdigest()


def sanitize_model_name(name):
    return re.sub(r"[\"<>:/|\\?*\[\]]+", "__", name)


def sanitize_list(sub):
    if isinstance(sub, list):
        return [sanitize_list(item) for item in sub]
    if isinstance(sub, tuple):
        return tuple(sanitize_list(item) for item in sub)
    return str(sub)


def write_run(out, model_name, task, scores, *, date=DATE, higher_is_better=None, results=True):
    """Write one model's samples file of one task (and its results json) as lm_eval does.

    ``scores``: {filter: {metric: list of per-document values}}, documents 0..n-1.
    """
    folder = out / sanitize_model_name(model_name)
    folder.mkdir(parents=True, exist_ok=True)
    samples = []
    for filter_key, metrics in scores.items():
        n_docs = len(next(iter(metrics.values())))
        for doc_id in range(n_docs):
            doc = {"question": f"What is {doc_id} + 1?", "answer": str(doc_id + 1)}
            prompt = f"Question: {doc['question']}\nAnswer:"
            target = doc["answer"]
            example = {
                "doc_id": doc_id,
                "doc": doc,
                "target": target,
                "arguments": [(prompt, {"until": ["\n"]})],
                "resps": [[f" {doc_id + 1}"]],
                "filtered_resps": [f"{doc_id + 1}"],
                "filter": filter_key,
                "metrics": list(metrics),
                "doc_hash": hash_string(json.dumps(doc, indent=2, ensure_ascii=False)),
                "prompt_hash": hash_string(prompt),
                "target_hash": hash_string(str(target)),
            }
            example.update({name: values[doc_id] for name, values in metrics.items()})
            samples.append(example)
    path = folder / f"samples_{task}_{date}.jsonl"
    with open(path, "a", encoding="utf-8") as handle:
        for sample in samples:
            arguments = {}
            for i, arg in enumerate(sample["arguments"]):
                arguments[f"gen_args_{i}"] = {}
                for j, tmp in enumerate(arg):
                    arguments[f"gen_args_{i}"][f"arg_{j}"] = tmp
            sample["resps"] = sanitize_list(sample["resps"])
            sample["filtered_resps"] = sanitize_list(sample["filtered_resps"])
            sample["arguments"] = arguments
            sample["target"] = str(sample["target"])
            handle.write(json.dumps(sample, default=str, ensure_ascii=False) + "\n")
    if results:
        # One run writes one results_<date>.json for all its tasks: merge into it.
        first = next(iter(scores.values()))
        written = folder / f"results_{date}.json"
        summary = (
            json.loads(written.read_text()) if written.exists() else _results_header(model_name)
        )
        # consolidate_results: "alias", then "metric,filter", "samples" and
        # "metric_stderr,filter" per (metric, filter); prepare_print_tasks drops "samples".
        entry = {"alias": task}
        for filt, metrics in scores.items():
            for name, values in metrics.items():
                numeric = not isinstance(values[0], list)
                # a corpus metric (bleu) is aggregated over the set: one number here too
                entry[f"{name},{filt}"] = float(np.mean(values)) if numeric else 0.25
                entry[f"{name}_stderr,{filt}"] = (
                    float(np.std(values, ddof=1) / np.sqrt(len(values))) if numeric else "N/A"
                )
        summary["results"][task] = entry
        summary["group_subtasks"][task] = []
        summary["configs"][task] = {"task": task, "output_type": "generate_until"}
        summary["versions"][task] = 1.0
        summary["n-shot"][task] = 0
        summary["higher_is_better"][task] = higher_is_better or dict.fromkeys(first, True)
        n_docs = len(next(iter(first.values())))
        summary["n-samples"][task] = {"original": n_docs, "effective": n_docs}
        summary["task_hashes"][task] = hash_string("".join(s["doc_hash"] for s in samples))
        written.write_text(json.dumps(summary, indent=2))
    return path


def _results_header(model_name):
    """The keys of results_<date>.json around its per-task entries (save_results_aggregated)."""
    return {
        "results": {},
        "group_subtasks": {},
        "configs": {},
        "versions": {},
        "n-shot": {},
        "higher_is_better": {},
        "n-samples": {},
        "config": {"model": "hf", "model_args": f"pretrained={model_name}"},
        "git_hash": "4e7e0d4",
        "date": 1714558272.0,
        "task_hashes": {},
        "model_source": "hf",
        "model_name": model_name,
        "model_name_sanitized": sanitize_model_name(model_name),
        "system_instruction": None,
        "system_instruction_sha": None,
        "fewshot_as_multiturn": False,
        "chat_template": None,
        "chat_template_sha": None,
        "start_time": 100.0,
        "end_time": 112.5,
        "total_evaluation_time_seconds": "12.5",
    }


A = [1.0, 1.0, 0.0, 1.0, 0.0]
B = [1.0, 0.0, 0.0, 0.0, 0.0]


@pytest.fixture
def two_models(tmp_path):
    write_run(tmp_path, "EleutherAI/pythia-160m", "arc_easy", {"none": {"acc": A}})
    write_run(tmp_path, "EleutherAI/pythia-70m", "arc_easy", {"none": {"acc": B}})
    return tmp_path


def test_long_table_reads_model_name_task_and_doc_ids(two_models):
    table, higher = _lm_eval_table(two_models)
    assert higher is True
    assert list(table.columns) == ["model", "task", "doc_id", "score"]
    assert set(table["model"]) == {"EleutherAI/pythia-160m", "EleutherAI/pythia-70m"}
    assert set(table["task"]) == {"arc_easy"}
    got = table.set_index(["model", "doc_id"])["score"]
    assert_allclose(got["EleutherAI/pythia-160m"].sort_index(), A)
    assert_allclose(got["EleutherAI/pythia-70m"].sort_index(), B)


def test_frame_is_models_by_documents(two_models):
    frame = pdcompare.from_lm_eval(two_models)
    assert frame.shape == (2, 5)
    assert_allclose(frame.loc["EleutherAI/pythia-160m"].to_numpy(), A)
    assert_allclose(frame.mean(axis=1).sort_index().to_numpy(), [np.mean(A), np.mean(B)])


def test_files_given_one_by_one_equal_the_folder(two_models):
    files = sorted(two_models.rglob("samples_*.jsonl"))
    by_file, _ = _lm_eval_table([str(f) for f in files])
    by_folder, _ = _lm_eval_table(two_models)
    pd.testing.assert_frame_equal(
        by_file.sort_values(["model", "doc_id"], ignore_index=True),
        by_folder.sort_values(["model", "doc_id"], ignore_index=True),
    )


def test_model_is_the_folder_name_without_results_json(tmp_path):
    write_run(tmp_path, "org/model-a", "arc_easy", {"none": {"acc": A}}, results=False)
    table, _ = _lm_eval_table(tmp_path)
    assert set(table["model"]) == {"org__model-a"}


def test_task_with_underscores_and_several_tasks(tmp_path):
    for name, scores in [("m1", A), ("m2", B)]:
        write_run(tmp_path, name, "mmlu_high_school_physics", {"none": {"acc": scores}})
        write_run(tmp_path, name, "arc_easy", {"none": {"acc": scores[:3]}})
    table, _ = _lm_eval_table(tmp_path)
    assert set(table["task"]) == {"mmlu_high_school_physics", "arc_easy"}
    frame = pdcompare.from_lm_eval(tmp_path)
    assert frame.shape == (2, 8)
    assert set(frame.columns.get_level_values(0)) == {"mmlu_high_school_physics", "arc_easy"}


def test_several_metrics_without_results_json_refused_and_metric_picks_one(tmp_path):
    em = {"exact_match": A, "f1": [0.5, 1.0, 0.0, 0.25, 0.0]}
    write_run(tmp_path, "m1", "squad", {"none": em}, results=False)
    with pytest.raises(
        ValueError, match=r"several metrics: 'exact_match', 'f1'; pick one with `metric=`"
    ):
        _lm_eval_table(tmp_path)
    table, _ = _lm_eval_table(tmp_path, metric="f1")
    assert_allclose(table["score"], em["f1"])
    with pytest.raises(
        ValueError,
        match=r"`metric` 'acc' is not in .*samples_squad_.*\(task 'squad'\); it holds "
        r"'exact_match', 'f1'",
    ):
        _lm_eval_table(tmp_path, metric="acc")


def test_without_metric_each_task_takes_the_first_metric_results_json_lists(tmp_path):
    # results_<date>.json lists squad's metrics as "f1,none", "exact_match,none" here
    em = {"f1": [0.5, 1.0, 0.0, 0.25, 0.0], "exact_match": A}
    write_run(tmp_path, "m1", "squad", {"none": em})
    table, _ = _lm_eval_table(tmp_path)
    assert_allclose(table["score"], em["f1"])


GSM_STRICT = {"m1": [0.0, 1.0, 0.0, 0.0], "m2": [0.0, 0.0, 0.0, 1.0]}
GSM_FLEXIBLE = {"m1": [1.0, 1.0, 0.0, 1.0], "m2": [1.0, 0.0, 1.0, 1.0]}
ARC_ACC = {"m1": A, "m2": B}
ARC_NORM = {"m1": [1.0, 1.0, 1.0, 1.0, 0.0], "m2": [0.0, 1.0, 0.0, 1.0, 0.0]}


@pytest.fixture
def suite_run(tmp_path):
    """An ordinary ``lm_eval --tasks arc_easy,gsm8k --log_samples`` run of two models.

    arc_easy logs ``acc`` and ``acc_norm`` (no filter); gsm8k ``exact_match`` under the
    filters ``strict-match`` and ``flexible-extract``; one results json per model lists both.
    """
    for model in ("m1", "m2"):
        arc = {"acc": ARC_ACC[model], "acc_norm": ARC_NORM[model]}
        write_run(tmp_path, model, "arc_easy", {"none": arc})
        gsm = {
            "strict-match": {"exact_match": GSM_STRICT[model]},
            "flexible-extract": {"exact_match": GSM_FLEXIBLE[model]},
        }
        write_run(tmp_path, model, "gsm8k", gsm)
    return tmp_path


def _cells(frame, model, task):
    return frame.loc[model, task].sort_index().to_numpy(dtype=float)


def test_multi_task_run_with_different_metrics_reads(suite_run):
    summary = json.loads(next(suite_run.glob("m1/results_*.json")).read_text())
    assert set(summary["results"]) == {"arc_easy", "gsm8k"}  # one results json per run
    frame = pdcompare.from_lm_eval(suite_run)
    assert frame.shape == (2, 9)
    for model in ("m1", "m2"):
        assert_allclose(_cells(frame, model, "arc_easy"), ARC_ACC[model])
        assert_allclose(_cells(frame, model, "gsm8k"), GSM_STRICT[model])
    # the paired t over the 9 (task, doc_id) items, as scipy's
    from scipy import stats

    diff = np.r_[A, GSM_STRICT["m1"]] - np.r_[B, GSM_STRICT["m2"]]
    assert_allclose(
        frame.cmp.ttest("m1", "m2").iloc[0]["pvalue"], stats.ttest_1samp(diff, 0).pvalue
    )


def test_metric_mapping_picks_per_task(suite_run):
    frame = pdcompare.from_lm_eval(
        suite_run, metric={"arc_easy": "acc_norm", "gsm8k": "exact_match,flexible-extract"}
    )
    for model in ("m1", "m2"):
        assert_allclose(_cells(frame, model, "arc_easy"), ARC_NORM[model])
        assert_allclose(_cells(frame, model, "gsm8k"), GSM_FLEXIBLE[model])
    # a task the mapping leaves out takes the default (the first metric listed)
    frame = pdcompare.from_lm_eval(suite_run, metric={"arc_easy": "acc_norm"})
    assert_allclose(_cells(frame, "m1", "gsm8k"), GSM_STRICT["m1"])


def test_metric_list_is_tried_in_order(suite_run):
    frame = pdcompare.from_lm_eval(suite_run, metric=["exact_match,flexible-extract", "acc_norm"])
    assert_allclose(_cells(frame, "m2", "arc_easy"), ARC_NORM["m2"])
    assert_allclose(_cells(frame, "m2", "gsm8k"), GSM_FLEXIBLE["m2"])
    with pytest.raises(
        ValueError,
        match=r"`metric` 'f1' nor 'bleu' is not in .*samples_arc_easy_.*\(task 'arc_easy'\); "
        r"it holds 'acc', 'acc_norm'",
    ):
        pdcompare.from_lm_eval(suite_run, metric=["f1", "bleu"])
    # one name for every task is refused where a task does not hold it
    with pytest.raises(ValueError, match=r"`metric` 'acc' is not in .*samples_gsm8k_"):
        pdcompare.from_lm_eval(suite_run, metric="acc")


@pytest.mark.parametrize("metric", [3, [], ["acc", 1], {"arc_easy": 2}, {1: "acc"}])
def test_metric_of_the_wrong_type_refused(suite_run, metric):
    with pytest.raises(TypeError, match=r"`metric` must be a metric name .*a mapping from task"):
        pdcompare.from_lm_eval(suite_run, metric=metric)


def test_filters_are_named_metric_comma_filter(tmp_path):
    # gsm8k writes each document once per filter: "strict-match" and "flexible-extract".
    strict, flexible = [0.0, 1.0, 0.0, 0.0, 1.0], [1.0, 1.0, 0.0, 1.0, 1.0]
    write_run(
        tmp_path,
        "m1",
        "gsm8k",
        {"strict-match": {"exact_match": strict}, "flexible-extract": {"exact_match": flexible}},
        results=False,
    )
    with pytest.raises(
        ValueError, match=r"'exact_match,strict-match', 'exact_match,flexible-extract'"
    ):
        _lm_eval_table(tmp_path)
    with pytest.raises(ValueError, match="is not in"):
        _lm_eval_table(tmp_path, metric="exact_match")
    table, _ = _lm_eval_table(tmp_path, metric="exact_match,flexible-extract")
    assert_allclose(table.sort_values("doc_id")["score"], flexible)


def test_lower_is_better_read_from_results_json(tmp_path):
    for name, values in [("m1", [2.0, 3.0, 4.0]), ("m2", [2.5, 3.5, 4.5])]:
        write_run(
            tmp_path,
            name,
            "wikitext",
            {"none": {"word_perplexity": values}},
            higher_is_better={"word_perplexity": False},
        )
    _, higher = _lm_eval_table(tmp_path)
    assert higher is False


def test_mixed_directions_refused(tmp_path):
    write_run(
        tmp_path, "m1", "wikitext", {"none": {"ppl": [2.0, 3.0]}}, higher_is_better={"ppl": False}
    )
    write_run(
        tmp_path,
        "m1",
        "arc_easy",
        {"none": {"acc": [1.0, 0.0]}},
        date="2024-05-02T00-00-00.000001",
    )
    with pytest.raises(
        ValueError, match="higher-is-better in task 'arc_easy' but lower-is-better"
    ):
        _lm_eval_table(tmp_path)


def test_two_files_for_one_model_and_task_refused(tmp_path):
    write_run(tmp_path, "m1", "arc_easy", {"none": {"acc": A}})
    write_run(tmp_path, "m1", "arc_easy", {"none": {"acc": B}}, date="2024-06-01T00-00-00.000001")
    with pytest.raises(ValueError, match="two samples files for model 'm1' and task 'arc_easy'"):
        _lm_eval_table(tmp_path)


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("", "holds no samples"),
        ('{"doc_id": 0, "acc": 1.0}\nnot json\n', "line 2 is not JSON"),
        ('{"acc": 1.0}\n', "record 1 has no `doc_id`"),
        (b"\xff\xfe\x00", "not UTF-8 text"),
    ],
)
def test_unreadable_file_named_with_the_reason(tmp_path, content, reason):
    path = tmp_path / "m1" / f"samples_arc_easy_{DATE}.jsonl"
    path.parent.mkdir()
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    with pytest.raises(
        ValueError, match=rf"cannot read '.*samples_arc_easy_.*\.jsonl': .*{reason}"
    ):
        pdcompare.from_lm_eval(path)


def test_missing_file_and_wrong_name_and_empty_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"cannot read '.*nowhere\.jsonl': no such file"):
        pdcompare.from_lm_eval(tmp_path / "nowhere.jsonl")
    other = tmp_path / "results.jsonl"
    other.write_text('{"doc_id": 0, "acc": 1}\n')
    with pytest.raises(ValueError, match=r"its name is not samples_<task>_<date>\.jsonl"):
        pdcompare.from_lm_eval(other)
    with pytest.raises(ValueError, match=r"holds no samples_<task>_<date>\.jsonl file; run"):
        pdcompare.from_lm_eval(tmp_path / ".." / tmp_path.name)
    with pytest.raises(TypeError, match="`paths` must be a path or a list of paths"):
        pdcompare.from_lm_eval(3)
    with pytest.raises(TypeError, match="`metric` must be a metric name"):
        pdcompare.from_lm_eval(other, metric=3)


def test_corpus_metric_refused(tmp_path):
    # bleu's per-document value is a (reference, prediction) pair aggregated later.
    write_run(tmp_path, "m1", "wmt16", {"none": {"bleu": [["ref", "pred"], ["r", "p"]]}})
    with pytest.raises(ValueError, match="metric 'bleu' holds list values, not one number"):
        pdcompare.from_lm_eval(tmp_path)


def test_broken_results_json_named(tmp_path):
    write_run(tmp_path, "m1", "arc_easy", {"none": {"acc": A}})
    (tmp_path / "m1" / f"results_{DATE}.json").write_text("{broken")
    with pytest.raises(ValueError, match=r"cannot read '.*results_.*\.json': it is not JSON"):
        pdcompare.from_lm_eval(tmp_path)


def test_does_not_change_the_files(two_models):
    before = {p: p.read_bytes() for p in two_models.rglob("*") if p.is_file()}
    pdcompare.from_lm_eval(two_models)
    assert {p: p.read_bytes() for p in two_models.rglob("*") if p.is_file()} == before


@given(
    scores=st.lists(
        st.lists(st.floats(0, 1, allow_nan=False), min_size=4, max_size=4),
        min_size=2,
        max_size=4,
    ),
    order=st.randoms(use_true_random=False),
)
@settings(max_examples=20)
def test_round_trip_whatever_the_line_order(scores, order):
    # Property: the frame holds exactly the values written, whatever the order of the lines
    # (lm-eval gathers the documents of several ranks, so a file need not be in doc_id order).
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        for k, values in enumerate(scores):
            path = write_run(out, f"org/m{k}", "arc_easy", {"none": {"acc": values}})
            lines = path.read_text().splitlines()
            order.shuffle(lines)
            path.write_text("\n".join(lines) + "\n")
        frame = pdcompare.from_lm_eval(out)
    for k, values in enumerate(scores):
        assert_allclose(frame.loc[f"org/m{k}", [0, 1, 2, 3]].to_numpy(dtype=float), values)


def test_missing_documents_name_the_file(tmp_path):
    # lm_eval --limit 3 scores only the first three documents
    write_run(tmp_path, "m1", "arc_easy", {"none": {"acc": A}})
    write_run(tmp_path, "m2", "arc_easy", {"none": {"acc": B[:3]}})
    with pytest.raises(
        ValueError,
        match=r"model 'm2' \('.*m2/samples_arc_easy_.*\.jsonl'\) lacks 2 of the 5 documents "
        r"of task 'arc_easy'.*--limit",
    ):
        pdcompare.from_lm_eval(tmp_path)


def test_model_without_a_task_named(tmp_path):
    write_run(tmp_path, "m1", "arc_easy", {"none": {"acc": A}})
    write_run(tmp_path, "m1", "piqa", {"none": {"acc": B}}, date="2024-05-02T00-00-00.000001")
    write_run(tmp_path, "m2", "arc_easy", {"none": {"acc": B}})
    with pytest.raises(ValueError, match="model 'm2' lacks 5 of the 5 documents of task 'piqa'"):
        pdcompare.from_lm_eval(tmp_path)


def test_lower_is_better_reaches_the_frame(tmp_path):
    for name, values in [("m1", [2.0, 3.0, 4.0]), ("m2", [2.5, 3.5, 4.5])]:
        write_run(
            tmp_path,
            name,
            "wikitext",
            {"none": {"word_perplexity": values}},
            higher_is_better={"word_perplexity": False},
        )
    frame = pdcompare.from_lm_eval(tmp_path)
    assert frame.attrs["pdcompare"]["design"]["greater_is_better"] is False
    # the best model is the one with the lower perplexity
    assert frame.cmp.summary().index[0] == "m1"


def test_several_tasks_columns_are_task_and_doc_id(tmp_path):
    for name, scores in [("m1", A), ("m2", B)]:
        write_run(tmp_path, name, "piqa", {"none": {"acc": scores}})
        write_run(
            tmp_path,
            name,
            "arc_easy",
            {"none": {"acc": scores[:3]}},
            date="2024-05-02T00-00-00.000001",
        )
    frame = pdcompare.from_lm_eval(tmp_path)
    assert frame.columns.names == ["task", "doc_id"]
    assert_allclose(frame.loc["m1", "piqa"].to_numpy(dtype=float), A)
    assert_allclose(frame.loc["m2", "arc_easy"].to_numpy(dtype=float), B[:3])
    # every (task, doc_id) is an item: the paired t over the 8 items, as scipy's
    from scipy import stats

    diff = np.r_[A, A[:3]] - np.r_[B, B[:3]]
    row = frame.cmp.ttest("m1", "m2").iloc[0]
    assert_allclose(row["pvalue"], stats.ttest_1samp(diff, 0).pvalue)


def test_output_path_given_as_a_json_file(tmp_path):
    # lm_eval --output_path out/run.json writes out/run_<date>.json and the samples beside it
    path = write_run(tmp_path, "org/model-a", "arc_easy", {"none": {"acc": A}})
    folder = path.parent
    (folder / f"results_{DATE}.json").rename(folder / f"run_{DATE}.json")
    table, _ = _lm_eval_table(folder)
    assert set(table["model"]) == {"org/model-a"}


def test_a_document_without_a_value_is_named(tmp_path):
    write_run(tmp_path, "m1", "arc_easy", {"none": {"acc": [1.0, None, 0.0]}}, results=False)
    with pytest.raises(
        ValueError, match=r"metric 'acc' has no value \(null or NaN\) for 1 documents \(doc_id 1"
    ):
        pdcompare.from_lm_eval(tmp_path)

"""from_inspect: real inspect_ai logs, made offline by its mockllm model on an in-memory data set.

Two models answer four questions over two epochs; a model that answers a question right on
one epoch only scores 0.5 on it after averaging, whichever epoch came first:
model "good": q0, q1 right, q2 right once, q3 wrong -> [1, 1, 0.5, 0];
model "weak": q0 right, q1 right once, q2, q3 wrong -> [1, 0.5, 0, 0].
"""

import gc
import shutil
import time
import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.inputs.inspect_logs import _inspect_table

pytest.importorskip("inspect_ai")

EXPECTED = {"mockllm/good": [1.0, 1.0, 0.5, 0.0], "mockllm/weak": [1.0, 0.5, 0.0, 0.0]}
IDS = ["q0", "q1", "q2", "q3"]


def _metadata(i):
    # q0, q1 are on passage p0, q2, q3 on p1; "source" is text longer than the 1,024
    # characters inspect_ai's sample summaries keep (they shorten it to "...")
    return {"passage": f"p{i // 2}", "source": "x" * 2000 + f"source {i // 2}"}


def _make_logs(folder: Path) -> list:
    from inspect_ai import Task, eval
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import Score, mean, scorer

    @scorer(metrics=[mean()])
    def answer_length():
        async def score(state, target):
            return Score(value=len(state.output.completion))

        return score

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
        [
            Sample(input=f"q{i}", target=f"a{i}", id=f"q{i}", metadata=_metadata(i))
            for i in range(4)
        ],
        name="quiz",
    )
    task = Task(dataset=questions, scorer=[match(), answer_length()], epochs=2, name="quiz")
    with warnings.catch_warnings():
        # inspect_ai's retry set-up calls tenacity with a deprecated keyword, and its
        # event loop leaves anyio streams for the garbage collector: neither is ours.
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", ResourceWarning)
        logs = eval(
            task,
            model=[mock("good", {0, 1}, {2}), mock("weak", {0}, {1})],
            log_dir=str(folder),
            display="none",
        )
        gc.collect()
    return logs


@pytest.fixture(scope="session")
def inspect_logs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("inspect_logs")
    start = time.perf_counter()
    logs = _make_logs(folder)
    assert time.perf_counter() - start < 60
    assert [log.status for log in logs] == ["success", "success"]
    return folder, logs


def test_long_table_has_models_items_and_epochs(inspect_logs):
    folder, _ = inspect_logs
    table = _inspect_table(folder)
    assert list(table.columns) == ["model", "task", "item", "epoch", "score"]
    assert set(table["model"]) == set(EXPECTED)
    assert set(table["task"]) == {"quiz"}
    assert sorted(table["epoch"].unique()) == [1, 2]
    assert len(table) == 2 * 4 * 2
    # match's "C"/"I" through value_to_float: 1 and 0 on every epoch.
    assert set(table["score"]) == {0.0, 1.0}


def test_frame_means_over_epochs(inspect_logs):
    folder, _ = inspect_logs
    frame = pdcompare.from_inspect(folder)
    assert frame.shape == (2, 4)
    for model, expected in EXPECTED.items():
        assert_allclose(frame.loc[model, IDS].to_numpy(dtype=float), expected)


def test_eval_log_objects_and_files_read_alike(inspect_logs):
    folder, logs = inspect_logs
    files = sorted(str(p) for p in folder.iterdir())
    by_objects = pdcompare.from_inspect(logs)
    by_files = pdcompare.from_inspect(files)
    by_folder = pdcompare.from_inspect(str(folder))
    for other in (by_files, by_folder):
        assert_allclose(
            other.loc[list(EXPECTED), IDS].to_numpy(dtype=float),
            by_objects.loc[list(EXPECTED), IDS].to_numpy(dtype=float),
        )


def test_scorer_picks_another_scorer(inspect_logs):
    folder, _ = inspect_logs
    table = _inspect_table(folder, scorer="answer_length")
    # the right answer "a<i>" has 2 characters, "no idea" 7
    good = table[table["model"] == "mockllm/good"].groupby("item")["score"].mean()
    assert_allclose(good[IDS].to_numpy(), [2.0, 2.0, 4.5, 7.0])
    with pytest.raises(
        ValueError, match=r"`scorer` 'f1' is not in .*scorers are 'match', 'answer_length'"
    ):
        pdcompare.from_inspect(folder, scorer="f1")


def test_two_tasks_give_task_item_columns(inspect_logs, tmp_path):
    _, logs = inspect_logs
    other = [log.model_copy(deep=True) for log in logs]
    for log in other:
        log.eval.task = "quiz_hard"
        log.location = None
    frame = pdcompare.from_inspect([*logs, *other])
    assert frame.shape == (2, 8)
    assert set(frame.columns.get_level_values(0)) == {"quiz", "quiz_hard"}


def test_same_model_and_task_twice_refused(inspect_logs):
    _, logs = inspect_logs
    with pytest.raises(ValueError, match="two logs for model 'mockllm/good' and task 'quiz'"):
        pdcompare.from_inspect([logs[0], logs[0]])


def test_dict_and_text_values_refused(inspect_logs):
    _, logs = inspect_logs
    log = logs[0].model_copy(deep=True)
    log.samples[0].scores["match"].value = {"accuracy": 1, "f1": 0.5}
    with pytest.raises(ValueError, match=r"scorer 'match' gives dict values .*pick a scorer"):
        pdcompare.from_inspect([log])
    log.samples[0].scores["match"].value = "maybe"
    with pytest.raises(
        ValueError, match="value 'maybe', which inspect_ai's value_to_float does not map"
    ):
        pdcompare.from_inspect([log])
    log.samples[0].scores["match"].value = "P"
    table = _inspect_table([log])
    assert table["score"].iloc[0] == 0.5


def test_unscored_samples_refused(inspect_logs):
    _, logs = inspect_logs
    log = logs[0].model_copy(deep=True)
    del log.samples[1].scores["match"]
    with pytest.raises(ValueError, match="1 samples have no score of scorer 'match'"):
        pdcompare.from_inspect([log])
    for sample in log.samples:
        sample.scores = {}
    with pytest.raises(ValueError, match="its samples have no scores"):
        pdcompare.from_inspect([log])


def test_unreadable_files_named_with_the_reason(inspect_logs, tmp_path):
    from inspect_ai.log import read_eval_log

    folder, _ = inspect_logs
    with pytest.raises(FileNotFoundError, match=r"cannot read '.*missing\.eval': no such file"):
        pdcompare.from_inspect(tmp_path / "missing.eval")
    text = tmp_path / "notes.json"
    text.write_text("these are not logs")
    with pytest.raises(
        ValueError, match=r"cannot read '.*notes\.json': inspect_ai cannot read it"
    ):
        pdcompare.from_inspect(text)
    broken = tmp_path / "broken.eval"
    shutil.copy(next(folder.iterdir()), broken)
    broken.write_bytes(broken.read_bytes()[:100])
    with pytest.raises(ValueError, match=r"cannot read '.*broken\.eval': inspect_ai cannot read"):
        pdcompare.from_inspect(broken)
    header = read_eval_log(str(next(folder.iterdir())), header_only=True)
    with pytest.raises(ValueError, match=r"holds no samples .*header_only=True"):
        pdcompare.from_inspect([header])
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match=r"holds no inspect_ai log \(\.eval or \.json file"):
        pdcompare.from_inspect(empty)
    with pytest.raises(TypeError, match="`logs` must hold inspect_ai EvalLog objects or paths"):
        pdcompare.from_inspect([np.zeros(3)])
    with pytest.raises(TypeError, match="`scorer` must be a scorer's name"):
        pdcompare.from_inspect(folder, scorer=1)


def test_logs_are_not_changed(inspect_logs):
    _, logs = inspect_logs
    before = [log.model_dump_json() for log in logs]
    pdcompare.from_inspect(logs)
    assert [log.model_dump_json() for log in logs] == before


def test_unfinished_log_named(inspect_logs):
    # a finished log without some samples (edited, or of a smaller data set)
    _, logs = inspect_logs
    short = logs[1].model_copy(deep=True)
    short.samples = [s for s in short.samples if s.id != "q3"]
    with pytest.raises(
        ValueError, match=r"model 'mockllm/weak' \('.*'\) lacks 1 of the 4 samples of task 'quiz'"
    ):
        pdcompare.from_inspect([logs[0], short])


def test_summary_counts_epochs_as_samples(inspect_logs):
    folder, _ = inspect_logs
    summary = pdcompare.from_inspect(folder).cmp.summary()
    assert (summary["samples_per_item"] == 2).all()
    assert (summary["n_items"] == 4).all()
    for model, expected in EXPECTED.items():
        assert_allclose(summary.loc[model, "mean"], np.mean(expected))


def test_json_format_logs_read_like_eval_logs(inspect_logs, tmp_path):
    from inspect_ai.log import write_eval_log

    _, logs = inspect_logs
    for k, log in enumerate(logs):
        write_eval_log(log, str(tmp_path / f"log{k}.json"), format="json")
    # a folder lists the logs inspect_ai's way (by its file names): renamed ones go by path
    with pytest.raises(ValueError, match="pass renamed log files by their paths"):
        pdcompare.from_inspect(tmp_path)
    by_json = pdcompare.from_inspect(sorted(tmp_path.iterdir()))
    by_objects = pdcompare.from_inspect(logs)
    assert_allclose(
        by_json.loc[list(EXPECTED), IDS].to_numpy(dtype=float),
        by_objects.loc[list(EXPECTED), IDS].to_numpy(dtype=float),
    )


@given(order=st.randoms(use_true_random=False), swap=st.booleans())
@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_order_of_samples_and_logs_does_not_matter(inspect_logs, order, swap):
    # Property: the frame depends on what the logs hold, not on the order of their samples
    # (inspect_ai writes them as they finish) or of the logs.
    _, logs = inspect_logs
    shuffled = [log.model_copy() for log in logs]
    for log in shuffled:
        log.samples = order.sample(log.samples, len(log.samples))
    if swap:
        shuffled.reverse()
    frame = pdcompare.from_inspect(shuffled)
    for model, expected in EXPECTED.items():
        assert_allclose(frame.loc[model, IDS].to_numpy(dtype=float), expected)


@pytest.fixture(scope="session")
def error_log(tmp_path_factory):
    """A real log that ended in error: mockllm raises on q3 (inspect_ai fails the eval)."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import match

    def answer(messages, tools, tool_choice, config):
        i = int(messages[-1].text[1:])
        if i == 3:
            message = "quota exceeded"
            raise RuntimeError(message)
        out = ModelOutput.from_content("broken", f"a{i}")
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    folder = tmp_path_factory.mktemp("inspect_error")
    data = MemoryDataset(
        [Sample(input=f"q{i}", target=f"a{i}", id=f"q{i}") for i in range(4)], name="quiz"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", ResourceWarning)
        (log,) = eval(
            Task(dataset=data, scorer=match(), epochs=2, name="quiz"),
            model=get_model("mockllm/broken", custom_outputs=answer),
            log_dir=str(folder),
            display="none",
        )
        gc.collect()
    assert log.status == "error"
    return log


def test_log_that_ended_in_error_named_with_its_error_and_eval_retry(inspect_logs, error_log):
    folder, _ = inspect_logs
    for broken in (error_log, error_log.location):
        with pytest.raises(
            ValueError,
            match=r"cannot read '.*': the evaluation ended in error \(RuntimeError\('quota "
            r"exceeded'\)\).*`eval_retry`",
        ):
            pdcompare.from_inspect([*sorted(folder.iterdir()), broken])
    cancelled = error_log.model_copy()
    cancelled.status = "cancelled"
    with pytest.raises(ValueError, match=r"the evaluation was cancelled; retry it .*`eval_retry`"):
        pdcompare.from_inspect([cancelled])


def test_cluster_is_a_key_of_sample_metadata(inspect_logs):
    folder, _ = inspect_logs
    frame = pdcompare.from_inspect(folder, cluster="passage")
    summary = frame.cmp.summary()
    assert (summary["n_clusters"] == 2).all()
    # CR1 over the passages written out: sqrt(C/(C-1) * sum_c (sum_{i in c}(x_i - mean))^2) / n
    for model, scores in EXPECTED.items():
        x = np.asarray(scores)
        sums = np.array([(x[:2] - x.mean()).sum(), (x[2:] - x.mean()).sum()])
        assert_allclose(summary.loc[model, "se"], np.sqrt(2 / 1 * (sums**2).sum()) / 4)
    pairs = frame.cmp.ttest("mockllm/good", "mockllm/weak")
    assert pairs["n_clusters"].iloc[0] == 2
    with pytest.raises(
        ValueError, match=r"`cluster`: sample 'q.' \(epoch .\) of .* has no metadata key 'topic'"
    ):
        pdcompare.from_inspect(folder, cluster="topic")
    with pytest.raises(TypeError, match=r"`cluster` must be a key of sample\.metadata"):
        pdcompare.from_inspect(folder, cluster=1)


def test_cluster_text_shortened_by_the_summaries_read_whole(inspect_logs):
    # "source" is cut to the same "xxx..." for every sample in the summaries: the whole log
    # is read for it, and its two values stay two clusters
    folder, logs = inspect_logs
    for source in (folder, logs):
        frame = pdcompare.from_inspect(source, cluster="source")
        assert (frame.cmp.summary()["n_clusters"] == 2).all()


def test_files_are_read_by_header_and_sample_summaries(inspect_logs, monkeypatch):
    import inspect_ai.log

    folder, _ = inspect_logs
    real = inspect_ai.log.read_eval_log
    calls = []

    def spy(log_file, *args, **kwargs):
        calls.append(kwargs.get("header_only", False))
        return real(log_file, *args, **kwargs)

    monkeypatch.setattr(inspect_ai.log, "read_eval_log", spy)
    frame = pdcompare.from_inspect(folder)
    assert calls == [True, True]  # the headers only, never the whole logs
    for model, expected in EXPECTED.items():
        assert_allclose(frame.loc[model, IDS].to_numpy(dtype=float), expected)


def test_model_names_given_as_a_list_or_a_callable(inspect_logs):
    _, logs = inspect_logs
    frame = pdcompare.from_inspect(logs, model=["first", "second"])
    assert list(frame.index) == ["first", "second"]
    assert_allclose(frame.loc["first", IDS].to_numpy(dtype=float), EXPECTED["mockllm/good"])
    frame = pdcompare.from_inspect(logs, model=lambda log: log.eval.model.split("/")[1])
    assert sorted(frame.index) == ["good", "weak"]
    with pytest.raises(ValueError, match=r"`model` must give one name \(str\) per log: 2 logs"):
        pdcompare.from_inspect(logs, model=["only"])
    with pytest.raises(TypeError, match="`model` must be a list of names"):
        pdcompare.from_inspect(logs, model="good")
    with pytest.raises(TypeError, match=r"the callable must return a model name \(str\)"):
        pdcompare.from_inspect(logs, model=lambda log: 3)


def test_two_logs_of_one_model_told_apart_by_task_arguments_or_solver(inspect_logs):
    _, logs = inspect_logs
    easy, hard = (logs[0].model_copy(deep=True) for _ in range(2))
    # only the arguments that differ make the name
    easy.eval.task_args = {"level": "easy", "shots": 5}
    hard.eval.task_args = {"level": "hard", "shots": 5}
    frame = pdcompare.from_inspect([easy, hard])
    assert list(frame.index) == ["mockllm/good (level='easy')", "mockllm/good (level='hard')"]
    plain, cot = (logs[0].model_copy(deep=True) for _ in range(2))
    plain.eval.solver, cot.eval.solver = "generate", "chain_of_thought"
    frame = pdcompare.from_inspect([plain, cot, logs[1]])
    assert list(frame.index) == [
        "mockllm/good (solver generate)",
        "mockllm/good (solver chain_of_thought)",
        "mockllm/weak",
    ]
    with pytest.raises(
        ValueError,
        match=r"two logs for model 'mockllm/good' and task 'quiz' with the same task "
        r"arguments and solver: .*name the models with `model=`",
    ):
        pdcompare.from_inspect([logs[0], logs[0]])
    frame = pdcompare.from_inspect([logs[0], logs[0]], model=["run 1", "run 2"])
    assert list(frame.index) == ["run 1", "run 2"]


def test_a_sample_without_a_value_is_named(inspect_logs):
    _, logs = inspect_logs
    log = logs[0].model_copy(deep=True)
    log.samples[2].scores["match"].value = float("nan")
    with pytest.raises(
        ValueError,
        match=rf"1 samples have no value \(NaN\) of scorer 'match' \(sample id "
        rf"'{log.samples[2].id}' first\)",
    ):
        pdcompare.from_inspect([log, logs[1]])

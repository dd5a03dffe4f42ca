"""from_inspect on a large log: sample summaries against reading the whole log (DESIGN 32).

A real inspect_ai log of N samples (10,000; 1,000 with ``--quick``) is made
offline by inspect_ai's mock model (``mockllm/model``, answering every other
question right) and the ``match`` scorer; each sample has a ``passage`` in its
metadata, read as the cluster. Timed,
taking turns in one process, each keeping its minimum:

* ``from_inspect (summaries)``: ``pdcompare.from_inspect(files)``, which reads
  each file's header and its sample summaries
  (``read_eval_log_sample_summaries``: ids, epochs, scores, metadata);
* ``from_inspect (whole logs)``: what ``from_inspect`` did before, the whole
  logs read by ``read_eval_log`` and then the same frame built from them.

Both give the same frame (checked; up to the order of the columns: the
summaries come in sample-id order, a whole log in the order the samples
finished). DESIGN 32 asks for at least 10x.

Making the log takes long (about 0.15 s a sample on a loaded machine):
``--log-dir DIR`` keeps it there and reuses a log already there.

Run: python benchmarks/bench_inspect.py [--quick] [--log-dir DIR]
"""

from __future__ import annotations

import gc
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pandas as pd
from _bench import interleaved, report

import pdcompare


def make_logs(out: Path, n_samples: int) -> list[str]:
    """One log of one task of ``n_samples`` questions, by the mock model."""
    from inspect_ai import Task, eval
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import match

    def mock(name: str, right_every: int):
        def answer(messages, tools, tool_choice, config):
            i = int(messages[-1].text[1:])
            text = f"a{i}" if i % right_every == 0 else "no idea"
            output = ModelOutput.from_content(name, text)
            # usage given, so that mockllm does not count tokens (tiktoken would download)
            output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
            return output

        return get_model(f"mockllm/{name}", custom_outputs=answer)

    data = MemoryDataset(
        [
            Sample(input=f"q{i}", target=f"a{i}", id=f"q{i}", metadata={"passage": i // 10})
            for i in range(n_samples)
        ],
        name="quiz",
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", ResourceWarning)
        logs = eval(
            Task(dataset=data, scorer=match(), name="quiz"),
            model=mock("model", 2),
            log_dir=str(out),
            display="none",
            max_connections=100,
        )
        gc.collect()
    return [log.location for log in logs]


def _timed(files: list[str], n_samples: int) -> None:
    from inspect_ai.log import read_eval_log

    cases = {
        "from_inspect (summaries)": lambda: pdcompare.from_inspect(files, cluster="passage"),
        "from_inspect (whole logs)": lambda: pdcompare.from_inspect(
            [read_eval_log(f) for f in files], cluster="passage"
        ),
    }
    # the same frame up to the order of its columns: the summaries come in sample-id
    # order, a whole log holds its samples in the order they finished
    by_summaries, by_logs = (
        cases["from_inspect (summaries)"](),
        cases["from_inspect (whole logs)"](),
    )
    pd.testing.assert_frame_equal(by_summaries, by_logs[by_summaries.columns])
    best = interleaved(cases, 3)
    report(
        f"from_inspect: a log of {n_samples} samples (mockllm/model)",
        best,
        {},
        [("from_inspect (whole logs)", "from_inspect (summaries)")],
    )


def main(quick: bool, log_dir: str | None = None) -> None:
    n_samples = 1_000 if quick else 10_000
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(log_dir or scratch) / f"n{n_samples}"
        files = sorted(str(path) for path in folder.glob("*.eval"))
        if not files:
            folder.mkdir(parents=True, exist_ok=True)
            start = time.perf_counter()
            files = make_logs(folder, n_samples)
            print(f"made a log of {n_samples} samples in {time.perf_counter() - start:.1f} s")
        _timed(files, n_samples)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    kept = arguments[arguments.index("--log-dir") + 1] if "--log-dir" in arguments else None
    main("--quick" in arguments, kept)

"""The evaluation-log readers against the floor of reading the same files.

* ``from_lm_eval``: M models x T tasks x D documents of lm-evaluation-harness
  ``--log_samples`` files (each line a full object as lm-eval writes it: the
  document, the prompt arguments, the responses, the hashes, the metric),
  against the floor: ``json.loads`` of every line (the irreducible part: the
  files are JSON lines), the ``doc_id`` and metric gathered into one long table
  and pivoted to models x (task, doc_id) by pandas.
* ``from_inspect``: M inspect_ai ``.eval`` logs of N samples x K epochs, against
  inspect_ai's own ``read_eval_log`` of the same files (which ``from_inspect``
  calls: the ratio is the cost of everything pdcompare adds).
* ``from_items`` on ``polars.scan_parquet`` of a parquet file of R rows
  (model, item, sample, score; 10 models, 10 samples per item), against
  polars' own lazy group-by of the same file to per-cell means, counts and
  variances (the reduction ``from_items`` asks of the engine; the ratio is the
  cost of the narwhals layer, the collection to pandas and the items frame).
  10⁷ rows in the quick run, 10⁸ in the full one (DESIGN section 32: under
  60 s, within 1.5x polars' group-by).

Both sides run in one process, taking turns; each keeps its minimum. Timings
on a loaded machine vary; the ratio is the figure.

Run: python benchmarks/bench_readers.py [--quick] [--parquet]  (--parquet: only the last)
"""

from __future__ import annotations

import json
import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from _bench import interleaved, peak_mib, peak_rss_mib, report

import pdcompare

DATE = "2024-05-01T10-11-12.345678"


def write_lm_eval(out: Path, n_models: int, n_tasks: int, n_docs: int) -> None:
    rng = np.random.default_rng(0)
    for m in range(n_models):
        folder = out / f"org__model-{m:02d}"
        folder.mkdir(parents=True)
        (folder / f"results_{DATE}.json").write_text(
            json.dumps({"model_name": f"org/model-{m:02d}", "higher_is_better": {}})
        )
        for t in range(n_tasks):
            acc = rng.random(n_docs) < 0.6 + 0.02 * m
            with open(folder / f"samples_task_{t}_{DATE}.jsonl", "w") as handle:
                for doc_id in range(n_docs):
                    question = f"Question {doc_id} of task {t}: which answer is right?"
                    record = {
                        "doc_id": doc_id,
                        "doc": {"question": question, "choices": ["A", "B", "C", "D"]},
                        "target": "1",
                        "arguments": {
                            f"gen_args_{k}": {"arg_0": question, "arg_1": f" {c}"}
                            for k, c in enumerate("ABCD")
                        },
                        "resps": [[["-1.25", "False"]] for _ in range(4)],
                        "filtered_resps": [["-1.25", "False"] for _ in range(4)],
                        "filter": "none",
                        "metrics": ["acc"],
                        "doc_hash": "0" * 64,
                        "prompt_hash": "1" * 64,
                        "target_hash": "2" * 64,
                        "acc": float(acc[doc_id]),
                    }
                    handle.write(json.dumps(record) + "\n")


def lm_eval_floor(out: Path) -> pd.DataFrame:
    tables = []
    for path in sorted(out.rglob("samples_*.jsonl")):
        with open(path) as handle:
            records = [json.loads(line) for line in handle]
        task = path.name[path.name.find("_") + 1 : path.name.rfind("_")]
        tables.append(
            pd.DataFrame(
                {
                    "model": path.parent.name,
                    "task": task,
                    "doc_id": [r["doc_id"] for r in records],
                    "acc": [r["acc"] for r in records],
                }
            )
        )
    long = pd.concat(tables, ignore_index=True)
    return long.pivot(index="model", columns=["task", "doc_id"], values="acc")  # noqa: PD010


def write_inspect(out: Path, n_models: int, n_samples: int, n_epochs: int) -> None:
    from inspect_ai.log import (
        EvalConfig,
        EvalDataset,
        EvalLog,
        EvalSample,
        EvalSpec,
        write_eval_log,
    )
    from inspect_ai.scorer import Score

    rng = np.random.default_rng(0)
    for m in range(n_models):
        spec = EvalSpec(
            created="2024-05-01T10:00:00",
            task="quiz",
            model=f"provider/model-{m:02d}",
            dataset=EvalDataset(),
            config=EvalConfig(),
        )
        right = rng.random((n_samples, n_epochs)) < 0.6
        samples = [
            EvalSample(
                id=f"q{i}",
                epoch=e + 1,
                input=f"Question {i}?",
                target="yes",
                scores={"match": Score(value="C" if right[i, e] else "I")},
            )
            for i in range(n_samples)
            for e in range(n_epochs)
        ]
        write_eval_log(EvalLog(eval=spec, samples=samples), str(out / f"model-{m:02d}.eval"))


def main(quick: bool) -> None:
    n_models, n_tasks, n_docs = (5, 4, 1000) if quick else (10, 10, 5000)
    rounds = 3 if quick else 5
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        write_lm_eval(out, n_models, n_tasks, n_docs)
        ours = pdcompare.from_lm_eval(out)
        floor = lm_eval_floor(out).rename(index=lambda folder: folder.replace("__", "/"))
        assert np.array_equal(
            ours.to_numpy(dtype=float),
            floor.loc[ours.index, ours.columns].to_numpy(dtype=float),
        )
        cases = {
            "from_lm_eval": lambda: pdcompare.from_lm_eval(out),
            "json lines + pivot": lambda: lm_eval_floor(out),
        }
        best = interleaved(cases, rounds)
        peaks = {name: peak_mib(function) for name, function in cases.items()}
        report(
            f"from_lm_eval: {n_models} models x {n_tasks} tasks x {n_docs} documents",
            best,
            peaks,
            [("from_lm_eval", "json lines + pivot")],
        )

    n_logs, n_samples, n_epochs = (2, 300, 2) if quick else (10, 2000, 5)
    with tempfile.TemporaryDirectory() as folder, warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from inspect_ai.log import read_eval_log

        out = Path(folder)
        write_inspect(out, n_logs, n_samples, n_epochs)
        files = sorted(str(p) for p in out.iterdir())
        cases = {
            "from_inspect": lambda: pdcompare.from_inspect(files),
            "read_eval_log only": lambda: [read_eval_log(f) for f in files],
        }
        best = interleaved(cases, rounds)
        report(
            f"from_inspect: {n_logs} logs x {n_samples} samples x {n_epochs} epochs",
            best,
            {},
            [("from_inspect", "read_eval_log only")],
        )


def write_parquet(path: Path, n_rows: int, n_models: int = 10, n_samples: int = 10) -> None:
    import polars as pl

    n_items = n_rows // (n_models * n_samples)
    rng = np.random.default_rng(0)
    cell = np.arange(n_models * n_items * n_samples) // n_samples
    frame = pl.DataFrame(
        {
            "model": pl.Series(np.char.add("model-", (cell // n_items).astype(str))).cast(
                pl.Categorical
            ),
            "item": (cell % n_items).astype(np.int64),
            "sample": np.tile(np.arange(n_samples), n_models * n_items),
            "score": (rng.random(cell.size) < 0.6).astype(np.float64),
        }
    )
    frame.write_parquet(path)


def polars_floor(path: Path):
    import polars as pl

    return (
        pl.scan_parquet(path)
        .group_by(["model", "item"])
        .agg(
            pl.col("score").mean().alias("mean"),
            pl.len().alias("count"),
            pl.col("score").var(ddof=1).alias("var"),
        )
        .collect()
    )


def parquet_main(quick: bool) -> None:
    import polars as pl

    n_rows = 10**7 if quick else 10**8
    rounds = 2 if quick else 3
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "answers.parquet"
        write_parquet(path, n_rows)
        frame = pdcompare.from_items(pl.scan_parquet(path), sample="sample")
        floor = polars_floor(path).to_pandas()
        means = floor.pivot(index="model", columns="item", values="mean")  # noqa: PD010
        assert np.allclose(frame.to_numpy(), means.loc[frame.index, frame.columns].to_numpy())
        cases = {
            "from_items(scan_parquet)": lambda: pdcompare.from_items(
                pl.scan_parquet(path), sample="sample"
            ),
            "polars group_by (mean, len, var)": lambda: polars_floor(path),
        }
        best = interleaved(cases, rounds)
        report(
            f"from_items on a parquet file of {n_rows:.0e} rows "
            f"({frame.shape[0]} models x {frame.shape[1]} items x 10 samples); "
            f"peak RSS of the process {peak_rss_mib():.0f} MiB",
            best,
            {},
            [("from_items(scan_parquet)", "polars group_by (mean, len, var)")],
        )


if __name__ == "__main__":
    if "--parquet" not in sys.argv[1:]:
        main("--quick" in sys.argv[1:])
    parquet_main("--quick" in sys.argv[1:])

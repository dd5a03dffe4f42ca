"""The evaluation-log readers against the floor of reading the same files.

* ``from_lm_eval``: M models x T tasks x D documents of lm-evaluation-harness
  ``--log_samples`` files (each line a full object as lm-eval writes it: the
  document, the prompt arguments, the responses, the hashes, the metric),
  against the floor: ``json.loads`` of every line (the irreducible part: the
  files are JSON lines), the ``doc_id`` and metric gathered into one long table
  and pivoted to models x (task, doc_id) by pandas.
* ``from_inspect``: M inspect_ai ``.eval`` logs of N samples x K epochs, against
  inspect_ai's own ``read_eval_log`` of the same files (the whole logs, which
  ``from_inspect`` read before it read each file's header and sample
  summaries); then before and after on one log made by inspect_ai's mock
  model, 1,000 samples in the quick run, 10,000 in the full one
  (:mod:`bench_inspect`: ``from_inspect`` of the file against
  ``from_inspect`` of the whole log read by ``read_eval_log``; DESIGN section
  32 asks for at least 10x; measured on a quiet machine at 10,000 samples:
  0.47 to 0.50 s against 12.2 to 12.4 s, 24x to 27x; 1,000 samples 9.5x).
* ``from_items`` on ``polars.scan_parquet`` of a parquet file of R rows
  (model, item, sample, score of 0 or 1; 10 models, 10 samples per item;
  written once in chunks of 10⁷ rows, row groups of 2**20 rows), against
  polars' own lazy group-by of the same file to per-cell means, counts and
  variances (by its streaming engine). 10⁷ rows in the quick run, 10⁸ in the
  full one (DESIGN section 32: under 60 s, within 1.5x polars' group-by, peak
  memory under twice the output plus one row group). Each run is a fresh
  process (``--one``), the two taking turns: its wall time, the CPU time of
  all its threads, and the growth of its peak resident size (``VmHWM``).

  ``from_items`` streams a polars lazy frame of one task itself
  (:mod:`pdcompare.inputs.polars_stream`): the distinct items and models,
  then the rows in batches (``collect_batches``) merged into running
  per-cell arrays. Measured on a quiet machine (2 cores), fastest of 2 runs,
  peaks (growth of ``VmHWM``, MiB):

  ==============================  ========  ======================  ========================
  polars 2.1 (installed)          rows      from_items              polars' group-by
  ==============================  ========  ======================  ========================
  before (engine group-by)        10⁸       4.9 to 6.1 s, +2106     2.1 to 3.9 s, +1772
                                            to +2112                to +1802
  after (streamed)                10⁸       2.5 s, +454             3.6 s, +1693
  after (streamed)                10⁷       0.38 s, +259            0.22 s, +251
  after, scores in quarters       10⁸       3.5 s, +835             3.6 s, +1738
  ==============================  ========  ======================  ========================

  Section 32's bound at 10⁸ rows is 2 x 229 MiB (the items frame's means,
  counts and variances) + 28 MiB (a row group) = 486 MiB: met with 0/1
  scores. Of the +454 MiB about 250 are polars' reading of the file (decoded
  row groups in flight, kept by its allocator) and 153 the running counts and
  means (16 bytes a cell), which become the frame's values and sample counts
  without a copy; the variances of 0/1 scores follow from the means and are
  stored as ``"binomial"``. Graded scores (the last row) add the running sums
  of squares and keep 10⁷ variances in the frame's JSON-able metadata, above
  the bound. At 10⁷ rows polars' fixed reading cost (~250 MiB) is above that
  size's bound (74 MiB) whoever reads, and the two reads cost 1.75x polars'
  one. Before, polars' own group-by of 10⁷ cells took +1.7 to +1.8 GiB by
  itself. A polars without ``collect_batches`` (1.33) takes the engine's
  group-by, by its streaming engine (polars 1.33.1, earlier measurement: 12 s
  and +4.7 GiB at 10⁸, against 49 s and +12.5 GiB by its default engine).
  (Peaks are ``VmHWM``: ``ru_maxrss`` inherits the peak of the parent
  process, which wrote the file.)
  Run from a worktree with ``PYTHONPATH=.``: the runs import the pdcompare
  that the parent imported, which is otherwise the one installed in the venv.

Timings on a loaded machine vary (the same code moved 1.4x to 1.7x between
runs); the ratio is the figure.

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
from _bench import interleaved, peak_mib, report
from bench_inspect import main as inspect_before_after

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
    inspect_before_after(quick)


def write_parquet(
    path: Path, n_rows: int, n_models: int = 10, n_samples: int = 10, chunk: int = 10**7
) -> None:
    """R rows (model, item, sample, score) written ``chunk`` rows at a time (row groups of 2**20).

    Models as an Arrow dictionary column (polars reads it as Categorical),
    model after model, item after item; the writer never holds more than one chunk.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    n_items = n_rows // (n_models * n_samples)
    total = n_models * n_items * n_samples
    names = pa.array([f"model-{m}" for m in range(n_models)])
    schema = pa.schema(
        [
            ("model", pa.dictionary(pa.int32(), pa.string())),
            ("item", pa.int64()),
            ("sample", pa.int64()),
            ("score", pa.float64()),
        ]
    )
    with pq.ParquetWriter(path, schema) as writer:
        for k, start in enumerate(range(0, total, chunk)):
            row = np.arange(start, min(start + chunk, total), dtype=np.int64)
            cell = row // n_samples
            rng = np.random.default_rng([0, k])
            codes = pa.array((cell // n_items).astype(np.int32))
            table = pa.table(
                {
                    "model": pa.DictionaryArray.from_arrays(codes, names),
                    "item": cell % n_items,
                    "sample": row % n_samples,
                    "score": (rng.random(row.size) < 0.6).astype(np.float64),
                },
                schema=schema,
            )
            writer.write_table(table, row_group_size=2**20)


def polars_floor(path: Path, engine: str = "streaming"):
    """polars' own lazy group-by of the file to per-cell means, counts and variances.

    ``engine``: polars' ``collect(engine=...)``; ``"streaming"``, as ``from_items``
    collects a polars lazy frame (``"auto"`` is the streaming engine in polars 2 and
    the in-memory one in polars 1).
    """
    import polars as pl

    return (
        pl.scan_parquet(path)
        .group_by(["model", "item"])
        .agg(
            pl.col("score").mean().alias("mean"),
            pl.len().alias("count"),
            pl.col("score").var(ddof=1).alias("var"),
        )
        .collect(engine=engine)
    )


def high_water_mib() -> float:
    """This process's peak resident size (MiB): ``VmHWM`` of /proc/self/status.

    Not ``ru_maxrss``: Linux carries a parent's peak over fork and exec into
    the child's ``ru_maxrss``, so a child started by a large parent would
    report the parent's peak (``VmHWM`` belongs to the process's own memory).
    """
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one_run(engine: str, path: Path) -> dict[str, float]:
    """One engine's reduction of the file in this (fresh) process: seconds and memory.

    ``cpu_seconds`` is the CPU time of all its threads (less moved by other
    load on the machine than the wall time, ``seconds``), ``base_mib`` the
    resident size after the imports and the file's schema,
    ``peak_mib`` the growth of the process's peak resident size (:func:`high_water_mib`)
    over it during the run, ``output_mib`` the size of what the run returns
    (the items frame's numbers, or polars' frame of cells).
    """
    import resource
    import time

    import polars as pl

    pl.scan_parquet(path).collect_schema()
    pdcompare.from_items(pl.DataFrame({"model": ["a", "a"], "item": [0, 1], "score": [0.0, 1.0]}))
    before = resource.getrusage(resource.RUSAGE_SELF)
    base = high_water_mib()
    start = time.perf_counter()
    if engine == "pdcompare":
        out = pdcompare.from_items(pl.scan_parquet(path), sample="sample")
    else:  # "polars": its streaming engine, or "polars-<engine>"
        out = polars_floor(path, engine.partition("-")[2] or "streaming")
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    peak = high_water_mib()
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    # what the run returns: the items frame's means, sample counts and within-item
    # variances (3 x 8 bytes a cell), or polars' frame of cells
    size = 3 * out.size * 8 if engine == "pdcompare" else out.estimated_size()
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "base_mib": base,
        "peak_mib": peak - base,
        "output_mib": size / 2**20,
    }


def fresh(engine: str, path: Path) -> dict[str, float]:
    """:func:`one_run` in a new Python process (so that each peak is its own)."""
    import os
    import subprocess

    here = str(Path(pdcompare.__file__).parents[1])  # the child imports this pdcompare
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, __file__, "--one", engine, str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parent,
        env=env,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def row_group_mib(path: Path) -> float:
    """The size of the file's first row group read into memory (Arrow buffers, MiB)."""
    import pyarrow.parquet as pq

    return pq.ParquetFile(path).read_row_group(0).nbytes / 2**20


def parquet_main(quick: bool) -> None:
    """``from_items(pl.scan_parquet(...))`` against polars' own group-by, each in a fresh process.

    Time: each engine's fastest of ``rounds`` runs, taking turns. Memory: the
    growth of each run's peak resident size (``VmHWM``) over its process
    after the imports, against DESIGN section 32's bound of twice the output
    (the items frame's numbers: its means, sample counts and within-item
    variances, 24 bytes per cell) plus one row group (uncompressed).
    """
    import polars as pl

    n_rows = 10**7 if quick else 10**8
    rounds = 2
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "answers.parquet"
        write_parquet(path, n_rows)
        if quick:  # the same means as polars' group-by (checked once, here, in this process)
            frame = pdcompare.from_items(pl.scan_parquet(path), sample="sample")
            floor = polars_floor(path).to_pandas()
            means = floor.pivot(index="model", columns="item", values="mean")  # noqa: PD010
            assert np.allclose(frame.to_numpy(), means.loc[frame.index, frame.columns].to_numpy())
        names = {"pdcompare": "from_items(scan_parquet)", "polars": "polars group_by"}
        runs: dict[str, list[dict[str, float]]] = {engine: [] for engine in names}
        for _ in range(rounds):
            for engine in names:
                runs[engine].append(fresh(engine, path))
        best = {names[e]: min(r["seconds"] for r in runs[e]) for e in names}
        peaks = {names[e]: min(r["peak_mib"] for r in runs[e]) for e in names}
        cpu = {e: min(r["cpu_seconds"] for r in runs[e]) for e in names}
        cells = n_rows // 10
        output = 3 * 8 * cells / 2**20
        bound = 2 * output + row_group_mib(path)
        report(
            f"from_items on a parquet file of {n_rows:.0e} rows (10 models x {cells // 10} "
            f"items x 10 samples), a fresh process per run; peak memory is the growth of its "
            f"peak resident size (MiB); section 32's bound: 2 x {output:.0f} MiB (the items "
            f"frame's numbers) + {row_group_mib(path):.0f} MiB (one row group) = {bound:.0f} MiB",
            best,
            peaks,
            [("from_items(scan_parquet)", "polars group_by")],
        )
        print(
            f"  CPU time (all threads): from_items {cpu['pdcompare']:.1f} s, polars "
            f"{cpu['polars']:.1f} s: {cpu['pdcompare'] / cpu['polars']:.2f}x"
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--one"]:  # one engine in a fresh process (see :func:`fresh`)
        print(json.dumps(one_run(sys.argv[2], Path(sys.argv[3]))))
        sys.exit()
    if "--parquet" not in sys.argv[1:]:
        main("--quick" in sys.argv[1:])
    parquet_main("--quick" in sys.argv[1:])

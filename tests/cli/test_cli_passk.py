"""The command line on a file of repeated 0/1 attempts: ``--items --estimand pass@k --k K``."""

import numpy as np
import pytest
from _cli import run_cli as run
from frames import eval_items_long
from numpy.testing import assert_allclose

import pdcompare


@pytest.fixture
def attempts_csv(tmp_path):
    path = tmp_path / "attempts.csv"
    long = eval_items_long(n_models=3, n_samples=6).rename(columns={"item": "task"})
    long.to_csv(path, index=False)
    return path, long


def test_pass_at_k_file_names_the_estimand(attempts_csv):
    path, long = attempts_csv
    process = run(
        path, "--items", "--item-col", "task", "--sample-col", "sample", "--cluster-col",
        "passage", "--estimand", "pass@k", "--k", "3", "--test", "ttest",
    )  # fmt: skip
    assert process.returncode == 0, process.stderr
    assert "pass@3 over 40 tasks in 8 passages, clustered by passage, 6 attempts each" in (
        process.stdout
    )
    frame = pdcompare.from_items(
        long, item="task", sample="sample", cluster="passage", estimand="pass@k", k=3
    )
    best = frame.cmp.summary()
    assert f"Best model: {best.index[0]}, pass@3 {best['mean'].iloc[0]:.4f}" in process.stdout
    assert_allclose(best["mean"].to_numpy(), np.sort(frame.mean(axis=1).to_numpy())[::-1])


def test_estimand_options_need_items_and_a_k(attempts_csv):
    path, _ = attempts_csv
    process = run(path, "--estimand", "pass@k", "--k", "3")
    assert process.returncode == 2
    assert "--estimand and --k are options of an items file" in process.stderr
    assert "add --items" in process.stderr
    missing_k = run(path, "--items", "--item-col", "task", "--sample-col", "sample",
                    "--estimand", "pass^k")  # fmt: skip
    assert missing_k.returncode == 2
    assert "Traceback" not in missing_k.stderr
    assert "--k" in missing_k.stderr
    too_large = run(path, "--items", "--item-col", "task", "--sample-col", "sample",
                    "--estimand", "pass^k", "--k", "7")  # fmt: skip
    assert too_large.returncode == 2
    assert "--k" in too_large.stderr
    assert "at most 6" in too_large.stderr


def test_gate_reads_pass_at_k(attempts_csv):
    path, long = attempts_csv
    process = run(
        "gate", path, "--items", "--item-col", "task", "--sample-col", "sample",
        "--estimand", "pass@k", "--k", "2", "--candidate", "m1", "--baseline", "m0",
        "--margin", "0.05",
    )  # fmt: skip
    assert process.returncode in (0, 1), process.stderr
    assert "pass@2 over 40 tasks" in process.stdout
    frame = pdcompare.from_items(long, item="task", sample="sample", estimand="pass@k", k=2)
    diff = frame.loc["m1"].mean() - frame.loc["m0"].mean()
    assert f"{diff:.4f}" in process.stdout

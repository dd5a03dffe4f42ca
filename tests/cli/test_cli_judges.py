"""The command line on a judged items file: ``--human-col`` and ``--estimator`` (DESIGN 31)."""

import numpy as np
import pandas as pd
import pytest
from _cli import run_cli as run

import pdcompare


@pytest.fixture
def judged_csv(tmp_path):
    rng = np.random.default_rng(0)
    rows = []
    for model, lift in zip("abc", [0.0, 0.05, 0.1], strict=True):
        truth = rng.random(400) < 0.6 + lift
        judge = np.where(rng.random(400) < 0.85, truth, ~truth)
        for i in range(400):
            human = float(truth[i]) if i < 120 else np.nan
            rows.append({"model": model, "item": f"q{i}", "judge": int(judge[i]), "human": human})
    path = tmp_path / "judged.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return path


def test_human_col_corrects_the_judge_and_estimator_picks_the_reading(judged_csv):
    process = run(judged_csv, "--items", "--score-col", "judge", "--human-col", "human")
    assert process.returncode == 0, process.stderr
    table = pd.read_csv(judged_csv)
    framed = pdcompare.from_items(table, score="judge", human="human")
    effective = framed.cmp.summary().attrs["pdcompare"]["effective_n"]
    assert (
        f"corrected with 120 human labels: as informative as {effective} labels" in process.stdout
    )
    judge = run(judged_csv, "--items", "--score-col", "judge", "--human-col", "human",
                "--estimator", "judge")  # fmt: skip
    assert judge.returncode == 0, judge.stderr
    assert "judge only, uncorrected" in judge.stdout


def test_estimator_without_human_col_names_the_option(judged_csv):
    process = run(judged_csv, "--items", "--score-col", "judge", "--estimator", "ppi")
    assert process.returncode == 2
    assert "Traceback" not in process.stderr
    assert "--estimator" in process.stderr
    assert "--human-col" in process.stderr

"""The command line on a benchmark file with holes: Skillings–Mack, and rank sets for --plot."""

import numpy as np
import pandas as pd
from _cli import run_cli as run

import pdcompare


def _file(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(4, 8)) + np.arange(4)[:, None] * 0.3
    x[0, 1] = x[2, 5] = np.nan
    frame = pd.DataFrame(x, index=list("abcd"), columns=[f"d{i}" for i in range(8)])
    path = tmp_path / "bench.csv"
    frame.to_csv(path)
    return path, frame.rename_axis(index="model", columns="dataset")


def test_benchmark_file_with_holes_runs_skillings_mack_and_draws_rank_sets(tmp_path):
    path, frame = _file(tmp_path)
    figure, page = tmp_path / "ranks.png", tmp_path / "report.html"
    process = run(path, "--benchmark", "--plot", figure, "--html", page)
    assert process.returncode == 0, process.stderr
    expected = pdcompare.friedman(frame, nan_policy="skillings_mack")["statistic"].iloc[0]
    out = process.stdout
    assert "Skillings–Mack test (Friedman's test for a benchmark with holes): 2 of 32" in out
    assert f"chi-square = {expected:.3f} (df = 3)" in out
    assert "2 cells (model x data set) are missing" in out
    assert "the figure shows the rank sets, not a CD diagram" in out
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "no CD diagram" in page.read_text(encoding="utf-8")

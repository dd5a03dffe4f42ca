"""Runs examples/runs_over_tasks.py headless and checks its numbers against formulas."""

from __future__ import annotations

import numpy as np
import pytest
from _examples import run_example
from numpy.testing import assert_allclose
from scipy import stats


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return run_example("runs_over_tasks", tmp_path_factory.mktemp("figures"))


@pytest.mark.slow
def test_runs_over_tasks_example(run):
    out, printed = run
    runs, aggregates = out["runs"], out["aggregates"]
    assert runs.attrs["pdcompare"]["design"]["paired"] is False
    assert aggregates.index[0] == "rainbow"
    for name, x in out["score_dict"].items():  # runs x tasks, as rliable takes them
        assert x.shape == (5, 26)
        assert_allclose(aggregates.loc[name, ("iqm", "estimate")], stats.trim_mean(x, 0.25, None))
        assert_allclose(aggregates.loc[name, ("median", "estimate")], np.median(x.mean(axis=0)))
        gap = 1 - np.minimum(x, 1).mean()
        assert_allclose(aggregates.loc[name, ("optimality_gap", "estimate")], gap)
    first = out["improvement"].iloc[0]
    x, y = out["score_dict"][first["model_1"]], out["score_dict"][first["model_2"]]
    per_task = [stats.mannwhitneyu(x[:, t], y[:, t]).statistic / 25 for t in range(26)]
    assert_allclose(first["prob_improvement"], np.mean(per_task))
    assert "not shown more often than not" in printed
    for path in out["figures"].values():
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

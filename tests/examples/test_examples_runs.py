"""Runs examples/training_runs.py headless and checks its numbers against scipy."""

from __future__ import annotations

import numpy as np
import pytest
from _examples import run_example
from numpy.testing import assert_allclose
from scipy import stats


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return run_example("training_runs", tmp_path_factory.mktemp("figures"))


@pytest.mark.slow
def test_training_runs_example(run):
    out, printed = run
    runs = out["runs"]
    assert runs.attrs["pdcompare"]["design"]["paired"] is False
    assert out["summary"]["n_runs"].to_dict() == {
        "forest, 50 trees": 10,
        "forest, 5 trees": 7,
        "forest, depth 2": 10,
    }
    for row in out["welch"].itertuples():
        x, y = runs.loc[row.model_1].dropna(), runs.loc[row.model_2].dropna()
        ref = stats.ttest_ind(x, y, equal_var=False)
        assert_allclose([row.statistic, row.pvalue], [ref.statistic, ref.pvalue])
    for row in out["mannwhitney"].itertuples():
        x, y = runs.loc[row.model_1].dropna(), runs.loc[row.model_2].dropna()
        assert_allclose(row.pvalue, stats.mannwhitneyu(x, y).pvalue)
    aso = out["aso"]
    assert aso["reject"].tolist() == (aso["eps_min"] < 0.2).tolist()
    assert_allclose(aso.attrs["pdcompare"]["confidence_adj"], 1 - 0.05 / 3)
    assert np.all((aso["violation_ratio"] >= 0) & (aso["violation_ratio"] <= 1))
    assert "almost always beat" in printed
    assert out["figure"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

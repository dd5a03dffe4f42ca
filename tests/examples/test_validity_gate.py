"""benchmarks/validity_gate.py: the gate's study builds its truths exactly and tabulates them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy import stats

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def study():
    sys.path.insert(0, str(BENCHMARKS))  # the study imports validity.py beside it
    try:
        spec = importlib.util.spec_from_file_location(
            "validity_gate", BENCHMARKS / "validity_gate.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module


def test_binormal_auc_is_the_one_asked(study):
    # AUC of scores mu * y + N(0, 1) noise: Phi(mu / sqrt 2), checked by simulation.
    rng = np.random.default_rng(0)
    mu = study._mu(0.78)
    assert_allclose(stats.norm.cdf(mu / np.sqrt(2)), 0.78)
    pos, neg = mu + rng.standard_normal(200_000), rng.standard_normal(200_000)
    assert_allclose((pos > neg).mean(), 0.78, atol=0.005)


def test_a_tiny_study_tabulates_every_setting(study):
    table = study.run_study(3, seed=1)
    assert set(table["test"]) == {"corrected_ttest", "ttest", "welch_ttest", "delong"}
    assert_allclose(table[["non-inferior", "worse", "inconclusive"]].sum(axis=1), 1.0)
    markdown = study.to_markdown(table, 1, 0.0)
    assert markdown.count("\n| ") == 1 + 10  # separator and ten rows (two of clustered items)
    assert "| items | `ttest` |" in markdown
    assert "passes at −margin" in markdown

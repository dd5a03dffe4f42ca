"""benchmarks/validity_passk.py: its truths are the population values, its table whole."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose
from scipy.special import expit

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def study():
    sys.path.insert(0, str(BENCHMARKS))  # the study imports _bench.py beside it
    try:
        spec = importlib.util.spec_from_file_location(
            "validity_passk", BENCHMARKS / "validity_passk.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module


@pytest.mark.parametrize(("estimand", "k"), [("pass@k", 1), ("pass@k", 8), ("pass^k", 4)])
def test_truths_are_the_population_values(study, estimand, k):
    # The Gauss-Hermite integral against a plain Monte Carlo average over 2,000,000 tasks.
    rng = np.random.default_rng(0)
    z = 1.5 * rng.standard_normal(2_000_000)
    p_a = expit(study.ABILITY_A + z)
    p_b = expit(study.ABILITY_B + z + study.OWN_SD * rng.standard_normal(z.size))
    if estimand == "pass@k":
        expected = np.mean((1 - (1 - p_a) ** k) - (1 - (1 - p_b) ** k))
    else:
        expected = np.mean(p_a**k - p_b**k)
    assert_allclose(study._truth(estimand, k, 1.5), expected, atol=1e-3)


def test_a_tiny_study_tabulates_every_setting(study):
    table = study.run_study(60, seed=1)  # checks one replicate against from_items + ttest
    # 15 (attempts, k <= attempts) pairs of pass@k and 10 of pass^k (k >= 2), two designs.
    assert len(table) == 2 * (15 + 10)
    assert table["coverage"].between(0, 1).all()
    markdown = study.to_markdown(table, 1, 1.0)
    assert markdown.count("\n| ") == len(table) + 1
    assert "60 replicates per row" in markdown

"""benchmarks/validity_clusters.py: its designs, its rates, and its table."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def study():
    sys.path.insert(0, str(BENCHMARKS))  # the study imports _bench.py beside it
    try:
        spec = importlib.util.spec_from_file_location(
            "validity_clusters", BENCHMARKS / "validity_clusters.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module


def test_designs_are_unequal_clusters_of_2_to_60_items(study):
    designs = study.designs(2024)
    assert sorted(designs) == [6, 12, 24, 50]
    for c, sizes in designs.items():
        assert sizes.size == c
        assert sizes.min() >= 2
        assert sizes.max() <= 60
        assert np.ptp(sizes) > 0
    assert designs[12].tolist() == list(study.TWELVE)


def test_a_small_study_shows_cr1_over_rejecting_at_12_clusters(study):
    table = study.run_study(3000, seed=5)
    twelve = table[(table["clusters"] == 12) & (table["icc"] == 0.1)].set_index("se")
    # 3,000 replicates: a Monte Carlo standard error of about 0.4 to 0.55 points.
    assert twelve.loc["CR1", "rate"] > 0.08  # 10.4 % in the 40,000-replicate table
    assert 0.04 <= twelve.loc["CR2", "rate"] <= 0.075  # 5.7 % there
    assert twelve.loc["CR1", "df"] == 11
    assert twelve.loc["CR2", "df"] == pytest.approx(5.0075782752938238, rel=1e-10)  # R
    text = study.to_markdown(table, 5, 1.0)
    assert text.count("\n| ") == 1 + 8  # after the header: the rule, 4 designs x 2 correlations

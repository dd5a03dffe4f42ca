"""benchmarks/validity_holes.py: its simulated benchmarks, true ranks and statistics."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from pdcompare.stats.holes import skillings_mack

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def study():
    sys.path.insert(0, str(BENCHMARKS))  # the study imports _bench
    try:
        spec = importlib.util.spec_from_file_location(
            "validity_holes", BENCHMARKS / "validity_holes.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module


def test_true_rank_sets_of_the_ties(study):
    low, high = study._true_rank_bounds(study.THETA)  # 0.80 0.80 0.78 0.75 0.75 0.70 0.65 0.60
    assert_array_equal(low, [1, 1, 3, 4, 4, 6, 7, 8])
    assert_array_equal(high, [2, 2, 3, 5, 5, 6, 7, 8])


def test_holes_are_missing_at_the_fill_rate(study):
    x = study._benchmarks(np.random.default_rng(0), 200, np.zeros(10), 60, 0.3)
    assert abs(np.mean(~np.isnan(x)) - 0.3) < 0.01


def test_a_quick_run_measures_every_cell(study):
    table = study.run_study(10, seed=1)
    level = table[table["part"] == "level"]
    assert len(level) == len(study.SIZES) * len(study.FILLS)
    assert level["rate"].between(0, 1).all()
    complete = level[level["fill"] == 1.0]
    assert (complete["complete_case_possible"] == 1.0).all()
    assert len(table[table["part"] == "coverage"]) == len(study.FILLS)


def test_the_batched_statistics_are_the_public_ones(study):
    from pdcompare.stats.holes import skillings_mack_many

    x = study._benchmarks(np.random.default_rng(2), 5, np.zeros(6), 20, 0.5)
    many = skillings_mack_many(x)
    assert_allclose(many, [skillings_mack(t)["statistic"] for t in x], rtol=1e-10)

"""benchmarks/validity_ranks.py's items leaderboards: true accuracies, clusters, CR2, seeds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def study():
    spec = importlib.util.spec_from_file_location(
        "validity_ranks", BENCHMARKS / "validity_ranks.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_items_leaderboard_has_the_stated_accuracies_and_clusters(study):
    # a_j − p_c − q_i − e > 0 with p, q ~ N(0, 1/2), e ~ N(0, 1): P = Φ(a_j / √2) = θ_j,
    # checked on many leaderboards (each of 200 questions) at 4 standard errors.
    rng = np.random.default_rng(7)
    frames = [study.items_leaderboard(rng, study.THETA) for _ in range(60)]
    per_frame = np.array([f.loc[[f"M{j}" for j in range(10)]].mean(axis=1) for f in frames])
    se = per_frame.std(axis=0, ddof=1) / np.sqrt(len(frames))  # passages make frames vary
    assert np.all(np.abs(per_frame.mean(axis=0) - study.THETA) < 4 * se)
    frame = frames[0]
    assert frame.shape == (10, study.N_PASSAGES * study.PER_PASSAGE)
    sets = frame.cmp.ranks(n_draws=200, random_state=0)
    meta = sets.attrs["pdcompare"]
    assert meta["covariance"] == "clustered (CR2)"  # 20 clusters: below CR2's 50
    assert meta["draws_df"] == study.N_PASSAGES - 1


def test_items_columns_do_not_depend_on_what_was_spawned_before(study):
    # The items columns join the other columns' run: the same leaderboard seed gives
    # the same coverage whether or not the CV leaderboards spawned from it first.
    first = np.random.SeedSequence(2024).spawn(2)[1]
    again = np.random.SeedSequence(2024).spawn(2)[1]
    again.spawn(2)  # what cv_coverage does twice
    assert study.items_replicate(first, 200) == study.items_replicate(again, 200)
    table = study.run_ranks_study(2, n_draws=200)
    assert {"items_ties", "items_equal"} <= set(table.columns)
    assert "items leaderboards" in study.ranks_markdown(table, 0, 1.0)

"""plot("ranks") and the picture of a ranks result: rows, titles, compression beyond 60."""

from __future__ import annotations

import numpy as np
import pytest
from frames import shuffled_ranked_models

import pdcompare


def test_result_plot_draws_each_set_best_first():
    result = pdcompare.datasets.load_benchmark().cmp.ranks(random_state=0)
    ax = result.cmp.plot()
    assert [t.get_text() for t in ax.get_yticklabels()] == result.index.tolist()
    segments = ax.collections[0].get_segments()
    assert len(segments) == len(result)
    lows = [s[0][0] for s in segments]
    highs = [s[1][0] for s in segments]
    np.testing.assert_allclose(lows, result["rank_low"] - 0.3)
    np.testing.assert_allclose(highs, result["rank_high"] + 0.3)
    n_best = int((result["rank_low"] == 1).sum())
    assert f"{n_best} of 7 models may be the best" in ax.get_title()


def test_scores_kind_runs_ranks_with_the_design():
    scores = pdcompare.datasets.load_grid_search_scores()
    ax = scores.cmp.plot("ranks", n_draws=1000)
    assert ax.get_title().startswith("95% simultaneous rank sets")
    ax = scores.cmp.plot("ranks", simultaneous=False, coverage=0.9, n_draws=1000)
    assert ax.get_title().startswith("90% marginal rank sets")


def test_many_models_are_compressed_and_top_names_them():
    frame, _ = shuffled_ranked_models(80)
    result = frame.cmp.ranks(n_draws=1000, random_state=0)
    ax = result.cmp.plot()
    assert [t.get_text() for t in ax.get_yticklabels() if t.get_text().startswith("svc")] == []
    assert len(ax.collections[0].get_segments()) == 80
    assert "may be the best:" in ax.get_title()
    ax = result.cmp.plot(top=12)
    assert [t.get_text() for t in ax.get_yticklabels()] == result.index[:12].tolist()
    assert "(best 12 drawn)" in ax.get_title()


def test_bad_top_is_refused():
    result = pdcompare.datasets.load_benchmark().cmp.ranks(random_state=0)
    with pytest.raises(ValueError, match="`top`"):
        result.cmp.plot(top=0)

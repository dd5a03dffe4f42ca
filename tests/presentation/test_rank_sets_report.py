"""report(ranks=True) and the report of a ranks result: which models may be the best."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from frames import shuffled_ranked_models

import pdcompare


def test_report_says_which_models_may_be_the_best():
    scores = pdcompare.datasets.load_grid_search_scores()
    text = scores.cmp.report(ranks=True)
    result = scores.cmp.ranks(random_state=0)  # the report's seed
    best = result.index[result["rank_low"] == 1].tolist()
    assert best == ["rbf", "linear", "3_poly"]
    assert "May be the best: rbf, linear and 3_poly (95% simultaneous rank sets)." in text
    assert "Rank sets, best first: rbf 1–3, linear 1–3, 3_poly 1–3, 2_poly 4 " in text
    assert "Nadeau–Bengio corrected covariance" in text
    # opt-in: the default report does not change
    assert "May be the best" not in scores.cmp.report()
    assert text.startswith(scores.cmp.report().rstrip("\n"))


def test_report_of_a_ranks_result_and_its_top():
    frame, _ = shuffled_ranked_models(30)
    result = frame.cmp.ranks(n_draws=1000, random_state=1)
    text = result.cmp.report(top=5)
    lines = text.splitlines()
    assert len(lines) == 2
    shown = [f"'{name}' " for name in result.index[:5]]  # names with ", " are quoted
    assert all(name in lines[1] for name in shown)
    assert ", and 25 more models" in lines[1]
    n_best = int((result["rank_low"] == 1).sum())
    assert lines[0].count("svc") == n_best


def test_benchmark_report_and_marginal_words():
    bench = pdcompare.datasets.load_benchmark()
    text = bench.cmp.report(ranks=True)
    assert "May be the best: svc_rbf and forest (95% simultaneous rank sets)." in text
    assert "covariance of the mean scores across data sets" in text
    marginal = bench.cmp.ranks(simultaneous=False, coverage=0.9, random_state=0)
    assert "(90% marginal rank sets)" in marginal.cmp.report()


def test_forecasts_refuse_ranks():
    rng = np.random.default_rng(0)
    y = rng.normal(size=50)
    preds = pd.DataFrame(
        {"y": y, "a": y + rng.normal(size=50), "b": y + rng.normal(size=50)},
        index=pd.date_range("2020-01-01", periods=50, freq="D"),
    )
    with pytest.raises(ValueError, match="`ranks`"):
        preds.cmp.report(ranks=True)

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
    # The default report says who may be the best once, under the summary; ranks=True adds
    # the sets at the end and changes nothing else.
    default = scores.cmp.report()
    lines = default.splitlines()
    best_at = lines.index("May be the best: rbf, linear and 3_poly (95% simultaneous rank sets).")
    assert lines[best_at - 1].startswith("Mean scores, best first: ")
    assert text.count("May be the best") == default.count("May be the best") == 1
    assert "Rank sets, best first" not in default
    assert text.startswith(default.rstrip("\n"))


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
    # at most 10 names, the rest counted
    assert lines[0].count("svc") == min(n_best, 10)
    if n_best > 10:
        assert f" and {n_best - 10} more (95% simultaneous rank sets)." in lines[0]


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


def _best_of(result):
    return result.index[result["rank_low"] == 1].tolist()


def test_every_report_says_who_may_be_the_best():
    # Scores, benchmark, runs and items frames: the line of section 22, from ranks() with
    # the report's seed (the reference), without being asked.
    rng = np.random.default_rng(2)
    runs = pdcompare.set_design(
        pd.DataFrame(rng.normal([[0.8], [0.78], [0.7]], 0.02, (3, 6)), index=["a", "b", "c"]),
        paired=False,
    )
    rows = [
        (name, item, item // 8, float(rng.random() < p))
        for name, p in (("x", 0.8), ("y", 0.78), ("z", 0.5))
        for item in range(160)
    ]
    items = pdcompare.from_items(
        pd.DataFrame(rows, columns=["model", "item", "passage", "score"]), cluster="passage"
    )
    frames = {
        "benchmark": pdcompare.datasets.load_benchmark(),
        "runs": runs,
        "items": items,
    }
    for kind, frame in frames.items():
        text = frame.cmp.report()
        expected = _best_of(frame.cmp.ranks(random_state=0))
        names = expected[0] if len(expected) == 1 else (
            ", ".join(expected[:-1]) + f" and {expected[-1]}"
        )  # fmt: skip
        assert f"May be the best: {names} (95% simultaneous rank sets)." in text, kind
        assert text == frame.cmp.report(), kind  # reproducible: the report's seed


def test_no_line_without_the_design_and_a_sentence_beyond_200_models():
    scores = pdcompare.datasets.load_grid_search_scores()
    unknown = pd.DataFrame(scores.to_numpy(), index=scores.index)  # no CV design
    assert "May be the best" not in unknown.cmp.report()
    many, _ = shuffled_ranked_models(201)
    text = many.cmp.report()
    assert (
        "May be the best: not computed for 201 models in the report (ranks() gives the rank sets)."
        in text
    )

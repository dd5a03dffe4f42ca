"""The picture and the words of a trade-off: plot("pareto"), result.cmp.plot(), report(cost=).

Reference: the pareto result itself (every marker at its cost and score, the front
joined in order of cost) and its statuses in the report's lists.
"""

import matplotlib
import matplotlib.pyplot
import numpy as np
import pandas as pd
import pytest

import pdcompare

matplotlib.use("Agg")


def leaderboard(m, seed=0):
    rng = np.random.default_rng(seed)
    folds = rng.normal(0, 0.01, 20)
    quality = np.linspace(0.92, 0.75, m)
    scores = pd.DataFrame(quality[:, None] + folds + rng.normal(0, 0.01, (m, 20)),
                          index=[f"m{k}" for k in range(m)])  # fmt: skip
    cost = pd.Series(np.exp(rng.uniform(0, 7, m)), index=scores.index)
    return scores, cost


@pytest.mark.parametrize("m", [4, 20, 60])
def test_every_model_drawn_at_its_cost_and_score(m):
    scores, cost = leaderboard(m)
    result = scores.cmp.pareto(cost, cv=10)
    ax = scores.cmp.plot("pareto", cost=cost, cv=10)
    drawn = np.vstack([line.get_xydata() for line in ax.lines if line.get_linestyle() == "None"])
    expected = result[["cost", "score"]].to_numpy()
    assert len(drawn) == m
    assert sorted(map(tuple, drawn.round(9))) == sorted(map(tuple, expected.round(9)))
    assert ax.get_xscale() == ("log" if cost.max() / cost.min() > 100 else "linear")
    named = {text.get_text() for text in ax.texts}
    if m <= 20:
        assert named == set(scores.index)
    else:
        assert set(result.index[result["status"] == "front"]) <= named


@pytest.mark.parametrize("m", [4, 20, 60])
def test_names_never_overlap_and_the_title_is_in_words(m):
    rng = np.random.default_rng(5)
    folds = rng.normal(0, 0.01, 10)
    values = 0.85 + rng.normal(0, 0.01, (m, 1)) + folds + rng.normal(0, 0.01, (m, 10))
    scores = pd.DataFrame(values, index=[f"model_{k:02d}" for k in range(m)])
    cost = pd.Series(rng.uniform(1, 3, m), index=scores.index)  # crowded: costs alike
    ax = scores.cmp.plot("pareto", cost=cost, cv=10, names=True)
    renderer = ax.figure.canvas.get_renderer()
    boxes = [text.get_window_extent(renderer) for text in ax.texts]
    assert len(boxes) >= min(m, 40)
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])
    title = ax.get_title()
    assert "corrected t-test (Nadeau–Bengio)" in title
    assert "corrected_ttest" not in title
    left_out = m - len(boxes)
    if left_out:
        assert f"{left_out} name" in title
    matplotlib.pyplot.close("all")


def test_the_front_is_joined_in_order_of_cost():
    scores, cost = leaderboard(8, seed=2)
    result = scores.cmp.pareto(cost, cv=10)
    ax = result.cmp.plot()
    front = result[result["status"] == "front"].sort_values("cost")
    steps = [line for line in ax.lines if line.get_linestyle() != "None"]
    if len(front) > 1:
        assert np.allclose(steps[0].get_xdata(), front["cost"])


def test_a_frame_plot_needs_a_cost():
    scores, _ = leaderboard(4)
    with pytest.raises(TypeError, match="needs `cost=`"):
        scores.cmp.plot("pareto", cv=10)


def test_the_report_lists_the_statuses():
    scores, cost = leaderboard(6, seed=1)
    result = scores.cmp.pareto(cost, cv=10)
    text = scores.cmp.report(cost=cost, cv=10)
    assert "Trade-off against cost" in text
    for name in result.index[result["status"] == "dominated"]:
        assert f"{name} (by " in text
    if (result["status"] == "ambiguous").any():
        assert "cannot tell:" in text
    assert "not significant is not the same as equal" in text or "cannot tell" not in text


def test_each_dominated_entry_names_one_model_and_its_dominators():
    # "m51 (by m03, m27 and m28)": one dominated model per entry, entries separated by "; ".
    scores, cost = leaderboard(20, seed=3)
    result = scores.cmp.pareto(cost, cv=10)
    text = scores.cmp.report(cost=cost, cv=10)
    line = next(row for row in text.splitlines() if row.strip().startswith("dominated ("))
    entries = line.split(": ", 1)[1].rstrip(".").split("; ")
    entries = [entry for entry in entries if not entry.startswith("and ")]  # "and 6 more"
    dominated = result[result["status"] == "dominated"].sort_values("cost", kind="stable")
    assert len(dominated) >= 2
    for entry, (name, by) in zip(entries, dominated["dominated_by"].items(), strict=False):
        names = by.split("; ")
        shown = names[:5]
        listed = ", ".join(shown[:-1]) + f" and {shown[-1]}" if len(shown) > 1 else shown[0]
        if len(names) > 5:
            listed = ", ".join(shown) + f" and {len(names) - 5} more"
        assert entry == f"{name} (by {listed})"


def test_the_trade_off_of_an_items_frame_speaks_of_items():
    rng = np.random.default_rng(0)
    rows = [
        (name, item, item // 6, float(rng.random() < p))
        for name, p in (("a", 0.85), ("b", 0.7), ("c", 0.6))
        for item in range(120)
    ]
    table = pd.DataFrame(rows, columns=["model", "item", "passage", "score"])
    items = pdcompare.from_items(table, cluster="passage")
    text = items.cmp.report(cost=pd.Series({"a": 3.0, "b": 2.0, "c": 1.0}))
    paragraph = text.split("Trade-off against cost")[1].split("\n\n")[0]
    assert "paired t-test over items, clustered by passage" in paragraph
    for word in ("CV", "split", "cv="):
        assert word not in paragraph


def test_the_command_line_reads_a_cost_column(tmp_path, capsys):
    scores, cost = leaderboard(4)
    frame = scores.copy()
    frame.insert(0, "fit_time", cost)
    path = tmp_path / "scores.csv"
    frame.to_csv(path)
    from pdcompare import cli

    assert cli.main([str(path), "--cv", "10", "--cost", "fit_time"]) == 0
    out = capsys.readouterr().out
    assert "Trade-off against cost" in out
    assert "fit_time" not in out.split("Trade-off")[0].split("Summary")[1]  # not a split
    assert cli.main([str(path), "--cv", "10", "--cost", "time"]) == 2
    assert "--cost time: no such column" in capsys.readouterr().err


def test_pareto_is_a_function_of_the_package():
    scores, cost = leaderboard(4)
    assert pdcompare.pareto(scores, cost, cv=10).equals(scores.cmp.pareto(cost, cv=10))

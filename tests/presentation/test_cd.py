"""Critical-difference diagram: the groups (pdcompare.stats.cd) and the drawing (plotting.cd).

References: a brute-force enumeration of every interval of mean ranks (the
definition of the groups written out), the critical difference of
``ranks.critical_difference`` (itself checked against Demšar's Table 5), and
the artists of the figure.
"""

from __future__ import annotations

import itertools

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from pdcompare import PdcompareWarning
from pdcompare.presentation.plotting.cd import cd_layout, plot_cd
from pdcompare.stats import ranks
from pdcompare.stats.cd import cd_groups, rejected_matrix
from pdcompare.stats.multitest import adjust_pvalues


def result_frame(values, names=None, test="nemenyi", correction=None, alpha=0.05):
    """A pairwise result over data sets, built as the frame-level functions will."""
    k, n = values.shape
    names = names or [f"model_{m:02d}" for m in range(k)]
    mean = ranks.mean_ranks(values)
    order = np.argsort(mean, kind="stable")
    i, j = np.triu_indices(k, 1)
    i, j = order[i], order[j]
    out = (ranks.nemenyi if test == "nemenyi" else ranks.conover)(values, i, j)
    adjusted = adjust_pvalues(out["pvalue"], correction, alpha=alpha, n_models=k)
    frame = pd.DataFrame({
        "model_1": np.array(names)[i], "model_2": np.array(names)[j],
        "rank_diff": out["rank_diff"], "statistic": out["statistic"],
        "pvalue": out["pvalue"], "pvalue_adj": adjusted, "reject": adjusted <= alpha,
    })
    frame.attrs["pdcompare"] = {
        "test": test, "correction": correction, "alpha": alpha, "n_datasets": n,
        "mean_ranks": dict(zip(names, mean.tolist(), strict=True)),
        "cd": ranks.critical_difference(k, n, alpha) if test == "nemenyi" else None,
        "greater_is_better": True, "unit": "dataset",
    }
    return frame


def handmade_result(mean_ranks, rejected_pairs, test="wilcoxon", **meta):
    names = list(mean_ranks)
    pairs = list(itertools.combinations(names, 2))
    frame = pd.DataFrame({
        "model_1": [a for a, _ in pairs], "model_2": [b for _, b in pairs],
        "reject": [(a, b) in rejected_pairs or (b, a) in rejected_pairs for a, b in pairs],
    })
    frame.attrs["pdcompare"] = {"test": test, "correction": "holm", "alpha": 0.05,
                                "n_datasets": 10, "mean_ranks": dict(mean_ranks), **meta}
    return frame


def brute_force_groups(mean_ranks, rejected):
    """Every interval of distinct mean ranks holding >= 2 models and no rejected pair, maximal."""
    values = np.unique(mean_ranks)
    valid = []
    for a, b in itertools.combinations_with_replacement(range(values.size), 2):
        members = np.flatnonzero((mean_ranks >= values[a]) & (mean_ranks <= values[b]))
        if members.size >= 2 and not rejected[np.ix_(members, members)].any():
            valid.append(frozenset(members.tolist()))
    return {g for g in valid if not any(g < other for other in valid)}


# --- the groups --------------------------------------------------------------


def test_non_transitive_case_gives_two_groups():
    rejected = rejected_matrix(3, [0], [2], [True])
    groups = cd_groups([1.2, 2.0, 2.8], rejected)
    assert [g.tolist() for g in groups] == [[0, 1], [1, 2]]


def test_ties_are_in_or_out_together():
    # b and c tie at 2.0; a ~ b but a != c: no bar can hold a and the point 2.0.
    rejected = rejected_matrix(4, [0], [2], [True])
    groups = [sorted(g.tolist()) for g in cd_groups([1.0, 2.0, 2.0, 3.0], rejected)]
    assert groups == [[1, 2, 3]]
    # Two tied models that differ: that point joins no bar at all.
    rejected = rejected_matrix(3, [1], [2], [True])
    assert cd_groups([1.0, 2.0, 2.0], rejected) == []


def test_groups_input_errors():
    with pytest.raises(ValueError, match="`rejected` must be a 3 x 3 boolean matrix"):
        cd_groups([1, 2, 3], np.zeros((2, 2), bool))
    with pytest.raises(ValueError, match="`i`, `j` and `reject` must have the same length"):
        rejected_matrix(3, [0], [1, 2], [True])


@given(st.integers(2, 9).flatmap(lambda k: st.tuples(
    st.lists(st.sampled_from([1.0, 1.5, 2.0, 2.25, 3.0, 3.5, 4.0, 5.0]), min_size=k,
             max_size=k),
    st.lists(st.booleans(), min_size=k * (k - 1) // 2, max_size=k * (k - 1) // 2))))
def test_groups_match_brute_force(case):
    mean, flags = case
    mean = np.array(mean)
    i, j = np.triu_indices(mean.size, 1)
    rejected = rejected_matrix(mean.size, i, j, flags)
    found = {frozenset(g.tolist()) for g in cd_groups(mean, rejected)}
    assert found == brute_force_groups(mean, rejected)


# --- the drawing -------------------------------------------------------------


def bar_segments(ax):
    (bars,) = [c for c in ax.collections if c.get_gid() == "cd-groups"] or [None]
    if bars is None:
        return []
    return [(min(s[0][0], s[1][0]), max(s[0][0], s[1][0])) for s in bars.get_segments()]


def assert_no_bar_spans_a_rejected_pair(ax, result):
    mean = result.attrs["pdcompare"]["mean_ranks"]
    rejected = {frozenset(p) for p in result.loc[result["reject"], ["model_1", "model_2"]]
                .itertuples(index=False, name=None)}
    for low, high in bar_segments(ax):
        inside = [name for name, rank in mean.items() if low <= rank <= high]
        assert len(inside) >= 2
        for pair in itertools.combinations(inside, 2):
            assert frozenset(pair) not in rejected, (low, high, pair)


def test_plot_non_transitive_case():
    result = handmade_result({"A": 1.2, "B": 2.0, "C": 2.8}, {("A", "C")})
    ax = plot_cd(result)
    spans = bar_segments(ax)
    assert len(spans) == 2
    assert_no_bar_spans_a_rejected_pair(ax, result)
    assert cd_layout(result)["members"] == [["A", "B"], ["B", "C"]]
    # Wilcoxon: no critical-difference segment.
    assert not [line for line in ax.lines if line.get_gid() == "cd-segment"]


@settings(max_examples=25)
@given(st.integers(3, 14), st.integers(2, 25), st.integers(0, 10_000),
       st.sampled_from([("nemenyi", None), ("conover", "holm"), ("conover", "shaffer")]))
def test_plot_random_tables_never_span_a_rejected_pair(k, n, seed, test):
    rng = np.random.default_rng(seed)
    values = (np.linspace(0, 0.1, k)[:, None] + rng.normal(0, 0.05, (k, n))).round(2)
    result = result_frame(values, test=test[0], correction=test[1])
    ax = plot_cd(result)
    assert_no_bar_spans_a_rejected_pair(ax, result)
    plt.close(ax.figure)


@pytest.mark.parametrize("k", [3, 8])
def test_cd_segment_has_the_critical_difference_length(k):
    rng = np.random.default_rng(k)
    values = np.linspace(0, 0.1, k)[:, None] + rng.normal(0, 0.05, (k, 12))
    result = result_frame(values)
    ax = plot_cd(result)
    (segment,) = [line for line in ax.lines if line.get_gid() == "cd-segment"]
    x = segment.get_xdata()
    # Axis units are ranks: the rank axis runs from 1 to k in data coordinates.
    (axis,) = [line for line in ax.lines if line.get_gid() == "cd-axis"]
    assert list(axis.get_xdata()) == [1, k]
    assert_allclose(x[1] - x[0], ranks.critical_difference(k, 12, 0.05), rtol=1e-12)
    assert any(t.get_text() == f"CD = {ranks.critical_difference(k, 12, 0.05):.2f}"
               for t in ax.texts)


def test_caption_and_models_at_their_mean_ranks():
    rng = np.random.default_rng(5)
    values = np.linspace(0, 0.1, 5)[:, None] + rng.normal(0, 0.05, (5, 9))
    result = result_frame(values, test="conover", correction="shaffer", alpha=0.1)
    ax = plot_cd(result)
    assert ax.get_title() == "Conover test, shaffer correction, alpha = 0.1, 9 data sets"
    mean = result.attrs["pdcompare"]["mean_ranks"]
    lines = [line for line in ax.lines if line.get_gid() == "cd-model"]
    assert sorted(line.get_xdata()[0] for line in lines) == pytest.approx(sorted(mean.values()))
    names = [t.get_text() for t in ax.texts if t.get_gid() == "cd-name"]
    best = min(mean, key=mean.get)
    assert f"{best} ({mean[best]:.2f})" in names  # the best half is named on the left
    assert not [line for line in ax.lines if line.get_gid() == "cd-segment"]  # not Nemenyi


@pytest.mark.parametrize("k", [3, 4, 20, 50])
def test_names_never_overlap(k):
    rng = np.random.default_rng(k)
    values = rng.normal(0, 0.05, (k, 30)) + np.linspace(0, 0.1, k)[:, None]
    names = [f"{'LongModelName' if m % 3 == 0 else 'm'}_{m}" for m in range(k)]
    ax = plot_cd(result_frame(values, names=names), top=k)
    renderer = ax.figure.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.texts if t.get_gid() == "cd-name"]
    assert len(boxes) == k
    for a, b in itertools.combinations(boxes, 2):
        assert not a.overlaps(b)
    figure_box = ax.figure.bbox
    for box in boxes:  # inside the figure
        assert box.x0 >= figure_box.x0 - 1
        assert box.x1 <= figure_box.x1 + 1


def test_draws_on_the_given_axes_and_changes_nothing_global():
    before = dict(matplotlib.rcParams)
    _fig, ax = plt.subplots(figsize=(8, 4))
    figures = plt.get_fignums()
    result = handmade_result({"A": 1.2, "B": 2.0, "C": 2.8}, {("A", "C")})
    assert plot_cd(result, ax=ax, color="red") is ax
    assert plt.get_fignums() == figures
    (bars,) = [c for c in ax.collections if c.get_gid() == "cd-groups"]
    assert_allclose(bars.get_colors()[0][:3], [1, 0, 0])
    assert dict(matplotlib.rcParams) == before


def test_errors_name_what_is_missing():
    result = handmade_result({"A": 1.2, "B": 2.0}, set())
    bare = result.copy()
    bare.attrs = {}
    with pytest.raises(ValueError, match="attrs\\['pdcompare'\\] is missing"):
        plot_cd(bare)
    no_ranks = result.copy()
    no_ranks.attrs = {"pdcompare": {"test": "wilcoxon"}}
    with pytest.raises(ValueError, match="no attrs\\['pdcompare'\\]\\['mean_ranks'\\]"):
        plot_cd(no_ranks)
    other = result.copy()
    other.attrs = {"pdcompare": {**result.attrs["pdcompare"], "mean_ranks": {"A": 1.0, "Z": 2}}}
    with pytest.raises(ValueError, match="compares model\\(s\\) B that have no mean rank"):
        plot_cd(other)


def test_a_family_that_cannot_reject_says_so_under_its_bars():
    # 5 models x 8 data sets, Wilcoxon with Holm over 10 pairs: the smallest exact p is
    # 2 / 2**8, times Holm's first factor 10 = 0.078 > 0.05, so one bar spans every model.
    rng = np.random.default_rng(0)
    values = np.linspace(0.9, 0.8, 5)[:, None] + rng.normal(0, 0.01, (5, 8))
    bench = pd.DataFrame(values, index=list("abcde"),
                         columns=pd.Index([f"d{k}" for k in range(8)], name="dataset"))
    with pytest.warns(PdcompareWarning, match="cannot reject"):
        result = bench.cmp.pairwise()
    ax = plot_cd(result)
    first, second = ax.get_title().splitlines()
    assert first == "Wilcoxon signed-rank test, holm correction, alpha = 0.05, 8 data sets"
    floor = 2 / 2**8 * 10
    assert second == f"no pair can be significant: smallest attainable p {floor:.2g} > 0.05"
    # The figure is wide enough for its caption.
    renderer = ax.figure.canvas.get_renderer()
    title = ax.title.get_window_extent(renderer)
    assert title.x0 >= 0
    assert title.x1 <= ax.figure.bbox.width
    # With 20 data sets the same models can be told apart: no such line.
    values = np.linspace(0.9, 0.8, 5)[:, None] + rng.normal(0, 0.01, (5, 20))
    bench = pd.DataFrame(values, index=list("abcde"),
                         columns=pd.Index([f"d{k}" for k in range(20)], name="dataset"))
    assert "no pair" not in plot_cd(bench.cmp.pairwise()).get_title()

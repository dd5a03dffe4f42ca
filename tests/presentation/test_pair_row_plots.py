"""Pictures of effect_size, equivalence, power and aso results: one row per pair, read back."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from frames import correlated_scores
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.colors import to_rgba
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.presentation.plotting._base import model_colours
from pdcompare.presentation.plotting.effects import magnitude_bands
from pdcompare.presentation.plotting.power import power_text


def markers(ax):
    """x and y of every row marker (filled and open collections, ``s`` = 40)."""
    points = [
        c
        for c in ax.collections
        if isinstance(c, PathCollection) and len(c.get_sizes()) and c.get_sizes()[0] == 40
    ]
    xy = np.concatenate([c.get_offsets() for c in points]) if points else np.empty((0, 2))
    return xy[np.argsort(-xy[:, 1])], points  # top row first


def tick_labels(ax):
    return [t.get_text() for t in ax.get_yticklabels()]


@pytest.fixture(scope="module")
def scores():
    return correlated_scores(n_models=5, n_splits=10, seed=3).cmp.set_design(cv=10)


@pytest.fixture(scope="module")
def runs():
    rng = np.random.default_rng(4)
    values = rng.normal(0.8, 0.02, (5, 10)) + np.array([0.08, 0.0, 0.01, 0.02, 0.0])[:, None]
    frame = pd.DataFrame(values, index=[f"r{k}" for k in range(5)])
    return frame.cmp.set_design(paired=False)


def sixty_models():
    return correlated_scores(n_models=60, n_splits=10, seed=5).cmp.set_design(cv=10)


# Effect size -------------------------------------------------------------------------------


def test_effect_size_rows_markers_and_intervals(scores):
    result = scores.cmp.effect_size(ci=0.9)
    ax = result.cmp.plot()
    assert tick_labels(ax) == result["model_2"].tolist()
    assert ax.get_ylabel() == f"{result['model_1'].iloc[0]} vs"
    xy, _ = markers(ax)
    assert_allclose(xy[:, 0], result["effect_size"])
    # d_z of each pair by its formula: mean of the split differences over their std.
    best = result["model_1"].iloc[0]
    d_z = [
        (scores.loc[best] - scores.loc[m]).mean() / (scores.loc[best] - scores.loc[m]).std()
        for m in result["model_2"]
    ]
    assert_allclose(xy[:, 0], d_z)
    bars = [c for c in ax.collections if isinstance(c, LineCollection)]
    segments = sorted(
        (seg for c in bars for seg in c.get_segments()), key=lambda s: -s[0][1]
    )
    assert_allclose([s[0][0] for s in segments], result["ci_low"])
    assert_allclose([s[1][0] for s in segments], result["ci_high"])
    assert ax.get_xlabel() == "d_z (cohen_dz) of model_1 − model_2, with 90% interval"
    assert ax.get_title() == "Effect size d_z per pair"


def test_effect_size_fills_small_or_larger_and_colours_model_2(scores):
    result = scores.cmp.effect_size()
    ax = result.cmp.plot()
    _, points = markers(ax)
    filled = np.abs(result["effect_size"].to_numpy()) >= 0.2
    colours = model_colours(result.attrs["pdcompare"]["models"])
    face = np.concatenate([c.get_facecolors() for c in points])
    edge = np.concatenate([c.get_edgecolors() for c in points])
    assert int(sum(not np.allclose(f, to_rgba("white")) for f in face)) == filled.sum()
    assert {tuple(np.round(e, 6)) for e in edge} == {
        tuple(np.round(colours[m], 6)) for m in result["model_2"]
    }
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["small or larger", "negligible", "colour: the model's"]


def test_magnitude_bands_of_a_probability_measure_centre_on_one_half():
    centre, bands = magnitude_bands(
        {"small": 0.06, "medium": 0.14, "large": 0.21, "of": "|effect_size - 0.5|"}
    )
    assert centre == 0.5
    assert [b[0] for b in bands] == ["negligible", "small", "medium", "large"]
    assert bands[1][1:] == (0.06, 0.14)


def test_effect_size_on_runs_and_all_pairs(runs, scores):
    ax = runs.cmp.effect_size(measure="cliff_delta").cmp.plot()
    assert ax.get_xlabel().startswith("δ (cliff_delta)")
    result = scores.cmp.pairwise(test="effect_size")
    ax = result.cmp.plot()
    assert len(tick_labels(ax)) == len(result) == 10
    assert tick_labels(ax)[0] == f"{result['model_1'].iloc[0]} vs {result['model_2'].iloc[0]}"


# Equivalence -------------------------------------------------------------------------------


def test_equivalence_intervals_against_the_margins(scores):
    result = scores.cmp.equivalence(rope=0.03, correction=None)
    ax = result.cmp.plot()
    xy, _ = markers(ax)
    assert_allclose(xy[:, 0], result["mean_diff"])
    # The 1 - 2 alpha interval of the corrected t, written out.
    best = result["model_1"].iloc[0]
    from scipy import stats

    for (_, row), (low, high) in zip(
        result.iterrows(),
        [
            (
                seg[0][0],
                seg[1][0],
            )
            for seg in sorted(
                (s for c in ax.collections if isinstance(c, LineCollection)
                 for s in c.get_segments()),
                key=lambda s: -s[0][1],
            )
        ],
        strict=True,
    ):
        d = scores.loc[best] - scores.loc[row["model_2"]]
        se = d.std() * np.sqrt(1 / 10 + 1 / 9)  # Nadeau–Bengio: 1/k + n_test/n_train
        half = stats.t.ppf(0.95, 9) * se
        assert_allclose([low, high], [d.mean() - half, d.mean() + half])
    band = [p for p in ax.patches if np.allclose(p.get_facecolor()[:3], to_rgba("0.9")[:3])]
    assert len(band) == 1
    assert_allclose([band[0].get_x(), band[0].get_x() + band[0].get_width()], [-0.03, 0.03])
    assert ax.get_xlabel() == "mean difference model_1 − model_2 with 90% interval (1 − 2·alpha)"
    assert ax.get_title() == "Equivalence test (TOST) within ±0.03"
    assert [t.get_text() for t in ax.texts] == [
        f"p = {p:.3f}" if p >= 0.001 else "p < 0.001" for p in result["pvalue"]
    ]


def test_equivalent_pairs_are_filled():
    rng = np.random.default_rng(6)
    base = rng.normal(0.8, 0.03, 20)
    values = np.vstack([base + rng.normal(0, 0.001, 20), base + rng.normal(0, 0.001, 20),
                        base - 0.2 + rng.normal(0, 0.001, 20)])
    frame = pd.DataFrame(values, index=["a", "b", "c"]).cmp.set_design(cv=10)
    result = frame.cmp.equivalence(rope=0.01)
    assert result["reject"].tolist() == [True, False]
    ax = result.cmp.plot()
    _, points = markers(ax)
    filled = [c for c in points if not np.allclose(c.get_facecolors()[0], to_rgba("white"))]
    assert len(filled) == 1
    assert_allclose(filled[0].get_offsets()[:, 0], result["mean_diff"].iloc[:1])
    assert "holm-adjusted" in ax.get_xlabel()


# Power -------------------------------------------------------------------------------------


def test_power_draws_the_mdd_against_delta(scores):
    result = scores.cmp.power(delta=0.02)
    ax = result.cmp.plot()
    xy, points = markers(ax)
    assert_allclose(xy[:, 0], result["mdd"])
    delta_lines = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert_allclose(delta_lines[0].get_xdata(), [0.02, 0.02])
    assert [t.get_text() for t in ax.texts] == [power_text(p) for p in result["power"]]
    filled = (result["power"] >= 0.8).sum()
    assert sum(
        len(c.get_offsets()) for c in points
        if not np.allclose(c.get_facecolors()[0], to_rgba("white"))
    ) == filled
    floors = [c for c in ax.collections if isinstance(c, PathCollection)
              and c.get_sizes()[0] == 120]
    assert_allclose(np.sort(floors[0].get_offsets()[:, 0]), np.sort(result["mdd_limit"]))
    assert ax.get_xlabel() == "smallest difference found with power 0.8 (mdd), in score units"
    assert ax.get_title() == "What the design could detect (the corrected t-test at alpha = 0.05)"


def test_power_of_a_benchmark_names_the_test():
    from pdcompare.datasets import load_benchmark

    result = load_benchmark().cmp.power(delta=0.01)
    ax = result.cmp.plot()
    assert "paired t-test across data sets" in ax.get_title()
    assert_allclose(markers(ax)[0][:, 0], result["mdd"])


def test_power_text():
    assert power_text(0.8) == "power 0.80"
    assert power_text(0.995) == "power >0.99"


# ASO ---------------------------------------------------------------------------------------


def test_aso_eps_min_against_tau(runs):
    result = runs.cmp.aso(tau=0.3, random_state=0, n_bootstrap=300)
    ax = result.cmp.plot()
    xy, points = markers(ax)
    assert_allclose(xy[:, 0], result["eps_min"])
    tau = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
    assert_allclose(tau[0].get_xdata(), [0.3, 0.3])
    ticks = [c for c in ax.collections if isinstance(c, PathCollection)
             and c.get_sizes()[0] == 90]
    assert_allclose(ticks[0].get_offsets()[::-1][:, 0][::-1], result["violation_ratio"])
    filled = sum(
        len(c.get_offsets()) for c in points
        if not np.allclose(c.get_facecolors()[0], to_rgba("white"))
    )
    assert filled == int(result["reject"].sum())
    assert ax.get_xlim() == (-0.02, 1.02)
    assert "tau = 0.3" in [t.get_text() for t in ax.get_legend().get_texts()]


# Every kind: ax honoured, top, 60 models ---------------------------------------------------


def results_of(frame):
    return {
        "effect_size": frame.cmp.effect_size(),
        "equivalence": frame.cmp.equivalence(rope=0.01),
        "power": frame.cmp.power(delta=0.01),
        "aso": frame.cmp.aso(random_state=0, n_bootstrap=100),
    }


@pytest.mark.parametrize("test", ["effect_size", "equivalence", "power", "aso"])
def test_ax_is_honoured_and_nothing_shown(scores, test, monkeypatch):
    monkeypatch.setattr(plt, "show", lambda *a, **k: pytest.fail("plt.show was called"))
    result = results_of(scores)[test]
    fig, ax = plt.subplots()
    assert result.cmp.plot(ax=ax) is ax
    assert len(fig.axes) == 1
    assert result.cmp.plot(title="mine").get_title() == "mine"


@pytest.mark.parametrize("test", ["effect_size", "equivalence", "power", "aso"])
def test_sixty_models_show_the_best_twenty_and_say_so(test):
    frame = sixty_models()
    result = results_of(frame)[test]
    ax = result.cmp.plot()
    assert len(tick_labels(ax)) == 19
    assert "(the best 19 of 59 other models)" in ax.get_title()
    assert len(result.cmp.plot(top=5).get_yticklabels()) == 4


def test_two_models_draw_one_row(scores):
    pair = scores.loc[["m0", "m1"]]
    for result in results_of(pair).values():
        assert len(result.cmp.plot().get_yticklabels()) == 1


def test_a_selection_of_columns_is_refused_naming_them(scores):
    result = scores.cmp.power(delta=0.01)[["model_1", "model_2", "power"]]
    with pytest.raises(ValueError, match=r"A power plot needs the column\(s\) 'mdd'"):
        result.cmp.plot()


def test_a_misspelt_matplotlib_option_is_named(scores):
    with pytest.raises(ValueError, match=r"`colour` .*did you mean 'color'"):
        scores.cmp.effect_size().cmp.plot(colour="red")


def test_items_results_draw_and_name_their_test():
    from frames import eval_items_long

    long = eval_items_long(n_models=4)
    items = pdcompare.from_items(long, cluster="passage", sample="sample")
    power = items.cmp.power(delta=0.05)
    ax = power.cmp.plot()
    assert "the paired t-test over items, clustered" in ax.get_title()
    assert_allclose(markers(ax)[0][:, 0], power["mdd"])
    effects = items.cmp.effect_size(ci=0.95)
    assert_allclose(markers(effects.cmp.plot())[0][:, 0], effects["effect_size"])
    equivalence = items.cmp.equivalence(rope=0.05)
    assert_allclose(markers(equivalence.cmp.plot())[0][:, 0], equivalence["mean_diff"])


@settings(max_examples=15, deadline=None)
@given(
    m=st.integers(2, 40),
    seed=st.integers(0, 1000),
    top=st.one_of(st.none(), st.integers(2, 30)),
)
def test_rows_are_the_best_pairs_and_read_back_their_values(m, seed, top):
    frame = correlated_scores(n_models=m, n_splits=10, seed=seed).cmp.set_design(cv=10)
    for result, column in (
        (frame.cmp.effect_size(), "effect_size"),
        (frame.cmp.power(delta=0.01), "mdd"),
    ):
        ax = result.cmp.plot(top=top)
        shown = min(m - 1, (20 if top is None else top) - 1)
        assert tick_labels(ax) == result["model_2"].tolist()[:shown]
        assert_allclose(markers(ax)[0][:, 0], result[column].to_numpy()[:shown])
        assert ("other models)" in ax.get_title()) == (shown < m - 1)
        plt.close("all")

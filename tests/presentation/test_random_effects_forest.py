"""The forest plot of random_effects results, and which pair a hierarchical picture draws."""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.collections import LineCollection, PathCollection
from matplotlib.patches import Polygon
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare  # noqa: F401  (registers DataFrame.cmp)
from pdcompare.datasets import load_benchmark
from pdcompare.presentation.plotting.forest import forest_rows


@pytest.fixture(scope="module")
def bench():
    """The bundled benchmark without logistic (whose folds tie svc_rbf's on one data set)."""
    return load_benchmark().drop(index="logistic")


def benchmark(n_models, n_datasets, seed=0, k=5):
    rng = np.random.default_rng(seed)
    columns = pd.MultiIndex.from_product(
        [[f"ds{d}" for d in range(n_datasets)], range(k)], names=["dataset", "split"]
    )
    values = (
        0.8
        + np.repeat(rng.normal(0, 0.05, n_datasets), k)[None, :]
        + rng.normal(0, 0.02, (n_models, n_datasets * k))
        + np.linspace(0.03, 0, n_models)[:, None]
    )
    frame = pd.DataFrame(values, index=[f"m{i}" for i in range(n_models)], columns=columns)
    return frame.cmp.set_design(cv=k)


def by_dataset(bench, a, b):
    """Each data set's mean fold difference and its Nadeau–Bengio standard error, by pandas."""
    diff = bench.loc[a] - bench.loc[b]
    groups = diff.groupby(level="dataset", sort=False)
    ratio = bench.attrs["pdcompare"]["design"]["test_train_ratio"]
    se = np.sqrt(groups.var() * (1 / groups.count() + ratio))
    return groups.mean(), se


def test_one_pair_draws_each_data_set_the_pooled_diamond_and_the_prediction(bench):
    result = bench.cmp.random_effects("svc_rbf", "knn")
    ax = result.cmp.plot()
    mean, se = by_dataset(bench, "svc_rbf", "knn")
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [*map(str, mean.index), "pooled", "prediction interval"]
    squares = next(c for c in ax.collections if isinstance(c, PathCollection))
    order = np.argsort(-squares.get_offsets()[:, 1])  # top row first
    assert_allclose(squares.get_offsets()[order, 0], mean.to_numpy(), atol=1e-15)
    # The squares' sizes follow the random-effects weights 1 / (se² + tau2).
    weight = 1 / (se.to_numpy() ** 2 + result["tau2"].iloc[0])
    assert_allclose(squares.get_sizes()[order], 15 + 160 * weight / weight.max())
    bars = next(c for c in ax.collections if isinstance(c, LineCollection))
    segments = sorted(bars.get_segments(), key=lambda s: -s[0][1])
    z = stats.norm.ppf(0.975)
    assert_allclose([s[0][0] for s in segments], mean - z * se)
    assert_allclose([s[1][0] for s in segments], mean + z * se)
    (diamond,) = [p for p in ax.patches if isinstance(p, Polygon)]
    x = diamond.get_xy()[:, 0]
    assert_allclose([x.min(), x.max()], result[["ci_low", "ci_high"]].iloc[0])
    prediction = [line for line in ax.get_lines() if np.allclose(line.get_ydata(), 0)]
    assert_allclose(prediction[0].get_xdata(), result[["pi_low", "pi_high"]].iloc[0])
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [
        "data set (size: its weight)",
        "pooled, 95% CI",
        "95% prediction interval: a new data set",
    ]
    assert ax.get_title().startswith("Random-effects meta-analysis: svc_rbf vs knn (tau² = ")


def test_forest_rows_weights_sum_to_one_and_match_pandas(bench):
    result = bench.cmp.random_effects("svc_rbf", "forest")
    rows = forest_rows(result, 0)
    mean, se = by_dataset(bench, "svc_rbf", "forest")
    assert_allclose(rows["estimate"], mean, atol=1e-15)
    # svc_rbf vs forest has no zero-variance data set, so no variance is floored.
    assert_allclose(rows["se"], se)
    assert_allclose(rows["weight"].sum(), 1.0)


def test_the_rows_are_one_colour(bench):
    ax = bench.cmp.random_effects("svc_rbf", "knn").cmp.plot()
    squares = next(c for c in ax.collections if isinstance(c, PathCollection))
    assert len({tuple(c) for c in squares.get_facecolors()}) == 1


def test_several_pairs_draw_one_row_each_with_both_intervals(bench):
    result = bench.cmp.random_effects()
    ax = result.cmp.plot()
    assert [t.get_text() for t in ax.get_yticklabels()] == result["model_2"].tolist()
    lines = [c for c in ax.collections if isinstance(c, LineCollection)]
    prediction, confidence = lines[0], lines[1]
    top_first = lambda c: sorted(c.get_segments(), key=lambda s: -s[0][1])  # noqa: E731
    assert_allclose([s[0][0] for s in top_first(prediction)], result["pi_low"])
    assert_allclose([s[1][0] for s in top_first(confidence)], result["ci_high"])
    assert "a=, b= draw one pair's data sets" in ax.get_title()
    assert next(t.get_text() for t in ax.texts).startswith("p_adj")


def test_a_and_b_choose_the_pair(bench):
    result = bench.cmp.random_effects()
    ax = result.cmp.plot(a="svc_rbf", b="tree")
    assert "svc_rbf vs tree" in ax.get_title()
    row = result["model_2"].tolist().index("tree") + 1
    assert f"pair {row} of {len(result)}; a=, b= choose another" in ax.get_title()
    with pytest.raises(ValueError, match=r"`a`, `b`: the result has no row with model_1='knn'"):
        result.cmp.plot(a="knn", b="lda")


def test_many_data_sets_show_the_most_precise_and_say_so():
    frame = benchmark(3, 60, seed=1)
    result = frame.cmp.random_effects("m0", "m1")
    ax = result.cmp.plot()
    assert len(ax.get_yticklabels()) == 40 + 2
    assert "the 40 most precise of 60 data sets" in ax.get_title()
    assert len(result.cmp.plot(top=10).get_yticklabels()) == 12


def test_sixty_models_show_the_best_twenty_and_ax_is_honoured():
    result = benchmark(60, 8, seed=2).cmp.random_effects()
    ax = result.cmp.plot()
    assert len(ax.get_yticklabels()) == 19
    assert "the best 19 of 59 other models" in ax.get_title()
    _fig, mine = plt.subplots()
    assert result.cmp.plot(ax=mine) is mine
    assert result.cmp.plot(ax=mine, a="m0", b="m1") is mine


def test_a_result_without_its_data_sets_says_so(bench):
    result = bench.cmp.random_effects("svc_rbf", "knn")
    result.attrs["pdcompare"] = {k: v for k, v in result.attrs["pdcompare"].items()
                                 if k not in ("differences", "differences_se")}
    with pytest.raises(ValueError, match=r"needs its per-data-set differences"):
        result.cmp.plot()


def test_results_with_frames_in_attrs_still_concatenate(bench):
    result = bench.cmp.random_effects("svc_rbf", "knn")
    both = pd.concat([result, result])
    assert len(both) == 2
    assert result.attrs["pdcompare"] == bench.cmp.random_effects("svc_rbf", "knn").attrs[
        "pdcompare"
    ]


def test_a_hierarchical_result_of_several_pairs_says_which_pair(bench):
    three = bench.loc[["svc_rbf", "forest", "tree"]]
    result = three.cmp.hierarchical(n_samples=1000, random_state=0)
    ax = result.cmp.plot()
    assert f"svc_rbf vs {result['model_2'].iloc[0]}" in ax.get_title()
    assert f"pair 1 of {len(result)}; a=, b= choose another" in ax.get_title()
    ax = result.cmp.plot(a="svc_rbf", b="tree")
    row = result["model_2"].tolist().index("tree") + 1
    assert f"pair {row} of {len(result)}" in ax.get_title()


@pytest.mark.parametrize(
    ("test", "options"),
    [("effect_size", {}), ("equivalence", {"rope": 0.02})],
)
def test_all_pairs_across_data_sets_draw_their_own_picture(bench, test, options):
    # A critical-difference diagram was drawn for them (the rule of the rank tests).
    result = bench.cmp.pairwise(test=test, **options)
    ax = result.cmp.plot()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == len(result) == 15  # 6 models: every pair among the best 10
    assert labels[0] == f"{result['model_1'].iloc[0]} vs {result['model_2'].iloc[0]}"


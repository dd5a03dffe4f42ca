"""The simplex picture of a one-pair hierarchical result, and ``plot("simplex", test=...)``.

References: scipy's Student t for the masses of every posterior draw (as
``baycomp.HierarchicalTest.sample`` computes them with ``stats.t.cdf``), the
barycentric coordinates of baycomp's ``plot_simplex``, and the result's own
probabilities for the share of draws each region wins.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare
from pdcompare.compare.hierarchical import simplex_samples
from pdcompare.datasets import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark()


@pytest.fixture(scope="module")
def result(bench):
    return bench.cmp.hierarchical("svc_rbf", "knn", rope=0.01, n_samples=4000, random_state=1)


def test_the_samples_are_the_t_masses_of_the_kept_draws(result):
    draws = {k: np.array(v) for k, v in result.attrs["pdcompare"]["draws"].items()}
    assert draws["delta0"].shape == draws["sigma0"].shape == draws["nu"].shape == (3000,)
    samples = simplex_samples(result)
    t = stats.t(draws["nu"], loc=draws["delta0"], scale=draws["sigma0"])
    # model_1 - model_2 > rope is model_1 better (baycomp's p_left for x = model_1)
    expected = np.column_stack([t.sf(0.01), t.cdf(0.01) - t.cdf(-0.01), t.cdf(-0.01)])
    assert_allclose(samples, expected, rtol=1e-9, atol=1e-12)
    assert_allclose(samples.sum(axis=1), 1.0)
    # the share of draws each region wins is the result's probability, from 3000 of 4000 draws
    shares = np.bincount(samples.argmax(axis=1), minlength=3) / len(samples)
    probs = result.loc[0, ["prob_better", "prob_rope", "prob_worse"]].to_numpy(float)
    assert_allclose(shares, probs, atol=0.02)
    assert simplex_samples(result, 100).shape == (100, 3)


def test_a_one_pair_result_plots_its_simplex(result):
    ax = result.cmp.plot()
    title = ax.get_title()
    assert title.startswith("Hierarchical Bayesian test: svc_rbf vs knn")
    assert "22 data sets, their folds kept" in title
    points = ax.collections[0].get_offsets()
    samples = simplex_samples(result)
    # baycomp's plot_simplex: better at (0, 0), worse at (1, 0), rope at the top
    assert_allclose(points[:, 0], 0.5 * samples[:, 1] + samples[:, 2])
    assert_allclose(points[:, 1], np.sqrt(3) / 2 * samples[:, 1])
    texts = " ".join(t.get_text() for t in ax.texts)
    assert f"svc_rbf better\nP = {result.loc[0, 'prob_better']:.3f}" in texts
    assert "rope ±0.01" in texts


def test_shrinkage_on_request_and_for_several_pairs(bench, result):
    ax = result.cmp.plot(kind="shrinkage")
    assert ax.get_title() == "Hierarchical model: svc_rbf vs knn"
    with warnings.catch_warnings():  # constant data sets of lda vs logistic; short chains
        warnings.simplefilter("ignore")
        every = bench.iloc[:3].cmp.pairwise(test="hierarchical", n_samples=200, random_state=0)
    assert every.cmp.plot().get_title().startswith("Hierarchical model:")
    with pytest.raises(ValueError, match="The simplex shows one pair of a hierarchical result"):
        every.cmp.plot(kind="simplex")
    with pytest.raises(ValueError, match="draws kind=None, 'simplex' \\(one pair\\) or"):
        result.cmp.plot(kind="folds")


@pytest.mark.slow
def test_plot_simplex_of_a_benchmark_frame_is_the_result_picture(bench, result):
    ax = bench.cmp.plot(
        "simplex",
        test="hierarchical",
        a="svc_rbf",
        b="knn",
        rope=0.01,
        n_samples=4000,
        random_state=1,
    )
    assert_allclose(
        ax.collections[0].get_offsets(), result.cmp.plot().collections[0].get_offsets()
    )
    # without b: a against the best other model by mean rank, as for the signed-rank test
    signed = bench.cmp.plot("simplex", a="knn", rope=0.01)
    hier = bench.cmp.plot(
        "simplex", test="hierarchical", a="knn", rope=0.01, n_samples=4000, random_state=1
    )
    assert signed.get_title().splitlines()[0].split(": ")[1] == "knn vs svc_rbf"
    assert hier.get_title().splitlines()[0] == "Hierarchical Bayesian test: knn vs svc_rbf"


def test_losses_put_the_lower_difference_in_the_better_corner(bench):
    losses = (1 - bench).cmp.set_design(cv=10, greater_is_better=False)
    res = losses.cmp.hierarchical("svc_rbf", "knn", rope=0.01, n_samples=4000, random_state=1)
    draws = res.attrs["pdcompare"]["draws"]
    t = stats.t(draws["nu"], loc=draws["delta0"], scale=draws["sigma0"])
    assert_allclose(simplex_samples(res)[:, 0], t.cdf(-0.01), rtol=1e-9, atol=1e-12)
    assert res.loc[0, "prob_better"] > 0.9


def test_what_it_refuses(bench, result):
    with pytest.raises(ValueError, match="The simplex shows one pair of a hierarchical result"):
        simplex_samples(bench.cmp.bayes("svc_rbf", "knn", rope=0.01))
    with pytest.raises(ValueError, match="`prior` is the signed-rank test's pseudo-observation"):
        bench.cmp.plot("simplex", test="hierarchical", a="svc_rbf", b="knn", prior=1.0)
    with pytest.raises(ValueError, match="`test` must be one of 'signed_rank', 'hierarchical'"):
        bench.cmp.plot("simplex", test="wilcoxon")
    with pytest.raises(ValueError, match="`n_points` must be an integer of at least 1"):
        simplex_samples(result, 0)


def test_identical_models_are_one_point(bench):
    twin = pd.concat([bench, bench.loc[["knn"]].rename(index={"knn": "knn2"})])
    with pytest.warns(match="identical scores"):
        res = twin.cmp.hierarchical("knn", "knn2", rope=0.01, n_samples=400, random_state=0)
    assert_allclose(simplex_samples(res, 5), np.tile([0.0, 1.0, 0.0], (5, 1)))


def test_results_concatenate(bench, result):
    other = bench.cmp.hierarchical("svc_rbf", "forest", n_samples=400, random_state=0)
    both = pd.concat([result, other], ignore_index=True)
    assert both["model_2"].tolist() == ["knn", "forest"]
    assert both.attrs == {}  # different results: pandas drops attrs that differ
    again = pd.concat([result, result.copy()])
    # plain dicts of lists: pandas compares them with == and keeps them when equal
    assert again.attrs == result.attrs
    pd.testing.assert_frame_equal(pdcompare.shrinkage(again.iloc[:1]), pdcompare.shrinkage(result))

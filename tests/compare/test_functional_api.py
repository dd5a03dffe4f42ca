"""Every comparison is a public function of a frame; ``df.cmp.name`` is one call of it."""

import inspect

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import pdcompare
from pdcompare.accessor import CompareAccessor
from pdcompare.datasets import load_grid_search_scores, load_rl_runs

SCORES = load_grid_search_scores()
PLAIN = SCORES.copy()
PLAIN.attrs = {}  # design unknown: the plain tests run without the overlap warning


def _five_by_two():
    rng = np.random.default_rng(3)
    return pd.DataFrame(rng.uniform(0.7, 0.9, (3, 10)), index=["a", "b", "c"])


def _predictions():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 200)
    noisy = lambda p: np.where(rng.random(200) < p, y, rng.integers(0, 3, 200))  # noqa: E731
    return pd.DataFrame({"y": y, "forest": noisy(0.9), "tree": noisy(0.8), "knn": noisy(0.7)})


def _forecasts():
    rng = np.random.default_rng(6)
    y = np.cumsum(rng.normal(size=120))
    forecasts = {"ar": y + rng.normal(0, 1, 120), "ma": y + rng.normal(0, 1.2, 120)}
    return pd.DataFrame({"y": y, **forecasts})
def _score_predictions():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 120)
    return pd.DataFrame({"y": y, "forest": y + rng.normal(0, 0.8, 120), "knn": rng.random(120)})


def _benchmark():
    rng = np.random.default_rng(5)
    columns = pd.MultiIndex.from_product(
        [["d1", "d2", "d3", "d4"], range(3)], names=["dataset", "split"]
    )
    return pd.DataFrame(rng.uniform(0.6, 0.9, (3, 12)), index=["a", "b", "c"], columns=columns)


# name -> (frame, args, kwargs): every method of DESIGN sections 4-6 that returns a frame.
def _battles():
    table = pd.DataFrame(
        {"model_a": ["x", "y", "z", "x", "y", "z", "x"],
         "model_b": ["y", "z", "x", "z", "x", "y", "y"],
         "winner": ["model_a", "model_a", "model_a", "tie", "model_a", "z", "model_b"]}
    )  # fmt: skip
    return pdcompare.from_battles(table)


FRAME_CALLS = {
    "scores": (SCORES, (), {}),
    "set_design": (SCORES, (), {"cv": 10}),
    "summary": (SCORES, (), {}),
    "corrected_ttest": (SCORES, ("rbf",), {"alternative": "greater"}),
    "ttest": (PLAIN, (), {"correction": "bonferroni"}),
    "wilcoxon": (PLAIN, ("rbf", "linear"), {}),
    "sign_test": (PLAIN, (), {}),
    "bayes": (SCORES, (), {"rope": 0.01}),
    "pairwise": (SCORES, ("corrected_ttest",), {"correction": "bonferroni"}),
    "ttest_5x2cv": (_five_by_two(), (), {}),
    "ftest_5x2cv": (_five_by_two(), ("a", "b"), {}),
    "mcnemar": (_predictions(), (), {}),
    "cochrans_q": (_predictions(), (), {}),
    "proportions_ztest": (_predictions(), ("tree",), {}),
    "bootstrap": (_predictions(), (), {"random_state": 0, "n_resamples": 200}),
    "accuracy_ci": (_predictions(), (), {"method": "beta"}),
    "bootstrap_diff": (_predictions(), (), {"random_state": 1, "n_resamples": 200}),
    "select": (SCORES, ("one_se",), {"by": ["2_poly", "linear", "3_poly", "rbf"]}),
    "means": (_benchmark(), (), {}),
    "friedman": (_benchmark(), (), {}),
    "per_dataset": (_benchmark(), ("corrected_ttest",), {"cv": 3}),
    "random_effects": (_benchmark(), (), {"cv": 3, "method": "pm"}),
    "effect_size": (_benchmark(), (), {"measure": "cliff_delta", "ci": 0.9, "random_state": 0}),
    "equivalence": (SCORES, ("rbf",), {"rope": 0.02}),
    "welch_ttest": (PLAIN.cmp.set_design(paired=False), (), {}),
    "mannwhitney": (PLAIN.cmp.set_design(paired=False), ("rbf",), {}),
    "aso": (PLAIN.cmp.set_design(paired=False), (), {"random_state": 0, "n_bootstrap": 50}),
    "diebold_mariano": (_forecasts(), (), {"h": 2}),
    "confidence_set": (_forecasts(), (), {"random_state": 0, "n_resamples": 200}),
    "auc_ci": (_score_predictions(), (), {"ci": 0.9}),
    "delong": (_score_predictions(), (), {}),
    "permutation_test": (_predictions(), (), {"random_state": 0, "n_resamples": 199}),
    "hierarchical": (_benchmark(), ("a", "b"), {"cv": 3, "n_samples": 2000, "random_state": 0}),
    "power": (SCORES, (), {"delta": 0.02}),
    "gate": (SCORES, ("rbf", "linear"), {"margin": 0.02}),
    "ranks": (SCORES, (), {"n_draws": 2000, "random_state": 0}),
    "pareto": (SCORES, (pd.Series({"rbf": 3, "linear": 1, "3_poly": 2, "2_poly": 1.5}),), {}),
    "bradley_terry": (_battles(), (), {"random_state": 0, "n_resamples": 100}),
    "win_probability": (_battles(), (), {"random_state": 0, "n_resamples": 100}),
    "aggregate": (load_rl_runs(), (["iqm", "mean"],), {"random_state": 0, "n_resamples": 200}),
    "prob_improvement": (load_rl_runs(), ("iqn",), {"random_state": 0, "n_resamples": 200}),
    "performance_profile": (load_rl_runs(), ([0.5, 1.0],), {}),
    "sequential": (PLAIN.round(0).cmp.set_design(items=True), (), {"min_n": 5}),
}

PUBLIC = [
    *FRAME_CALLS, "matrix", "posterior", "plot", "style", "report", "top_set", "to_rliable",
    "judge_agreement",
]  # fmt: skip


@pytest.mark.parametrize("name", list(FRAME_CALLS))
def test_function_equals_accessor(name):
    frame, args, kwargs = FRAME_CALLS[name]
    before = frame.copy()
    attrs = dict(frame.attrs)
    functional = getattr(pdcompare, name)(frame, *args, **kwargs)
    method = getattr(frame.cmp, name)(*args, **kwargs)
    assert_frame_equal(functional, method)
    assert functional.attrs == method.attrs  # plain JSON-able dicts (DESIGN section 34)
    assert_frame_equal(frame, before)
    assert frame.attrs == attrs


def test_matrix_posterior_report_and_style_equal_their_accessor_methods():
    result = SCORES.cmp.pairwise(correction="bonferroni")
    assert_frame_equal(pdcompare.matrix(result, "mean_diff"), result.cmp.matrix("mean_diff"))
    functional = pdcompare.posterior(SCORES, "rbf", "linear")
    method = SCORES.cmp.posterior("rbf", "linear")
    assert functional.args == method.args
    assert functional.kwds == method.kwds
    assert pdcompare.report(SCORES, rope=0.01) == SCORES.cmp.report(rope=0.01)
    # Stylers differ only by their random table id.
    html = pdcompare.style(result).set_uuid("t").to_html()
    assert html == result.cmp.style().set_uuid("t").to_html()


def test_plot_function_equals_accessor():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    first = pdcompare.plot(SCORES, "intervals")
    second = SCORES.cmp.plot("intervals")
    assert first.get_title() == second.get_title()
    np.testing.assert_allclose(
        first.lines[0].get_xydata() if first.lines else first.collections[0].get_offsets(),
        second.lines[0].get_xydata() if second.lines else second.collections[0].get_offsets(),
    )
    plt.close("all")


@pytest.mark.parametrize("name", PUBLIC)
def test_one_docstring_serves_both(name):
    function = getattr(pdcompare, name)
    method = getattr(CompareAccessor, name)
    assert function.__doc__
    assert "Examples" in function.__doc__
    # The method's docstring is the function's, less the frame's own parameter entry.
    first = next(iter(inspect.signature(function).parameters))
    assert f"\n    {first} : pandas.DataFrame" not in method.__doc__
    stripped = [line for line in function.__doc__.splitlines() if line not in method.__doc__]
    assert stripped[0].strip().startswith(f"{first} : pandas.DataFrame")
    assert len(stripped) <= 4
    # Same options, less the frame; help() shows the function's module.
    function_parameters = list(inspect.signature(function).parameters.values())[1:]
    method_parameters = list(inspect.signature(method).parameters.values())[1:]
    assert method_parameters == function_parameters
    assert method.__module__ == function.__module__


def test_accessor_methods_are_exactly_the_public_functions():
    methods = {
        name
        for name, value in vars(CompareAccessor).items()
        if callable(value) and not name.startswith("_")
    }
    assert methods == set(PUBLIC)
    assert set(PUBLIC) <= set(pdcompare.__all__)


def test_top_set_function_equals_accessor():
    options = {"n_draws": 2000, "random_state": 0}
    assert pdcompare.top_set(SCORES, 1, **options) == SCORES.cmp.top_set(1, **options)

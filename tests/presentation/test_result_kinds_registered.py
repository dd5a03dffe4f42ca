"""Every result of the new tests draws with result.cmp.plot(); runs frames with plot("runs")."""

import numpy as np
import pandas as pd
import pytest

import pdcompare  # noqa: F401
from pdcompare.datasets import load_benchmark


@pytest.fixture(scope="module")
def runs():
    rng = np.random.default_rng(0)
    values = rng.normal(0.8, 0.02, (6, 8)) + np.linspace(0.03, 0, 6)[:, None]
    return pd.DataFrame(values, index=[f"m{k}" for k in range(6)]).cmp.set_design(paired=False)


def test_runs_kind_and_unpaired_results(runs):
    ax = runs.cmp.plot("runs")
    assert ax.get_yticklabels()[0].get_text() == "m0"
    welch = runs.cmp.welch_ttest()
    ax = welch.cmp.plot(top=3)
    assert len(ax.get_yticklabels()) == 2  # m0 against its best 2 opponents
    ax = runs.cmp.mannwhitney().cmp.plot()
    assert ax.get_title()


def test_auc_and_delong_results_draw():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    frame = pd.DataFrame({"y": y, **{f"m{k}": y + rng.normal(0, 0.5 + 0.2 * k, 300)
                                     for k in range(4)}})
    for result in (frame.cmp.auc_ci(), frame.cmp.delong()):
        ax = result.cmp.plot()
        assert ax.get_title()


def test_confidence_set_and_hierarchical_results_draw():
    rng = np.random.default_rng(2)
    y = np.cumsum(rng.normal(size=150))
    forecasts = pd.DataFrame({"y": y, **{f"f{k}": y + rng.normal(0, 1 + 0.3 * k, 150)
                                         for k in range(4)}})
    ax = forecasts.cmp.confidence_set(random_state=0, n_resamples=200).cmp.plot()
    assert "confidence set" in ax.get_title()
    result = load_benchmark().cmp.hierarchical(
        "svc_rbf", "forest", rope=0.01, random_state=0, n_samples=1000
    )
    ax = result.cmp.plot()
    assert "svc_rbf" in ax.get_title()


@pytest.mark.parametrize(
    "test", ["effect_size", "equivalence", "power", "aso", "random_effects", "hierarchical"]
)
def test_every_result_of_sections_13_to_18_has_a_picture(test):
    # These said "No plot for results of ..." (issue 47, item 7).
    from pdcompare.presentation.plotting._base import _RESULT_KINDS

    assert test in _RESULT_KINDS


def test_a_hierarchical_result_of_several_pairs_never_draws_silently_its_first():
    bench = load_benchmark().loc[["svc_rbf", "forest", "tree"]]
    result = bench.cmp.hierarchical(n_samples=1000, random_state=0)
    assert len(result) == 2
    title = result.cmp.plot().get_title()
    assert f"{result['model_1'].iloc[0]} vs {result['model_2'].iloc[0]}" in title
    assert "pair 1 of 2" in title

"""Shared test configuration: headless matplotlib, deterministic hypothesis, fixtures."""

import matplotlib
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, settings

matplotlib.use("Agg")

# Deterministic property tests, as in scipy's conftest: the same examples on every run.
settings.register_profile(
    "pdcompare",
    derandomize=True,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("pdcompare")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.fixture
def gallery_scores():
    """The scikit-learn gallery example's 4 x 100 fold scores (DESIGN.md section 8)."""
    from pdcompare.datasets import load_grid_search_scores

    return load_grid_search_scores()


@pytest.fixture
def random_scores():
    """6 models x 15 splits (5-fold x 3 repeats): sizes that tell formulas apart."""
    rng = np.random.default_rng(20261122)
    base = rng.normal(0.8, 0.05, size=15)
    values = base + rng.normal(0, 0.02, size=(6, 15)) + np.linspace(0, 0.03, 6)[:, None]
    return pd.DataFrame(
        values,
        index=pd.Index([f"model_{i}" for i in range(6)], name="model"),
        columns=pd.Index([f"split{i}" for i in range(15)], name="split"),
    )

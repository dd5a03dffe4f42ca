"""The registry of tests: every public comparison has one row, and each row tells the truth.

Reference: the result frames themselves (their leading columns and metadata) and
the public API (``pdcompare.__all__``).
"""

import inspect
import warnings

import numpy as np
import pandas as pd
import pytest

import pdcompare
from pdcompare.compare import registry
from pdcompare.compare.registry import BY_NAME, TESTS, default_correction, pairwise_tests

#: Public names that are not comparisons: readers, frames, presentation and choosing.
NOT_COMPARISONS = {
    "PdcompareWarning", "cv_predictions", "cv_scores", "datasets", "from_battles", "from_items",
    "from_long", "from_inspect", "from_lm_eval", "from_search", "concat_items", "from_eee",
    "from_helm",
    "from_lighteval", "from_swebench", "from_promptfoo", "from_mlflow", "from_predictions",
    "costs", "rank_sets", "judge_agreement",
    "from_rliable", "to_rliable", "RaceSearchCV", "RaceRandomizedSearchCV",
    "matrix", "means", "pairwise", "per_dataset", "plot", "posterior", "refit_rule", "report",
    "scores", "select", "set_design", "shrinkage", "style", "summary", "top_set", "trajectory",
    "Monitor",
}  # fmt: skip


def frame_of(kind, n_models=3, seed=0):
    rng = np.random.default_rng(seed)
    if kind in ("scores", "runs"):
        effects = np.linspace(0.03, 0, n_models)[:, None]
        values = 0.8 + rng.normal(0, 0.02, (n_models, 10)) + effects
        frame = pd.DataFrame(values, index=[f"m{i}" for i in range(n_models)])
        frame.columns = [f"s{k}" for k in range(10)]
        return frame.cmp.set_design(paired=False) if kind == "runs" else frame
    if kind == "benchmark":
        effects = np.linspace(0.05, 0, n_models)[:, None]
        values = 0.8 + rng.normal(0, 0.05, (n_models, 12)) + effects
        columns = pd.Index([f"d{k}" for k in range(12)], name="dataset")
        return pd.DataFrame(values, index=[f"m{i}" for i in range(n_models)], columns=columns)
    y = rng.integers(0, 2, 80)
    frame = {"y": y}
    for i in range(n_models):
        frame[f"m{i}"] = np.where(rng.random(80) < 0.8 - 0.05 * i, y, 1 - y)
    return pd.DataFrame(frame)


def test_every_public_comparison_has_a_row():
    public = set(pdcompare.__all__) - NOT_COMPARISONS
    assert public - set(BY_NAME) == set()
    for name in public:
        assert BY_NAME[name].function is getattr(pdcompare, name)


def test_every_row_names_a_function_of_a_frame():
    for test in TESTS:
        assert test.kinds, test.name
        assert set(test.kinds) <= set(registry.FRAME_KINDS), test.name
        assert set(test.pairwise) <= set(test.kinds), test.name
        assert set(test.report) <= set(test.pairwise), test.name
        parameters = inspect.signature(test.function).parameters
        if test.correction_keyword is not None:
            assert test.correction_keyword in parameters, test.name
        if test.takes_alpha:
            assert "alpha" in parameters, test.name


@pytest.mark.parametrize(
    ("kind", "test"),
    [(kind, name) for kind in ("scores", "benchmark", "runs", "predictions")
     for name in pairwise_tests(kind)
     if name not in ("ttest_5x2cv", "ftest_5x2cv", "hierarchical", "diebold_mariano")],
)  # fmt: skip
def test_pairwise_result_columns_are_the_registry_columns(kind, test):
    frame = frame_of(kind)
    options = {"rope": 0.01} if test == "equivalence" else {}
    if kind == "scores" and test in ("corrected_ttest", "bayes", "equivalence"):
        options["cv"] = 10
    if test in ("bootstrap_diff", "permutation_test"):
        options["random_state"] = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = pdcompare.pairwise(frame, test, **options)
    spec = BY_NAME[test]
    assert tuple(result.columns[: len(spec.columns)]) == spec.columns
    assert len(result) == 3
    assert result.attrs["pdcompare"].get("correction") == default_correction(test)


def test_default_correction_is_resolved_in_one_place():
    assert default_correction("wilcoxon") == "holm"
    assert default_correction("nemenyi") is None
    assert default_correction("aso") == "bonferroni"
    assert default_correction("bayes") is None
    assert default_correction("wilcoxon", None) is None
    assert default_correction("wilcoxon", "fdr_bh") == "fdr_bh"


def test_a_test_outside_the_frame_kind_is_refused_naming_the_choices():
    with pytest.raises(ValueError, match=r"`test` must be one of 'mcnemar', .*; got 'wilcoxon'"):
        pdcompare.pairwise(frame_of("predictions"), "wilcoxon")

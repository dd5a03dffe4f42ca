"""``nan_policy`` is checked once per call, where the call begins, and refused by name.

Reference: the keyword's rule (scipy's three values) and a count of the checks made.
"""

import inspect
import warnings

import numpy as np
import pandas as pd
import pytest

import pdcompare
from pdcompare import _validation
from pdcompare._validation import OptionError
from pdcompare.compare.registry import TESTS


def frame_for(test):
    kinds = test.kinds
    rng = np.random.default_rng(0)
    if test.name == "random_effects":
        values = 0.8 + rng.normal(0, 0.03, (3, 24))
        columns = pd.MultiIndex.from_product(
            [[f"d{k}" for k in range(4)], range(6)], names=["dataset", "split"]
        )
        return pd.DataFrame(values, index=["a", "b", "c"], columns=columns), {"cv": 6}
    if test.name in ("ttest_5x2cv", "ftest_5x2cv"):
        values = 0.8 + rng.normal(0, 0.02, (3, 10))
        return pd.DataFrame(values, index=["a", "b", "c"]), {"cv": 2}
    if "scores" in kinds:
        values = 0.8 + rng.normal(0, 0.02, (3, 10)) + np.array([[0.02], [0.01], [0.0]])
        return pd.DataFrame(values, index=["a", "b", "c"]), {"cv": 10}
    if "benchmark" in kinds:
        values = 0.8 + rng.normal(0, 0.05, (3, 12))
        columns = pd.Index([f"d{k}" for k in range(12)], name="dataset")
        return pd.DataFrame(values, index=["a", "b", "c"], columns=columns), {}
    y = rng.integers(0, 2, 60)
    frame = pd.DataFrame({"y": y, **{m: np.where(rng.random(60) < 0.8, y, 1 - y) for m in "abc"}})
    return frame, {}


def options_for(test):
    """The keywords a comparison cannot run without."""
    options = {"rope": 0.01} if "rope" in test.needs else {}
    if test.name == "power":
        options["delta"] = 0.01
    if test.name in ("nemenyi", "conover"):
        options.update(alpha=0.05, correction=None)
    return options


CASES = [
    test for test in TESTS
    if "nan_policy" in inspect.signature(test.function).parameters
    and test.name not in ("hierarchical", "mcm", "confidence_set", "diebold_mariano")
]  # fmt: skip


@pytest.mark.parametrize("test", CASES, ids=[test.name for test in CASES])
def test_a_bad_nan_policy_is_refused_by_name(test):
    frame, design = frame_for(test)
    with pytest.raises(OptionError, match="`nan_policy` must be one of") as caught:
        test.function(frame, nan_policy="drop", **options_for(test), **design)
    assert caught.value.keyword == "nan_policy"


@pytest.mark.parametrize("test", CASES, ids=[test.name for test in CASES])
def test_nan_policy_is_checked_once_per_call(test, monkeypatch):
    frame, design = frame_for(test)
    frame = frame.astype(dict.fromkeys(frame.columns[-1:], float))
    frame.iloc[0, -1] = np.nan  # a missing value, so that the policy is applied
    seen = []
    original = _validation.check_option

    def counting(name, value, options):
        if name == "nan_policy":
            seen.append(value)
        return original(name, value, options)

    monkeypatch.setattr(_validation, "check_option", counting)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        test.function(frame, nan_policy="omit", **options_for(test), **design)
    # The caller's value is checked once (a core called with its own literal checks that).
    assert seen.count("omit") == 1


def test_the_cases_cover_every_public_function_with_nan_policy():
    public = {
        name for name in pdcompare.__all__
        if inspect.isfunction(getattr(pdcompare, name))
        and "nan_policy" in inspect.signature(getattr(pdcompare, name)).parameters
    }  # fmt: skip
    skipped = {"hierarchical", "confidence_set", "diebold_mariano"}  # slow or time-ordered
    assert public - skipped - {test.name for test in CASES} <= {
        "pairwise", "per_dataset", "posterior", "report", "select", "summary", "means", "scores",
        "from_items", "from_predictions",
    }

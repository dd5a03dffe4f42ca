"""The CV design: test/train ratio from cv=, test_size=, n_train/n_test and attrs.

References: the ratio of each splitter is checked against the real split sizes
scikit-learn produces on 150 samples (a size where 1/n_samples, 1/(k·r) and
n_test/n_train all differ).
"""

import numpy as np
import pandas as pd
import pytest
from sklearn import model_selection as ms

import pdcompare  # noqa: F401
from pdcompare.inputs.design import Design, design_from_cv, design_from_keywords, require_ratio

N_SAMPLES = 150
X = np.zeros((N_SAMPLES, 2))
Y = np.tile([0, 1, 2], N_SAMPLES // 3)
GROUPS = np.arange(N_SAMPLES) % 15


def measured_ratio(cv):
    """Mean n_test / n_train over the splits scikit-learn really makes."""
    groups = GROUPS if "Group" in type(cv).__name__ else None
    splits = list(cv.split(X, Y, groups))
    return np.mean([len(test) / len(train) for train, test in splits])


@pytest.mark.parametrize(
    "cv",
    [
        ms.KFold(5),
        ms.StratifiedKFold(3),
        ms.GroupKFold(5),
        ms.StratifiedGroupKFold(5),
        ms.RepeatedKFold(n_splits=5, n_repeats=3, random_state=0),
        ms.RepeatedStratifiedKFold(n_splits=10, n_repeats=2, random_state=0),
        ms.ShuffleSplit(n_splits=4, test_size=0.2, random_state=0),
        ms.ShuffleSplit(n_splits=4, random_state=0),
        ms.StratifiedShuffleSplit(n_splits=4, test_size=0.3, random_state=0),
        ms.ShuffleSplit(n_splits=4, test_size=0.2, train_size=0.4, random_state=0),
    ],
    ids=lambda cv: type(cv).__name__,
)
def test_ratio_of_every_supported_splitter_matches_its_splits(cv):
    design = design_from_cv(cv)
    np.testing.assert_allclose(design.test_train_ratio, measured_ratio(cv), rtol=1e-12)
    assert type(cv).__name__ in design.source


def test_int_cv_is_k_fold():
    assert design_from_cv(10).test_train_ratio == pytest.approx(1 / 9)
    assert design_from_cv(5).test_train_ratio == pytest.approx(30 / 120)


def test_explicit_splits_measure_sizes():
    splits = list(ms.KFold(4).split(X))
    design = design_from_cv(splits)
    np.testing.assert_allclose(design.test_train_ratio, measured_ratio(ms.KFold(4)))
    assert design.n_test == pytest.approx(37.5)
    assert design.n_train == pytest.approx(112.5)


def test_integer_shuffle_sizes_need_sample_counts():
    with pytest.raises(ValueError, match=r"number of samples.*`n_train=` and `n_test=`"):
        design_from_cv(ms.ShuffleSplit(test_size=30))


@pytest.mark.parametrize("cv", [ms.LeavePOut(2), ms.LeaveOneGroupOut(), ms.GroupShuffleSplit()])
def test_unsupported_splitter_names_test_size(cv):
    with pytest.raises(ValueError, match=r"cannot tell the test/train size ratio.*`test_size=`"):
        design_from_cv(cv)


@pytest.mark.parametrize(("cv", "error"), [(1, ValueError), (True, TypeError), ("5", ValueError)])
def test_bad_cv_values(cv, error):
    with pytest.raises(error, match="`cv`"):
        design_from_cv(cv)


def test_keywords_give_ratio():
    assert design_from_keywords(test_size=0.2).test_train_ratio == pytest.approx(0.25)
    assert design_from_keywords(n_train=120, n_test=30).test_train_ratio == pytest.approx(0.25)
    assert design_from_keywords() is None


@pytest.mark.parametrize("test_size", [0, 1, 1.5, -0.1])
def test_test_size_outside_unit_interval(test_size):
    with pytest.raises(ValueError, match=r"`test_size` must be strictly between 0 and 1"):
        design_from_keywords(test_size=test_size)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_train": 90.5, "n_test": 10}, "`n_train` must be a positive integer"),
        ({"n_train": 90, "n_test": 0}, "`n_test` must be a positive integer"),
        ({"n_train": 90}, "`n_train` and `n_test` go together"),
        ({"n_test": 10}, "Conflicting|go together"),
        ({"cv": 5, "test_size": 0.2}, r"Conflicting design keywords: `cv`, `test_size`"),
        ({"test_size": 0.2, "n_train": 9, "n_test": 1}, "Conflicting design keywords"),
    ],
)
def test_bad_or_conflicting_keywords(kwargs, match):
    with pytest.raises(ValueError, match=match):
        design_from_keywords(**kwargs)


def test_require_ratio_names_the_keywords():
    with pytest.raises(
        ValueError, match=r"`corrected_ttest` needs.*`cv=`.*`test_size=`.*`n_train="
    ):
        require_ratio(Design(), "corrected_ttest")


def test_set_design_stores_copy_and_keeps_caller_untouched(random_scores):
    original_attrs = {"origin": "benchmark"}
    random_scores.attrs = dict(original_attrs)
    before = random_scores.copy()
    designed = random_scores.cmp.set_design(cv=ms.RepeatedKFold(n_splits=5, n_repeats=3))
    assert designed is not random_scores
    assert designed.attrs["pdcompare"]["design"]["test_train_ratio"] == pytest.approx(0.25)
    assert designed.attrs["origin"] == "benchmark"
    assert random_scores.attrs == original_attrs
    pd.testing.assert_frame_equal(random_scores, before)


def test_set_design_keeps_stored_parts_not_given(random_scores):
    designed = random_scores.cmp.set_design(test_size=0.2).cmp.set_design(greater_is_better=False)
    stored = designed.attrs["pdcompare"]["design"]
    assert stored["test_train_ratio"] == pytest.approx(0.25)
    assert stored["greater_is_better"] is False


def test_call_keywords_override_stored_design(random_scores):
    designed = random_scores.cmp.set_design(cv=10)
    plain = designed.cmp.summary()
    overridden = designed.cmp.summary(test_size=0.5)
    assert (
        overridden["ci_high"] - overridden["ci_low"] > plain["ci_high"] - plain["ci_low"]
    ).all()
    assert overridden.attrs["pdcompare"]["design"]["test_train_ratio"] == pytest.approx(1.0)


def test_greater_is_better_must_be_bool(random_scores):
    with pytest.raises(TypeError, match="`greater_is_better` must be True or False"):
        random_scores.cmp.set_design(greater_is_better="yes")

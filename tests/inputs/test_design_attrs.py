"""``Design.to_attrs`` is ``dataclasses.asdict`` (the reference) for every design."""

from dataclasses import asdict

import pytest
from sklearn.model_selection import KFold, RepeatedKFold, ShuffleSplit, TimeSeriesSplit

from pdcompare.inputs.design import Design, design_from_cv


@pytest.mark.parametrize(
    "cv", [10, KFold(5), RepeatedKFold(n_splits=5, n_repeats=3), TimeSeriesSplit(4)]
)
def test_to_attrs_is_asdict(cv):
    design = design_from_cv(cv)
    assert design.to_attrs() == asdict(design)
    # every field a scalar: the plain reading copies nothing that could be shared
    assert all(
        isinstance(v, bool | int | float | str | type(None)) for v in asdict(design).values()
    )


def test_a_shuffle_split_and_the_default_design():
    design = design_from_cv(ShuffleSplit(n_splits=7, test_size=0.2))
    assert design.to_attrs() == asdict(design)
    assert Design().to_attrs() == asdict(Design())
    assert Design.from_attrs(design.to_attrs()) == design

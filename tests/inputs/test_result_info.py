"""results.result_info: the frozen, typed view presentation reads of attrs["pdcompare"]."""

import dataclasses

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pdcompare  # noqa: F401  (registers DataFrame.cmp)
from pdcompare.datasets import load_benchmark, load_grid_search_scores
from pdcompare.results import ResultInfo, info_from_meta, result_info

FIELDS = [f.name for f in dataclasses.fields(ResultInfo) if f.name not in ("extra", "stated")]


def test_every_stored_key_is_a_field_or_in_extra():
    result = load_grid_search_scores().cmp.corrected_ttest(alternative="greater")
    stored = result.attrs["pdcompare"]
    info = result_info(result)
    assert info.stated == frozenset(stored)
    for key, value in stored.items():
        if key in FIELDS:
            if isinstance(value, list):
                assert getattr(info, key) == tuple(value)
            elif not isinstance(value, dict):
                assert getattr(info, key) == value
        else:
            assert info.extra[key] is value  # shared, not copied
    assert info.requested_alternative == "greater"
    assert info.level_alpha == stored["alpha"] == 0.05


def test_absent_and_none_read_alike_but_stated_tells_them_apart():
    none = info_from_meta({"correction": None})
    absent = info_from_meta({})
    assert none.correction is None
    assert absent.correction is None
    assert "correction" in none.stated
    assert "correction" not in absent.stated
    assert absent.level_alpha == 0.05
    assert absent.requested_alternative == "two-sided"
    assert absent.models == ()
    assert dict(absent.design) == {}


def test_the_view_cannot_change_the_callers_attrs():
    result = load_benchmark().cmp.pairwise(test="nemenyi")
    before = dict(result.attrs["pdcompare"].items())
    info = result_info(result)
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.alpha = 0.1  # type: ignore[misc]
    with pytest.raises(TypeError):
        info.mean_ranks["a"] = 1.0  # type: ignore[index]
    with pytest.raises(TypeError):
        info.extra["new"] = 1  # type: ignore[index]
    assert result.attrs["pdcompare"].keys() == before.keys()
    assert dict(info.mean_ranks) == result.attrs["pdcompare"]["mean_ranks"]
    assert info.cd == pytest.approx(result.attrs["pdcompare"]["cd"])


def test_a_rope_pair_is_floats_and_a_half_width_stays_one():
    assert info_from_meta({"rope": [np.float64(-0.01), 0.02]}).rope == (-0.01, 0.02)
    assert info_from_meta({"rope": 0.01}).rope == 0.01  # select()'s half-width


def test_direction_falls_back_on_the_design():
    assert info_from_meta({"design": {"greater_is_better": False}}).direction is False
    assert info_from_meta({"greater_is_better": True, "design": {}}).direction is True
    assert info_from_meta({}).direction is True


def test_a_frame_without_metadata_and_a_non_frame():
    assert result_info(pd.DataFrame({"x": [1]})).test is None
    for not_a_frame in ([1, 2], {"test": "wilcoxon"}):  # a dict is not read as metadata
        with pytest.raises(TypeError, match="DataFrame"):
            result_info(not_a_frame)  # type: ignore[arg-type]


@given(
    st.dictionaries(
        st.sampled_from([*FIELDS, "tau", "h", "loss"]),
        st.one_of(st.none(), st.floats(allow_nan=False), st.text(max_size=5)),
        max_size=8,
    )
)
def test_get_reads_what_is_not_a_field(meta):
    info = info_from_meta(meta)
    assert info.stated == frozenset(meta)
    for key, value in meta.items():
        if key not in FIELDS:
            assert info.get(key, "default") == ("default" if value is None else value)

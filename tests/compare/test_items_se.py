"""``se="cr2" | "cr1"`` on the items tests (DESIGN section 33, "Few clusters").

CR2 numbers come from R's clubSandwich (tests/data/clubsandwich/make_reference.R);
CR1's from clubSandwich's "CR1" and statsmodels' cluster-robust OLS (for an
intercept-only model its small-sample factor (N − 1)/(N − K) is 1, leaving
G/(G − 1): section 21's formula).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pdcompare
from pdcompare._validation import OptionError

HERE = Path(__file__).resolve().parents[1] / "data" / "clubsandwich"
ITEMS = pd.read_csv(HERE / "items.csv")
REFERENCE = pd.read_csv(HERE / "reference.csv", skipinitialspace=True)


def _frame(name):
    rows = ITEMS[ITEMS["dataset"] == name]
    long = rows.melt(id_vars=["item", "cluster"], value_vars=["a", "b", "c"], var_name="model")
    return pdcompare.from_items(long, score="value", cluster="cluster")


def _reference(name, model_1, model_2):
    ref = REFERENCE[REFERENCE["dataset"] == name].set_index(["model_1", "model_2"])
    return ref.loc[(model_1, model_2)]


@pytest.mark.parametrize("name", ["twelve_unequal", "six_unequal", "twentyfour"])
def test_ttest_defaults_to_cr2_below_50_clusters_as_clubsandwich(name):
    result = _frame(name).cmp.ttest("a", "b", correction=None)
    ref = _reference(name, "a", "b")
    row = result.iloc[0]
    assert row["se"] == pytest.approx(ref["se_cr2"], rel=1e-8)
    assert row["df"] == pytest.approx(ref["df_cr2"], rel=1e-8)
    assert row["pvalue"] == pytest.approx(ref["p_cr2"], rel=1e-8)
    assert result.attrs["pdcompare"]["se_type"] == "CR2 (Satterthwaite df)"
    assert result.attrs["pdcompare"]["se_df"] == pytest.approx(ref["df_cr2"], rel=1e-8)


def test_se_cr1_keeps_section_21_numbers_as_statsmodels():
    sm = pytest.importorskip("statsmodels.api")
    name = "twelve_unequal"
    result = _frame(name).cmp.ttest("a", "c", correction=None, se="cr1")
    ref = _reference(name, "a", "c")
    assert result["se"].iloc[0] == pytest.approx(ref["se_cr1"], rel=1e-8)
    assert result["df"].iloc[0] == 11
    rows = ITEMS[ITEMS["dataset"] == name]
    d = (rows["a"] - rows["c"]).to_numpy()
    fit = sm.OLS(d, np.ones_like(d)).fit(
        cov_type="cluster", cov_kwds={"groups": rows["cluster"].to_numpy()}
    )
    assert result["se"].iloc[0] == pytest.approx(float(fit.bse[0]), rel=1e-10)
    assert result.attrs["pdcompare"]["se_type"] == "CR1"


def test_fifty_clusters_or_more_default_to_cr1():
    rng = np.random.default_rng(0)
    cluster = np.repeat(np.arange(50), rng.integers(1, 6, 50))
    wide = pd.DataFrame(rng.normal(size=(2, cluster.size)), index=["a", "b"])
    framed = wide.cmp.set_design(items=True, cluster=dict(enumerate(cluster)))
    default = framed.cmp.ttest("a", "b")
    pd.testing.assert_frame_equal(default, framed.cmp.ttest("a", "b", se="cr1"))
    assert default["df"].iloc[0] == 49
    cr2 = framed.cmp.ttest("a", "b", se="cr2")
    assert cr2.attrs["pdcompare"]["se_type"] == "CR2 (Satterthwaite df)"
    assert cr2["df"].iloc[0] < 49


def test_equivalence_power_and_summary_take_the_same_standard_error():
    name = "twelve_unequal"
    frame = _frame(name)
    ref = _reference(name, "b", "c")
    tost = frame.cmp.equivalence("b", "c", rope=0.05, correction=None)
    assert tost.attrs["pdcompare"]["se_type"] == "CR2 (Satterthwaite df)"
    # TOST's lower statistic is (d̄ + 0.05)/se on CR2's df: its p-value by scipy.
    from scipy import stats

    t_low = (ref["estimate"] + 0.05) / ref["se_cr2"]
    assert tost["statistic_low"].iloc[0] == pytest.approx(t_low, rel=1e-8)
    assert tost["pvalue_low"].iloc[0] == pytest.approx(stats.t.sf(t_low, ref["df_cr2"]), rel=1e-7)
    power = frame.cmp.power("b", "c", delta=0.1)
    lam = 0.1 / ref["se_cr2"]
    crit = stats.t.ppf(0.975, ref["df_cr2"])
    expected = stats.nct.sf(crit, ref["df_cr2"], lam) + stats.nct.cdf(-crit, ref["df_cr2"], lam)
    assert power["power"].iloc[0] == pytest.approx(expected, rel=1e-6)
    cr1_power = frame.cmp.power("b", "c", delta=0.1, se="cr1")
    assert cr1_power.attrs["pdcompare"]["se_type"] == "CR1"
    # summary: a model's se is the pair's against a model that scores 0 everywhere.
    wide = frame.copy()
    wide.loc["zero"] = 0.0
    framed = wide.cmp.set_design(
        items=True,
        cluster=dict(
            zip(frame.columns, ITEMS.loc[ITEMS["dataset"] == name, "cluster"], strict=True)
        ),
    )
    summary = framed.cmp.summary()
    pair = framed.cmp.ttest("a", "zero", correction=None)
    assert summary.loc["a", "se"] == pytest.approx(pair["se"].iloc[0], rel=1e-12)
    half = stats.t.ppf(0.975, pair["df"].iloc[0]) * pair["se"].iloc[0]
    assert summary.loc["a", "ci_high"] - summary.loc["a", "mean"] == pytest.approx(half, rel=1e-9)
    assert summary.attrs["pdcompare"]["se_type"] == "CR2 (Satterthwaite df)"


def test_se_is_refused_without_clusters_or_with_an_unknown_value():
    wide = pd.DataFrame([[1, 0, 1, 1, 0, 1], [0, 0, 1, 0, 0, 1]], index=["a", "b"])
    plain = wide.cmp.set_design(items=True)
    with pytest.raises(OptionError, match="no clusters") as caught:
        plain.cmp.ttest(se="cr2")
    assert caught.value.keyword == "se"
    assert "se_type" not in plain.cmp.ttest().attrs["pdcompare"]  # the plain standard error
    clustered = wide.cmp.set_design(items=True, cluster={k: k // 2 for k in range(6)})
    for call in (clustered.cmp.ttest, clustered.cmp.summary):
        with pytest.raises(OptionError, match="'cr2', 'cr1'") as caught:
            call(se="hc3")
        assert caught.value.keyword == "se"
    with pytest.raises(TypeError, match="`se` applies to `ttest`"):
        clustered.cmp.wilcoxon(se="cr1")


@pytest.mark.parametrize("name", ["corrected_ttest", "ttest", "summary", "ranks"])
def test_se_on_a_scores_frame_is_refused_naming_the_items_frame(name):
    scores = pd.DataFrame(np.random.default_rng(0).random((3, 10)), index=["a", "b", "c"])
    with pytest.raises(OptionError, match=r"`se='cr2'` chooses the clustered standard error of "
                       r"an items frame .* this is a scores frame") as caught:  # fmt: skip
        getattr(scores.cmp, name)(se="cr2")
    assert caught.value.keyword == "se"


def test_se_type_survives_a_save(tmp_path):
    result = _frame("six_unequal").cmp.ttest()
    path = tmp_path / "result.parquet"
    pytest.importorskip("pyarrow")
    result.to_parquet(path)
    back = pd.read_parquet(path)
    assert back.attrs["pdcompare"]["se_type"] == "CR2 (Satterthwaite df)"
    assert "CR2 standard error" in pdcompare.report(_frame("six_unequal"))


def test_gate_rests_on_the_ttest_with_its_standard_error():
    frame = _frame("twelve_unequal")
    for se, words in ((None, "CR2 (Satterthwaite df)"), ("cr1", "CR1")):
        gated = pdcompare.gate(frame, "a", "b", margin=0.1, se=se)
        one_sided = frame.cmp.ttest("a", "b", alternative="better", correction=None, se=se)
        assert gated.attrs["pdcompare"]["se_type"] == words
        assert gated["ci_low"].iloc[0] == pytest.approx(one_sided["ci_low"].iloc[0], rel=1e-12)

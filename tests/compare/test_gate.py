"""gate(): the test chosen by the frame, the two one-sided bounds, the three outcomes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from frames import gate_predictions, gate_runs, gate_scores
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from scipy import stats

import pdcompare


@pytest.mark.parametrize(
    ("shift", "margin", "outcome"),
    [(-0.002, 0.02, "non-inferior"), (-0.05, 0.01, "worse"), (-0.005, 0.01, "inconclusive")],
)
def test_scores_outcomes_and_bounds_against_the_corrected_t(shift, margin, outcome):
    scores = gate_scores(shift)
    res = pdcompare.gate(scores, "candidate", "baseline", margin=margin, cv=10)
    assert res["outcome"].tolist() == [outcome]
    assert res["test"].tolist() == ["corrected_ttest"]
    d = (scores.loc["candidate"] - scores.loc["baseline"]).to_numpy()
    n = d.size
    se = np.sqrt(d.var(ddof=1) * (1 / n + 1 / 9))  # Nadeau & Bengio 2003, 10-fold: 1/9
    q = stats.t.ppf(0.95, n - 1)
    assert_allclose(res["ci_low"], [d.mean() - q * se], rtol=1e-10)
    assert_allclose(res["ci_high"], [d.mean() + q * se], rtol=1e-10)
    assert_allclose(res["pvalue"], [stats.t.sf((d.mean() + margin) / se, n - 1)], rtol=1e-10)
    assert_allclose(res["pvalue_worse"], [stats.t.cdf(d.mean() / se, n - 1)], rtol=1e-10)
    assert res["outcome"].iloc[0] in pdcompare.compare.gate.OUTCOMES


def test_the_plain_t_without_a_design_and_override_by_test():
    scores = gate_scores(-0.002)
    res = pdcompare.gate(scores, "candidate", "baseline", margin=0.02)
    assert res["test"].tolist() == ["ttest"]
    ref = stats.ttest_rel(
        scores.loc["candidate"] + 0.02, scores.loc["baseline"], alternative="greater"
    )
    assert_allclose(res["pvalue"], [ref.pvalue], rtol=1e-10)
    forced = pdcompare.gate(scores, "candidate", "baseline", margin=0.02, test="ttest", cv=10)
    assert forced["test"].tolist() == ["ttest"]
    assert_allclose(forced["pvalue"], res["pvalue"])


@pytest.mark.parametrize(
    ("shift", "outcome"), [(0.0, "non-inferior"), (-0.08, "worse"), (-0.01, "inconclusive")]
)
def test_runs_use_welch(shift, outcome):
    runs = gate_runs(shift)
    res = pdcompare.gate(runs, "candidate", "baseline", margin=0.02)
    assert res[["test", "outcome"]].iloc[0].tolist() == ["welch_ttest", outcome]
    ref = stats.ttest_ind(
        runs.loc["candidate"].dropna(), runs.loc["baseline"].dropna(), equal_var=False
    )
    low, high = ref.confidence_interval(0.9)  # two one-sided 95 % bounds
    assert_allclose(res[["ci_low", "ci_high"]].iloc[0], [low, high], rtol=1e-10)


@pytest.mark.parametrize(
    ("noise", "margin", "outcome"),
    [(0.8, 0.05, "non-inferior"), (2.5, 0.01, "worse"), (1.0, 0.005, "inconclusive")],
)
def test_predictions_use_delong(noise, margin, outcome):
    preds = gate_predictions(noise)
    res = pdcompare.gate(preds, "candidate", "baseline", margin=margin)
    assert res[["test", "outcome"]].iloc[0].tolist() == ["delong", outcome]
    two = preds.cmp.delong("candidate", "baseline", alpha=0.1)  # two-sided 90 % = two 95 % bounds
    assert_allclose(res[["ci_low", "ci_high"]].iloc[0], two[["ci_low", "ci_high"]].iloc[0])


@pytest.mark.parametrize(
    ("shift", "margin", "outcome"),
    [(0.002, 0.02, "non-inferior"), (0.05, 0.01, "worse"), (0.005, 0.01, "inconclusive")],
)
def test_losses_gate_in_the_direction_of_the_scores(shift, margin, outcome):
    # A loss: the candidate's larger loss is the regression.
    losses = gate_scores(shift).cmp.set_design(cv=10, greater_is_better=False)
    res = pdcompare.gate(losses, "candidate", "baseline", margin=margin)
    assert res["outcome"].tolist() == [outcome]
    assert res.attrs["pdcompare"]["greater_is_better"] is False


def test_a_significantly_worse_candidate_within_the_margin_passes():
    scores = gate_scores(-0.004, noise=0.0005)
    res = pdcompare.gate(scores, "candidate", "baseline", margin=0.02, cv=10)
    assert res["ci_high"].iloc[0] < 0
    assert res["outcome"].tolist() == ["non-inferior"]


def test_attrs_and_the_accessor():
    scores = gate_scores(-0.002)
    res = scores.cmp.gate("candidate", "baseline", margin=0.02, cv=10)
    meta = res.attrs["pdcompare"]
    assert (meta["test"], meta["gate_test"], meta["margin"], meta["alpha"]) == (
        "gate",
        "corrected_ttest",
        0.02,
        0.05,
    )
    assert list(res.columns) == [
        "candidate",
        "baseline",
        "test",
        "mean_diff",
        "margin",
        "ci_low",
        "ci_high",
        "pvalue",
        "pvalue_worse",
        "outcome",
    ]


def test_bad_input_names_the_keyword():
    scores = gate_scores(0.0)
    with pytest.raises(ValueError, match=r"`margin` must be a finite number ≥ 0"):
        pdcompare.gate(scores, "candidate", "baseline", margin=-0.1)
    with pytest.raises(TypeError, match=r"`margin` is required"):
        pdcompare.gate(scores, "candidate", "baseline", margin=None)
    with pytest.raises(ValueError, match=r"`alpha` must be below 0.5"):
        pdcompare.gate(scores, "candidate", "baseline", margin=0.1, alpha=0.6)
    with pytest.raises(ValueError, match=r"`test` must be one of"):
        pdcompare.gate(scores, "candidate", "baseline", margin=0.1, test="wilcoxon")
    with pytest.raises(ValueError, match=r"`test='delong'` does not fit a scores frame"):
        pdcompare.gate(scores, "candidate", "baseline", margin=0.1, test="delong")
    with pytest.raises(ValueError, match=r"`candidate` and `baseline` are the same model"):
        pdcompare.gate(scores, "candidate", "candidate", margin=0.1)
    with pytest.raises(ValueError, match=r"'nope'"):
        pdcompare.gate(scores, "nope", "baseline", margin=0.1)
    with pytest.raises(ValueError, match=r"`y`: the truth column 'truth'"):
        pdcompare.gate(gate_predictions(1.0), "candidate", "baseline", margin=0.1, y="truth")


@pytest.mark.parametrize("test", [None, "ttest"])
def test_a_benchmark_frame_is_refused(test):
    bench = gate_scores(0.0)
    bench.columns = pd.Index([f"d{k}" for k in range(10)], name="dataset")
    with pytest.raises(ValueError, match=r"this is a benchmark frame .*df\[name\]"):
        pdcompare.gate(bench, "candidate", "baseline", margin=0.01, test=test)


def test_the_callers_frame_is_left_alone():
    scores = gate_scores(0.0).cmp.set_design(cv=10)
    before, attrs = scores.copy(), {k: dict(v) for k, v in scores.attrs.items()}
    pdcompare.gate(scores, "candidate", "baseline", margin=0.01)
    pd.testing.assert_frame_equal(scores, before)
    assert scores.attrs == attrs


@settings(max_examples=30, deadline=None)
@given(
    shift=st.floats(-0.05, 0.02),
    margin=st.floats(0.0, 0.03),
    seed=st.integers(0, 2**16),
)
def test_the_outcome_agrees_with_the_pvalues(shift, margin, seed):
    # non-inferior <=> p < alpha; worse <=> not non-inferior and p_worse < alpha.
    res = pdcompare.gate(gate_scores(shift, seed=seed), "candidate", "baseline", margin=margin)
    p, p_worse, outcome = res[["pvalue", "pvalue_worse", "outcome"]].iloc[0]
    if min(abs(p - 0.05), abs(p_worse - 0.05)) > 1e-9:
        expected = "non-inferior" if p < 0.05 else ("worse" if p_worse < 0.05 else "inconclusive")
        assert outcome == expected


@pytest.mark.parametrize(
    ("look", "spending"), [((1, 4), "obf"), ((3, 4), "pocock"), ((2, 2), "obf")]
)
def test_a_planned_look_reads_the_spent_level_on_the_t(look, spending):
    from pdcompare.stats.spending import critical_values

    scores = gate_scores(-0.002)
    res = pdcompare.gate(
        scores, "candidate", "baseline", margin=0.02, cv=10, spending=spending, look=look
    )
    k, total = look
    # Two-sided design at 2 alpha (alpha a side); the k-th bound's one-sided tail, on the t.
    level = stats.norm.sf(critical_values(np.arange(1, total + 1) / total, 0.1, spending)[k - 1])
    d = (scores.loc["candidate"] - scores.loc["baseline"]).to_numpy()
    se = np.sqrt(d.var(ddof=1) * (1 / 10 + 1 / 9))
    q = stats.t.isf(level, 9)
    assert_allclose(res["ci_low"], [d.mean() - q * se], rtol=1e-10)
    assert_allclose(res["ci_high"], [d.mean() + q * se], rtol=1e-10)
    meta = res.attrs["pdcompare"]
    assert (meta["spending"], meta["look"]) == (spending, list(look))
    assert meta["level"] == pytest.approx(level)
    text = pdcompare.presentation.report.gate.gate_text(res)
    assert f"look {k} of {total}" in text


def test_the_last_of_one_look_is_the_fixed_gate():
    scores = gate_scores(-0.002)
    plain = pdcompare.gate(scores, "candidate", "baseline", margin=0.02, cv=10)
    one = pdcompare.gate(scores, "candidate", "baseline", margin=0.02, cv=10, look=(1, 1))
    assert_allclose(one["ci_low"], plain["ci_low"], rtol=1e-12)


@pytest.mark.parametrize(
    ("options", "match"),
    [({"look": (3, 2)}, "`look` must be \\(k, K\\)"), ({"look": 2}, "`look` must be"),
     ({"spending": "linear", "look": (1, 2)}, "`spending` must be one of")],
)  # fmt: skip
def test_bad_looks_and_spending_are_named(options, match):
    with pytest.raises(ValueError, match=match):
        pdcompare.gate(gate_scores(0.0), "candidate", "baseline", margin=0.01, cv=10, **options)

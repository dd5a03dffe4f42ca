"""report(baseline=..., margin=...) and the gate's paragraph: the words of gate()'s numbers."""

from __future__ import annotations

import pytest
from frames import gate_predictions, gate_runs, gate_scores

import pdcompare
from pdcompare.presentation.report.gate import gate_text


def test_report_with_a_baseline_is_the_gate_paragraph():
    scores = gate_scores(-0.002)
    text = scores.cmp.report(baseline="baseline", margin=0.02, cv=10)
    result = pdcompare.gate(scores, "candidate", "baseline", margin=0.02, cv=10)
    assert text == gate_text(result)
    assert text.startswith("Gate: PASS (non-inferior). Candidate candidate against baseline")
    # The numbers of the paragraph are the result's, as printed.
    low = result["ci_low"].iloc[0]
    assert f"lower {low:+.4f}" in text
    assert "Nadeau–Bengio corrected resampled t-test, on 10 CV splits" in text


def test_the_candidate_defaults_to_the_best_other_model():
    scores = gate_scores(-0.002)
    scores.loc["weak"] = scores.loc["baseline"] - 0.1 + gate_scores(0.0, seed=1).iloc[0] * 0.1
    text = pdcompare.report(scores, baseline="baseline", margin=0.02, cv=10)
    assert "Candidate candidate against baseline baseline" in text
    text = pdcompare.report(scores, baseline="candidate", margin=0.02, cv=10)
    assert "Candidate baseline against baseline candidate" in text
    named = pdcompare.report(scores, baseline="baseline", candidate="weak", margin=0.02, cv=10)
    assert named.startswith("Gate: FAIL (significantly worse). Candidate weak")


@pytest.mark.parametrize(
    ("frame", "options", "words"),
    [
        (gate_runs(-0.01), {}, "on 8 and 10 independent runs"),
        (gate_predictions(0.8), {}, "on 400 test samples scored by both models"),
        (gate_scores(-0.005), {}, "The CV design is unknown"),
    ],
    ids=["runs", "predictions", "no design"],
)
def test_every_frame_kind_is_worded(frame, options, words):
    assert words in pdcompare.report(frame, baseline="baseline", margin=0.02, **options)


@pytest.mark.parametrize(
    ("shift", "margin", "sentence"),
    [
        (-0.05, 0.01, "Significantly worse: the upper bound is below 0"),
        (-0.005, 0.01, "Inconclusive: the bounds allow candidate to be up to 0.0134 worse"),
        (0.05, 0.01, None),
    ],
)
def test_the_reason_of_each_outcome(shift, margin, sentence):
    text = pdcompare.report(gate_scores(shift), baseline="baseline", margin=margin, cv=10)
    if sentence is None:  # better by far: non-inferior, and not "worse"
        assert "Non-inferior: the lower bound is above -0.0100" in text
        assert "significantly worse" not in text
    else:
        assert sentence in text


def test_losses_are_worded_in_their_direction():
    losses = gate_scores(0.002).cmp.set_design(greater_is_better=False)
    text = pdcompare.report(losses, baseline="baseline", margin=0.02, cv=10)
    assert "lower scores are better" in text
    assert "Non-inferior: the upper bound is below +0.0200" in text


def test_markdown_for_a_pull_request():
    text = pdcompare.report(gate_scores(-0.05), baseline="baseline", margin=0.01, cv=10,
                            format="markdown")  # fmt: skip
    lines = text.splitlines()
    assert lines[0] == "### Gate: **FAIL (significantly worse)**"
    assert lines[2] == "Candidate candidate against baseline baseline, margin 0.01."
    assert all(line.startswith("- ") for line in lines[4:])


def test_bad_gate_options_name_the_keyword():
    scores = gate_scores(0.0)
    with pytest.raises(TypeError, match=r"`margin` is required with `baseline`"):
        pdcompare.report(scores, baseline="baseline")
    with pytest.raises(ValueError, match=r"`candidate` and `margin` gate .* `baseline`"):
        pdcompare.report(scores, margin=0.01)
    with pytest.raises(ValueError, match=r"`rope`, `pooled` and `hierarchical` do not apply"):
        pdcompare.report(scores, baseline="baseline", margin=0.01, rope=0.01)
    with pytest.raises(ValueError, match=r"`baseline`: unknown model 'nope'"):
        pdcompare.report(scores, baseline="nope", margin=0.01)
    with pytest.raises(ValueError, match=r"`format` must be one of"):
        pdcompare.report(scores, baseline="baseline", margin=0.01, format="html")


def test_a_gate_on_items_speaks_of_items_and_gives_no_cv_advice():
    from frames import eval_items_long

    long = eval_items_long(n_models=3, n_clusters=8, per_cluster=5, n_samples=3, tasks=2)
    items = pdcompare.from_items(long, sample="sample", cluster="passage", task="task")
    text = items.cmp.report(baseline="m0", candidate="m2", margin=0.05)
    result = pdcompare.gate(items, "m2", "m0", margin=0.05)
    # The numbers are the clustered paired t's (7 = 8 passages - 1 degrees of freedom: CR2,
    # the default below 50 clusters, is CR1 on passages of equal size).
    one_sided = items.cmp.ttest("m2", "m0", alternative="better", margin=0.05, correction=None)
    assert result["ci_low"].iloc[0] == pytest.approx(one_sided["ci_low"].iloc[0], rel=1e-12)
    assert (
        "Test: paired t-test over items, clustered by passage (CR2 standard error, 7 "
        "Satterthwaite degrees of freedom), on 40 items in 8 passages, in 2 tasks (t0 20, "
        "t1 20), pooled by item, "
        "answered by both models; 3 samples per item;" in text
    )
    assert "split" not in text
    assert "CV" not in text
    assert "cv=" not in text
    assert "more items (in more passages) would decide" in text

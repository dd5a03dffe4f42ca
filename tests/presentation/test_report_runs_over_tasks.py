"""report() on a runs-over-tasks frame: rliable's aggregates and the probability of improvement."""

import pytest
from frames import runs_over_tasks

import pdcompare
from pdcompare.datasets import load_rl_runs


def test_report_numbers_are_the_results():
    runs = load_rl_runs()
    text = runs.cmp.report()
    aggregates = runs.cmp.aggregate(
        ["iqm", "median", "mean", "optimality_gap"], n_resamples=10000, random_state=0
    )
    row = aggregates.loc["rainbow"]
    assert (
        f"  rainbow: IQM {row[('iqm', 'estimate')]:.3f} ({row[('iqm', 'ci_low')]:.3f} to "
        f"{row[('iqm', 'ci_high')]:.3f})" in text
    )
    assert "5 models, 26 tasks, 5 runs per task (independent runs: paired=False)" in text
    improvement = runs.cmp.prob_improvement(n_resamples=10000, random_state=0)
    first = improvement.iloc[0]
    assert f"rainbow vs iqn: P = {first['prob_improvement']:.3f}" in text
    assert "not shown either way" in text
    assert "not a proof of equality" in text
    assert "rainbow vs dqn: P = " in text
    assert "rainbow better more often than not" in text
    assert "cover less than their level" in text


def test_report_top_losses_and_refusals():
    frame = runs_over_tasks(n_models=6, n_tasks=4, n_runs=12, seed=2)
    text = frame.cmp.report(top=3)
    assert "(3 more models not shown)" in text
    assert "(3 more pairs not shown)" in text
    assert "cover less than" not in text  # 12 runs per task
    losses = (-frame).cmp.set_design(greater_is_better=False)
    assert "lower scores are better" in losses.cmp.report()
    with pytest.raises(ValueError, match="`test` and `rope` do not apply"):
        frame.cmp.report(rope=0.1)


def test_markdown_and_html_documents():
    runs = load_rl_runs()
    markdown = runs.cmp.report(format="markdown")
    assert markdown.startswith("# pdcompare report")
    assert "| rainbow | iqn | 0.5200 |" in markdown
    # the summary's two-level columns read as words, not as Python tuples
    assert "| model | iqm estimate | iqm ci_low | iqm ci_high | median estimate |" in markdown
    assert "('" not in markdown
    html = pdcompare.report(runs, format="html")
    assert html.count("<svg") >= 1
    assert 'colspan="3">iqm</th>' in html
    assert "(&#x27;" not in html


def test_style_captions_name_the_method():
    runs = load_rl_runs()
    style = runs.cmp.aggregate(n_resamples=200, random_state=0).cmp.style()
    assert style.caption.startswith("Aggregate with stratified bootstrap intervals")
    style = runs.cmp.prob_improvement(n_resamples=200, random_state=0).cmp.style()
    assert style.caption.startswith("Probability of improvement")

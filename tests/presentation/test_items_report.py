"""The report of an items frame names its unit: questions, passages, samples."""

import pandas as pd
from frames import eval_items_long

import pdcompare


def items_frame():
    long = eval_items_long(n_models=3, n_clusters=10, per_cluster=4, n_samples=5)
    return pdcompare.from_items(
        long.rename(columns={"item": "question"}),
        item="question",
        sample="sample",
        cluster="passage",
    )


def test_report_names_questions_passages_and_samples():
    text = items_frame().cmp.report()
    assert (
        "Data: 3 models x 40 questions in 10 passages, clustered by passage; 5 samples per "
        "question; higher scores are better." in text
    )
    assert "CV design" not in text
    assert (
        "paired t-test over questions, clustered by passage (CR1 standard error, 9 degrees "
        "of freedom)" in text
    )
    assert "t, clustered by passage)" in text
    assert "splits" not in text


def test_report_without_clusters_and_with_a_rope():
    wide = pd.DataFrame([[1, 0, 1, 1, 0, 1], [0, 0, 1, 0, 0, 1]], index=["a", "b"])
    text = wide.cmp.set_design(items=True).cmp.report(rope=0.5)
    assert "Data: 2 models x 6 items; higher scores are better." in text
    assert "Significance: paired t-test over items (two-sided)" in text
    assert "luck of the items" in text
    assert "Practical equivalence" in text


def test_plot_of_an_items_frame_draws_clustered_intervals():
    frame = items_frame()
    ax = frame.cmp.plot()
    assert "t, 40 items clustered in 10 clusters" in ax.get_xlabel()
    summary = frame.cmp.summary()
    assert [t.get_text() for t in ax.get_yticklabels()] == list(summary.index)
    best = ax.collections[0].get_segments()[0]  # the best model first, drawn at the top
    assert best[0][1] == len(summary) - 1
    assert best[0][0] == summary["ci_low"].iloc[0]
    assert best[1][0] == summary["ci_high"].iloc[0]


def test_result_plot_names_the_items_test():
    ax = items_frame().cmp.ttest().cmp.plot()
    assert ax.get_title().startswith("Paired t-test over items, clustered")

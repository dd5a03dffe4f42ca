"""The report of an items frame names its unit: questions, passages, samples."""

import numpy as np
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
    # 10 passages: CR2 by default, which on passages of equal size is CR1 (9 df) exactly.
    assert (
        "paired t-test over questions, clustered by passage (CR2 standard error, 9 "
        "Satterthwaite degrees of freedom)" in text
    )
    assert "t, clustered by passage, CR2 standard error)" in text
    cr1 = items_frame().cmp.report(se="cr1")
    assert (
        "paired t-test over questions, clustered by passage (CR1 standard error, 9 degrees "
        "of freedom)" in cr1
    )
    assert "splits" not in text


def test_report_without_clusters_and_with_a_rope():
    wide = pd.DataFrame([[1, 0, 1, 1, 0, 1], [0, 0, 1, 0, 0, 1]], index=["a", "b"])
    text = wide.cmp.set_design(items=True).cmp.report(rope=0.5)
    assert "Data: 2 models x 6 items; higher scores are better." in text
    assert "Significance: paired t-test over items (two-sided)" in text
    assert "these items cannot tell whether the better mean is a real difference" in text
    assert "Practical equivalence" in text


def test_plot_of_an_items_frame_draws_clustered_intervals():
    frame = items_frame()
    ax = frame.cmp.plot()
    assert "t (CR2), 40 items in 10 clusters" in ax.get_xlabel()
    summary = frame.cmp.summary()
    assert [t.get_text() for t in ax.get_yticklabels()] == list(summary.index)
    best = ax.collections[0].get_segments()[0]  # the best model first, drawn at the top
    assert best[0][1] == len(summary) - 1
    assert best[0][0] == summary["ci_low"].iloc[0]
    assert best[1][0] == summary["ci_high"].iloc[0]


def test_result_plot_names_the_items_test():
    ax = items_frame().cmp.ttest().cmp.plot()
    assert ax.get_title().startswith("Paired t-test over items, clustered")


def tasks_frame():
    """70 items in two tasks (sums 40, products 30), two or three samples per item."""
    rng = np.random.default_rng(0)
    rows = []
    for task, n in (("sums", 40), ("products", 30)):
        for i in range(n):
            for model, p in (("A", 0.7), ("B", 0.6), ("C", 0.5)):
                for s in range(2 if i % 2 else 3):
                    right = float(rng.random() < p)
                    rows.append(
                        {"model": model, "task": task, "item": i, "sample": s, "score": right}
                    )
    return pdcompare.from_items(pd.DataFrame(rows), sample="sample", task="task")


def test_report_names_the_tasks_their_items_the_weighting_and_the_sample_range():
    frame = tasks_frame()
    text = frame.cmp.report()
    assert (
        "Data: 3 models x 70 items in 2 tasks (sums 40, products 30), pooled by item; 2 to 3 "
        "samples per item;" in text
    )
    # Per-task lines: each task's mean score of each model, written out from the frame.
    sums = frame.loc[:, frame.columns.get_level_values(0) == "sums"].mean(axis=1)
    products = frame.loc[:, frame.columns.get_level_values(0) == "products"].mean(axis=1)
    line = next(x for x in text.splitlines() if x.startswith("By task"))
    assert f"sums (40 items): A {sums['A']:.4f}; B {sums['B']:.4f}; C {sums['C']:.4f}." in line
    assert f"products (30 items): A {products['A']:.4f};" in line
    assert "split" not in text.lower()
    assert "cv" not in text.lower().replace("cv=", "")


def test_binary_items_say_why_mcnemar_differs_from_the_paired_t():
    a = [1, 1, 1, 0, 1, 1, 0, 1, 1, 1]
    b = [1, 0, 1, 0, 1, 0, 0, 1, 0, 1]
    frame = pd.DataFrame([a, b], index=["A", "B"]).cmp.set_design(items=True)
    text = frame.cmp.report()
    # DESIGN section 21's reference: the paired t over items and the exact McNemar p = 0.25.
    assert "difference +0.3000" in text
    assert round(float(frame.cmp.mcnemar("A", "B")["pvalue"].iloc[0]), 6) == 0.25
    assert "`mcnemar` also compares these pairs" in text
    assert "counts only the items on which the two models disagree" in text
    graded = frame.astype(float) * 0.5 + 0.1
    assert "mcnemar" not in graded.cmp.set_design(items=True).cmp.report()


def test_items_html_tables_say_constant_columns_once_and_draw_the_rank_sets():
    import re

    import matplotlib

    matplotlib.use("Agg")
    frame = items_frame()
    page = frame.cmp.report(format="html", ranks=True)
    captions = re.findall(r"<caption>(.*?)</caption>", page)
    assert captions[0] == (
        "Summary, best first (every row: n_items 40, n_clusters 10, samples_per_item 5)"
    )
    assert captions[1] == "Comparisons of the family (every row: df 9, n_items 40, n_clusters 10)"
    family_table = page.split("<caption>Comparisons of the family")[1].split("</table>")[0]
    head = re.findall(r'<th id="T_t1_level0_col\d+" class="col_heading[^"]*" >(.*?)</th>',
                      family_table)  # fmt: skip
    assert head == [
        "model_1", "model_2", "mean_diff", "statistic", "pvalue", "pvalue_adj", "reject",
        "ci_low", "ci_high", "se", "design_effect", "corr",
    ]  # fmt: skip
    assert "<figcaption>Simultaneous rank sets</figcaption>" in page
    # The figure is the rank sets of ranks(): one row per model.
    assert page.count("<svg") == 3

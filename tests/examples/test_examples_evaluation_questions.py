"""Runs examples/evaluation_questions.py headless; checks its numbers against formulas written out.

References: the per-question means by a plain pandas group-by; the paired t over questions by
scipy's ``ttest_rel``; the clustered (CR1) standard error written out as DESIGN.md section 21
gives it (inspect_ai's ``stderr(cluster=)``): sqrt(C/(C-1) * sum_c (sum_{i in c} (d_i - dbar))^2)/n
with t on C - 1 degrees of freedom; Holm by statsmodels' ``multipletests``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from _examples import run_example
from numpy.testing import assert_allclose
from scipy import stats
from statsmodels.stats.multitest import multipletests

BEST, SECOND = "large_tuned", "large"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return run_example("evaluation_questions", tmp_path_factory.mktemp("figures"))


def question_means(answers):
    return answers.pivot_table(index="model", columns="question", values="correct")


def passages(answers, questions):
    return answers.drop_duplicates("question").set_index("question")["passage"].loc[questions]


def clustered(d, cluster):
    """(mean, CR1 standard error, df) of the question differences d clustered by cluster."""
    n = len(d)
    centred = d - d.mean()
    _, codes = np.unique(cluster, return_inverse=True)
    sums = np.bincount(codes, weights=centred)
    c = len(sums)
    return d.mean(), np.sqrt(c / (c - 1) * np.sum(sums**2)) / n, c - 1


@pytest.mark.slow
def test_items_frame_is_the_question_means(run):
    out, _ = run
    means = question_means(out["answers"])
    items = out["items"]
    assert items.shape == (5, 300)
    assert_allclose(items.loc[means.index, means.columns].to_numpy(dtype=float), means.to_numpy())


@pytest.mark.slow
def test_summary_se_is_clustered_by_passage(run):
    out, _ = run
    means = question_means(out["answers"])
    cluster = passages(out["answers"], means.columns).to_numpy()
    summary = out["summary"]
    for model in means.index:
        mean, se, df = clustered(means.loc[model].to_numpy(), cluster)
        assert_allclose(summary.loc[model, ["mean", "se"]].to_numpy(dtype=float), [mean, se])
        half = stats.t.ppf(0.975, df) * se
        assert_allclose(
            summary.loc[model, ["ci_low", "ci_high"]].to_numpy(dtype=float),
            [mean - half, mean + half],
        )
    assert (summary["n_items"] == 300).all()
    assert (summary["n_clusters"] == 60).all()


@pytest.mark.slow
def test_four_ways_of_comparing_the_two_best(run):
    out, _ = run
    means = question_means(out["answers"])
    cluster = passages(out["answers"], means.columns).to_numpy()
    a, b = means.loc[BEST].to_numpy(), means.loc[SECOND].to_numpy()
    ways = out["ways"]
    # paired over questions, no clusters: scipy's ttest_rel
    ref = stats.ttest_rel(a, b)
    assert_allclose(ways["pvalue"].iloc[1], ref.pvalue)
    assert_allclose(ways["se"].iloc[1], np.std(a - b, ddof=1) / np.sqrt(300))
    # paired, clustered by passage: CR1 with 59 degrees of freedom
    mean, se, df = clustered(a - b, cluster)
    assert_allclose(ways.iloc[2][["mean_diff", "se"]].to_numpy(dtype=float), [mean, se])
    assert_allclose(ways["pvalue"].iloc[2], 2 * stats.t.sf(abs(mean / se), df))
    row = out["clustered"].iloc[0]
    assert row["df"] == 59
    assert_allclose(row["design_effect"], (se / ways["se"].iloc[1]) ** 2)
    assert_allclose(row["corr"], np.corrcoef(a, b)[0, 1])
    # samples as questions: 1,500 paired differences of single answers
    answers = out["answers"].sort_values(["question", "sample"])
    x = answers.loc[answers["model"] == BEST, "correct"].to_numpy()
    y = answers.loc[answers["model"] == SECOND, "correct"].to_numpy()
    assert_allclose(ways["pvalue"].iloc[3], stats.ttest_rel(x, y).pvalue)
    # what the page says: the clustered analysis is the most cautious of the paired ones
    # and treating samples as questions the least
    assert ways["se"].iloc[2] > ways["se"].iloc[1] > ways["se"].iloc[3]
    assert ways["pvalue"].iloc[3] < ways["pvalue"].iloc[1] < ways["pvalue"].iloc[2]


@pytest.mark.slow
def test_all_pairs_with_holm(run):
    out, _ = run
    means = question_means(out["answers"])
    cluster = passages(out["answers"], means.columns).to_numpy()
    pairs = out["pairs"]
    assert len(pairs) == 10
    pvalues = []
    for row in pairs.itertuples():
        mean, se, df = clustered(
            means.loc[row.model_1].to_numpy() - means.loc[row.model_2].to_numpy(), cluster
        )
        assert_allclose([row.mean_diff, row.se], [mean, se])
        pvalues.append(2 * stats.t.sf(abs(mean / se), df))
    assert_allclose(pairs["pvalue"], pvalues)
    assert_allclose(pairs["pvalue_adj"], multipletests(pvalues, method="holm")[1])
    assert set(itertools.chain(pairs["model_1"], pairs["model_2"])) == set(means.index)


@pytest.mark.slow
def test_power_and_more_samples(run):
    out, printed = run
    power, power_10 = out["power"].iloc[0], out["power_10"].iloc[0]
    assert power["n_items"] == 300
    assert power["n_clusters"] == 60
    # more samples per question only remove within-question variance: never more needed
    assert power_10["n_items_needed"] <= power["n_items_needed"]
    assert power_10["power"] >= power["power"]
    assert "paired, clustered (60 passages)" in printed
    assert (
        "300 questions in 60 passages, clustered by passage; 5 samples per question"
        in (out["report"])
    )
    assert out["figure"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

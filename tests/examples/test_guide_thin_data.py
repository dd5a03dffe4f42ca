"""The pass@k example of "When the data are thin" (docs/guide/thin_data.md): its numbers.

Runs docs/guide/snippets/passk.py and checks what the page says against references
written out: the per-task estimates by scipy.special.comb (Chen et al. 2021; τ-bench),
the clustered paired t (CR1, DESIGN section 21) on them with scipy's t, Holm by
statsmodels' multipletests.
"""

import re
import runpy
from pathlib import Path

import numpy as np
import pytest
from _cli import run_cli
from numpy.testing import assert_allclose
from scipy import stats
from scipy.special import comb
from statsmodels.stats.multitest import multipletests

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGE = (DOCS / "guide" / "thin_data.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def snippet():
    return runpy.run_path(str(DOCS / "guide" / "snippets" / "passk.py"))


def per_task(runs, estimand, k):
    cells = runs.groupby(["agent", "task"])["solved"].agg(["sum", "count"])
    n, c = cells["count"].to_numpy(), cells["sum"].to_numpy()
    value = 1 - comb(n - c, k) / comb(n, k) if estimand == "pass@k" else comb(c, k) / comb(n, k)
    return cells.assign(value=value)["value"].unstack("agent")


def clustered_t(x, y, cluster):
    d = x - y
    sums = np.bincount(cluster, weights=d - d.mean())
    c = len(sums)
    se = np.sqrt(c / (c - 1) * np.sum(sums**2)) / len(d)
    half = stats.t.ppf(0.975, c - 1) * se
    return d.mean(), d.mean() - half, d.mean() + half, 2 * stats.t.sf(abs(d.mean() / se), c - 1)


def said(number):
    assert re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", PAGE), number


def test_the_page_numbers_are_the_written_out_ones(snippet, capsys):
    runs = snippet["runs"]
    tasks = runs.drop_duplicates("task").set_index("task")["repo"].to_numpy()
    # pass@1: the mean of the attempts; Holm over the best agent's two pairs.
    one = per_task(runs, "pass@k", 1)
    assert_allclose(
        one.mean().loc[["steady", "careful", "bold"]], [0.567, 0.527, 0.509], atol=5e-4
    )
    pvalues = [clustered_t(one["steady"], one[b], tasks)[3] for b in ("careful", "bold")]
    adjusted = multipletests(pvalues, method="holm")[1]
    assert_allclose(adjusted, [0.052, 0.052], atol=5e-4)
    said("0.052")
    # pass@5 and pass^5, the page's differences and intervals.
    for estimand, best, other, numbers in (
        ("pass@k", "steady", "careful", ["0.962", "0.084", "0.048", "0.119"]),
        ("pass^k", "bold", "careful", ["0.307", "0.147", "0.111", "0.183"]),
    ):
        values = per_task(runs, estimand, 5)
        mean, low, high, _ = clustered_t(values[best], values[other], tasks)
        expected = [values[best].mean(), mean, low, high]
        assert_allclose(expected, [float(x) for x in numbers], atol=5e-4)
        for number in numbers:
            said(number)
    # the frames of the snippet hold these per-task values
    at5 = snippet["at5"]
    assert_allclose(at5.T.to_numpy(), per_task(runs, "pass@k", 5)[at5.index].to_numpy(), 1e-12)


def test_the_report_and_the_command_line_say_what_the_page_says(snippet, tmp_path):
    text = snippet["at5"].cmp.report()
    sentence = (
        "Data: 3 models, pass@5 over 200 tasks in 40 repos, clustered by repo, 16 attempts each"
    )
    assert sentence in text
    assert sentence in PAGE.replace("\n", " ")
    path = tmp_path / "attempts.csv"
    snippet["runs"].to_csv(path, index=False)
    command = re.search(r"pdcompare attempts\.csv (.*?)\n```", PAGE, re.S).group(1)
    args = command.replace("\\\n", " ").split()
    process = run_cli(path, *args)
    assert process.returncode == 0, process.stderr
    assert sentence in process.stdout

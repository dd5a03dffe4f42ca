"""Runs examples/share_a_report.py headless and checks the files it writes."""

from __future__ import annotations

import pytest
from _examples import run_example
from scipy import stats

from pdcompare.datasets import load_benchmark


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return run_example("share_a_report", tmp_path_factory.mktemp("share"))


def test_writes_a_page_a_note_and_the_matrix(run):
    out, printed = run
    page = out["page"].read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page
    assert page.count("<svg") == 2  # the critical-difference diagram and the matrix
    assert out["note"].read_text(encoding="utf-8").startswith("# pdcompare report")
    assert out["figure"].stat().st_size > 10_000
    assert "cells unchanged without knn: True" in printed


def test_matrix_cells_match_scipy(run):
    out, _ = run
    means = load_benchmark().cmp.means()
    for row in out["cells"].head(6).itertuples():
        # scipy's defaults (zeros dropped): the p-value of the report's Wilcoxon table.
        expected = stats.wilcoxon(means.loc[row.model_1], means.loc[row.model_2]).pvalue
        assert row.pvalue == pytest.approx(expected, rel=1e-10)

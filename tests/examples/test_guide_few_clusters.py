"""The guide's "Few clusters" example (docs/guide/thin_data.md) runs and prints what it shows.

Its numbers are checked against CR1 and CR2 written out: CR2's standard error
``sqrt(Σ_c S_c² / (1 − n_c/n)) / n`` and its Satterthwaite degrees of freedom
from the adjustment matrices ``(I − J_c/n)^(−1/2)`` themselves (Bell & McCaffrey
2002; Pustejovsky & Tipton 2018, as R's clubSandwich); CR1's
``sqrt(C/(C − 1) Σ_c S_c²) / n`` on C − 1 df; the p-values by scipy.
"""

import contextlib
import io
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

PAGE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "thin_data.md"


def _section_blocks():
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## Few clusters", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    shown = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    return code, shown


def _written_out(d, cluster):
    n = d.size
    codes = np.unique(cluster)
    resid = d - d.mean()
    sums = np.array([resid[cluster == c].sum() for c in codes])
    sizes = np.array([(cluster == c).sum() for c in codes])
    cr1 = np.sqrt(len(codes) / (len(codes) - 1) * np.sum(sums**2)) / n
    cr2 = np.sqrt(np.sum(sums**2 / (1 - sizes / n))) / n
    hat = np.full((n, n), 1.0 / n)
    rows = []
    for c in codes:
        inside = cluster == c
        values, vectors = np.linalg.eigh(np.eye(inside.sum()) - hat[np.ix_(inside, inside)])
        adjust = vectors @ np.diag(values**-0.5) @ vectors.T
        rows.append((np.eye(n) - hat)[inside].T @ adjust @ np.ones(inside.sum()) / n)
    w = np.array(rows)
    inner = w @ w.T
    df = np.trace(inner) ** 2 / np.sum(inner**2)
    return cr1, cr2, df, len(codes) - 1


def test_the_example_prints_what_the_page_shows():
    code, shown = _section_blocks()
    namespace = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, namespace)
    assert out.getvalue().split() == shown.split()
    answers = namespace["answers"]
    wide = answers.pivot_table(index="question", columns="model", values="correct")
    d = (wide["a"] - wide["b"]).to_numpy()
    cluster = answers.drop_duplicates("question").set_index("question")["passage"]
    cluster = cluster.loc[wide.index].to_numpy()
    cr1, cr2, df, c_minus_1 = _written_out(d, cluster)
    got_cr2, got_cr1 = namespace["cr2"].iloc[0], namespace["cr1"].iloc[0]
    assert got_cr2["se"] == pytest.approx(cr2, rel=1e-10)
    assert got_cr2["df"] == pytest.approx(df, rel=1e-10)
    t2 = d.mean() / cr2
    assert got_cr2["pvalue"] == pytest.approx(2 * stats.t.sf(abs(t2), df), rel=1e-9)
    assert got_cr1["se"] == pytest.approx(cr1, rel=1e-10)
    assert got_cr1["df"] == c_minus_1
    t1 = d.mean() / cr1
    assert got_cr1["pvalue"] == pytest.approx(2 * stats.t.sf(abs(t1), c_minus_1), rel=1e-9)

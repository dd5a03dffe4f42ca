"""plot("mcm"): the Multiple Comparison Matrix drawn (artists, not pixels)."""

import numpy as np
import pandas as pd
import pytest

import pdcompare  # noqa: F401
from pdcompare.datasets import load_benchmark


def table(m, n=15, seed=0):
    rng = np.random.default_rng(seed)
    values = np.linspace(0.9, 0.7, m)[:, None] + rng.normal(0, 0.03, (m, n))
    names = [f"model_{k}, C={k}" for k in range(m)]
    return pd.DataFrame(
        values, index=names, columns=pd.Index([f"d{k}" for k in range(n)], name="dataset")
    )


def test_the_bundled_benchmark_writes_every_cell():
    bench = load_benchmark()
    ax = bench.cmp.plot("mcm")
    cells = bench.cmp.matrix(kind="mcm")
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == len(cells) == 42
    first = cells.iloc[0]
    expected = f"{first['mean_diff']:+.3f}\n{first['wins']}/{first['ties']}/{first['losses']}"
    assert any(t.startswith(expected) for t in texts)
    bold = [t for t in ax.texts if t.get_fontweight() == "bold"]
    assert len(bold) == int((cells["pvalue"] < 0.05).sum())
    assert [t.get_text() for t in ax.get_yticklabels()] == cells.attrs["pdcompare"]["models"]


@pytest.mark.parametrize(("m", "shown"), [(4, 4), (20, 20), (60, 20)])
def test_readable_at_any_size(m, shown):
    ax = table(m).cmp.plot("mcm")
    assert len(ax.get_yticklabels()) <= shown
    assert ax.get_images()[0].get_array().shape == (shown, shown)
    if m > shown:
        assert f"(best {shown} of {m} models)" in ax.get_title()
    # Text only where it fits: every cell at 4 models, none squeezed at 20.
    assert len(ax.texts) == (12 if m == 4 else len(ax.texts))
    assert all(t.get_fontsize() >= 5.0 for t in ax.texts)


def test_top_and_a_result_plot_draw_the_same():
    bench = load_benchmark()
    cells = bench.cmp.matrix(kind="mcm")
    ax = cells.cmp.plot(top=3)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["svc_rbf", "forest", "knn"]
    assert len(ax.texts) == 6


def test_at_twenty_models_cells_hold_the_difference_alone_at_a_readable_size():
    frame = table(20)
    ax = frame.cmp.plot("mcm")
    cells = frame.cmp.matrix(kind="mcm")
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 20 * 19
    assert all("\n" not in t for t in texts)  # no wins/ties/losses or p squeezed in
    assert all(t.get_fontsize() >= 7.0 for t in ax.texts)
    # Each cell is its pair's mean difference; bold where the Wilcoxon p is below 0.05.
    first = cells.iloc[0]
    assert f"{first['mean_diff']:+.3f}" in texts
    bold = [t for t in ax.texts if t.get_fontweight() == "bold"]
    assert len(bold) == int((cells["pvalue"] < 0.05).sum())
    assert "in matrix(kind='mcm')" in ax.get_title()

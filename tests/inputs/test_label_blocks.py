"""Label columns are read in blocks: the same answers, without a stacked copy of every column."""

import tracemalloc

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import pdcompare.inputs.predictions as predictions_module


def _mixed_frame(n=300, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    noisy = lambda p: np.where(rng.random(n) < p, y, rng.integers(0, 3, n))  # noqa: E731
    return pd.DataFrame(
        {
            "y": y,
            "ints": noisy(0.9),
            "floats": noisy(0.8).astype(float),
            "nullable": pd.array(noisy(0.85), dtype="Int64"),
            "objects": pd.Series(noisy(0.7), dtype=object),
            "small": noisy(0.75).astype(np.int8),
        }
    )


@pytest.mark.parametrize("method", ["mcnemar", "proportions_ztest", "cochrans_q"])
def test_one_column_blocks_give_the_same_results(monkeypatch, method):
    frame = _mixed_frame()
    frame.loc[5, "nullable"] = pd.NA
    whole = getattr(frame.cmp, method)(nan_policy="omit")
    monkeypatch.setattr(predictions_module, "_BLOCK_BYTES", 1)  # one column a block
    blocks = predictions_module.label_blocks(frame, labels_for=method)
    assert len(blocks.blocks) == 5
    assert_frame_equal(getattr(frame.cmp, method)(nan_policy="omit"), whole)
    # Reference: statsmodels on the correctness of one pair.
    if method == "mcnemar":
        from statsmodels.stats.contingency_tables import mcnemar

        kept = frame.drop(index=5)
        a, b = kept["ints"].eq(kept["y"]), kept["small"].eq(kept["y"])
        table = pd.crosstab(a, b).to_numpy()
        row = whole[(whole["model_1"] == "ints") & (whole["model_2"] == "small")]
        expected = mcnemar(table, exact=False, correction=True).pvalue
        assert row["pvalue"].iloc[0] == pytest.approx(expected)


def test_text_labels_in_blocks(monkeypatch):
    frame = _mixed_frame().drop(columns=["objects", "nullable", "floats"])
    text = frame.astype(str).replace({"0": "cat", "1": "dog", "2": "eel"})
    whole = text.cmp.mcnemar()
    monkeypatch.setattr(predictions_module, "_BLOCK_BYTES", 1)
    assert_frame_equal(text.cmp.mcnemar(), whole)
    assert_frame_equal(frame.cmp.mcnemar(), whole)


@pytest.mark.slow
def test_mcnemar_peak_memory_is_not_a_stacked_copy():
    n, m = 1_000_000, 20
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame({"y": y, **{f"m{k}": rng.integers(0, 2, n) for k in range(m)}})
    tracemalloc.start()
    frame.cmp.mcnemar()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # A stacked int64 copy of the labels alone was 8 n m = 160 MB (peak 236 MB); now the
    # correctness and usability matrices (2 n m bytes) and one block of labels.
    assert peak < 2 * n * m + 2 * predictions_module._BLOCK_BYTES + 30 * n

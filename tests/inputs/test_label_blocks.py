"""Label columns are read in blocks: the same answers, without a stacked copy of every column."""

import tracemalloc
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from pandas.testing import assert_frame_equal

import pdcompare.inputs.predictions as predictions_module
from pdcompare.stats.predictions import PackedCorrectness


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
    # A stacked int64 copy of the labels alone was 8 n m = 160 MB (peak 236 MB); then the
    # boolean correctness and usability matrices, 2 n m = 40 MB (peak 65 MB). Now their
    # bits (n m / 4 bytes), one block of labels and a few booleans per sample of the block:
    # 27.5 MB measured.
    assert peak < n * m / 4 + predictions_module._BLOCK_BYTES + 12 * n < 2 * n * m


def _correct_and_valid(frame, models, y="y"):
    """Reference: each model's correctness and usability from pandas, as (samples, models)."""
    truth = frame[y]
    valid = np.column_stack([frame[m].notna() & truth.notna() for m in models])
    right = np.column_stack([frame[m].eq(truth).fillna(False).astype(bool) for m in models])
    return right & valid, valid


@pytest.mark.parametrize("block_bytes", [1, 8 * 301 * 2])
@pytest.mark.parametrize("holes", [[], [("small", 3)], [("ints", 0), ("small", 300)]])
def test_bits_built_in_blocks_equal_packbits_of_the_matrices(monkeypatch, block_bytes, holes):
    from pdcompare.compare.predictions import _predictions

    frame = _mixed_frame(n=301, seed=2)  # 301 samples: the last byte has padding bits
    for column, row in holes:
        frame.loc[row, column] = np.nan if column != "nullable" else pd.NA
    monkeypatch.setattr(predictions_module, "_BLOCK_BYTES", block_bytes)
    blocks = predictions_module.label_blocks(frame, labels_for="mcnemar")
    assert len(blocks.blocks) == (5 if block_bytes == 1 else 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the missing values' warning is not the point here
        data, store, _ = _predictions(frame, "y", None, "omit", "mcnemar", bits=True)
    correct, valid = _correct_and_valid(frame, list(data.names))
    assert_array_equal(store.correct, np.packbits(correct.T, axis=1))
    if holes:  # usability bits, the models read before the first hole included
        assert_array_equal(store.valid, np.packbits(valid.T, axis=1))
    else:  # every entry usable: no usability bits at all
        assert store.valid is None
    # Counts of every pair from the bits against the boolean formula.
    i, j = np.triu_indices(len(data.names), 1)
    counts = store.packed().pair_counts(i, j)
    both = valid[:, i] & valid[:, j]
    assert_array_equal(counts["n"], both.sum(axis=0))
    assert_array_equal(counts["only_1"], (correct[:, i] & ~correct[:, j] & both).sum(axis=0))
    assert_array_equal(counts["only_2"], (correct[:, j] & ~correct[:, i] & both).sum(axis=0))


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 40),
    m=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
    hole_share=st.sampled_from([0.0, 0.1, 0.5]),
    data=st.data(),
)
def test_correctness_bits_do_not_depend_on_the_blocks(n, m, seed, hole_share, data):
    from pdcompare.stats.predictions import CorrectnessBits

    rng = np.random.default_rng(seed)
    valid = rng.random((n, m)) >= hole_share
    correct = (rng.random((n, m)) < 0.7) & valid
    cuts = sorted(data.draw(st.sets(st.integers(1, m - 1), max_size=m - 1)) if m > 1 else [])
    bits = CorrectnessBits(n, m)
    for start, stop in zip([0, *cuts], [*cuts, m], strict=True):
        block = slice(start, stop)
        bits.add(block, np.asfortranarray(correct[:, block]), valid[:, block])
    whole = PackedCorrectness(correct, valid)  # packbits of the whole matrices
    assert_array_equal(bits.correct, np.packbits(correct.T, axis=1))
    assert (bits.valid is None) == bool(valid.all())
    if bits.valid is not None:
        assert_array_equal(bits.valid, np.packbits(valid.T, axis=1))
    i, j = np.nonzero(~np.eye(m, dtype=bool))
    packed = bits.packed()
    for key, value in whole.pair_counts(i, j).items():
        assert_array_equal(packed.pair_counts(i, j)[key], value)
    with np.errstate(invalid="ignore"):  # 0/0 for a model without usable samples: NaN
        assert_array_equal(packed.accuracies(), correct.sum(0) / valid.sum(0))


@pytest.mark.parametrize("exact", [True, False])
def test_mcnemar_in_blocks_equals_statsmodels_every_pair(monkeypatch, exact):
    from statsmodels.stats.contingency_tables import mcnemar

    frame = _mixed_frame(n=500, seed=4).drop(columns=["nullable", "objects"])
    monkeypatch.setattr(predictions_module, "_BLOCK_BYTES", 1)  # one column a block
    assert len(predictions_module.label_blocks(frame, labels_for="mcnemar").blocks) == 3
    out = frame.cmp.mcnemar(a="ints", exact=exact)
    assert len(out) == 2
    for _, row in out.iterrows():
        a, b = frame[row["model_1"]].eq(frame["y"]), frame[row["model_2"]].eq(frame["y"])
        table = pd.crosstab(a, b).reindex(index=[True, False], columns=[True, False])
        reference = mcnemar(table.fillna(0).to_numpy(), exact=exact, correction=True)
        assert row["only_1_correct"] == table.loc[True, False]
        assert row["only_2_correct"] == table.loc[False, True]
        assert row["statistic"] == pytest.approx(reference.statistic, rel=1e-12)
        assert row["pvalue"] == pytest.approx(reference.pvalue, rel=1e-12)


def test_one_column_block_is_a_read_only_view_of_the_frame():
    frame = _mixed_frame().drop(columns=["nullable", "objects", "floats", "small"])
    frame["more"] = frame["ints"].to_numpy()[::-1].copy()
    before = frame.copy()
    blocks = predictions_module.label_blocks(frame, labels_for="mcnemar")
    (_, read), *_ = predictions_module.label_blocks(
        frame, models=["ints"], labels_for="mcnemar"
    ).blocks
    _, y_pred, _ = read()
    assert y_pred.shape == (len(frame), 1)
    assert np.shares_memory(y_pred, frame["ints"].to_numpy())  # no copy of the column
    with pytest.raises(ValueError, match="read-only"):
        y_pred[0, 0] = 5
    assert_frame_equal(frame, before)
    assert len(blocks.blocks) == 1  # two columns a block are stacked into a new array
    _, stacked, _ = blocks.blocks[0][1]()
    assert not np.shares_memory(stacked, frame["ints"].to_numpy())
    assert_array_equal(stacked, frame[["ints", "more"]].to_numpy())


@pytest.mark.slow
def test_mcnemar_one_column_a_block_copies_no_column(monkeypatch):
    n, m = 1_000_000, 20
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame({"y": y, **{f"m{k}": rng.integers(0, 2, n) for k in range(m)}})
    monkeypatch.setattr(predictions_module, "_BLOCK_BYTES", 1)  # as at 1e7 rows
    frame.cmp.mcnemar()
    tracemalloc.start()
    frame.cmp.mcnemar()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # The bits (n m / 4 bytes) and a few booleans per sample: 8.5 MB measured, against one
    # int64 column's 8 n = 8 MB (a copy of the column each block made it 16.5 MB).
    assert peak < n * m / 4 + 6 * n

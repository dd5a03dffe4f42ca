"""Monitor: fed in chunks, it says what sequential() says on the whole frame."""

import pickle

import numpy as np
import pandas as pd
import pytest

import pdcompare


def _long(n_items=300, probs=(0.8, 0.62, 0.6, 0.45), seed=0, shuffle_within=True):
    rng = np.random.default_rng(seed)
    names = [f"m{k}" for k in range(len(probs))]
    rows = []
    for item in range(n_items):
        scores = (rng.random(len(probs)) < probs).astype(float)
        order = rng.permutation(len(probs)) if shuffle_within else range(len(probs))
        rows += [(names[k], f"q{item}", scores[k]) for k in order]
    return pd.DataFrame(rows, columns=["model", "item", "score"])


@pytest.mark.parametrize(
    ("boundary", "chunk"), [("normal_mixture", 37), ("betting", 101), ("evalue", 250)]
)
def test_chunks_equal_sequential_on_the_whole_frame(boundary, chunk):
    table = _long()
    monitor = pdcompare.Monitor(planned_n=300, boundary=boundary)
    for start in range(0, len(table), chunk):
        monitor.update(table.iloc[start : start + chunk])
    expected = pdcompare.sequential(pdcompare.from_items(table), planned_n=300, boundary=boundary)
    pd.testing.assert_frame_equal(monitor.state(), expected, check_dtype=False)


def test_items_complete_out_of_order_and_wait_for_every_model():
    table = _long(n_items=60, seed=1)
    # Hold back m3's rows of the first 10 items until the end.
    late = (table["model"] == "m3") & table["item"].isin([f"q{k}" for k in range(10)])
    monitor = pdcompare.Monitor(planned_n=60)
    monitor.update(table[~late])
    assert monitor.state()["n_items"].iloc[0] == 50
    monitor.update(table[late])
    state = monitor.state()
    assert state["n_items"].iloc[0] == 60
    # The units came in the order they completed: items 10..59, then 0..9.
    order = [f"q{k}" for k in [*range(10, 60), *range(10)]]
    frame = pdcompare.from_items(table)
    expected = pdcompare.sequential(frame, order=order, planned_n=60)
    pd.testing.assert_frame_equal(state, expected, check_dtype=False)


def test_pickling_keeps_the_state():
    table = _long(n_items=120, seed=2)
    monitor = pdcompare.Monitor(planned_n=120)
    monitor.update(table.iloc[:250])
    copy = pickle.loads(pickle.dumps(monitor))
    monitor.update(table.iloc[250:])
    copy.update(table.iloc[250:])
    pd.testing.assert_frame_equal(copy.state(), monitor.state())


def test_losses_flip_the_decision():
    table = _long(n_items=400, probs=(0.9, 0.4), seed=3)
    gains = pdcompare.Monitor().update(table).state()
    losses = pdcompare.Monitor(greater_is_better=False).update(table).state()
    assert gains.loc[0, ["model_1", "decision"]].tolist() == ["m0", "better"]
    assert losses.loc[0, ["model_1", "decision"]].tolist() == ["m1", "better"]


@pytest.mark.parametrize(
    ("table", "match"),
    [
        (pd.DataFrame({"model": ["a"], "item": [1], "score": [1.0], "cluster": [0]}),
         "unknown columns \\['cluster'\\]"),
        (pd.DataFrame({"model": ["a", "b"], "item": [1, 1], "score": [1.0, np.nan]}),
         "model 'b' on item 1 has no numeric score"),
    ],
)  # fmt: skip
def test_refusals_name_the_problem(table, match):
    with pytest.raises(ValueError, match=match):
        pdcompare.Monitor().update(table)


def test_refuses_a_new_model_and_a_repeated_row():
    monitor = pdcompare.Monitor()
    monitor.update(pd.DataFrame({"model": ["a", "b"], "item": [1, 1], "score": [1.0, 0.0]}))
    with pytest.raises(ValueError, match="model 'c' was not in the monitor's first update"):
        monitor.update(pd.DataFrame({"model": ["c"], "item": [2], "score": [1.0]}))
    with pytest.raises(ValueError, match="item 1 was already complete"):
        monitor.update(pd.DataFrame({"model": ["a"], "item": [1], "score": [1.0]}))
    with pytest.raises(ValueError, match="scored one item twice"):
        monitor.update(pd.DataFrame({"model": ["a", "a"], "item": [3, 3], "score": [1.0, 0.0]}))
    with pytest.raises(ValueError, match="`boundary`"):
        pdcompare.Monitor(boundary="bonferroni")

"""from_battles and battles frames (inputs/battles.py): counts, ties, refusals."""

import numpy as np
import pandas as pd
import pytest
from frames import simulated_battles

import pdcompare
from pdcompare.inputs.battles import battles_data
from pdcompare.inputs.kinds import FrameKind, frame_kind


def test_counts_equal_a_written_out_tally():
    table = simulated_battles(np.array([0.5, 0.0, -0.5, 0.2]), 500, tie_rate=0.2, seed=4)
    table.loc[table.index[:50], "winner"] = np.where(
        table["winner"][:50] == "model_a",
        table["model_a"][:50],
        np.where(table["winner"][:50] == "model_b", table["model_b"][:50], "tie (bothbad)"),
    )
    frame = pdcompare.from_battles(table)
    names = list(frame.index)
    wins = np.zeros((4, 4), dtype=int)
    ties = np.zeros((4, 4), dtype=int)
    for a, b, w in table.itertuples(index=False):
        i, j = names.index(a), names.index(b)
        if w in ("tie", "tie (bothbad)"):
            ties[i, j] += 1
            ties[j, i] += 1
        elif w in ("model_a", a):
            wins[i, j] += 1
        else:
            wins[j, i] += 1
    np.testing.assert_array_equal(frame.to_numpy(), wins)
    np.testing.assert_array_equal(frame.attrs["pdcompare"]["ties"], ties)
    assert frame_kind(frame) is FrameKind.BATTLES
    assert names == sorted(names)
    data = battles_data(frame)
    assert data.n_battles.sum() == 2 * len(table)


def test_custom_columns_and_tie_values():
    table = pd.DataFrame({"left": ["x", "y"], "right": ["y", "z"], "who": ["draw", "z"]})
    frame = pdcompare.from_battles(
        table, model_a="left", model_b="right", winner="who", ties=["draw"]
    )
    assert frame.loc["z", "y"] == 1
    assert frame.attrs["pdcompare"]["ties"][0][1] == 1


@pytest.mark.parametrize(
    ("table", "keywords", "error", "match"),
    [
        (
            {"model_a": ["x"], "model_b": ["y"], "winner": ["w"]},
            {},
            ValueError,
            r"`winner`: 'w' in rows 0 is neither",
        ),
        (
            {"model_a": ["x", "x"], "model_b": ["y", "x"], "winner": ["x", "x"]},
            {},
            ValueError,
            r"cannot battle itself: 'x' meet themselves in rows 1",
        ),
        (
            {"model_a": ["x"], "model_b": ["y"], "winner": ["x"]},
            {"winner": "result"},
            ValueError,
            r"`winner`: the table has no column 'result'",
        ),
        (
            {"model_a": ["x", None], "model_b": ["y", "y"], "winner": ["x", "y"]},
            {},
            ValueError,
            r"`model_a`: column 'model_a' is missing in rows 1",
        ),
        (
            {"model_a": ["x"], "model_b": ["y"], "winner": ["x"]},
            {"ties": "tie"},
            TypeError,
            r"`ties` must be a list",
        ),
    ],
)
def test_refusals_name_the_problem(table, keywords, error, match):
    with pytest.raises(error, match=match):
        pdcompare.from_battles(pd.DataFrame(table), **keywords)


def test_a_winner_named_as_a_model_outside_the_battle_is_refused():
    table = pd.DataFrame({"model_a": ["x", "y"], "model_b": ["y", "z"], "winner": ["x", "x"]})
    with pytest.raises(ValueError, match=r"'x' in rows 1 is neither"):
        pdcompare.from_battles(table)


def test_battles_data_refusals():
    names = ["a", "b"]
    with pytest.raises(ValueError, match="non-negative; check 'a' over 'b'"):
        battles_data(pd.DataFrame([[0, -1], [1, 0]], index=names, columns=names))
    with pytest.raises(ValueError, match="cannot battle itself: the diagonal of 'a'"):
        battles_data(pd.DataFrame([[1, 1], [1, 0]], index=names, columns=names))
    with pytest.raises(ValueError, match="same models, in the same order"):
        battles_data(pd.DataFrame([[0, 1], [1, 0]], index=names, columns=["b", "a"]))
    with pytest.raises(TypeError, match="counts of wins"):
        battles_data(pd.DataFrame([[0, "x"], [1, 0]], index=names, columns=names))
    with pytest.raises(TypeError, match="DataFrame"):
        pdcompare.from_battles([["x", "y", "x"]])

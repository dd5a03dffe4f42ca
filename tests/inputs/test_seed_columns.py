"""Scores frames whose columns are named like seeds: a hint at ``set_design(paired=False)``."""

import warnings

import pandas as pd
import pytest
from frames import correlated_scores, seed_runs
from hypothesis import given
from hypothesis import strategies as st

from pdcompare.inputs.scores import looks_like_seeds


def _messages(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in caught]


HINT = r"named like random seeds or runs.*set_design\(paired=False\)"


@pytest.mark.parametrize("prefix", ["seed", "Seed_", "run", "RUN-"])
def test_every_comparison_and_the_report_hint_once_at_runs(prefix):
    frame = seed_runs(prefix=prefix)
    calls = [
        lambda: frame.cmp.ttest("net0", "net1"),
        lambda: frame.cmp.wilcoxon("net0", "net1"),
        lambda: frame.cmp.pairwise(test="ttest"),
        lambda: frame.cmp.summary(),
        lambda: frame.cmp.effect_size(),
        lambda: frame.cmp.report(),
    ]
    for call in calls:
        hints = [m for m in _messages(call) if "named like random seeds" in m]
        assert len(hints) == 1, hints
    with pytest.warns(UserWarning, match=HINT):
        frame.cmp.ttest("net0", "net1")


def test_no_hint_with_a_design_or_on_a_runs_frame_or_other_labels():
    frame = seed_runs()
    assert not any("seeds" in m for m in _messages(lambda: frame.cmp.ttest("net0", "net1", cv=10)))
    runs = frame.cmp.set_design(paired=False)
    assert not any("seeds" in m for m in _messages(lambda: runs.cmp.report()))
    scores = correlated_scores()
    assert not any("seeds" in m for m in _messages(lambda: scores.cmp.ttest("m0", "m1")))
    mixed = frame.rename(columns={"seed0": "split0"})
    assert not any("seeds" in m for m in _messages(lambda: mixed.cmp.ttest("net0", "net1")))


def test_the_hint_has_command_line_words_naming_runs():
    frame = seed_runs()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame.cmp.ttest("net0", "net1")
    hint = next(w.message for w in caught if "named like random seeds" in str(w.message))
    assert "--runs" in hint.cli_message
    assert "set_design" not in hint.cli_message


def test_runs_report_spells_out_cliffs_delta_once():
    text = seed_runs(n_runs=10).cmp.set_design(paired=False).cmp.report()
    assert text.count("Cliff's δ") == 1
    first = text.index("δ =")
    assert text[first - len("Cliff's ") : first] == "Cliff's "


@given(st.lists(st.text(min_size=0, max_size=8), min_size=1, max_size=6))
def test_looks_like_seeds_is_every_label_starting_with_seed_or_run(labels):
    expected = all(label.lower().startswith(("seed", "run")) for label in labels)
    assert looks_like_seeds(pd.Index(labels, dtype=object)) == expected

"""A keyword a comparison does not take is refused by name, never a raw TypeError."""

import numpy as np
import pandas as pd
import pytest

import pdcompare
from pdcompare._validation import OptionError
from pdcompare.datasets import load_battles, load_rl_runs


def _predictions():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 60)
    return pd.DataFrame({"y": y, "m1": y + rng.normal(0, 0.8, 60), "m2": rng.normal(0, 1, 60)})


def test_pairwise_of_a_battles_frame_names_a_cv_design():
    battles = pdcompare.from_battles(load_battles())
    with pytest.raises(OptionError, match=r"`cv`: `pairwise` of a battles frame takes `ties`"):
        battles.cmp.pairwise(cv=5)
    with pytest.raises(OptionError, match=r"`cv`: The report of a battles frame takes `ties`"):
        battles.cmp.report(cv=5)


def test_pairwise_names_what_its_test_does_not_take():
    runs = load_rl_runs()
    with pytest.raises(OptionError, match=r"`cv`: `pairwise\(test='prob_improvement'\)` takes"):
        runs.cmp.pairwise(cv=5)


def test_gate_and_pareto_on_predictions_name_a_cv_design():
    frame = _predictions()
    with pytest.raises(OptionError, match=r"`cv`: A gate resting on `delong` takes"):
        frame.cmp.gate("m1", "m2", margin=0.01, cv=5)
    with pytest.raises(OptionError, match=r"`cv`: `pareto` \(resting on `delong`\) takes"):
        frame.cmp.pareto({"m1": 1.0, "m2": 2.0}, cv=5)


def test_from_items_of_a_table_without_complete_rows():
    table = pd.DataFrame({"model": ["a", None], "item": [None, 1], "score": [1.0, np.nan]})
    with pytest.raises(ValueError, match="no row with a model, an item and a score"):
        pdcompare.from_items(table)

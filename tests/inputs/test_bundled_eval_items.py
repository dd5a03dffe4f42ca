"""The bundled evaluation data set, ``pdcompare.datasets.load_eval_items``.

References: the gzip CSV re-read as text with Python's csv module, and the generator
``scripts/make_eval_items.py`` re-run (the shipped file is its output, byte for byte).
"""

import csv
import gzip
import importlib.util
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
from numpy.testing import assert_allclose

from pdcompare.datasets import load_eval_items

MODELS = ["large_tuned", "large", "medium", "small_distilled", "small"]
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_eval_items.py"


def data_path():
    return resources.files("pdcompare.datasets") / "data" / "eval_items.csv.gz"


def test_shape_columns_and_types():
    answers = load_eval_items()
    assert answers.shape == (7500, 5)
    assert list(answers.columns) == ["model", "passage", "question", "sample", "correct"]
    assert answers["model"].unique().tolist() == MODELS
    assert answers["question"].nunique() == 300
    assert answers["passage"].nunique() == 60
    assert sorted(answers["sample"].unique()) == [1, 2, 3, 4, 5]
    assert set(answers["correct"]) == {0, 1}
    assert answers["sample"].dtype == np.int64
    assert answers["correct"].dtype == np.int64


def test_design_is_complete_and_nested():
    answers = load_eval_items()
    # every model answers every question five times
    counts = answers.groupby(["model", "question"]).size()
    assert len(counts) == 5 * 300
    assert (counts == 5).all()
    # each question belongs to one passage, five questions per passage
    passages = answers.groupby("question")["passage"].nunique()
    assert (passages == 1).all()
    per_passage = answers.drop_duplicates("question").groupby("passage").size()
    assert (per_passage == 5).all()


def test_values_equal_the_csv_text():
    with resources.as_file(data_path()) as path, gzip.open(path, "rt", newline="") as handle:
        rows = list(csv.DictReader(handle))
    answers = load_eval_items()
    assert len(rows) == len(answers)
    assert [r["question"] for r in rows] == answers["question"].tolist()
    assert_allclose([int(r["correct"]) for r in rows], answers["correct"])


def test_question_scores_correlate_across_models():
    # the property the data set is made to show: pairing has something to use
    answers = load_eval_items()
    means = answers.pivot_table(index="model", columns="question", values="correct")
    corr = np.corrcoef(means.to_numpy())
    off_diagonal = corr[~np.eye(len(corr), dtype=bool)]
    assert off_diagonal.min() > 0.4
    assert off_diagonal.max() < 0.8


def test_generator_reproduces_the_shipped_file():
    spec = importlib.util.spec_from_file_location("make_eval_items", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pd.testing.assert_frame_equal(module.simulate(), load_eval_items())

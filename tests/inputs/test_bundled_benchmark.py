"""The bundled benchmark frame, ``pdcompare.datasets.load_benchmark``.

References: the long CSV re-read and re-pivoted independently with plain
pandas, the CSV text itself (exact float text), and the design of 10-fold
cross-validation from ``pdcompare.inputs.design.design_from_cv``.
"""

from importlib import resources

import numpy as np
import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from pdcompare import PdcompareWarning, from_long
from pdcompare.datasets import load_benchmark
from pdcompare.inputs.design import Design, design_from_cv

MODELS = ["logistic", "lda", "naive_bayes", "knn", "tree", "forest", "svc_rbf"]
SHIPPED = ["iris", "wine", "breast_cancer", "digits"]


def csv_path():
    return resources.files("pdcompare.datasets") / "data" / "benchmark.csv"


def independent_frame():
    """The CSV read as text and gathered cell by cell into a frame, floats parsed by Python."""
    with resources.as_file(csv_path()) as path:
        table = pd.read_csv(path, dtype=str)
    table["score"] = [float(text) for text in table["score"]]  # correctly rounded parse
    cells = {}
    for model, dataset, split, score in table.itertuples(index=False):
        cells.setdefault(model, {})[(dataset, split)] = score
    frame = pd.DataFrame.from_dict(cells, orient="index")
    frame.index.name = "model"
    frame.columns = pd.MultiIndex.from_tuples(frame.columns, names=["dataset", "split"])
    return table, frame


def test_shape_names_and_levels():
    scores = load_benchmark()
    assert scores.shape == (7, 220)
    assert scores.index.name == "model"
    assert scores.index.tolist() == MODELS
    assert scores.columns.names == ["dataset", "split"]
    datasets = scores.columns.get_level_values("dataset").unique().tolist()
    assert len(datasets) == 22
    assert datasets[:4] == SHIPPED
    assert scores.columns.get_level_values("split").unique().tolist() == [
        f"split{k}" for k in range(10)
    ]
    # Every data set has the same 10 splits, data sets contiguous.
    splits = [f"split{k}" for k in range(10)]
    expected = pd.MultiIndex.from_product([datasets, splits], names=["dataset", "split"])
    assert scores.columns.equals(expected)


def test_scores_are_accuracies_without_missing_values():
    scores = load_benchmark()
    assert (scores.dtypes == np.float64).all()
    assert not scores.isna().any().any()
    assert ((scores >= 0) & (scores <= 1)).all().all()
    # Models differ: no model is best on every data set, and every model wins somewhere
    # or is never worst everywhere (the benchmark is meant to separate them).
    means = scores.T.groupby(level="dataset", sort=False).mean().T
    winners = means.idxmax().unique()
    assert len(winners) >= 3
    assert means.std(axis=0).min() > 0


def test_design_is_attached():
    scores = load_benchmark()
    design = Design.from_attrs(scores.attrs["pdcompare"]["design"])
    assert design.test_train_ratio == design_from_cv(10).test_train_ratio == 1 / 9
    assert design.greater_is_better
    assert design.n_train is None  # train and test sizes vary by data set
    assert design.n_test is None
    assert "StratifiedKFold(n_splits=10)" in design.source


def test_each_call_returns_a_fresh_frame():
    first = load_benchmark()
    first.iloc[0, 0] = -1.0
    first.attrs["pdcompare"]["design"]["test_train_ratio"] = 0.5
    second = load_benchmark()
    assert second.iloc[0, 0] != -1.0
    assert second.attrs["pdcompare"]["design"]["test_train_ratio"] == 1 / 9


def test_matches_an_independent_pivot():
    table, frame = independent_frame()
    scores = load_benchmark()
    expected = frame.loc[scores.index, scores.columns]
    assert_frame_equal(scores, expected, check_exact=True, check_names=True)
    assert len(table) == scores.size  # one row per cell, none left over


def test_csv_holds_exact_float_text():
    with resources.as_file(csv_path()) as path:
        text = pd.read_csv(path, dtype=str)
    assert list(text.columns) == ["model", "dataset", "split", "score"]
    # %.17g: the text gives back the float it was written from, digit for digit.
    for value in text["score"]:
        assert f"{float(value):.17g}" == value
    with resources.as_file(csv_path()) as path:
        assert path.stat().st_size < 300_000


def test_pairing_is_by_key_not_row_order():
    table, _ = independent_frame()
    shuffled = table.sample(frac=1.0, random_state=0)
    # The order of first appearance changes with the shuffle; the cells do not.
    a = from_long(table, split="split")
    b = from_long(shuffled, split="split").loc[a.index, a.columns]
    assert_frame_equal(a, b, check_exact=True)


def test_duplicate_keys_are_an_error():
    table, _ = independent_frame()
    doubled = pd.concat([table, table.iloc[[5]].assign(score=0.0)])
    with pytest.raises(ValueError, match=r"Each \(model, data set, split\) must appear once"):
        from_long(doubled, split="split")


def test_missing_cell_becomes_nan():
    table, _ = independent_frame()
    frame = from_long(table.drop(index=3), split="split")
    assert frame.isna().sum().sum() == 1
    model, dataset, split = table.loc[3, ["model", "dataset", "split"]]
    assert np.isnan(frame.loc[model, (dataset, split)])


def test_each_data_set_is_a_scores_frame():
    # A data set's columns are an ordinary scores frame: the single-data-set tests run
    # on it with the attached design, and agree with scipy on a pair.
    from scipy import stats

    scores = load_benchmark()
    iris = scores["iris"]
    assert iris.shape == (7, 10)
    # Iris accuracies tie on most folds: 5 or fewer differing folds per pair, so no
    # Wilcoxon p-value can go below 2/2**5 = 0.0625, and the call says so.
    with pytest.warns(PdcompareWarning, match=r"cannot reject any of 21 pairs.*0\.062"):
        res = iris.cmp.pairwise("wilcoxon", correction=None)
    row = res.iloc[0]
    ref = stats.wilcoxon(iris.loc[row.model_1], iris.loc[row.model_2])
    assert row.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    corrected = scores["digits"].cmp.corrected_ttest("svc_rbf", "tree")
    assert corrected["df"].iloc[0] == 9

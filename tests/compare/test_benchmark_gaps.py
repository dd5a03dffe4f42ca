"""Benchmark frames with gaps, with one data set, and built from long tables with their design.

The bundled benchmark is 10-fold CV accuracy of 7 scikit-learn classifiers on
22 data sets (scikit-learn's iris, wine, breast cancer, digits and synthetic
ones). A model missing one fold of ten on one data set used to drop that data
set for every model ("21 data sets kept") while ``summary()``'s ``mean`` of
that model covered fewer data sets than the others'; a one-data-set benchmark
ran Friedman (p = 0.406 from one data set) and a report full of NaN;
``from_long`` could not take the design, so ``random_effects`` said it needed
one.
"""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pdcompare
from pdcompare import PdcompareWarning
from pdcompare.datasets import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark()


def with_gap(bench, model="knn", dataset="wine", splits=("split3",)):
    gapped = bench.copy()
    for split in splits:
        gapped.loc[model, (dataset, split)] = np.nan
    return gapped


def test_missing_folds_are_averaged_over_the_folds_present(bench):
    gapped = with_gap(bench, splits=("split3", "split7"))
    pattern = r"averaged over the folds they have: 'knn' on 'wine' \(2 of 10 folds missing\)"
    with pytest.warns(PdcompareWarning, match=pattern):
        means = pdcompare.means(gapped)
    # numpy's nanmean of the 8 folds left, the reference
    expected = np.nanmean(gapped.loc["knn", "wine"].to_numpy())
    assert_allclose(means.loc["knn", "wine"], expected, rtol=1e-11)
    assert not means.isna().any().any()
    other = bench.cmp.means()
    assert_allclose(means.drop(index="knn"), other.drop(index="knn"), rtol=0, atol=0)


def test_a_missing_fold_keeps_the_data_set_for_everyone(bench):
    gapped = with_gap(bench)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        summary = pdcompare.summary(gapped)
        friedman = pdcompare.friedman(gapped)
    said = [str(w.message) for w in caught]
    assert len([m for m in said if "'knn' on 'wine' (1 of 10 folds missing)" in m]) == 2
    assert not any("kept" in m for m in said)  # no data set dropped
    assert (summary["n_datasets"] == 22).all()
    assert friedman["n_datasets"].iloc[0] == 22
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = pdcompare.means(gapped)
    assert_allclose(summary["mean"], table.mean(axis=1)[summary.index], rtol=1e-12)


def test_summary_uses_one_set_of_data_sets_for_every_model(bench):
    gapped = bench.copy()
    gapped.loc["tree", "digits"] = np.nan  # no fold at all on digits
    with pytest.warns(PdcompareWarning, match=r"\['digits'\] have no score for some model"):
        summary = pdcompare.summary(gapped)
    assert (summary["n_datasets"] == 21).all()
    # The mean over the 21 data sets where every model has a score, for every model.
    expected = bench.cmp.means().drop(columns="digits").mean(axis=1)
    assert_allclose(summary["mean"], expected[summary.index], rtol=1e-12)


ACROSS = [
    ("friedman", {}),
    ("wilcoxon", {}),
    ("sign_test", {}),
    ("ttest", {}),
    ("bayes", {"random_state": 0}),
    ("pairwise", {}),
    ("pairwise", {"test": "sign_test"}),
    ("pairwise", {"test": "ttest"}),
    ("pairwise", {"test": "bayes", "random_state": 0}),
    ("pairwise", {"test": "nemenyi"}),
    ("pairwise", {"test": "conover"}),
    ("report", {}),
]


@pytest.mark.parametrize(("name", "options"), ACROSS)
def test_one_data_set_is_refused_by_every_test_across_data_sets(bench, name, options):
    one = bench.loc[:, ["iris"]]
    pattern = (
        r"compares models across data sets, and this benchmark frame has one data set "
        r"\('iris'\)\. .*`corrected_ttest` on its scores frame \(`df\['iris'\]`\), or "
        r"`per_dataset\(test=\.\.\.\)`"
    )
    with pytest.raises(ValueError, match=pattern):
        getattr(pdcompare, name)(one, **options)


def test_one_data_set_is_compared_on_its_folds(bench):
    one = bench.loc[:, ["iris"]]
    summary = pdcompare.summary(one)
    assert (summary["n_datasets"] == 1).all()
    within = pdcompare.per_dataset(one)
    direct = pdcompare.corrected_ttest(bench["iris"], cv=10)
    assert (within["dataset"] == "iris").all()
    assert_allclose(within["pvalue"], direct["pvalue"], rtol=1e-12)


def long_table(bench):
    stacked = bench.stack(["dataset", "split"], future_stack=True)  # noqa: PD013
    return stacked.rename("accuracy").reset_index()


@pytest.mark.parametrize(
    ("design", "ratio"),
    [
        ({"cv": 10}, 1 / 9),
        ({"test_size": 0.2}, 0.25),
        ({"n_train": 135, "n_test": 15}, 15 / 135),
    ],
)
def test_from_long_stores_the_design(bench, design, ratio):
    table = long_table(bench)
    frame = pdcompare.from_long(table, split="split", score="accuracy", **design)
    stored = frame.attrs["pdcompare"]["design"]
    assert_allclose(stored["test_train_ratio"], ratio, rtol=1e-15)
    assert stored["greater_is_better"] is True


def test_random_effects_works_after_from_long(bench):
    table = long_table(bench)
    frame = pdcompare.from_long(table, split="split", score="accuracy", cv=10)
    plain = pdcompare.from_long(table, split="split", score="accuracy")
    with pytest.raises(ValueError, match=r"needs the cross-validation design"):
        pdcompare.random_effects(plain)
    with pytest.warns(PdcompareWarning, match="same on every fold"):
        result = pdcompare.random_effects(frame)
    with pytest.warns(PdcompareWarning, match="same on every fold"):
        expected = pdcompare.random_effects(plain, cv=10)
    pd.testing.assert_frame_equal(result, expected)
    assert result.attrs["pdcompare"]["design"]["source"] == "cv=10"


def test_from_long_refuses_conflicting_design_keywords(bench):
    with pytest.raises(
        ValueError, match=re.escape("Conflicting design keywords: `cv`, `test_size`")
    ):
        pdcompare.from_long(
            long_table(bench), split="split", score="accuracy", cv=10, test_size=0.1
        )

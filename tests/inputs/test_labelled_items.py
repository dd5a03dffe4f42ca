"""Labelled items frames (DESIGN section 31): a judge's scores, human labels on some items."""

import io

import numpy as np
import pandas as pd
import pytest

import pdcompare
from pdcompare.inputs.labels import judged_arrays, labelled_cells


def _long(n_items=20, n_labelled=8, models="abc", seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for m in models:
        for i in range(n_items):
            rows.append(
                {
                    "model": m,
                    "item": f"q{i:02d}",
                    "judge": float(rng.integers(0, 2)),
                    "human": float(rng.integers(0, 2)) if i < n_labelled else np.nan,
                    "passage": i // 4,
                    "stratum": "easy" if i % 2 else "hard",
                }
            )
    return pd.DataFrame(rows)


def test_from_items_keeps_the_labels_of_the_labelled_rows():
    table = _long()
    framed = pdcompare.from_items(table, score="judge", human="human", cluster="passage")
    cells = labelled_cells(framed)
    labelled = table[table["human"].notna()]
    expected = labelled.pivot_table(index="model", columns="item", dropna=False, values="human")
    judge = labelled.pivot_table(index="model", columns="item", dropna=False, values="judge")
    assert list(cells.items) == list(expected.columns)
    np.testing.assert_array_equal(cells.human, expected.to_numpy())
    np.testing.assert_array_equal(cells.judge, judge.to_numpy())
    np.testing.assert_array_equal(cells.cluster, [0, 0, 0, 0, 1, 1, 1, 1])
    # the frame's values are the judge's scores
    wide = table.pivot_table(index="model", columns="item", dropna=False, values="judge")
    np.testing.assert_array_equal(framed.to_numpy(), wide.to_numpy())


def test_labels_stay_aligned_when_models_and_items_are_selected_and_saved():
    table = _long()
    framed = pdcompare.from_items(table, score="judge", human="human", cluster="passage")
    picked = framed.loc[["c", "a"], [f"q{i:02d}" for i in range(0, 20, 2)]]
    cells = labelled_cells(picked)
    expected = (
        table[table["human"].notna()]
        .pivot_table(index="model", columns="item", dropna=False, values="human")
        .loc[["c", "a"], ["q00", "q02", "q04", "q06"]]
    )
    np.testing.assert_array_equal(cells.human, expected.to_numpy())
    buffer = io.BytesIO()
    picked.to_parquet(buffer)
    back = labelled_cells(pd.read_parquet(buffer))
    np.testing.assert_array_equal(back.human, cells.human)
    np.testing.assert_array_equal(back.cluster, cells.cluster)
    assert (
        framed.attrs
        == pdcompare.from_items(table, score="judge", human="human", cluster="passage").attrs
    )


def test_set_design_with_human_equals_from_items_and_keeps_labels_on_reclustering():
    table = _long()
    framed = pdcompare.from_items(table, score="judge", human="human")
    wide = table.pivot_table(index="model", columns="item", dropna=False, values="judge")
    human = table.pivot_table(index="model", columns="item", dropna=False, values="human")
    designed = wide.cmp.set_design(items=True, human=human)
    np.testing.assert_array_equal(labelled_cells(designed).human, labelled_cells(framed).human)
    reclustered = designed.cmp.set_design(items=True, cluster={c: int(c[1:]) // 5 for c in wide})
    np.testing.assert_array_equal(labelled_cells(reclustered).human, labelled_cells(framed).human)
    np.testing.assert_array_equal(labelled_cells(reclustered).cluster, [0] * 5 + [1] * 3)


def test_stratified_design_keeps_each_items_stratum():
    table = _long()
    framed = pdcompare.from_items(
        table, score="judge", human="human", label_design="stratified", strata="stratum"
    )
    arrays = judged_arrays(framed, None, "ttest")
    names = np.asarray(arrays.stratum_labels, dtype=object)[arrays.stratum]
    expected = table.drop_duplicates("item").set_index("item")["stratum"]
    assert list(names) == list(expected.reindex(framed.columns))
    assert arrays.n_labelled == 8
    assert arrays.n_unlabelled == 12


def test_dask_table_carries_the_labels():
    dd = pytest.importorskip("dask.dataframe")
    table = _long()
    framed = pdcompare.from_items(
        dd.from_pandas(table, npartitions=3), score="judge", human="human"
    )
    expected = pdcompare.from_items(table, score="judge", human="human")
    np.testing.assert_array_equal(framed.to_numpy(), expected.to_numpy())
    assert list(framed.columns) == list(expected.columns)
    np.testing.assert_array_equal(labelled_cells(framed).human, labelled_cells(expected).human)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("unscored", "no judge score"),
        ("all_nan", "all missing"),
        ("outside", "outside the judge's scale"),
        ("partial", "for some models but not"),
    ],
)
def test_bad_labels_are_refused_naming_the_fix(change, words):
    table = _long()
    if change == "unscored":
        table.loc[0, "judge"] = np.nan
    elif change == "all_nan":
        table["human"] = np.nan
    elif change == "outside":
        table.loc[0, "human"] = 2.0
    else:
        table.loc[0, "human"] = np.nan
    with pytest.raises(ValueError, match=words):
        pdcompare.from_items(table, score="judge", human="human")


def test_missing_strata_and_designs_without_their_keywords_are_refused():
    table = _long()
    table.loc[table["item"] == "q03", "stratum"] = None
    with pytest.raises(ValueError, match=r"give every item \(labelled or not\) its stratum"):
        pdcompare.from_items(
            table, score="judge", human="human", label_design="stratified", strata="stratum"
        )
    with pytest.raises(ValueError, match="pass `strata=`"):
        pdcompare.from_items(table, score="judge", human="human", label_design="stratified")
    with pytest.raises(ValueError, match="label_design"):
        pdcompare.from_items(table, score="judge", human="human", label_design="by_hand")
    graded = _long()
    graded["judge"] = graded["judge"] * 0.5 + 0.25
    graded["human"] = graded["human"] * 0.5 + 0.25
    with pytest.raises(ValueError, match="Rogan–Gladen"):
        pdcompare.from_items(graded, score="judge", human="human", label_design="class_balanced")

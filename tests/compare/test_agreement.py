"""pdcompare.judge_agreement: each judge against the human labels (DESIGN section 31).

References: the section's numbers (κ = 0.763, TPR 78/80, TNR 30/40);
``sklearn.metrics.cohen_kappa_score``; the ``krippendorff`` package; the
effective number of judges written out; the refusals as sentences.
"""

import io

import krippendorff
import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from sklearn.metrics import cohen_kappa_score

import pdcompare
from pdcompare.compare.agreement import agreement_frame

nan = np.nan


def reference_table():
    """DESIGN 31: human fail 40 = judge fail 30 + pass 10; pass 80 = judge fail 2 + pass 78."""
    return pd.DataFrame(
        {
            "human": [0] * 40 + [1] * 80,
            "judge": [0] * 30 + [1] * 10 + [0] * 2 + [1] * 78,
        }
    )


def judged_table(k=3, n=240, labelled=150, seed=0, scale=2):
    """Answers graded by ``k`` judges on a 0..scale-1 grade, the first ``labelled`` by a human."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, scale, n).astype(float)
    columns = {}
    for j in range(k):
        wrong = rng.random(n) < 0.1 + 0.1 * j
        columns[f"j{j}"] = np.where(wrong, rng.integers(0, scale, n), truth)
    human = truth.copy()
    human[labelled:] = nan
    return pd.DataFrame({"human": human, **columns, "item": np.arange(n) // 3})


def test_the_reference_numbers_of_section_31():
    result = pdcompare.judge_agreement(reference_table(), random_state=0)
    row = result.loc["judge"]
    assert round(row["kappa"], 3) == 0.763
    assert row["n_labelled"] == 120
    assert_allclose(row["accuracy"], 108 / 120)
    assert_allclose(row["tpr"], 78 / 80)
    assert_allclose(row["tnr"], 30 / 40)
    assert row["kappa_low"] < row["kappa"] < row["kappa_high"]
    assert row["alpha_low"] < row["alpha"] < row["alpha_high"]


def test_the_result_is_one_row_per_judge_with_scipy_style_columns():
    table = judged_table()
    result = pdcompare.judge_agreement(table, cluster="item", n_resamples=300, random_state=0)
    assert result.index.name == "judge"
    assert result.index.tolist() == ["j0", "j1", "j2"]
    assert result.columns.tolist() == [
        "n_labelled", "accuracy", "kappa", "kappa_low", "kappa_high", "tpr", "tnr",
        "alpha", "alpha_low", "alpha_high", "effective_judges",
    ]  # fmt: skip
    meta = result.attrs["pdcompare"]
    assert meta["test"] == "judge_agreement"
    assert meta["n_items"] == 150
    assert meta["n_clusters"] == 50
    assert meta["interval"] == "percentile bootstrap over clusters"
    one = pdcompare.judge_agreement(table, judges=["j1"], n_resamples=50, random_state=0)
    assert "effective_judges" not in one.columns  # only with several judges


def test_kappa_and_alpha_equal_scikit_learn_and_the_krippendorff_package():
    table = judged_table(scale=4, seed=2)
    labelled = table[table["human"].notna()]
    for level in ("nominal", "ordinal", "interval"):
        result = pdcompare.judge_agreement(
            table, judges=["j0", "j1", "j2"], level=level, n_resamples=50, random_state=0
        )
        for judge in ("j0", "j1", "j2"):
            expected = cohen_kappa_score(labelled["human"], labelled[judge])
            assert_allclose(result.loc[judge, "kappa"], expected, rtol=1e-12)
            pair = labelled[["human", judge]].to_numpy().T
            expected = krippendorff.alpha(pair, level_of_measurement=level)
            assert_allclose(result.loc[judge, "alpha"], expected, rtol=1e-12)
        everyone = labelled[["human", "j0", "j1", "j2"]].to_numpy().T
        expected = krippendorff.alpha(everyone, level_of_measurement=level)
        assert_allclose(result.attrs["pdcompare"]["alpha_all"], expected, rtol=1e-12)
        assert np.isnan(result["tpr"]).all()  # grades 0..3: no TPR/TNR


def test_effective_judges_is_the_formula_over_the_labelled_rows():
    table = judged_table(k=4, seed=3)
    result = pdcompare.judge_agreement(table, cluster="item", n_resamples=20, random_state=0)
    labelled = table[table["human"].notna()]
    errors = labelled[["j0", "j1", "j2", "j3"]].to_numpy().T - labelled["human"].to_numpy()
    rho = np.corrcoef(errors)[np.triu_indices(4, 1)].mean()
    assert_allclose(result["effective_judges"], 4 / (1 + 3 * rho), rtol=1e-12)
    assert_allclose(result.attrs["pdcompare"]["mean_error_correlation"], rho, rtol=1e-12)


def test_copies_of_items_resampled_as_clusters_give_the_items_kappa_interval():
    # Each item thrice, its copies one cluster: the same counts drawn per cluster as per item
    # alone, every table three times as large, so κ's resamples (and interval) are the same.
    table = judged_table(k=2, n=90, labelled=90, seed=4).drop(columns="item")
    copies = pd.concat([table] * 3, ignore_index=True)
    copies["item"] = np.tile(np.arange(90), 3)
    alone = pdcompare.judge_agreement(table, n_resamples=300, random_state=5)
    clustered = pdcompare.judge_agreement(copies, cluster="item", n_resamples=300, random_state=5)
    for column in ("kappa", "kappa_low", "kappa_high"):
        assert_allclose(clustered[column], alone[column], rtol=1e-12)
    naive = pdcompare.judge_agreement(copies, judges=["j0", "j1"], n_resamples=300, random_state=5)
    width = alone["kappa_high"] - alone["kappa_low"]
    assert (naive["kappa_high"] - naive["kappa_low"] < width).all()  # copies as items: too narrow


def test_the_arrays_give_the_same_result_as_the_table():
    table = judged_table(seed=6)
    from_table = pdcompare.judge_agreement(table, cluster="item", n_resamples=100, random_state=1)
    from_arrays = agreement_frame(
        table["human"].to_numpy(),
        table[["j0", "j1", "j2"]].to_numpy().T,
        ["j0", "j1", "j2"],
        clusters=table["item"].to_numpy(),
        n_resamples=100,
        random_state=1,
    )
    pd.testing.assert_frame_equal(from_arrays, from_table)


def test_continuous_scores_take_interval_alpha_and_leave_kappa_nan():
    rng = np.random.default_rng(7)
    human = rng.random(80)
    table = pd.DataFrame({"human": human, "j": human + rng.normal(0, 0.1, 80)})
    table["j"] = table["j"].clip(0, 1)
    result = pdcompare.judge_agreement(table, level="interval", n_resamples=50, random_state=0)
    assert result[["accuracy", "kappa", "kappa_low", "tpr", "tnr"]].isna().all().all()
    expected = krippendorff.alpha(table.to_numpy().T, level_of_measurement="interval")
    assert_allclose(result.loc["j", "alpha"], expected, rtol=1e-12)


def test_the_caller_frame_is_left_alone():
    table = judged_table()
    table.attrs["mine"] = 1
    before = table.copy()
    pdcompare.judge_agreement(table, cluster="item", n_resamples=20, random_state=0)
    pd.testing.assert_frame_equal(table, before)
    assert table.attrs == {"mine": 1}


@pytest.mark.parametrize(
    ("change", "options", "match"),
    [
        (lambda t: t.assign(j0=np.linspace(0, 1, len(t))), {},
         r"`level`: Cohen's κ and nominal α need categories, but 'j0' takes 240 distinct "
         r"values.*pass `level='interval'`"),
        (lambda t: t.assign(human=nan), {}, r"`human`: 'human' has no label \(all NaN\)"),
        (lambda t: t.assign(human=t["human"] * 5), {},
         r"`human`: label 5 \(row \d+\) is outside the judges' scale \(0 to 1\); put the human"),
        (lambda t: t, {"judges": ["j0", "j9"]}, r"`judges`: the table has no column 'j9'"),
        (lambda t: t, {"level": "ratio"}, r"`level` must be one of 'nominal', 'ordinal', "),
        (lambda t: t, {"human": "label"}, r"`human`: the table has no column 'label'"),
        (lambda t: t, {"cluster": "passage"}, r"`cluster`: the table has no column 'passage'"),
        (lambda t: t.assign(j1=np.where(t["human"].notna(), nan, 1.0)), {},
         r"`judges`: 'j1' scores none of the 150 labelled rows"),
        (lambda t: t.assign(j0="pass"), {"judges": ["j0", "j1"]},
         r"`judges`: column 'j0' holds 'pass', not a number"),
        (lambda t: t, {"judges": ["human", "j0"]}, r"`judges` names the human labels"),
        (lambda t: t.assign(item=np.where(np.arange(len(t)) == 3, nan, t["item"])),
         {"cluster": "item"}, r"`cluster`: some labelled rows have no cluster"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_in_one_sentence_naming_the_fix(change, options, match):
    with pytest.raises(ValueError, match=match):
        pdcompare.judge_agreement(
            change(judged_table()), n_resamples=20, **{"cluster": "item", **options}
        )


def test_the_shared_keywords_are_checked():
    table = judged_table()
    with pytest.raises(ValueError, match="`ci` must be strictly between 0 and 1"):
        pdcompare.judge_agreement(table, ci=95)
    with pytest.raises(TypeError, match="`n_resamples` must be a positive integer"):
        pdcompare.judge_agreement(table, n_resamples=1.5)
    with pytest.raises(TypeError, match="pandas DataFrame"):
        pdcompare.judge_agreement(table.to_numpy())


def test_the_table_and_the_picture_say_what_was_compared():
    result = pdcompare.judge_agreement(
        judged_table(k=4), cluster="item", n_resamples=100, random_state=0
    )
    html = result.cmp.style().to_html()
    assert "Agreement of each judge with 150 human labels" in html
    assert "bootstrap intervals over 50 clusters resampled whole" in html
    assert "of the human and all 4 judges" in html
    ax = result.cmp.plot()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == result.sort_values("kappa", ascending=False).index.tolist()
    kappa = ax.collections[1].get_offsets()[:, 0]
    assert_allclose(kappa, np.sort(result["kappa"].to_numpy())[::-1])
    assert ax.get_title().startswith("4 judges against 150 human labels (50 clusters)")
    assert "α of the human and all judges" in ax.get_title()


def test_the_picture_stays_readable_with_many_judges():
    rng = np.random.default_rng(8)
    human = rng.integers(0, 2, 100).astype(float)
    names = [f"a-judge-with-a-rather-long-name-{k:02d}" for k in range(70)]
    table = pd.DataFrame(
        {"human": human, **{n: np.where(rng.random(100) < 0.2, 1 - human, human) for n in names}}
    )
    result = pdcompare.judge_agreement(table, n_resamples=50, random_state=0)
    ax = result.cmp.plot()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert len(labels) == 60  # the best 60 by κ, said on the axis
    assert ax.get_ylabel() == "judge (best 60 of 70 by κ)"
    assert max(map(len, labels)) <= 28
    assert labels[0].endswith("…")
    few = result.cmp.plot(top=5)
    assert len(few.get_yticklabels()) == 5
    import matplotlib.pyplot as plt

    _, given = plt.subplots()
    assert result.cmp.plot(ax=given, top=3) is given  # drawn where asked


def test_the_result_survives_parquet():
    result = pdcompare.judge_agreement(judged_table(), cluster="item", n_resamples=50)
    buffer = io.BytesIO()
    result.to_parquet(buffer)
    back = pd.read_parquet(io.BytesIO(buffer.getvalue()))
    assert back.attrs == result.attrs
    assert back.cmp.plot().get_title() == result.cmp.plot().get_title()


def _labelled_items(seed=0, clusters=False):
    rng = np.random.default_rng(seed)
    models, items = ["a", "b", "c"], [f"q{k}" for k in range(40)]
    rows = []
    for model in models:
        for k, item in enumerate(items):
            human = float(rng.random() < 0.6)
            judge = human if rng.random() < 0.85 else 1.0 - human
            rows.append({"model": model, "item": item, "judge": judge,
                         "human": human if k < 25 else np.nan, "topic": f"t{k % 8}"})
    table = pd.DataFrame(rows)
    framed = pdcompare.from_items(table, score="judge", human="human",
                                  cluster="topic" if clusters else None)
    return table, framed


@pytest.mark.parametrize("clusters", [False, True])
def test_a_labelled_items_frame_agrees_as_its_table_of_labelled_cells(clusters):
    table, framed = _labelled_items(clusters=clusters)
    mine = framed.cmp.judge_agreement(random_state=3, n_resamples=500)
    # The reference: the same cells as a table, the item (or its topic) resampled whole
    # (the interval's draws differ with the cluster codes, so only the estimates are compared).
    cells = table.dropna(subset=["human"])  # model by model, items in order: the frame's order
    unit = "topic" if clusters else "item"
    reference = pdcompare.judge_agreement(cells[["human", "judge", unit]], cluster=unit,
                                          random_state=3, n_resamples=500)
    cols = ["n_labelled", "accuracy", "kappa", "tpr", "tnr", "alpha"]
    assert_allclose(mine[cols].to_numpy(float), reference[cols].to_numpy(float), rtol=1e-12)
    assert int(mine["n_labelled"].iloc[0]) == 3 * 25
    # κ against scikit-learn on the flattened labelled cells
    assert_allclose(mine["kappa"].iloc[0], cohen_kappa_score(cells["human"], cells["judge"]),
                    rtol=1e-12)


def test_other_judges_of_a_labelled_items_frame_are_compared_beside_its_own():
    table, framed = _labelled_items()
    other = table.pivot_table(index="model", columns="item", values="human", dropna=False)
    other = other.reindex(columns=framed.columns).fillna(0.0)
    result = framed.cmp.judge_agreement(judges={"perfect": other}, random_state=0,
                                        n_resamples=200)
    assert list(result.index) == ["judge", "perfect"]
    assert result.loc["perfect", "kappa"] == pytest.approx(1.0)
    with pytest.raises(ValueError, match="'short' has no scores for the models"):
        framed.cmp.judge_agreement(judges={"short": other.iloc[:2]})
    with pytest.raises(TypeError, match="mapping of names to frames"):
        framed.cmp.judge_agreement(judges=["x"])
    with pytest.raises(TypeError, match="keeps its labels and clusters in its design"):
        framed.cmp.judge_agreement(cluster="topic")

"""McNemar, Cochran's Q and the two-proportion z-test on predictions frames."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

import pdcompare  # noqa: F401  (registers DataFrame.cmp)
from pdcompare import PdcompareWarning
from pdcompare.inputs.scores import ALL_PAIRS
from pdcompare.stats.predictions import mcnemar as core_mcnemar

MCNEMAR_COLUMNS = [
    "model_1", "model_2", "only_1_correct", "only_2_correct", "mean_diff", "ci_low", "ci_high",
    "statistic", "pvalue", "pvalue_adj", "reject",
]  # fmt: skip
ZTEST_COLUMNS = [
    "model_1", "model_2", "accuracy_1", "accuracy_2",
    "statistic", "pvalue", "pvalue_adj", "reject",
]  # fmt: skip


def _predictions(n=120, seed=0, accuracies=(0.9, 0.8, 0.7, 0.85), labels=("cat", "dog", "eel")):
    """Truth and predictions of models with roughly the given accuracies."""
    rng = np.random.default_rng(seed)
    labels = np.asarray(labels, dtype=object)
    truth = rng.choice(labels, size=n)
    frame = {"y": truth}
    for k, accuracy in enumerate(accuracies):
        wrong = rng.random(n) > accuracy
        shifted = labels[(np.searchsorted(labels, truth) + 1 + rng.integers(0, 2, n)) % 3]
        frame[f"m{k}"] = np.where(wrong, shifted, truth)
    return pd.DataFrame(frame)


@pytest.fixture
def preds():
    return _predictions()


def _table(frame, a, b, y="y"):
    """mlxtend's 2x2 table: [[both right, only a right], [only b right, both wrong]]."""
    from mlxtend.evaluate import mcnemar_table

    return mcnemar_table(
        frame[y].to_numpy(dtype=object), frame[a].to_numpy(dtype=object),
        frame[b].to_numpy(dtype=object),
    )  # fmt: skip


# ------------------------------------------------------------------ McNemar


@pytest.mark.parametrize(("exact", "correction"), list(itertools.product([True, False], repeat=2)))
@pytest.mark.parametrize(("b", "c"), [(10, 3), (3, 10), (24, 9), (40, 25), (7, 7), (1, 0)])
def test_mcnemar_core_agrees_with_statsmodels_and_mlxtend(b, c, exact, correction):
    from mlxtend.evaluate import mcnemar as mlx_mcnemar
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    table = np.array([[50, b], [c, 20]])
    sm = sm_mcnemar(table, exact=exact, correction=correction)
    out = core_mcnemar(np.array([b]), np.array([c]), exact=exact, correction=correction)
    assert_allclose(out["statistic"], [sm.statistic], rtol=1e-10)
    assert_allclose(out["pvalue"], [sm.pvalue], rtol=1e-10)
    chi2, p = mlx_mcnemar(table, corrected=correction, exact=exact)
    assert_allclose(out["pvalue"], [p], rtol=1e-10)
    if not exact:
        assert_allclose(out["statistic"], [chi2], rtol=1e-10)


@pytest.mark.parametrize(("exact", "correction"), list(itertools.product([True, False], repeat=2)))
def test_mcnemar_frame_agrees_with_statsmodels_every_pair(preds, exact, correction):
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    result = preds.cmp.mcnemar(ALL_PAIRS, exact=exact, correction=correction, p_adjust=None)
    assert list(result.columns) == MCNEMAR_COLUMNS
    assert len(result) == 6
    for row in result.itertuples():
        table = _table(preds, row.model_1, row.model_2)
        assert (row.only_1_correct, row.only_2_correct) == (table[0, 1], table[1, 0])
        sm = sm_mcnemar(table, exact=exact, correction=correction)
        assert_allclose([row.statistic, row.pvalue], [sm.statistic, sm.pvalue], rtol=1e-10)


def test_mcnemar_exact_none_switches_at_25():
    # 24 discordant samples: exact; 25: chi-square with continuity correction (statsmodels).
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    out = core_mcnemar(np.array([17, 17]), np.array([7, 8]))
    assert out["exact"].tolist() == [True, False]
    expected = [
        sm_mcnemar([[0, 17], [7, 0]], exact=True).pvalue,
        sm_mcnemar([[0, 17], [8, 0]], exact=False, correction=True).pvalue,
    ]
    assert_allclose(out["pvalue"], expected, rtol=1e-10)


def test_mcnemar_scopes_and_attrs(preds):
    # Accuracies: m0 > m3 > m1 > m2 (by construction; checked below).
    accuracy = preds.drop(columns="y").eq(preds["y"], axis=0).mean()
    order = accuracy.sort_values(ascending=False, kind="stable").index.tolist()
    best = preds.cmp.mcnemar()
    assert best["model_1"].tolist() == [order[0]] * 3
    assert best["model_2"].tolist() == order[1:]
    pair = preds.cmp.mcnemar("m2", "m1")
    assert pair[["model_1", "model_2"]].to_numpy().tolist() == [["m2", "m1"]]
    table = _table(preds, "m2", "m1")
    assert pair[["only_1_correct", "only_2_correct"]].to_numpy().tolist() == [
        [table[0, 1], table[1, 0]]
    ]
    one = preds.cmp.mcnemar("m1")
    assert one["model_2"].tolist() == [m for m in order if m != "m1"]
    meta = best.attrs["pdcompare"]
    assert meta["test"] == "mcnemar"
    assert meta["scope"] == "best_vs_rest"
    assert meta["correction"] == "holm"
    assert meta["continuity_correction"] is True
    assert meta["models"] == order
    assert len(meta["exact_rows"]) == 3


def test_mcnemar_p_adjust(preds):
    from statsmodels.stats.multitest import multipletests

    result = preds.cmp.mcnemar(p_adjust="bonferroni", alpha=0.1)
    reject, adjusted, *_ = multipletests(result["pvalue"], alpha=0.1, method="bonferroni")
    assert_allclose(result["pvalue_adj"], adjusted, rtol=1e-12)
    assert_array_equal(result["reject"], reject)


def test_mcnemar_identical_models():
    frame = pd.DataFrame({"y": [0, 1, 1, 0, 1], "a": [0, 1, 0, 0, 1], "b": [0, 1, 0, 0, 1]})
    # Exact: statsmodels gives statistic 0 and p 1 itself, no warning needed.
    exact = frame.cmp.mcnemar("a", "b")
    assert_allclose(exact[["statistic", "pvalue"]].to_numpy()[0], [0.0, 1.0])
    # Chi-square: statsmodels gives 0/0 = NaN; pdcompare gives 0 and 1 with a warning.
    with pytest.warns(PdcompareWarning, match=r"'a' vs 'b': .*0/0"):
        chi = frame.cmp.mcnemar("a", "b", exact=False)
    assert_allclose(chi[["statistic", "pvalue"]].to_numpy()[0], [0.0, 1.0])
    assert chi[["only_1_correct", "only_2_correct"]].to_numpy().tolist() == [[0, 0]]


def test_mcnemar_argument_errors(preds):
    with pytest.raises(TypeError, match=r"continuity correction.*`p_adjust=`"):
        preds.cmp.mcnemar(correction="holm")
    with pytest.raises(ValueError, match=r"`p_adjust` must be one of .*'holm'"):
        preds.cmp.mcnemar(p_adjust="holmes")
    with pytest.raises(ValueError, match="`exact` must be True, False, None or 'midp'"):
        preds.cmp.mcnemar(exact="yes")
    with pytest.raises(TypeError, match="`exact` must be True, False, None or 'midp'"):
        preds.cmp.mcnemar(exact=1.5)
    with pytest.raises(ValueError, match="`interval` must be one of 'tango', 'newcombe'"):
        preds.cmp.mcnemar(interval="wilson")
    with pytest.raises(ValueError, match="`ci` must be strictly between 0 and 1"):
        preds.cmp.mcnemar(ci=95)
    with pytest.raises(ValueError, match="`alpha` must be strictly between 0 and 1"):
        preds.cmp.mcnemar(alpha=0)


# ------------------------------------------------------------------ Cochran's Q


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cochrans_q_agrees_with_mlxtend_and_statsmodels(seed):
    from mlxtend.evaluate import cochrans_q as mlx_cochrans_q
    from statsmodels.stats.contingency_tables import cochrans_q as sm_cochrans_q

    frame = _predictions(n=90, seed=seed, labels=(0, 1, 2))
    result = frame.cmp.cochrans_q()
    assert list(result.columns) == ["n_models", "statistic", "df", "pvalue"]
    models = ["m0", "m1", "m2", "m3"]
    q, p = mlx_cochrans_q(frame["y"].to_numpy(), *(frame[m].to_numpy() for m in models))
    assert_allclose(result[["statistic", "pvalue"]].to_numpy()[0], [q, p], rtol=1e-10)
    right = frame[models].eq(frame["y"], axis=0).astype(int).to_numpy()
    sm = sm_cochrans_q(right)
    assert_allclose(result[["statistic", "pvalue"]].to_numpy()[0], [sm.statistic, sm.pvalue])
    assert result[["n_models", "df"]].to_numpy().tolist() == [[4, 3]]
    subset = frame.cmp.cochrans_q(["m1", "m3"])
    q2, p2 = mlx_cochrans_q(frame["y"].to_numpy(), frame["m1"].to_numpy(), frame["m3"].to_numpy())
    assert_allclose(subset[["statistic", "pvalue"]].to_numpy()[0], [q2, p2], rtol=1e-10)
    # With two models Q is McNemar's chi-square without continuity correction.
    mc = frame.cmp.mcnemar("m1", "m3", exact=False, correction=False)
    assert_allclose(subset["statistic"], mc["statistic"], rtol=1e-10)
    assert subset.attrs["pdcompare"]["models"] == ["m1", "m3"]
    assert subset.attrs["pdcompare"]["n_samples"] == 90


def test_cochrans_q_degenerate_and_errors():
    frame = pd.DataFrame({"y": list("abab"), "p": list("abab"), "q": list("abab")})
    with pytest.warns(PdcompareWarning, match="0/0"):
        result = frame.cmp.cochrans_q()
    assert_allclose(result[["statistic", "pvalue"]].to_numpy()[0], [0.0, 1.0])
    with pytest.raises(ValueError, match="at least 2 models"):
        frame.cmp.cochrans_q(["p"])
    with pytest.raises(ValueError, match=r"`models`: unknown model 'pp'. Did you mean 'p'"):
        frame.cmp.cochrans_q(["pp", "q"])
    with pytest.raises(TypeError, match="`models` must be a list"):
        frame.cmp.cochrans_q("p")


# ------------------------------------------------------------------ two-proportion z


def _z_formula(p1, p2, n):
    """Pooled two-proportion z (Dietterich 1998, sec. 3.2): (p1 - p2) / sqrt(2 p (1-p) / n)."""
    pooled = (p1 + p2) / 2
    return (p1 - p2) / np.sqrt(2 * pooled * (1 - pooled) / n)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_proportions_ztest_formula_and_statsmodels(preds, alternative):
    from statsmodels.stats.proportion import proportions_ztest

    result = preds.cmp.proportions_ztest(ALL_PAIRS, alternative=alternative, correction=None)
    assert list(result.columns) == ZTEST_COLUMNS
    n = len(preds)
    sm_alternative = {"two-sided": "two-sided", "greater": "larger", "less": "smaller"}
    for row in result.itertuples():
        right_1 = int((preds[row.model_1] == preds["y"]).sum())
        right_2 = int((preds[row.model_2] == preds["y"]).sum())
        assert_allclose([row.accuracy_1, row.accuracy_2], [right_1 / n, right_2 / n])
        z = _z_formula(right_1 / n, right_2 / n, n)
        p = {
            "two-sided": 2 * stats.norm.sf(abs(z)),
            "greater": stats.norm.sf(z),
            "less": stats.norm.cdf(z),
        }[alternative]
        assert_allclose([row.statistic, row.pvalue], [z, p], rtol=1e-10)
        sm = proportions_ztest(
            [right_1, right_2], [n, n], alternative=sm_alternative[alternative]
        )
        assert_allclose([row.statistic, row.pvalue], sm, rtol=1e-10)


def test_proportions_ztest_degenerate():
    frame = pd.DataFrame({"y": [1, 0, 1], "a": [1, 0, 1], "b": [1, 0, 1]})
    with pytest.warns(PdcompareWarning, match="0/0"):
        result = frame.cmp.proportions_ztest("a", "b", alternative="greater")
    assert_allclose(result[["statistic", "pvalue"]].to_numpy()[0], [0.0, 1.0])


def test_proportions_ztest_docstring_warns_about_it():
    doc = pd.DataFrame.cmp.proportions_ztest.__doc__
    assert "Dietterich (1998)" in doc
    assert "same* test set" in doc
    assert "type I error" in doc


# ------------------------------------------------------------------ labels, missing values


def test_labels_of_any_dtype_give_the_same_results(preds):
    reference = preds.cmp.mcnemar(ALL_PAIRS)
    codes = {"cat": 0, "dog": 1, "eel": 2}
    as_int = preds.apply(lambda column: column.map(codes)).astype("int64")
    as_category = preds.astype("category")
    as_nullable = as_int.astype("Int64")
    as_string = preds.astype("string")
    for variant in (as_int, as_category, as_nullable, as_string):
        result = variant.cmp.mcnemar(ALL_PAIRS)
        pd.testing.assert_frame_equal(result, reference)
        z = variant.cmp.proportions_ztest()
        pd.testing.assert_frame_equal(z, preds.cmp.proportions_ztest())
        pd.testing.assert_frame_equal(variant.cmp.cochrans_q(), preds.cmp.cochrans_q())


def test_missing_truth_column_lists_columns(preds):
    with pytest.raises(ValueError, match=r"no truth column 'target'.*'y', 'm0', 'm1'"):
        preds.cmp.mcnemar(y="target")
    with pytest.raises(ValueError, match=r"no truth column 'label'"):
        preds.cmp.cochrans_q(y="label")
    renamed = preds.rename(columns={"y": "label"})
    assert len(renamed.cmp.proportions_ztest(y="label")) == 3


def test_unknown_model_suggests_names(preds):
    with pytest.raises(ValueError, match=r"`a`: unknown model 'm00'. Did you mean 'm0'"):
        preds.cmp.mcnemar("m00")
    with pytest.raises(ValueError, match=r"`b`: unknown model"):
        preds.cmp.proportions_ztest("m0", "forest")


def _with_holes(preds):
    holed = preds.copy()
    holed.loc[[3, 10], "m1"] = None
    holed.loc[[20], "y"] = None
    return holed


def test_nan_policy_raise_names_columns(preds):
    holed = _with_holes(preds)
    with pytest.raises(ValueError, match=r"\['y', 'm1'\].*missing values.*nan_policy='omit'"):
        holed.cmp.mcnemar(nan_policy="raise")
    with pytest.raises(ValueError, match=r"\['y', 'm1'\]"):
        holed.cmp.cochrans_q(nan_policy="raise")
    with pytest.raises(ValueError, match="`nan_policy` must be one of"):
        holed.cmp.proportions_ztest(nan_policy="skip")


def test_nan_policy_propagate(preds):
    holed = preds.copy()
    holed.loc[[3, 10], "m1"] = None
    with pytest.warns(PdcompareWarning, match=r"\['m1'\].*missing values"):
        result = holed.cmp.mcnemar(ALL_PAIRS)
    with_m1 = (result["model_1"] == "m1") | (result["model_2"] == "m1")
    assert result.loc[with_m1, ["only_1_correct", "statistic", "pvalue"]].isna().all().all()
    assert result.loc[~with_m1, "pvalue"].notna().all()
    # The others are corrected among themselves only: same as without m1.
    others = preds.drop(columns="m1").cmp.mcnemar(ALL_PAIRS)
    assert_allclose(result.loc[~with_m1, "pvalue_adj"], others["pvalue_adj"], rtol=1e-12)
    with pytest.warns(PdcompareWarning, match="missing values"):
        q = _with_holes(preds).cmp.cochrans_q()
    assert q[["statistic", "pvalue"]].isna().all().all()
    with pytest.warns(PdcompareWarning, match=r"\['y', 'm1'\]"):
        z = _with_holes(preds).cmp.proportions_ztest()
    assert z["pvalue"].isna().all()


def test_nan_policy_omit_drops_rows_pair_by_pair(preds):
    from statsmodels.stats.contingency_tables import cochrans_q as sm_cochrans_q
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    holed = _with_holes(preds)
    result = holed.cmp.mcnemar(ALL_PAIRS, nan_policy="omit", exact=False)
    for row in result.itertuples():
        kept = holed[["y", row.model_1, row.model_2]].dropna()
        table = _table(kept, row.model_1, row.model_2)
        assert (row.only_1_correct, row.only_2_correct) == (table[0, 1], table[1, 0])
        sm = sm_mcnemar(table, exact=False)
        assert_allclose([row.statistic, row.pvalue], [sm.statistic, sm.pvalue], rtol=1e-10)
    z = holed.cmp.proportions_ztest("m0", "m1", nan_policy="omit")
    kept = holed[["y", "m0", "m1"]].dropna()
    n = len(kept)
    assert n == len(preds) - 3
    p1, p2 = (kept["m0"] == kept["y"]).mean(), (kept["m1"] == kept["y"]).mean()
    assert_allclose(z[["accuracy_1", "accuracy_2"]].to_numpy()[0], [p1, p2])
    assert_allclose(z["statistic"], [_z_formula(p1, p2, n)], rtol=1e-10)
    # m2 vs m3 only loses the row with the missing truth.
    z23 = holed.cmp.proportions_ztest("m2", "m3", nan_policy="omit")
    kept23 = holed[["y", "m2", "m3"]].dropna()
    assert len(kept23) == len(preds) - 1
    assert_allclose(z23["accuracy_1"], [(kept23["m2"] == kept23["y"]).mean()])
    q = holed.cmp.cochrans_q(nan_policy="omit")
    complete = holed.dropna()
    right = complete[["m0", "m1", "m2", "m3"]].eq(complete["y"], axis=0).astype(int)
    assert_allclose(q["statistic"], [sm_cochrans_q(right).statistic], rtol=1e-10)
    assert q.attrs["pdcompare"]["n_samples"] == len(complete)


def test_frame_not_modified(preds):
    before = preds.copy()
    preds.cmp.mcnemar()
    preds.cmp.cochrans_q()
    preds.cmp.proportions_ztest()
    pd.testing.assert_frame_equal(preds, before)
    assert preds.attrs == {}


# ------------------------------------------------------------------ properties


@st.composite
def _prediction_frames(draw):
    n = draw(st.integers(2, 60))
    values = draw(arrays(np.int64, (n, 4), elements=st.integers(0, 2)))
    return pd.DataFrame(values, columns=["y", "a", "b", "c"])


@settings(deadline=None, max_examples=40, derandomize=True)
@given(frame=_prediction_frames(), exact=st.sampled_from([None, True, False]))
def test_properties(frame, exact):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PdcompareWarning)  # ties are allowed here
        ab = frame.cmp.mcnemar("a", "b", exact=exact, p_adjust=None)
        ba = frame.cmp.mcnemar("b", "a", exact=exact, p_adjust=None)
        z_ab = frame.cmp.proportions_ztest("a", "b", correction=None)
        z_ba = frame.cmp.proportions_ztest("b", "a", correction=None)
        every = frame.cmp.mcnemar(ALL_PAIRS, exact=exact)
        z_every = frame.cmp.proportions_ztest(ALL_PAIRS, correction="fdr_bh")
        q = frame.cmp.cochrans_q()
        singles = [
            frame.cmp.mcnemar(row.model_1, row.model_2, exact=exact, p_adjust=None)["pvalue"]
            for row in every.itertuples()
        ]
    assert_allclose(ab["pvalue"], ba["pvalue"], rtol=1e-12)
    assert_allclose(ab["statistic"], ba["statistic"], rtol=1e-12)
    assert_allclose(z_ab["pvalue"], z_ba["pvalue"], rtol=1e-12)
    assert_allclose(z_ab["statistic"], -z_ba["statistic"], rtol=1e-12)
    for result in (every, z_every, q):
        assert result["pvalue"].between(0, 1).all()
    for result in (every, z_every):
        assert (result["pvalue_adj"] >= result["pvalue"] - 1e-15).all()
    # Each all-pairs row is the single-pair result.
    assert_allclose(np.concatenate(singles), every["pvalue"], rtol=1e-12)


def test_degenerate_warning_counts_the_pairs():
    frame = pd.DataFrame({"y": [0, 1, 1], **{f"m{k}": [0, 1, 0] for k in range(5)}})
    counted = r"^10 pairs of models \(e.g. 'm0' vs 'm1'\): no sample"
    with pytest.warns(PdcompareWarning, match=counted):
        result = frame.cmp.mcnemar(ALL_PAIRS, exact=False)
    assert_allclose(result["pvalue"], np.ones(10))


def test_matrix_mirrors_mcnemar_discordant_counts():
    frame = pd.DataFrame(
        {
            "y": [1, 1, 0, 0, 1, 0, 1, 1],
            "a": [1, 1, 0, 0, 1, 0, 0, 1],
            "b": [1, 0, 0, 1, 0, 0, 1, 1],
            "c": [0, 1, 1, 0, 1, 1, 1, 0],
        }
    )
    result = frame.cmp.mcnemar(ALL_PAIRS, exact=True)
    only_1 = result.cmp.matrix("only_1_correct")
    for row_model, col_model in itertools.permutations("abc", 2):
        # Cell (r, c): samples that r classifies correctly and c does not, counted here.
        expected = ((frame[row_model] == frame["y"]) & (frame[col_model] != frame["y"])).sum()
        assert only_1.loc[row_model, col_model] == expected

"""mcnemar's interval and mid-p, and summary's Wilson interval, on items and predictions frames.

DESIGN section 33, "Small samples of binary items". References: the written-out
implementations of tests/references.py (Tango by brentq, Newcombe's formula, the
binomial sum, inspect_ai's ci_wilson), inspect_ai itself where installed, statsmodels.
"""

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose
from references import (
    ci_wilson_clustered,
    midp_mcnemar_sum,
    newcombe_interval_formula,
    tango_interval_brentq,
)
from statsmodels.stats.proportion import proportion_confint

import pdcompare

TEN_A = [1, 1, 1, 0, 1, 1, 0, 1, 1, 1]
TEN_B = [1, 0, 1, 0, 1, 0, 0, 1, 0, 1]


def binary_items(m=4, n=30, seed=0, cluster=None):
    rng = np.random.default_rng(seed)
    values = (rng.random((m, n)) < rng.uniform(0.3, 0.9, (m, 1))).astype(int)
    wide = pd.DataFrame(values, index=[f"m{k}" for k in range(m)])
    return wide.cmp.set_design(items=True, cluster=cluster)


def table_of(frame, row):
    """The 2x2 counts (a, b, c, d) of a result row, counted from the items one by one."""
    x = frame.loc[row["model_1"]].to_numpy()
    y = frame.loc[row["model_2"]].to_numpy()
    return tuple(int(v) for v in (
        ((x == 1) & (y == 1)).sum(), ((x == 1) & (y == 0)).sum(),
        ((x == 0) & (y == 1)).sum(), ((x == 0) & (y == 0)).sum(),
    ))  # fmt: skip


def test_design_ten_items_keep_their_numbers():
    # DESIGN 21: difference 0.3, exact McNemar p = 0.25; the interval is new.
    items = pd.DataFrame([TEN_A, TEN_B], index=["a", "b"]).cmp.set_design(items=True)
    out = items.cmp.mcnemar("a", "b")
    assert_allclose(out["mean_diff"], [0.3])
    assert_allclose(out["pvalue"], [0.25])
    assert_allclose(out[["ci_low", "ci_high"]].iloc[0], tango_interval_brentq(3, 0, 10), atol=1e-8)
    assert out.attrs["pdcompare"]["interval"] == "tango"
    assert out.attrs["pdcompare"]["ci"] == 0.95


@pytest.mark.parametrize("ci", [0.9, 0.95])
def test_items_intervals_against_the_references_every_pair(ci):
    items = binary_items(m=5, n=23, seed=1)
    tango = items.cmp.mcnemar(interval="tango", ci=ci, p_adjust=None)
    newcombe = items.cmp.mcnemar(interval="newcombe", ci=ci, p_adjust=None)
    wald = items.cmp.mcnemar(interval="wald", ci=ci, p_adjust=None)
    assert len(tango) == 4  # the best against the rest
    for k, row in tango.iterrows():
        a, b, c, d = table_of(items, row)
        assert row["only_1_correct"] == b
        assert row["only_2_correct"] == c
        assert row["mean_diff"] == pytest.approx((b - c) / 23)
        assert_allclose(
            row[["ci_low", "ci_high"]].to_numpy(float),
            tango_interval_brentq(b, c, 23, ci),
            atol=1e-8,
        )
        assert_allclose(
            newcombe.loc[k, ["ci_low", "ci_high"]].to_numpy(float),
            newcombe_interval_formula(a, b, c, d, ci),
            atol=1e-10,
        )
        from scipy import stats

        z = stats.norm.ppf(0.5 + ci / 2)
        se = np.sqrt((b + c) - (b - c) ** 2 / 23) / 23
        assert_allclose(
            wald.loc[k, ["ci_low", "ci_high"]].to_numpy(float),
            np.clip([(b - c) / 23 - z * se, (b - c) / 23 + z * se], -1, 1),
        )


def test_default_p_values_unchanged_and_midp_written_out():
    items = binary_items(m=6, n=40, seed=2)
    plain = items.cmp.mcnemar(interval=None)
    assert "ci_low" not in plain.columns
    assert "mean_diff" not in plain.columns
    default = items.cmp.mcnemar()
    assert_allclose(default["pvalue"], plain["pvalue"])
    assert_allclose(default["pvalue_adj"], plain["pvalue_adj"])
    midp = items.cmp.mcnemar(exact="midp", p_adjust=None)
    expected = [
        midp_mcnemar_sum(int(b), int(c))
        for b, c in zip(midp["only_1_correct"], midp["only_2_correct"], strict=True)
    ]
    assert_allclose(midp["pvalue"], expected, rtol=1e-10)
    assert (midp["pvalue"] <= plain["pvalue"] + 1e-12).all()
    assert midp.attrs["pdcompare"]["exact"] == "midp"


def test_swapping_the_models_turns_the_interval():
    items = binary_items(m=2, n=17, seed=3)
    one = items.cmp.mcnemar("m0", "m1").iloc[0]
    other = items.cmp.mcnemar("m1", "m0").iloc[0]
    assert other["mean_diff"] == pytest.approx(-one["mean_diff"])
    assert_allclose(
        [other["ci_low"], other["ci_high"]], [-one["ci_high"], -one["ci_low"]], atol=1e-9
    )


def test_graded_scores_refused_naming_the_fix():
    graded = pd.DataFrame([[0.5, 1, 0], [1, 0, 0]], index=["a", "b"]).cmp.set_design(items=True)
    with pytest.raises(ValueError, match=r"`interval='tango'`.*0/1 scores.*`bootstrap_diff`"):
        graded.cmp.mcnemar()
    with pytest.raises(ValueError, match=r"`interval='wilson'`.*0/1 scores.*leave `interval`"):
        graded.cmp.summary(interval="wilson")


def test_bad_keywords_named():
    items = binary_items(m=2, n=10)
    with pytest.raises(ValueError, match=r"`exact=False`.*`exact='midp'`"):
        items.cmp.mcnemar(exact=False)
    with pytest.raises(ValueError, match=r"`interval` must be one of 'tango', 'newcombe', 'wald'"):
        items.cmp.mcnemar(interval="score")
    with pytest.raises(ValueError, match=r"`ci` must be strictly between 0 and 1"):
        items.cmp.mcnemar(ci=1.5)
    with pytest.raises(ValueError, match=r"`interval` must be one of None, 't', 'wilson'"):
        items.cmp.summary(interval="tango")
    scores = pd.DataFrame([[0.8, 0.9, 0.85], [0.7, 0.6, 0.65]], index=["a", "b"])
    with pytest.raises(ValueError, match=r"`interval='wilson'`.*items frame of 0/1 scores"):
        scores.cmp.summary(interval="wilson", cv=3)


def _predictions(n=60, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    frame = {"y": y}
    for name, accuracy in (("p", 0.85), ("q", 0.75), ("r", 0.6)):
        wrong = rng.random(n) > accuracy
        frame[name] = np.where(wrong, (y + 1) % 3, y)
    return pd.DataFrame(frame)


@pytest.mark.parametrize("interval", ["tango", "newcombe", "wald"])
def test_predictions_get_the_interval_too(interval):
    preds = _predictions()
    out = preds.cmp.mcnemar(interval=interval, p_adjust=None)
    plain = preds.cmp.mcnemar(interval=None, p_adjust=None)
    assert_allclose(out["pvalue"], plain["pvalue"])
    for _, row in out.iterrows():
        x = (preds[row["model_1"]] == preds["y"]).to_numpy()
        y = (preds[row["model_2"]] == preds["y"]).to_numpy()
        a, b, c, d = ((x & y).sum(), (x & ~y).sum(), (~x & y).sum(), (~x & ~y).sum())
        assert row["mean_diff"] == pytest.approx(x.mean() - y.mean())
        if interval == "tango":
            expected = tango_interval_brentq(b, c, 60)
        elif interval == "newcombe":
            expected = newcombe_interval_formula(a, b, c, d)
        else:
            half = 1.959963984540054 * np.sqrt((b + c) - (b - c) ** 2 / 60) / 60
            expected = ((b - c) / 60 - half, (b - c) / 60 + half)
        assert_allclose(row[["ci_low", "ci_high"]].to_numpy(float), expected, atol=1e-8)
        assert row["ci_low"] <= row["mean_diff"] <= row["ci_high"]


def test_predictions_midp_and_missing_rows():
    preds = _predictions(seed=4)
    midp = preds.cmp.mcnemar(exact="midp", p_adjust=None)
    expected = [
        midp_mcnemar_sum(int(b), int(c))
        for b, c in zip(midp["only_1_correct"], midp["only_2_correct"], strict=True)
    ]
    assert_allclose(midp["pvalue"], expected, rtol=1e-10)
    holes = preds.astype({"q": float})
    holes.loc[3, "q"] = np.nan
    with pytest.warns(UserWarning, match="missing values"):
        out = holes.cmp.mcnemar(p_adjust=None)
    assert out.set_index("model_2").loc["q", ["mean_diff", "ci_low", "ci_high"]].isna().all()
    assert out.set_index("model_2").loc["r", ["ci_low", "ci_high"]].notna().all()


def test_result_survives_a_save_and_mirrors_in_the_matrix():
    items = binary_items(m=3, n=25, seed=5)
    out = items.cmp.pairwise("mcnemar")
    buffer = io.BytesIO()
    out.to_parquet(buffer)
    back = pd.read_parquet(io.BytesIO(buffer.getvalue()))
    assert back.attrs["pdcompare"]["interval"] == "tango"
    low = back.cmp.matrix("ci_low")
    high = back.cmp.matrix("ci_high")
    names = list(low.index)
    a, b = names[0], names[1]
    assert low.loc[b, a] == pytest.approx(-high.loc[a, b])
    assert isinstance(back.cmp.style().to_html(), str)


# ------------------------------------------------------------------ summary(interval="wilson")


def test_wilson_without_clusters_equals_statsmodels():
    items = binary_items(m=4, n=37, seed=6)
    out = items.cmp.summary(interval="wilson", ci=0.9)
    for model, row in out.iterrows():
        count = int(items.loc[model].sum())
        expected = proportion_confint(count, 37, alpha=0.1, method="wilson")
        assert_allclose(row[["ci_low", "ci_high"]].to_numpy(float), expected, atol=1e-12)
    assert out.attrs["pdcompare"]["interval"] == "wilson"
    plain = items.cmp.summary(ci=0.9)
    assert_allclose(out[["mean", "se"]], plain[["mean", "se"]])
    assert plain.attrs["pdcompare"]["interval"] == "t"


@pytest.mark.parametrize("n_clusters", [3, 8, 25])
def test_clustered_wilson_equals_inspect_ai_written_out(n_clusters):
    rng = np.random.default_rng(n_clusters)
    n = 60
    cluster = {k: int(v) for k, v in enumerate(np.sort(rng.integers(0, n_clusters, n)))}
    cluster.update({k: k for k in range(n_clusters)})  # every cluster present
    items = binary_items(m=3, n=n, seed=n_clusters, cluster=cluster)
    out = items.cmp.summary(interval="wilson")
    labels = np.array([cluster[k] for k in range(n)])
    for model, row in out.iterrows():
        expected = ci_wilson_clustered(items.loc[model].to_numpy(float), labels)
        assert_allclose(row[["ci_low", "ci_high"]].to_numpy(float), expected, atol=1e-12)
    assert out.attrs["pdcompare"]["interval"] == "clustered wilson"


def test_clustered_wilson_equals_inspect_ai_itself():
    scorer = pytest.importorskip("inspect_ai.scorer")
    if not hasattr(scorer, "ci_wilson"):
        pytest.skip("this inspect_ai has no ci_wilson")
    rng = np.random.default_rng(11)
    values = (rng.random(45) < 0.55).astype(float)
    labels = rng.integers(0, 7, 45)
    labels[:7] = np.arange(7)
    items = pd.DataFrame([values], index=["m"]).cmp.set_design(
        items=True, cluster=dict(enumerate(labels.tolist()))
    )
    scores = [
        scorer.SampleScore(
            score=scorer.Score(value=float(v)), sample_id=k, sample_metadata={"passage": int(g)}
        )
        for k, (v, g) in enumerate(zip(values, labels, strict=True))
    ]
    for level in (0.9, 0.95):
        theirs = scorer.ci_wilson(level=level, cluster="passage")(scores)
        ours = items.cmp.summary(level, interval="wilson")
        assert_allclose(
            ours[["ci_low", "ci_high"]].iloc[0], [theirs["lower"], theirs["upper"]], atol=1e-12
        )
        plain = pdcompare.summary(
            pd.DataFrame([values], index=["m"]).cmp.set_design(items=True),
            level,
            interval="wilson",
        )
        theirs = scorer.ci_wilson(level=level)(scores)
        assert_allclose(
            plain[["ci_low", "ci_high"]].iloc[0], [theirs["lower"], theirs["upper"]], atol=1e-12
        )


@given(st.lists(st.integers(0, 1), min_size=4, max_size=40), st.integers(2, 4))
def test_wilson_properties(values, n_clusters):
    n = len(values)
    cluster = {k: k % n_clusters for k in range(n)}
    items = pd.DataFrame([values], index=["m"]).cmp.set_design(items=True, cluster=cluster)
    row = items.cmp.summary(interval="wilson").iloc[0]
    assert 0.0 <= row["ci_low"] <= row["mean"] + 1e-12
    assert row["mean"] - 1e-12 <= row["ci_high"] <= 1.0
    # Clusters only widen it: the effective size is at most n, the t quantile above z.
    plain = pd.DataFrame([values], index=["m"]).cmp.set_design(items=True)
    bare = plain.cmp.summary(interval="wilson").iloc[0]
    assert row["ci_low"] <= bare["ci_low"] + 1e-12
    assert row["ci_high"] >= bare["ci_high"] - 1e-12


# ------------------------------------------------------------------ pictures and tables


def test_mcnemar_plot_is_a_forest_of_the_differences_with_their_intervals():
    items = binary_items(m=4, n=30, seed=8)
    out = items.cmp.mcnemar(interval="newcombe", ci=0.9)
    ax = out.cmp.plot()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [f"{a} − {b}" for a, b in zip(out["model_1"], out["model_2"], strict=True)]
    assert ax.get_xlabel().startswith("difference of accuracy with Newcombe's 90% interval")
    # The markers sit at the differences; the interval lines span ci_low..ci_high.
    markers = np.concatenate(
        [c.get_offsets()[:, 0] for c in ax.collections if len(c.get_offsets())]
    )
    for value in out["mean_diff"]:  # (the legend's sample markers are collections too)
        assert np.isclose(markers, value).any()
    segments = np.concatenate(
        [np.asarray(lines.get_segments()) for bars in ax.containers for lines in bars.lines[2]]
    )
    assert_allclose(np.sort(segments[:, :, 0].min(axis=1)), np.sort(out["ci_low"]))
    assert_allclose(np.sort(segments[:, :, 0].max(axis=1)), np.sort(out["ci_high"]))
    # Without the interval: the p-value dots, as before.
    assert items.cmp.mcnemar(interval=None).cmp.plot().get_xscale() == "log"


def test_styled_table_shows_the_interval():
    out = binary_items(m=3, n=20, seed=9).cmp.mcnemar()
    html = out.cmp.style().to_html()
    for column in ("mean_diff", "ci_low", "ci_high"):
        assert column in html
    assert f"{out['ci_low'].iloc[0]:.3f}" in html


def test_command_line_names_the_interval_it_prints(capsys, tmp_path):
    from pdcompare.cli import main

    preds = _predictions(n=40, seed=6)
    path = tmp_path / "labels.csv"
    preds.to_csv(path, index=False)
    assert main([str(path), "--test", "mcnemar"]) == 0
    out = capsys.readouterr().out
    assert "with Tango's 95% interval" in out
    row = preds.cmp.mcnemar().iloc[0]
    assert f"{row['ci_low']:.4f}" in out
    assert f"{row['ci_high']:.4f}" in out

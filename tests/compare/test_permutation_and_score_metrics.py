"""permutation_test on predictions, scores and benchmark frames; the scores of probabilities."""

import warnings

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy import stats
from sklearn import metrics

import pdcompare
from pdcompare import PdcompareWarning

ZEA_MAYS = [49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48]


@pytest.fixture
def labels():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    noisy = lambda p: np.where(rng.random(400) < p, y, 1 - y)  # noqa: E731
    return pd.DataFrame({"y": y, "tree": noisy(0.8), "forest": noisy(0.9), "knn": noisy(0.85)})


@pytest.fixture
def probabilities():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    logit = lambda s: 1 / (1 + np.exp(-((2 * y - 1) * s + rng.normal(0, 1, 300))))  # noqa: E731
    return pd.DataFrame({"y": y, "good": logit(1.5), "fair": logit(0.8), "coin": rng.random(300)})


def test_columns_scopes_and_best_first(labels):
    out = labels.cmp.permutation_test(random_state=0, n_resamples=999)
    assert list(out.columns) == [
        "model_1", "model_2", "score_1", "score_2", "mean_diff", "pvalue", "pvalue_adj", "reject",
    ]  # fmt: skip
    assert out["model_1"].unique().tolist() == ["forest"]
    assert (out["mean_diff"] >= 0).all()
    for row in out.itertuples():
        assert row.score_1 == pytest.approx(
            metrics.accuracy_score(labels["y"], labels[row.model_1])
        )
    assert out.attrs["pdcompare"]["unit"] == "sample"
    again = labels.cmp.permutation_test(random_state=0, n_resamples=999)
    assert_allclose(out["pvalue"], again["pvalue"])
    b = out["pvalue"].to_numpy() * 1000 - 1
    assert_allclose(b, np.round(b), atol=1e-9)  # (b + 1) / (R + 1)
    pairs = labels.cmp.pairwise(test="permutation_test", random_state=0, n_resamples=999)
    assert len(pairs) == 3
    assert pairs.attrs["pdcompare"]["scope"] == "all_pairs"


def test_exact_pair_equals_scipy_and_mcnemar():
    y = np.array([0, 1] * 20)
    a = y.copy()
    b = y.copy()
    b[:7] = 1 - y[:7]
    a[7:9] = 1 - y[7:9]
    frame = pd.DataFrame({"y": y, "a": a, "b": b})
    out = frame.cmp.permutation_test("a", "b")
    assert out.attrs["pdcompare"]["exact"] == [True]
    differ = a != b

    def statistic(x, z):
        full_a, full_b = a.copy(), b.copy()
        full_a[differ], full_b[differ] = x, z
        return np.mean(full_a == y) - np.mean(full_b == y)

    expected = stats.permutation_test(
        (a[differ], b[differ]), statistic, permutation_type="samples", vectorized=False,
        n_resamples=np.inf,
    ).pvalue  # fmt: skip
    assert out["pvalue"].iloc[0] == pytest.approx(expected, rel=1e-12)
    assert out["pvalue"].iloc[0] == pytest.approx(
        frame.cmp.mcnemar("a", "b", exact=True)["pvalue"].iloc[0], rel=1e-12
    )


@pytest.mark.parametrize(
    ("score", "reference"),
    [
        ("roc_auc", metrics.roc_auc_score),
        ("average_precision", metrics.average_precision_score),
        ("log_loss", metrics.log_loss),
        ("brier_score", metrics.brier_score_loss),
    ],
)
def test_scores_of_probabilities_equal_sklearn(probabilities, score, reference):
    y = probabilities["y"]
    boot = probabilities.cmp.bootstrap(score, n_resamples=50, random_state=0)
    for model in ("good", "fair", "coin"):
        assert boot.loc[model, "estimate"] == pytest.approx(reference(y, probabilities[model]))
    loss = score in ("log_loss", "brier_score")
    assert boot.index[0] == "good"  # the best first, lowest for a loss
    diff = probabilities.cmp.bootstrap_diff(score=score, n_resamples=50, random_state=0)
    assert diff["model_1"].iloc[0] == "good"
    assert ((diff["mean_diff"] <= 0) if loss else (diff["mean_diff"] >= 0)).all()
    perm = probabilities.cmp.permutation_test(score=score, n_resamples=199, random_state=0)
    assert perm["model_1"].iloc[0] == "good"
    row = perm.set_index("model_2").loc["coin"]
    assert row["score_2"] == pytest.approx(reference(y, probabilities["coin"]))
    assert row["pvalue"] == pytest.approx(2 / 200)  # two-sided: twice (0 + 1) / (199 + 1)
    assert perm.attrs["pdcompare"]["greater_is_better"] is (not loss)


@pytest.mark.slow
def test_roc_auc_permutation_exact_against_scipy():
    # the ranks of the two models differ on 8 rows only: b permutes a's first 8 values
    rng = np.random.default_rng(2)
    y = np.array([0, 1] * 10)
    a = rng.random(20)
    b = a.copy()
    b[:8] = np.roll(a[:8], 3)
    frame = pd.DataFrame({"y": y, "a": a, "b": b})
    out = frame.cmp.permutation_test("a", "b", score="roc_auc")
    rank_a, rank_b = stats.rankdata(a), stats.rankdata(b)
    differ = rank_a != rank_b
    assert differ.sum() == 8
    assert out.attrs["pdcompare"]["exact"] == [True]

    def statistic(x, z):
        full_a, full_b = rank_a.copy(), rank_b.copy()
        full_a[differ], full_b[differ] = x, z
        return metrics.roc_auc_score(y, full_a) - metrics.roc_auc_score(y, full_b)

    expected = stats.permutation_test(
        (rank_a[differ], rank_b[differ]), statistic, permutation_type="samples",
        vectorized=False, n_resamples=np.inf,
    ).pvalue  # fmt: skip
    assert out["pvalue"].iloc[0] == pytest.approx(expected, rel=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("score", ["roc_auc", "average_precision"])
def test_ranked_scores_permutation_ignores_rescaling(score):
    # issue 47 item 1: rescaling one model's scores left its AUC but moved p 0.037 -> 0.38
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 120)
    a = 1 / (1 + np.exp(-(2 * y - 1) * 0.8 - rng.normal(0, 1, 120)))
    b = 1 / (1 + np.exp(-(2 * y - 1) * 0.4 - rng.normal(0, 1, 120)))
    p = []
    for scale in (lambda v: v, lambda v: v**5, lambda v: 100 * v - 7):
        frame = pd.DataFrame({"y": y, "a": a, "b": scale(b)})
        out = frame.cmp.permutation_test("a", "b", score=score, random_state=0, n_resamples=999)
        expected = getattr(metrics, f"{score}_score")(y, a) - getattr(metrics, f"{score}_score")(
            y, b
        )
        assert out["mean_diff"].iloc[0] == pytest.approx(expected, rel=1e-12)
        p.append(out["pvalue"].iloc[0])
    assert p[0] == p[1] == p[2]
    # the p-value is that of swapping ranks, written out with scipy
    ranks = stats.rankdata(np.column_stack([a, b]), axis=0)
    metric = getattr(metrics, f"{score}_score")
    reference = stats.permutation_test(
        (ranks[:, 0], ranks[:, 1]), lambda x, z: metric(y, x) - metric(y, z),
        permutation_type="samples", vectorized=False, n_resamples=999, random_state=1,
    ).pvalue  # fmt: skip
    assert abs(p[0] - reference) < 0.06


def test_score_refusals(probabilities, labels):
    with pytest.raises(ValueError, match=r"'log_loss' needs probabilities.*in \[0, 1\]"):
        probabilities.assign(good=probabilities["good"] * 3).cmp.bootstrap("log_loss")
    with pytest.raises(ValueError, match="needs a binary truth"):
        probabilities.assign(y=np.arange(300) % 3).cmp.permutation_test(score="roc_auc")
    with pytest.raises(ValueError, match="compares predicted labels with the truth"):
        probabilities.cmp.permutation_test()  # accuracy on probabilities
    with pytest.raises(ValueError, match="reads each model column as scores"):
        labels.assign(tree=labels["tree"].astype(str)).cmp.bootstrap("roc_auc")
    with pytest.raises(ValueError, match="reads each model column as scores"):
        labels.assign(tree=labels["tree"].astype(str)).cmp.permutation_test(score="roc_auc")
    with pytest.raises(ValueError, match="needs a binary truth"):
        probabilities.assign(y=np.arange(300) % 3).cmp.permutation_test(score="log_loss")
    with pytest.raises(ValueError, match="'log_loss'"):
        labels.cmp.bootstrap("neg_log_loss")


def test_zea_mays_across_data_sets():
    bench = pd.DataFrame(
        [ZEA_MAYS, [0] * 15], index=["cross", "self"], columns=pd.Index(range(15), name="dataset")
    )
    one = bench.cmp.permutation_test(n_resamples=2**15, alternative="better")
    assert one["pvalue"].iloc[0] == 863 / 32768
    two = bench.cmp.permutation_test(n_resamples=2**15)
    assert two["pvalue"].iloc[0] == 1726 / 32768
    assert two.attrs["pdcompare"]["unit"] == "dataset"
    assert two["mean_diff"].iloc[0] == pytest.approx(np.mean(ZEA_MAYS))
    randomised = bench.cmp.permutation_test(random_state=3)
    assert randomised.attrs["pdcompare"]["exact"] == [False]


def test_scores_frame_single_kfold_silent_repeated_warns(random_scores, gallery_scores):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = random_scores.cmp.permutation_test(cv=15, random_state=0, n_resamples=999)
    assert out["model_1"].iloc[0] == "model_5"
    d = random_scores.loc["model_5"] - random_scores.loc["model_0"]
    row = out.set_index("model_2").loc["model_0"]
    assert row["mean_diff"] == pytest.approx(d.mean())
    with pytest.warns(
        PdcompareWarning, match=r"`permutation_test` treats the CV splits.*corrected_ttest"
    ):
        gallery_scores.cmp.permutation_test(random_state=0, n_resamples=99)


def test_loss_scores_frame_best_is_lowest(random_scores):
    losses = 1 - random_scores
    out = losses.cmp.permutation_test(cv=15, greater_is_better=False, random_state=0)
    assert out["model_1"].iloc[0] == "model_5"
    assert (out["mean_diff"] <= 0).all()


def test_regression_loss_best_is_lowest():
    rng = np.random.default_rng(9)
    y = rng.normal(size=200)
    frame = pd.DataFrame(
        {"y": y, "rough": y + rng.normal(0, 1, 200), "fine": y + rng.normal(0, 0.3, 200)}
    )
    out = frame.cmp.permutation_test(score="mean_squared_error", random_state=0, n_resamples=499)
    assert out["model_1"].iloc[0] == "fine"
    assert out["mean_diff"].iloc[0] < 0
    assert out["score_1"].iloc[0] == pytest.approx(metrics.mean_squared_error(y, frame["fine"]))


def test_pairwise_label_tests_on_predictions(labels):
    mcnemar = labels.cmp.pairwise(test="mcnemar", correction="bonferroni")
    assert len(mcnemar) == 3
    assert mcnemar.attrs["pdcompare"]["correction"] == "bonferroni"
    direct = pdcompare.mcnemar(labels, "forest", "tree")
    row = mcnemar[(mcnemar["model_1"] == "forest") & (mcnemar["model_2"] == "tree")]
    assert row["pvalue"].iloc[0] == pytest.approx(direct["pvalue"].iloc[0])
    z = labels.cmp.pairwise(test="proportions_ztest")
    assert z["model_1"].iloc[0] == "forest"
    boot = labels.cmp.pairwise(test="bootstrap_diff", random_state=0, n_resamples=100)
    assert len(boot) == 3
    with pytest.raises(ValueError, match="`test` must be one of 'mcnemar'"):
        labels.cmp.pairwise(test="corrected_ttest")


@pytest.mark.slow
def test_large_frame_best_against_the_rest():
    # A million rows (their speed is benchmarks/bench_auc.py's business, not a test's):
    # accuracies 0.80 ... 0.84 differ by far more than chance, so no resample reaches
    # the observed difference and p = 2 (0 + 1) / (999 + 1), two-sided.
    rng = np.random.default_rng(4)
    n = 1_000_000
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame(
        {"y": y, **{f"m{k}": np.where(rng.random(n) < 0.8 + k / 100, y, 1 - y) for k in range(5)}}
    )
    out = frame.cmp.permutation_test(random_state=0, n_resamples=999)
    assert out["model_1"].unique().tolist() == ["m4"]
    assert out["model_2"].tolist() == ["m3", "m2", "m1", "m0"]
    for row in out.itertuples():
        assert row.score_2 == pytest.approx(metrics.accuracy_score(y, frame[row.model_2]))
    assert_allclose(out["pvalue"], 2 / 1000)

"""bradley_terry, win_probability and pairwise() on battles frames (compare/battles.py)."""

import numpy as np
import pandas as pd
import pytest
from frames import simulated_battles
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import pdcompare
from pdcompare.stats import bradley_terry as bt


@pytest.fixture(scope="module")
def battles():
    strengths = np.linspace(1.0, -1.0, 6)
    return pdcompare.from_battles(simulated_battles(strengths, 3000, tie_rate=0.15, seed=1))


def three():
    names = list("ABC")
    return pd.DataFrame([[0, 6, 7], [4, 0, 6], [3, 4, 0]], index=names, columns=names)


def test_references_of_design_section_24():
    res = pdcompare.bradley_terry(three(), random_state=0, n_resamples=200)
    np.testing.assert_allclose(res["rating"], [1072.449, 1000.0, 927.551], atol=5e-4)
    two = pd.DataFrame([[0, 3], [1, 0]], index=["A", "B"], columns=["A", "B"])
    rating = pdcompare.bradley_terry(two, random_state=0, n_resamples=50)["rating"]
    assert rating["A"] - rating["B"] == pytest.approx(190.8485, abs=5e-5)


def test_columns_order_and_metadata(battles):
    res = battles.cmp.bradley_terry(random_state=0, n_resamples=300)
    assert list(res.columns) == [
        "rating",
        "ci_low",
        "ci_high",
        "rank",
        "rank_low",
        "rank_high",
        "n_battles",
        "n_rounds",
        "interval",
    ]
    assert (res["interval"] == "bootstrap").all()
    assert res["rating"].is_monotonic_decreasing
    assert (res["ci_low"] < res["rating"]).all()
    assert (res["rating"] < res["ci_high"]).all()
    assert (res["rank_low"] <= res["rank"]).all()
    assert (res["rank"] <= res["rank_high"]).all()
    assert res["n_battles"].sum() == 2 * 3000
    assert (res["n_rounds"] == 300).all()
    meta = res.attrs["pdcompare"]
    assert meta["test"] == "bradley_terry"
    assert meta["covariance"] == "inverse Fisher information"
    assert res["rating"].mean() == pytest.approx(1000)


def test_half_ties_equal_the_chatbot_arena_logistic_regression(battles):
    from sklearn.linear_model import LogisticRegression

    table = simulated_battles(np.linspace(1.0, -1.0, 6), 3000, tie_rate=0.15, seed=1)
    models = sorted(set(table["model_a"]) | set(table["model_b"]))
    a = table["model_a"].map(models.index).to_numpy()
    b = table["model_b"].map(models.index).to_numpy()
    x = np.zeros((len(table), len(models)))
    x[np.arange(len(table)), a] = np.log(10)
    x[np.arange(len(table)), b] = -np.log(10)
    tie = (table["winner"] == "tie").to_numpy()
    a_won = (table["winner"] == "model_a").to_numpy()
    # Chatbot Arena: every decided battle counted twice, a tie once as a win for each side.
    features = np.vstack([x[~tie], x[tie], x[tie]])
    target = np.concatenate([a_won[~tie], np.ones(tie.sum()), np.zeros(tie.sum())])
    weight = np.concatenate([np.full((~tie).sum(), 2.0), np.ones(2 * tie.sum())])
    fit = LogisticRegression(C=np.inf, fit_intercept=False, tol=1e-12, max_iter=10000)
    fit.fit(features, target, sample_weight=weight)
    beta = fit.coef_[0] - fit.coef_[0].mean()
    expected = pd.Series(1000 + 400 * beta, index=models)
    res = pdcompare.bradley_terry(battles, random_state=0, n_resamples=20)
    np.testing.assert_allclose(res["rating"], expected[res.index], atol=1e-3)


def test_davidson_nu_and_ratings():
    res = pdcompare.bradley_terry(
        three_with_ties(), ties="davidson", n_resamples=50, random_state=0
    )
    assert res.attrs["pdcompare"]["nu"] > 0
    half = pdcompare.bradley_terry(three_with_ties(), n_resamples=50, random_state=0)
    assert list(res.index) == list(half.index)


def three_with_ties():
    frame = three()
    frame.attrs["pdcompare"] = {"kind": "battles", "ties": [[0, 2, 1], [2, 0, 3], [1, 3, 0]]}
    return frame


def test_anchor_pins_one_model():
    res = pdcompare.bradley_terry(three(), anchor=("B", 1200), n_resamples=100, random_state=0)
    assert res.loc["B", "rating"] == pytest.approx(1200)
    assert res.loc["A", "rating"] - res.loc["C", "rating"] == pytest.approx(144.898, abs=1e-3)
    assert res.loc["B", "ci_low"] == res.loc["B", "ci_high"] == pytest.approx(1200)


def test_an_exact_copy_gets_the_same_rating_and_rank_set(battles):
    wins = battles.to_numpy()
    ties = np.asarray(battles.attrs["pdcompare"]["ties"])
    m = len(wins)
    # copy: model m00's battles duplicated for a new model "copy" (against the same opponents)
    new_wins = np.zeros((m + 1, m + 1))
    new_ties = np.zeros((m + 1, m + 1))
    new_wins[:m, :m] = wins
    new_ties[:m, :m] = ties
    new_wins[m, 1:m], new_wins[1:m, m] = wins[0, 1:], wins[1:, 0]
    new_ties[m, 1:m] = new_ties[1:m, m] = ties[0, 1:]
    names = [*battles.index, "copy"]
    frame = pd.DataFrame(new_wins, index=names, columns=names)
    frame.attrs["pdcompare"] = {"kind": "battles", "ties": new_ties.tolist()}
    res = pdcompare.bradley_terry(frame, random_state=0, n_resamples=1000)
    one, two = res.loc["m00"], res.loc["copy"]
    assert one["rating"] == pytest.approx(two["rating"], abs=1e-8)
    assert (one["rank_low"], one["rank_high"]) == (two["rank_low"], two["rank_high"])
    width = one["ci_high"] - one["ci_low"]
    assert abs(one["ci_low"] - two["ci_low"]) < 0.15 * width
    assert abs(one["ci_high"] - two["ci_high"]) < 0.15 * width


def test_win_probability_formula_and_ordered_pairs():
    res = pdcompare.win_probability(three(), n_resamples=200, random_state=0)
    assert len(res) == 6
    assert list(res.columns) == ["model_1", "model_2", "prob", "ci_low", "ci_high"]
    ratings = pdcompare.bradley_terry(three(), n_resamples=10, random_state=0)["rating"]
    for row in res.itertuples():
        expected = 1 / (1 + 10 ** ((ratings[row.model_2] - ratings[row.model_1]) / 400))
        assert row.prob == pytest.approx(expected)
        assert row.ci_low <= row.prob <= row.ci_high
    square = res.cmp.matrix("prob")
    assert square.loc["A", "B"] == pytest.approx(1 - square.loc["B", "A"])


def test_pairwise_on_battles_is_the_fisher_information_z_test(battles):
    res = battles.cmp.pairwise(correction="bonferroni")
    assert list(res.columns) == [
        "model_1",
        "model_2",
        "rating_diff",
        "se",
        "statistic",
        "pvalue",
        "pvalue_adj",
        "reject",
    ]
    fit = bt.newton(
        battles.to_numpy(dtype=float)[None],
        np.asarray(battles.attrs["pdcompare"]["ties"], dtype=float)[None],
    )
    cov = bt.covariance(fit[1][0], len(battles)) * (400 / np.log(10)) ** 2
    names = list(battles.index)
    first = res.iloc[0]
    i, j = names.index(first["model_1"]), names.index(first["model_2"])
    se = np.sqrt(cov[i, i] + cov[j, j] - 2 * cov[i, j])
    assert first["se"] == pytest.approx(se)
    assert first["pvalue"] == pytest.approx(2 * stats.norm.sf(abs(first["rating_diff"] / se)))
    np.testing.assert_allclose(res["pvalue_adj"], np.minimum(res["pvalue"] * 15, 1))
    assert (res["rating_diff"] >= 0).all()
    with pytest.raises(ValueError, match="battles frame is compared by the z test"):
        battles.cmp.pairwise(test="wilcoxon")


@pytest.mark.parametrize(
    ("wins", "match"),
    [
        ([[0, 3, 2], [1, 0, 2], [0, 0, 0]], r"\{C\} only lost"),
        ([[0, 3, 2], [1, 0, 2], [1, 1, 0]], None),
        ([[0, 3, 1], [0, 0, 1], [0, 1, 0]], r"\{A\} only won against the others \(all 4 of its"),
    ],
)
def test_refuses_models_without_a_finite_rating(wins, match):
    names = list("ABC")
    frame = pd.DataFrame(wins, index=names, columns=names)
    if match is None:
        pdcompare.bradley_terry(frame, n_resamples=10, random_state=0)
        return
    with pytest.raises(ValueError, match=match):
        pdcompare.bradley_terry(frame, n_resamples=10, random_state=0)


def test_refuses_a_graph_in_pieces():
    names = list("ABCD")
    wins = [[0, 2, 0, 0], [1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 3, 0]]
    with pytest.raises(ValueError, match=r"2 pieces that never meet: \{A, B\}; \{C, D\}"):
        pdcompare.bradley_terry(pd.DataFrame(wins, index=names, columns=names))


def test_bad_options_are_named():
    with pytest.raises(ValueError, match="ties"):
        pdcompare.bradley_terry(three(), ties="draw")
    with pytest.raises(ValueError, match="no tie"):
        pdcompare.bradley_terry(three(), ties="davidson")
    with pytest.raises(ValueError, match="`scale` must be positive"):
        pdcompare.bradley_terry(three(), scale=0)
    with pytest.raises(ValueError, match="`base` must be positive and not 1"):
        pdcompare.bradley_terry(three(), base=1)
    with pytest.raises(ValueError, match="model 'Z' is not in the battles"):
        pdcompare.bradley_terry(three(), anchor=("Z", 1000))
    with pytest.raises(ValueError, match="n_resamples"):
        pdcompare.bradley_terry(three(), n_resamples=0)
    with pytest.raises(ValueError, match="square"):
        pdcompare.bradley_terry(three().iloc[:, :2])


def test_the_caller_frame_and_attrs_are_untouched(battles):
    before = battles.copy()
    attrs = {"pdcompare": {**battles.attrs["pdcompare"]}}
    pdcompare.bradley_terry(battles, n_resamples=20, random_state=0)
    pd.testing.assert_frame_equal(battles, before)
    assert battles.attrs == attrs


def test_a_sparse_model_is_left_out_of_rounds_not_given_minus_3800():
    names = list("ABC")
    frame = pd.DataFrame([[0, 20, 1], [15, 0, 0], [1, 0, 0]], index=names, columns=names)
    res = pdcompare.bradley_terry(frame, n_resamples=400, random_state=0)
    assert res.loc["C", "n_rounds"] < 400
    assert (res.loc[["A", "B"], "n_rounds"] == 400).all()
    assert res["ci_low"].min() > 0


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_rank_sets_hold_the_rank_and_intervals_hold_the_rating(seed):
    table = simulated_battles(np.linspace(0.5, -0.5, 4), 400, seed=seed)
    res = pdcompare.bradley_terry(
        pdcompare.from_battles(table), n_resamples=100, random_state=seed
    )
    assert (res["rank_low"] <= res["rank"]).all()
    assert (res["rank"] <= res["rank_high"]).all()
    assert (res["rank_low"] >= 1).all()
    assert (res["rank_high"] <= 4).all()
    assert (res["ci_low"] <= res["rating"] + 1e-9).all()
    assert (res["rating"] <= res["ci_high"] + 1e-9).all()
    assert res["rating"].mean() == pytest.approx(1000)


def test_a_battles_frame_is_refused_by_the_tests_of_scores(battles):
    with pytest.raises(ValueError, match=r"battles frame .* rate it with `bradley_terry"):
        battles.cmp.corrected_ttest()
    with pytest.raises(ValueError, match="battles frame"):
        battles.cmp.summary()


def test_ranks_on_a_battles_frame_are_bradley_terrys_rank_sets(battles):
    res = pdcompare.bradley_terry(battles, n_resamples=10, random_state=0)
    sets = battles.cmp.ranks(random_state=0)
    assert sets.attrs["pdcompare"]["covariance"] == "inverse Fisher information"
    np.testing.assert_allclose(sets["estimate"], res["rating"][sets.index])
    assert (sets["rank_low"] == res["rank_low"][sets.index]).all()
    assert (sets["rank_high"] == res["rank_high"][sets.index]).all()


def two_model_battles(wins, losses, ties):
    outcomes = ["model_a"] * wins + ["model_b"] * losses + ["tie"] * ties
    n = len(outcomes)
    return pdcompare.from_battles(
        pd.DataFrame({"model_a": ["A"] * n, "model_b": ["B"] * n, "winner": outcomes})
    )


def test_davidson_on_two_models_is_the_closed_form_with_a_finite_interval():
    res = pdcompare.bradley_terry(two_model_battles(6, 2, 2), ties="davidson", random_state=0)
    # π_A/π_B = wins/losses: R_A − R_B = 400 log10(6/2); ν = ties/√(wins·losses)
    assert res.loc["A", "rating"] - res.loc["B", "rating"] == pytest.approx(
        400 * np.log10(3), abs=1e-6
    )
    assert res.attrs["pdcompare"]["nu"] == pytest.approx(2 / np.sqrt(12), abs=1e-9)
    assert np.isfinite(res[["ci_low", "ci_high"]].to_numpy()).all()
    assert (res["ci_low"] < res["rating"]).all()
    assert (res["rating"] < res["ci_high"]).all()
    # rounds with wins and ties but no loss have no finite fit and are left out
    assert 800 < res["n_rounds"].iloc[0] < 1000


@pytest.mark.parametrize(
    ("wins", "losses", "ties", "match"),
    [(6, 0, 2, "A never lost and B never won"), (0, 0, 3, "every battle is a tie")],
)
def test_davidson_without_a_finite_fit_is_refused(wins, losses, ties, match):
    with pytest.raises(ValueError, match=match):
        pdcompare.bradley_terry(two_model_battles(wins, losses, ties), ties="davidson")


def unanimous_cycle():
    # A, B and C beat each other in a cycle, 5-0 each; D splits with A and B
    names = list("ABCD")
    return pd.DataFrame(
        [[0, 5, 0, 2], [0, 0, 5, 3], [5, 0, 0, 0], [3, 2, 0, 0]], index=names, columns=names
    )


def test_unanimous_pairs_get_the_fisher_information_interval():
    with pytest.warns(pdcompare.PdcompareWarning, match=r"Every pair of C is unanimous"):
        res = pdcompare.bradley_terry(unanimous_cycle(), random_state=0)
    assert res["interval"].to_dict() == {
        "A": "bootstrap", "B": "bootstrap", "C": "fisher", "D": "bootstrap"
    }  # fmt: skip
    # the observed information written out: a Laplacian of n p (1 − p) at the fitted ratings
    names = list("ABCD")
    n = unanimous_cycle().to_numpy(dtype=float)
    n = n + n.T
    theta = (res["rating"][names].to_numpy() - 1000) * np.log(10) / 400
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    weight = n * p * (1 - p)
    cov = np.linalg.pinv(np.diag(weight.sum(axis=1)) - weight)
    se = 400 / np.log(10) * np.sqrt(cov[2, 2])
    row = res.loc["C"]
    assert row["ci_high"] - row["ci_low"] > 50
    assert row["ci_low"] == pytest.approx(row["rating"] - stats.norm.ppf(0.975) * se)
    assert row["ci_high"] == pytest.approx(row["rating"] + stats.norm.ppf(0.975) * se)


def test_a_cycle_of_unanimous_pairs_is_all_fisher():
    wins = unanimous_cycle().iloc[:3, :3]
    with pytest.warns(pdcompare.PdcompareWarning, match=r"Every pair of A, B, C is"):
        res = pdcompare.bradley_terry(wins, random_state=0, ci=0.9)
    # equal strengths, n p (1 − p) = 5/4 per pair: var θ_i = (2/3) / (3 · 5/4)
    se = 400 / np.log(10) * np.sqrt((2 / 3) / (3 * 5 / 4))
    np.testing.assert_allclose(res["ci_high"] - 1000, stats.norm.ppf(0.95) * se)
    assert (res["interval"] == "fisher").all()

"""``report()`` at any size, on benchmark frames and on results (DESIGN §6, §9, §10)."""

import re

import pandas as pd
import pytest
from frames import ranked_models as many_models
from numpy.testing import assert_allclose

import pdcompare
from pdcompare.datasets import load_benchmark, load_grid_search_scores
from pdcompare.presentation.labels import join_names

PAIR = re.compile(r"^  (?P<a>.+?) vs (?P<b>.+?): (?:mean rank )?difference (?P<diff>[-+][\d.]+)")


def lists_after(text, head):
    """The "; "-separated names after ``head`` on its line, without the final period."""
    line = next(line for line in text.splitlines() if line.startswith(head))
    body = line[len(head) :]
    return body.rsplit(" is not significant", 1)[0].rstrip(".").split("; ")


@pytest.fixture(scope="module")
def sixty():
    return many_models(60).cmp.set_design(cv=10)


@pytest.fixture(scope="module")
def sixty_text(sixty):
    return sixty.cmp.report(rope=0.01)


def test_report_at_60_models_is_short_and_counts_the_rest(sixty, sixty_text):
    lines = sixty_text.splitlines()
    assert len(lines) <= 40
    longest_name = max(map(len, sixty.index))
    assert max(map(len, lines)) <= 10 * (longest_name + 12) + 120
    pairs = [m.groupdict() for m in map(PAIR.match, lines) if m]
    best = sixty.mean(axis=1).idxmax()
    # 9 frequentist and 9 Bayesian lines: the best against the next 9 models.
    assert len(pairs) == 18
    assert {p["a"] for p in pairs} == {best}
    next_nine = sixty.mean(axis=1).sort_values(ascending=False).index[1:10]
    assert [p["b"] for p in pairs[:9]] == list(next_nine)
    # Beyond 10 models the family is the best against each other model (DESIGN §14):
    # the correction runs over those 59 comparisons, and the counts come from them alone.
    assert "  (50 other pairs not listed; corrected_ttest() gives them all.)" in lines
    result = sixty.cmp.corrected_ttest()
    assert len(result) == 59
    against = result[~result["model_2"].isin(next_nine)]
    worse, tied = int(against["reject"].sum()), int((~against["reject"]).sum())
    assert (
        f"Of the other 50 models, {worse} are significantly worse than {best}; {tied} are not "
        "distinguishable from it." in sixty_text
    )


def test_report_names_with_commas_are_recoverable(sixty, sixty_text):
    means = sixty.mean(axis=1).sort_values(ascending=False)
    ranking = lists_after(sixty_text, "Mean scores, best first: ")
    assert ranking[-1] == "and 50 other models"
    # Names containing ", " are quoted in every list of names (issue 47, item 10).
    quoted = [f"'{name}'" for name in means.index[:10]]
    assert [item.rsplit(" ", 1)[0] for item in ranking[:-1]] == quoted
    assert_allclose(
        [float(item.rsplit(" ", 1)[1]) for item in ranking[:-1]], means[:10], atol=5e-5
    )
    undecided = lists_after(sixty_text, "Undecided: ")
    assert set(undecided) <= {f"'{name}'" for name in sixty.index}


def test_report_stays_a_few_dozen_lines_at_1000_models():
    frame = many_models(1000, k=20).cmp.set_design(cv=10)
    text = frame.cmp.report(rope=0.01)
    assert len(text.splitlines()) <= 40
    assert "(990 other pairs not listed" in text
    assert "holm correction over those 999 comparisons" in text


@pytest.mark.parametrize("top", [2, 5, 30])
def test_report_top_is_honoured(sixty, top):
    text = sixty.cmp.report(top=top)
    pairs = [m.groupdict() for m in map(PAIR.match, text.splitlines()) if m]
    assert len(pairs) == top - 1
    assert f"and {60 - top} other models." in text


def test_report_top_none_and_small_frames_list_every_pair():
    scores = load_grid_search_scores()
    text = scores.cmp.report(top=None)
    assert len([m for m in map(PAIR.match, text.splitlines()) if m]) == 6
    assert "not listed" not in text
    # At most `top` models: every pair among them.
    assert text == scores.cmp.report(top=4)
    with pytest.raises(ValueError, match="`top`"):
        scores.cmp.report(top=1)


def test_report_says_a_tie_for_best():
    frame = pd.DataFrame(
        [[0.8, 0.9, 0.85, 0.7], [0.9, 0.8, 0.7, 0.85], [0.5, 0.6, 0.55, 0.5]],
        index=["a, first", "b", "c"],
    )
    text = frame.cmp.report(cv=4)
    order = frame.cmp.summary(cv=4).index
    best = order[0]
    assert set(order[:2]) == {"a, first", "b"}
    tied = join_names(order[:2], sentence=True)
    assert f"Tie for best: {tied} share the best mean score 0.8125; {best} stands" in text
    assert f"Best model: {best}, mean score 0.8125" in text


def test_report_states_direction_design_test_once(sixty_text):
    assert sixty_text.count("higher scores are better") == 1
    assert sixty_text.count("CV design: cv=10") == 1
    assert sixty_text.count("holm correction over those 59 comparisons, alpha = 0.05") == 1


def test_report_on_a_result_frame_is_refused_or_explains_a_selection():
    scores = load_grid_search_scores()
    with pytest.raises(ValueError, match=r"result frame of 'corrected_ttest'.*scores"):
        scores.cmp.corrected_ttest().cmp.report()
    choice = scores.cmp.select("one_se", by=["linear", "2_poly", "3_poly", "rbf"])
    text = choice.cmp.report()
    assert choice.attrs["pdcompare"]["reason"] in text
    assert "Rule: one_se; best mean: rbf; selected: linear." in text


def test_report_on_a_benchmark_frame_speaks_of_data_sets():
    bench = load_benchmark()
    text = bench.cmp.report()
    summary = bench.cmp.summary()
    friedman = bench.cmp.friedman().iloc[0]
    assert "Data: 7 models x 22 data sets; higher scores are better." in text
    assert f"Best model: {summary.index[0]}, mean rank {summary['mean_rank'].iloc[0]:.2f}" in text
    assert f"chi-square = {friedman['statistic']:.3f} (df = 6)" in text
    assert "Wilcoxon signed-rank test across data sets (two-sided)" in text
    result = bench.cmp.pairwise()
    pairs = [m.groupdict() for m in map(PAIR.match, text.splitlines()) if m]
    assert [(p["a"], p["b"]) for p in pairs] == list(
        zip(result["model_1"], result["model_2"], strict=True)
    )
    assert_allclose([float(p["diff"]) for p in pairs], result["mean_diff"], atol=5e-5)
    better = result.loc[(result["model_1"] == summary.index[0]) & result["reject"], "model_2"]
    listed = join_names(better, sentence=True)
    assert f"is significantly better than {listed} after correction" in text


def test_report_nemenyi_says_family_wise_and_the_cd():
    bench = load_benchmark()
    text = bench.cmp.report(test="nemenyi")
    result = bench.cmp.pairwise(test="nemenyi")
    cd = result.attrs["pdcompare"]["cd"]
    assert f"critical difference of mean ranks {cd:.3f}" in text
    first = result.iloc[0]
    assert (
        f"  {first['model_1']} vs {first['model_2']}: mean rank difference "
        f"{first['rank_diff']:+.2f}, q = {first['statistic']:.3f}, p" in text
    )
    with pytest.raises(ValueError, match="`alternative` must be 'two-sided'"):
        bench.cmp.report(test="nemenyi", alternative="better")
    with pytest.raises(ValueError, match="`test` must be one of"):
        bench.cmp.report(test="corrected_ttest")


def test_report_does_not_touch_the_frame(sixty):
    before = sixty.copy()
    attrs = {"pdcompare": dict(sixty.attrs["pdcompare"])}
    sixty.cmp.report(top=3)
    pd.testing.assert_frame_equal(sixty, before)
    assert sixty.attrs == attrs
    assert pdcompare.report is not None


def test_report_on_a_benchmark_adds_the_bayesian_and_pooled_views():
    import warnings

    bench = load_benchmark()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = bench.cmp.report(rope=0.01, pooled=True)
        bayes = bench.cmp.bayes(pdcompare.inputs.scores.ALL_PAIRS, rope=0.01)
        pooled = bench.cmp.random_effects(pdcompare.inputs.scores.ALL_PAIRS)
    assert "Bayesian signed-rank test across data sets (Benavoli et al. 2014)" in text
    row = pooled.iloc[1]
    assert (
        f"  {row['model_1']} vs {row['model_2']}: pooled difference {row['mean_diff']:+.4f}, "
        f"95% CI {row['ci_low']:.4f} to {row['ci_high']:.4f}" in text
    )
    assert f"on a new data set {row['pi_low']:.4f} to {row['pi_high']:.4f}." in text
    lda = bayes[(bayes["model_1"] == "lda") & (bayes["model_2"] == "logistic")].iloc[0]
    assert lda["decision"] == "equivalent"
    assert "lda vs logistic: difference" in text
    with pytest.raises(ValueError, match="`pooled=True` pools over data sets"):
        load_grid_search_scores().cmp.report(pooled=True)


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["rbf"], "rbf"),
        (["rbf", "linear"], "rbf and linear"),
        (["rbf", "linear", "tree"], "rbf, linear and tree"),
        (["a, x", "b", "c"], "'a, x', b and c"),
        (["svc(C=1, gamma=0.1)", "tree"], "'svc(C=1, gamma=0.1)' and tree"),
    ],
)
def test_names_in_a_sentence_end_with_and_and_stay_separable(names, expected):
    assert join_names(names, sentence=True) == expected
    assert join_names(names) == "; ".join(f"'{n}'" if ", " in n else n for n in names)
    # The names come back by splitting on ", " and " and " outside the quotes of the names
    # that contain ", ".
    quoted = re.findall(r"'([^']*)'", expected)
    parts = re.split(", | and ", re.sub(r"'[^']*'", "\0", expected))
    assert [quoted.pop(0) if part == "\0" else part for part in parts] == names


def test_conclusion_reads_as_a_sentence():
    text = load_grid_search_scores().cmp.report(cv=10)
    assert "Its lead over linear and 3_poly is not significant after correction" in text
    frame = pd.DataFrame(
        [[0.95, 0.96, 0.94, 0.95], [0.7, 0.72, 0.69, 0.71], [0.5, 0.51, 0.47, 0.53]],
        index=["best", "mid, tuned", "low"],
    )
    assert (
        "Conclusion: best is significantly better than every other model ('mid, tuned' and low)"
        in frame.cmp.report(cv=4, correction="none")
    )

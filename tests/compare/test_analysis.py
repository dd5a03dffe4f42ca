"""compare/analysis.py: which comparisons a report rests on, run once on a frame validated once.

References: the public functions themselves (the analysis must hold exactly
their result frames), and DESIGN section 14 for the family.
"""

import pytest
from frames import ranked_models
from pandas.testing import assert_frame_equal

import pdcompare
from pdcompare.compare import analysis
from pdcompare.datasets import load_benchmark, load_grid_search_scores
from pdcompare.inputs import data


def count_reads(monkeypatch):
    calls = []
    read = data._read

    def counted(frame, **keywords):
        calls.append(id(frame))
        return read(frame, **keywords)

    monkeypatch.setattr(data, "_read", counted)
    return calls


def test_a_report_validates_its_frame_once(monkeypatch):
    scores = load_grid_search_scores()
    calls = count_reads(monkeypatch)
    scores.cmp.report(rope=0.01)
    # summary, the pairwise test and bayes: one validation between them.
    assert calls == [id(scores)]


@pytest.mark.filterwarnings("ignore:The fold differences are the same:UserWarning")
def test_a_benchmark_report_validates_its_frame_once(monkeypatch):
    bench = load_benchmark()
    calls = count_reads(monkeypatch)
    bench.cmp.report(rope=0.01, pooled=True)
    assert calls == [id(bench)]


def test_outside_an_analysis_each_call_validates_afresh(monkeypatch):
    scores = load_grid_search_scores()
    calls = count_reads(monkeypatch)
    scores.cmp.summary()
    scores.cmp.corrected_ttest()
    assert len(calls) == 2


def test_the_analysis_holds_the_public_results():
    scores = load_grid_search_scores()
    found = analysis.analyse(scores, rope=0.01, alpha=0.1)
    assert_frame_equal(found.summary, pdcompare.summary(scores))
    assert_frame_equal(found.significance, scores.cmp.pairwise(alpha=0.1))
    assert_frame_equal(found.bayes, pdcompare.pairwise(scores, "bayes", rope=0.01, alpha=0.1))


def many(m, seed=0):
    return ranked_models(m, k=20, seed=seed).cmp.set_design(cv=10)


@pytest.mark.parametrize(("m", "family", "rows"), [(10, "all_pairs", 45), (11, "vs_best", 10)])
def test_the_family_is_every_pair_up_to_ten_models_then_best_against_the_rest(m, family, rows):
    frame = many(m)
    found = analysis.analyse(frame, rope=0.01)
    assert found.family == family
    assert len(found.significance) == rows
    assert len(found.bayes) == rows
    if family == "vs_best":
        # The correction runs over those m - 1 rows alone: the result of corrected_ttest().
        assert_frame_equal(found.significance, frame.cmp.corrected_ttest())
        assert (found.significance["model_1"] == found.best).all()


def test_rank_tests_keep_every_pair():
    bench = load_benchmark()
    found = analysis.analyse(bench, test="nemenyi")
    n = len(found.summary)
    assert len(found.significance) == n * (n - 1) // 2


def test_reports_are_the_same_text_on_every_run():
    bench = load_benchmark()
    assert bench.cmp.report(rope=0.01) == bench.cmp.report(rope=0.01)
    other = bench.cmp.report(rope=0.01, random_state=1)
    assert other.splitlines()[:20] == bench.cmp.report(rope=0.01).splitlines()[:20]


def test_the_vs_best_report_says_its_family_and_that_the_best_is_optimistic():
    text = many(30).cmp.report(rope=0.01)
    best = many(30).mean(axis=1).idxmax()
    assert f"{best} against each of the other 29 models, holm correction over those 29" in text
    assert "so the probabilities in its favour are optimistic" in text

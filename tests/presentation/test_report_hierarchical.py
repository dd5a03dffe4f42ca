"""``report(hierarchical=True)`` and ``--hierarchical``: the Bayesian words of ``hierarchical``.

References: ``hierarchical`` of the same family and seed (itself checked
against baycomp with Stan in tests/compare), whose numbers the paragraph
must print; the signed-rank paragraph it replaces.
"""

import warnings

import pytest

import pdcompare
from pdcompare.cli import main
from pdcompare.compare.analysis import analyse
from pdcompare.datasets import load_benchmark


@pytest.fixture(scope="module")
def bench():
    return load_benchmark().loc[["svc_rbf", "forest", "knn"]]


@pytest.fixture(scope="module")
def text(bench):
    return bench.cmp.report(rope=0.01, hierarchical=True)


def _paragraph(text):
    return text.split("Practical equivalence: ")[1].split("\n\n")[0]


@pytest.mark.slow
def test_the_paragraph_is_the_hierarchical_test_of_every_pair(bench, text):
    paragraph = _paragraph(text)
    assert paragraph.startswith(
        "hierarchical Bayesian correlated t-test across data sets (Corani et al. 2017), which "
        "keeps every data set's folds"
    )
    assert "10000 posterior draws in 4 chains" in paragraph
    assert "Bayesian signed-rank" not in text
    expected = bench.cmp.pairwise(test="hierarchical", rope=0.01, random_state=0)
    assert "The chains agree on every pair (R-hat of δ0 at most " in paragraph
    assert f"at most {expected['rhat'].max():.3f})" in paragraph
    for row in expected.itertuples():
        a, b = row.model_1, row.model_2
        assert (
            f"  {a} vs {b}: difference {row.mean_diff:+.4f}, P({a} better) = "
            f"{row.prob_better:.3f}, P(equivalent) = {row.prob_rope:.3f}, P({b} better) = "
            f"{row.prob_worse:.3f}"
        ) in paragraph
    assert bench.cmp.report(rope=0.01, hierarchical=True) == text  # seeded: the same text


def test_the_same_report_without_it_is_the_signed_rank_test(bench, text):
    plain = bench.cmp.report(rope=0.01)
    assert _paragraph(plain).startswith("Bayesian signed-rank test across data sets")
    # everything above the Bayesian paragraph is the same report
    assert plain.split("Practical equivalence:")[0] == text.split("Practical equivalence:")[0]


def test_unconverged_pairs_are_named(bench):
    from pdcompare.presentation.report.bayes import convergence_words as _convergence_words

    with warnings.catch_warnings():  # short chains: R-hat above 1.01, warned
        warnings.simplefilter("ignore")
        result = bench.cmp.pairwise(test="hierarchical", rope=0.01, n_samples=400, random_state=0)
    result["rhat"] = [1.004, 1.2, 1.0]
    assert _convergence_words(result) == (
        " The chains disagree (R-hat of δ0 above 1.01) on svc_rbf vs knn: read those "
        "probabilities as rough (more posterior draws settle them)."
    )
    result["rhat"] = [1.004, 1.001, 1.0]
    assert _convergence_words(result) == (
        " The chains agree on every pair (R-hat of δ0 at most 1.004)."
    )


def test_frames_and_options_it_refuses(bench):
    with pytest.raises(
        ValueError, match=r"`hierarchical=True` gives the report's Bayesian.*`rope`"
    ):
        bench.cmp.report(hierarchical=True)
    with pytest.raises(ValueError, match=r"`hierarchical=True` compares models across data sets"):
        pdcompare.datasets.load_grid_search_scores().cmp.report(rope=0.01, hierarchical=True)
    with pytest.raises(ValueError, match=r"`hierarchical=True`: `hierarchical` models the folds"):
        bench.cmp.means().cmp.report(rope=0.01, hierarchical=True)
    bare = bench.copy()
    bare.attrs = {}
    with pytest.raises(ValueError, match=r"`hierarchical=True`: .*needs the cross-validation"):
        bare.cmp.report(rope=0.01, hierarchical=True)


@pytest.mark.slow
def test_the_html_page_draws_the_shrinkage_or_the_triangle(bench):
    page = bench.cmp.report(rope=0.01, hierarchical=True, format="html")
    assert "Hierarchical Bayesian comparison" in page
    assert "Hierarchical test: each data set&#x27;s difference shrunk, svc_rbf vs forest" in page
    two = bench.loc[["svc_rbf", "knn"]]
    found = analyse(two, rope=0.01, hierarchical=True)
    assert len(found.bayes) == 1
    page = two.cmp.report(rope=0.01, hierarchical=True, format="html")
    assert "<figcaption>Hierarchical test: svc_rbf vs knn</figcaption>" in page


@pytest.mark.slow
def test_the_command_line_flag(capsys, tmp_path, bench):
    long = bench.stack(["dataset", "split"], future_stack=True).rename("auc").reset_index()
    path = tmp_path / "results.csv"
    long.to_csv(path, index=False)
    argv = [str(path), "--long", "--split-col", "split", "--score-col", "auc", "--cv", "10"]
    argv += ["--rope", "0.01"]
    assert main([*argv, "--hierarchical"]) == 0
    out = capsys.readouterr().out
    expected = bench.cmp.report(rope=0.01, hierarchical=True)
    assert _paragraph(expected) in out
    assert main([*argv[:-2], "--hierarchical"]) == 2
    err = capsys.readouterr().err
    assert "--hierarchical gives the report's Bayesian verdicts: pass --rope too" in err
    from pdcompare.cli import build_parser

    assert "--hierarchical" in build_parser().format_help()

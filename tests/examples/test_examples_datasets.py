"""Runs examples/several_datasets.py headless and checks its numbers against scipy and Demšar."""

from __future__ import annotations

import numpy as np
import pytest
from _examples import run_example
from numpy.testing import assert_allclose
from scipy import stats


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return run_example("several_datasets", tmp_path_factory.mktemp("figures"))


def test_friedman_and_ranks_match_scipy(run):
    out, _ = run
    means = out["bench"].cmp.means()
    chi2, p = stats.friedmanchisquare(*means.to_numpy())
    assert_allclose(out["friedman"].loc[0, ["statistic", "pvalue"]], [chi2, p], rtol=1e-10)
    ranks = stats.rankdata(-means.to_numpy(), axis=0).mean(axis=1)
    assert_allclose(
        out["summary"]["mean_rank"],
        ranks[[list(means.index).index(m) for m in out["summary"].index]],
    )


def test_wilcoxon_pairs_match_scipy(run):
    out, _ = run
    means = out["bench"].cmp.means()
    for row in out["wilcoxon"].itertuples():
        d = means.loc[row.model_1] - means.loc[row.model_2]
        expected = stats.wilcoxon(d)
        assert row.statistic == pytest.approx(expected.statistic)
        assert row.pvalue == pytest.approx(expected.pvalue, rel=1e-6)


def test_nemenyi_cd_is_demsar_table(run):
    out, printed = run
    # Demšar (2006), Table 5(a): q_0.05 for k = 7 is 2.949.
    k, n = 7, 22
    cd = 2.949 * np.sqrt(k * (k + 1) / (6 * n))
    assert out["nemenyi"].attrs["pdcompare"]["cd"] == pytest.approx(cd, abs=5e-4)
    shown = out["nemenyi"].attrs["pdcompare"]["cd"]
    assert f"Nemenyi critical difference of mean ranks: {shown:.3f}" in printed
    assert out["report"] in printed
    assert out["figure"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_bayesian_and_pooled_views(run):
    from baycomp import SignedRankTest
    from statsmodels.stats.meta_analysis import combine_effects

    out, printed = run
    means = out["bench"].cmp.means()
    row = out["bayes"].iloc[0]
    ref = SignedRankTest.probs(
        means.loc[row.model_1].to_numpy(),
        means.loc[row.model_2].to_numpy(),
        rope=0.01,
        nsamples=50000,
        random_state=0,
    )
    assert_allclose([row.prob_better, row.prob_rope, row.prob_worse], ref, atol=0.012)
    bench = out["bench"]
    diff = bench.loc["svc_rbf"] - bench.loc["knn"]
    by_set = diff.groupby(level="dataset", sort=False)
    ratio = bench.attrs["pdcompare"]["design"]["test_train_ratio"]
    variance = (by_set.var() * (1 / by_set.count() + ratio)).to_numpy()
    ref = combine_effects(by_set.mean().to_numpy(), variance, method_re="chi2", use_t=False)
    assert out["pooled"].loc[0, "mean_diff"] == pytest.approx(ref.mean_effect_re, rel=1e-9)
    assert out["simplex"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Pooled over data sets" in printed

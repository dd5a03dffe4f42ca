"""Benchmarks with holes: friedman(nan_policy=...), ranks/top_set, the CD diagram, the report.

References: the Skillings–Mack and Durbin statistics written out in
tests/references.py (and their published examples in tests/stats/test_holes_core.py),
scipy's Friedman on complete data, pandas' pairwise-complete covariance for the
rank sets' Σ̂.
"""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot
import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from references import slow_durbin, slow_skillings_mack
from scipy import stats

import pdcompare
from pdcompare._validation import OptionError, PdcompareWarning
from pdcompare.compare.rank_sets import HOLES_COVARIANCE, estimates_of
from pdcompare.compare.registry import BY_NAME
from pdcompare.stats.rank_sets import rank_confidence_sets

matplotlib.use("Agg")


def _bench(seed=0, m=6, n=20, fill=0.7, spread=0.1):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(m, n)) * 0.05 + np.linspace(0.8, 0.6, m)[:, None]
    x = x + rng.normal(size=n) * spread
    x[rng.random((m, n)) > fill] = np.nan
    return pd.DataFrame(
        x,
        index=[f"m{i}" for i in range(m)],
        columns=pd.Index([f"d{i}" for i in range(n)], name="dataset"),
    )


def test_registry_declares_the_hole_policies():
    assert BY_NAME["friedman"].nan_policies == (
        "propagate", "omit", "raise", "skillings_mack", "durbin",
    )  # fmt: skip
    assert "skillings_mack" not in BY_NAME["nemenyi"].nan_policies
    with pytest.raises(OptionError, match="`nan_policy` must be one of 'propagate'"):
        pdcompare.pairwise(_bench(), "nemenyi", nan_policy="skillings_mack")


def test_default_is_unchanged_nan_with_a_warning():
    with pytest.warns(PdcompareWarning, match="have no score for some model.*skillings_mack"):
        out = pdcompare.friedman(_bench())
    assert np.isnan(out["statistic"].iloc[0])


def test_skillings_mack_on_a_benchmark_equals_the_written_out_reference():
    bench = _bench(1)
    out = bench.cmp.friedman(nan_policy="skillings_mack")
    t, p = slow_skillings_mack(bench.to_numpy())
    assert_allclose(out[["statistic", "pvalue"]].iloc[0], [t, p], rtol=1e-10)
    assert out["df"].iloc[0] == 5
    assert out[["f_statistic", "f_pvalue"]].isna().all(axis=None)
    meta = out.attrs["pdcompare"]
    holes = int(bench.isna().sum().sum())
    assert (meta["method"], meta["n_missing"], meta["n_cells"]) == ("Skillings–Mack", holes, 120)
    assert meta["nan_policy"] == "skillings_mack"


def test_skillings_mack_on_complete_data_is_friedman_exactly():
    bench = _bench(2, fill=1.1)
    expected = stats.friedmanchisquare(*bench.to_numpy())
    sm = pdcompare.friedman(bench, nan_policy="skillings_mack")
    plain = pdcompare.friedman(bench)
    assert_allclose(sm["statistic"].iloc[0], expected.statistic, rtol=1e-12)
    assert_allclose(sm["statistic"].iloc[0], plain["statistic"].iloc[0], rtol=1e-12)
    assert sm.attrs["pdcompare"]["n_missing"] == 0


def test_durbin_on_a_balanced_design_and_its_refusal():
    blocks = [(0, 1, 3), (1, 2, 4), (2, 3, 5), (3, 4, 6), (0, 4, 5), (1, 5, 6), (0, 2, 6)]
    rng = np.random.default_rng(4)
    x = np.full((7, 7), np.nan)
    for b, models in enumerate(blocks):
        x[list(models), b] = rng.normal(size=3)
    bench = pd.DataFrame(x, index=list("abcdefg"), columns=pd.Index(range(7), name="dataset"))
    out = bench.cmp.friedman(nan_policy="durbin")
    t1, p1, t2, p2 = slow_durbin(x)
    assert_allclose(
        out[["statistic", "pvalue", "f_statistic", "f_pvalue"]].iloc[0], [t1, p1, t2, p2],
        rtol=1e-12,
    )  # fmt: skip
    assert out.attrs["pdcompare"]["method"] == "Durbin"
    with pytest.raises(OptionError, match=r"balanced incomplete block design.*skillings_mack"):
        _bench(3).cmp.friedman(nan_policy="durbin")


def test_a_model_on_one_data_set_is_refused_by_name():
    bench = _bench(5)
    bench.loc["m2"] = np.nan
    bench.loc["m2", "d0"] = 0.7
    fix = r"\['m2'\].*fewer than 2.*drop them"
    with pytest.raises(ValueError, match=fix):
        bench.cmp.friedman(nan_policy="skillings_mack")
    with pytest.raises(ValueError, match=fix):
        bench.cmp.ranks(random_state=0)
    with pytest.raises(ValueError, match=fix):
        bench.cmp.top_set(random_state=0)


def test_models_that_never_meet_are_refused_by_name():
    bench = _bench(6, m=4, n=8, fill=1.1)
    bench.iloc[:2, 4:] = np.nan
    bench.iloc[2:, :4] = np.nan
    with pytest.raises(ValueError, match=r"\['m2', 'm3'\] share no data set"):
        bench.cmp.friedman(nan_policy="skillings_mack")
    # Rank sets need no connected design (means of models that never meet are independent)
    assert len(bench.cmp.ranks(random_state=0)) == 4
    alone = _bench(6, m=4, n=8, fill=1.1)
    alone.iloc[:3, 6:] = np.nan
    alone.iloc[3, :6] = np.nan
    with pytest.raises(ValueError, match=r"\['m3'\] share no data set with any other model"):
        alone.cmp.ranks(random_state=0)


def test_ranks_with_holes_use_each_models_data_sets():
    bench = _bench(7)
    x = bench.to_numpy()
    found = estimates_of(bench)
    assert_allclose(found.estimate, np.nanmean(x, axis=1), rtol=1e-14)
    pairwise = pd.DataFrame(x.T).cov(min_periods=2).to_numpy()  # pairwise-complete
    present = ~np.isnan(x)
    n_jk = present.astype(int) @ present.T.astype(int)
    n_j = present.sum(axis=1)
    expected = n_jk * pairwise / np.outer(n_j, n_j)
    assert np.linalg.eigvalsh(expected)[0] > 0  # no projection needed in this draw
    assert_allclose(found.covariance, expected, rtol=1e-10)
    assert found.df == np.median(n_j) - 1
    result = bench.cmp.ranks(random_state=0)
    _rank, low, high = rank_confidence_sets(
        np.nanmean(x, axis=1), expected, random_state=0, df=float(np.median(n_j) - 1)
    )
    order = np.argsort(-np.nanmean(x, axis=1), kind="stable")
    assert_array_equal(result["rank_low"], low[order])
    assert_array_equal(result["rank_high"], high[order])
    meta = result.attrs["pdcompare"]
    assert meta["covariance"] == HOLES_COVARIANCE
    assert meta["n_missing"] == int((~present).sum())
    assert meta["n_datasets"] == 20
    top = bench.cmp.top_set(random_state=0)
    assert top == result.index[result["rank_low"] == 1].tolist()


def test_ranks_on_complete_data_unchanged():
    bench = _bench(8, fill=1.1)
    found = estimates_of(bench)
    assert_allclose(found.covariance, np.cov(bench.to_numpy()) / 20)
    meta = bench.cmp.ranks(random_state=0).attrs["pdcompare"]
    assert meta["covariance"] == "across data sets"
    assert "n_missing" not in meta


def test_cd_diagram_refuses_holes_naming_both():
    bench = _bench(9)
    both = r"friedman\(nan_policy='skillings_mack'\).*ranks\(\)"
    with pytest.raises(ValueError, match=both):
        bench.cmp.plot("cd")
    with pytest.warns(PdcompareWarning):
        result = pdcompare.pairwise(bench, "nemenyi", nan_policy="omit")
    assert result.attrs["pdcompare"]["n_missing"] == int(bench.isna().sum().sum())
    with pytest.raises(ValueError, match=both):
        result.cmp.plot()


def test_report_says_the_cells_missing_and_the_test():
    bench = _bench(10)
    holes = int(bench.isna().sum().sum())
    with pytest.warns(PdcompareWarning):
        text = bench.cmp.report()
    assert f"{holes} cells (model x data set) are missing" in text
    line = next(s for s in text.splitlines() if s.startswith("Skillings–Mack test"))
    expected = pdcompare.friedman(bench, nan_policy="skillings_mack")
    assert f"{holes} of 120 cells" in line
    assert f"chi-square = {expected['statistic'].iloc[0]:.3f}" in line


def test_a_saved_result_keeps_what_it_says(tmp_path):
    out = _bench(11).cmp.friedman(nan_policy="skillings_mack")
    path = tmp_path / "sm.parquet"
    out.to_parquet(path)
    back = pd.read_parquet(path)
    assert back.attrs["pdcompare"]["method"] == "Skillings–Mack"
    assert back.attrs["pdcompare"]["n_missing"] == out.attrs["pdcompare"]["n_missing"]


def test_rank_sets_plot_names_the_holes():
    bench = _bench(12)
    holes = int(bench.isna().sum().sum())
    ax = bench.cmp.ranks(random_state=0).cmp.plot()
    assert ax.get_title().endswith(f"may be the best ({holes} cells missing)")
    matplotlib.pyplot.close("all")

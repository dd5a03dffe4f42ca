"""The example scripts run (headless) and reproduce their reference numbers."""

import numpy as np
import pytest
from _examples import load_example as load
from numpy.testing import assert_allclose
from scipy import stats


@pytest.mark.slow
def test_grid_search_stats(tmp_path, capsys):
    out = load("grid_search_stats").main(tmp_path)
    printed = capsys.readouterr().out
    assert "Figures written to" in printed
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(p.name for p in out["figures"])
    assert {"folds.png", "corr.png", "posterior.png", "pvalues.png", "intervals.png"} <= set(names)
    for path in out["figures"]:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # DESIGN.md §8 reference values of the scikit-learn gallery example.
    assert_allclose(out["summary"]["mean"], [0.9400, 0.9300, 0.9044, 0.6852], atol=5e-5)
    assert_allclose(
        out["corr"].loc["rbf", ["linear", "3_poly", "2_poly"]],
        [0.882561, 0.783392, 0.351390],
        atol=1e-6,
    )
    assert_allclose(out["corrected"][["statistic", "pvalue"]].iloc[0], [0.750, 0.227], atol=5e-4)
    assert_allclose(out["uncorrected"][["statistic", "pvalue"]].iloc[0], [2.611, 0.005], atol=5e-4)
    assert_allclose(
        out["bayes"][["prob_better", "prob_rope", "prob_worse"]].iloc[0],
        [0.500, 0.432, 0.068],
        atol=5e-4,
    )
    assert_allclose(out["prob_rbf_better_no_rope"], 0.773, atol=5e-4)
    assert_allclose(
        out["credible_intervals"].to_numpy(),
        [[0.000977, 0.019023], [-0.005422, 0.025422], [-0.016445, 0.036445]],
        atol=5e-6,
    )
    assert_allclose(
        out["pairwise"]["statistic"], [0.750, 1.657, 4.565, 1.111, 4.276, 3.851], atol=5e-4
    )
    assert_allclose(out["pairwise"]["pvalue_adj"], [1.0, 0.302, 0.0, 0.807, 0.0, 0.001], atol=5e-4)
    assert_allclose(
        out["pairwise_bayes"]["prob_better"], [0.500, 0.882, 1, 0.750, 1, 1], atol=1.5e-3
    )
    assert "Best model: rbf" in out["report"]


@pytest.mark.slow
def test_textbook_tables(capsys):
    tables = load("textbook_tables").main()
    printed = capsys.readouterr().out
    for name in ("t-statistic", "p-value", "advantage", "significance", "significantly better"):
        assert f"{name} (row model vs column model):" in printed
        assert tables[name].shape == (3, 3)
    scores = tables["scores"]
    assert scores.shape == (3, 100)
    # Independent Nadeau–Bengio corrected t for every ordered pair, written out:
    # t = mean(d) / sqrt(var(d) (1/n + n_test/n_train)), n_test/n_train from the real splits.
    design = scores.attrs["pdcompare"]["design"]
    ratio = design["test_train_ratio"]
    values = scores.to_numpy()
    names = list(scores.index)
    order = [names.index(m) for m in tables["t-statistic"].index]
    d = values[order][:, None, :] - values[order][None, :, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        t = d.mean(axis=2) / np.sqrt(d.var(axis=2, ddof=1) * (1 / 100 + ratio))
    off = ~np.eye(3, dtype=bool)
    assert_allclose(tables["t-statistic"].to_numpy()[off], t[off], rtol=1e-10)
    assert_allclose(
        tables["p-value"].to_numpy()[off], 2 * stats.t.sf(np.abs(t[off]), 99), rtol=1e-8
    )
    assert_allclose(tables["advantage"].to_numpy()[off], d.mean(axis=2)[off], rtol=1e-10)
    better = tables["significantly better"].to_numpy(dtype=bool)
    expected = (2 * stats.t.sf(np.abs(t), 99) <= 0.05) & (d.mean(axis=2) > 0) & off
    assert (better == expected).all()

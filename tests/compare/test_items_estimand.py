"""Every items test on a pass@k / pass^k frame (DESIGN section 33): the estimand across items.

A pass@k frame's cells are the per-item estimates, so each test must give on
it exactly what it gives on a wide frame of the same estimates (written out
with scipy.special.comb) with the same clusters; and the paired t must be the
clustered t of section 21 written out on those estimates.
"""

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose
from scipy import stats
from scipy.special import comb

import pdcompare


def attempts_table(n_models=3, n_items=40, attempts=6, seed=1):
    rng = np.random.default_rng(seed)
    p = rng.beta(0.8, 0.8, n_items)
    rows = []
    for m in range(n_models):
        for i in range(n_items):
            success = rng.random(attempts) < np.clip(p[i] - 0.08 * m, 0, 1)
            rows += [
                (f"a{m}", f"t{i:02d}", e, int(s), f"r{i // 4}") for e, s in enumerate(success)
            ]
    return pd.DataFrame(rows, columns=["agent", "task", "attempt", "score", "repo"])


TABLE = attempts_table()
KEYS = {"model": "agent", "item": "task", "sample": "attempt", "cluster": "repo"}


def estimand_frame(estimand="pass@k", k=3):
    return pdcompare.from_items(TABLE, **KEYS, estimand=estimand, k=k)


def written_out_frame(estimand="pass@k", k=3):
    """The per-item estimates from comb(), as a plain wide items frame with the same clusters."""
    cells = TABLE.groupby(["agent", "task"])["score"].agg(["sum", "count"])
    n, c = cells["count"].to_numpy(), cells["sum"].to_numpy()
    value = 1 - comb(n - c, k) / comb(n, k) if estimand == "pass@k" else comb(c, k) / comb(n, k)
    wide = pd.Series(value, index=cells.index).unstack("task")  # noqa: PD010
    repos = TABLE.drop_duplicates("task").set_index("task")["repo"]
    return wide.cmp.set_design(items=True, cluster=repos.to_dict())


def numbers(result):
    return result.select_dtypes("number").to_numpy(dtype=float)


@pytest.mark.parametrize("estimand", ["pass@k", "pass^k"])
def test_paired_t_is_the_clustered_t_written_out(estimand):
    frame = estimand_frame(estimand)
    out = frame.cmp.ttest("a0", "a2", correction=None)
    reference = written_out_frame(estimand)
    d = (reference.loc["a0"] - reference.loc["a2"]).to_numpy()
    repo = TABLE.drop_duplicates("task").set_index("task")["repo"].loc[reference.columns]
    # CR1 (section 21; inspect_ai's stderr(cluster=)): sqrt(C/(C-1) sum_c (sum_i (d_i - dbar))^2)/n
    sums = pd.Series(d - d.mean()).groupby(repo.to_numpy()).sum().to_numpy()
    n, clusters = len(d), len(sums)
    se = np.sqrt(clusters / (clusters - 1) * (sums**2).sum()) / n
    t = d.mean() / se
    assert_allclose(out["mean_diff"], [d.mean()], rtol=1e-12)
    assert_allclose(out["se"], [se], rtol=1e-12)
    assert_allclose(out["statistic"], [t], rtol=1e-12)
    assert_allclose(out["pvalue"], [2 * stats.t.sf(abs(t), clusters - 1)], rtol=1e-10)
    assert int(out["df"].iloc[0]) == clusters - 1 == 9


CALLS = {
    "ttest": lambda f: f.cmp.ttest(),
    "wilcoxon": lambda f: f.cmp.wilcoxon(),
    "sign_test": lambda f: f.cmp.sign_test(),
    "permutation_test": lambda f: f.cmp.permutation_test(n_resamples=999, random_state=0),
    "bootstrap_diff": lambda f: f.cmp.bootstrap_diff(n_resamples=300, random_state=0),
    "equivalence": lambda f: f.cmp.equivalence(rope=0.05),
    "power": lambda f: f.cmp.power(delta=0.1),
    "summary": lambda f: f.cmp.summary(),
    "ranks": lambda f: f.cmp.ranks(random_state=0),
    "gate": lambda f: pdcompare.gate(f, "a1", "a0", margin=0.05),
}


def test_top_set_is_the_same_on_the_written_out_estimates():
    top = estimand_frame().cmp.top_set(random_state=0)
    assert top == written_out_frame().cmp.top_set(random_state=0)


@pytest.mark.parametrize("name", list(CALLS))
def test_every_items_test_compares_the_estimand(name):
    got = CALLS[name](estimand_frame())
    expected = CALLS[name](written_out_frame())
    assert got.shape == expected.shape
    assert_allclose(numbers(got), numbers(expected), rtol=1e-10, atol=1e-12)
    meta = got.attrs["pdcompare"]
    assert meta.get("estimand_label") == "pass@3", name
    assert meta.get("attempts_range") == [6, 6], name


def test_summary_has_no_within_item_share_and_power_refuses_n_samples():
    frame = estimand_frame("pass^k", 2)
    assert "within_item_share" not in frame.cmp.summary()
    assert "samples_per_item" not in frame.cmp.summary()
    with pytest.raises(ValueError, match=r"`n_samples`: this frame holds a pass@k or pass\^k"):
        frame.cmp.power(delta=0.1, n_samples=10)


def test_the_report_and_the_gate_name_the_estimand():
    frame = estimand_frame("pass@k", 3)
    text = frame.cmp.report()
    assert (
        "Data: 3 models, pass@3 over 40 tasks in 10 repos, clustered by repo, 6 attempts each"
        in text
    )
    assert "Best model: a0, pass@3 " in text
    assert "pass@3, best first: a0" in text
    assert "<figcaption>Pass@3 per model and its interval" in frame.cmp.report(format="html")
    gate_text = frame.cmp.report(baseline="a0", candidate="a1", margin=0.05)
    assert "pass@3 over 40 tasks in 10 repos" in gate_text


def test_the_intervals_plot_names_the_estimand():
    import matplotlib.pyplot as plt

    from pdcompare.presentation.plotting.scores import draw_intervals

    ax = draw_intervals(estimand_frame("pass^k", 2).cmp.summary())
    assert (
        ax.get_xlabel()
        == "pass^2, 6 attempts each, 95% CI\n"
        "(t (CR2), 40 items in 10 clusters)"
    )
    assert ax.get_title() == "pass^2 per model"
    plt.close("all")


def test_the_forest_of_differences_names_the_estimand():
    import matplotlib.pyplot as plt

    ax = estimand_frame("pass@k", 3).cmp.ttest().cmp.plot()
    assert ax.get_xlabel().startswith("pass@3 difference model_1 − model_2 with 95% CI")
    plt.close("all")

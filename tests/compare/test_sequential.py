"""sequential() and trajectory() on items frames, against the confidence sequence written out."""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize

import pdcompare


def _items(rows, names=("a", "b"), cluster=None, greater_is_better=True):
    wide = pd.DataFrame(np.asarray(rows, dtype=float), index=list(names))
    return wide.cmp.set_design(items=True, cluster=cluster, greater_is_better=greater_is_better)


def _rho(n, alpha):
    def width(r):
        return (2 * (n * r**2 + 1) / (n**2 * r**2)) * np.log(np.sqrt(n * r**2 + 1) / alpha)

    return optimize.minimize_scalar(width, bounds=(1e-5, 10), method="bounded",
                                    options={"xatol": 1e-12}).x  # fmt: skip


def _written_interval(d, alpha, planned_n):
    """The normal-mixture confidence sequence after each unit, by the formula of DESIGN 30."""
    rho = _rho(planned_n, alpha)
    out = []
    for t in range(2, len(d) + 1):
        mean = np.mean(d[:t])
        sd = np.std(d[:t], ddof=1)
        half = sd * np.sqrt(2 * (t * rho**2 + 1) / (t**2 * rho**2)
                            * np.log(np.sqrt(t * rho**2 + 1) / alpha))  # fmt: skip
        out.append((t, mean, mean - half, mean + half))
    return out


def _stream(n, p_a, p_b, seed):
    rng = np.random.default_rng(seed)
    return (rng.random((2, n)) < [[p_a], [p_b]]).astype(float)


def test_half_width_is_the_written_out_formula():
    rows = _stream(300, 0.7, 0.6, 1)
    res = pdcompare.sequential(_items(rows), alpha=0.1, planned_n=200)
    t, mean, low, high = _written_interval(rows[0] - rows[1], 0.1, 200)[-1]
    assert t == 300
    assert res.loc[0, "mean_diff"] == pytest.approx(mean)
    assert res.loc[0, "cs_low"] == pytest.approx(low, rel=1e-5)
    assert res.loc[0, "cs_high"] == pytest.approx(high, rel=1e-5)
    assert list(res.columns) == [
        "model_1", "model_2", "n_items", "n_clusters", "mean_diff", "cs_low", "cs_high",
        "decision", "decided_at",
    ]  # fmt: skip


def test_decision_is_the_first_look_that_excludes_zero_and_is_kept():
    rows = _stream(400, 0.85, 0.55, 2)
    # Reverse the end: the difference vanishes, the decision stays.
    rows = np.concatenate([rows, rows[::-1]], axis=1)
    res = pdcompare.sequential(_items(rows), planned_n=200, min_n=30)
    looks = _written_interval(rows[0] - rows[1], 0.05, 200)
    first = next(t for t, _, low, high in looks if t >= 30 and (low > 0 or high < 0))
    assert res.loc[0, "decision"] == "better"
    assert res.loc[0, "decided_at"] == first
    assert res.loc[0, "cs_low"] < 0 < res.loc[0, "cs_high"]
    swapped = pdcompare.sequential(_items(rows[::-1], names=("b", "a")), "b", "a", planned_n=200)
    assert swapped.loc[0, "decision"] == "worse"
    assert swapped.loc[0, "decided_at"] == first


def test_losses_decide_in_the_design_direction():
    rows = _stream(400, 0.85, 0.4, 3)
    res = pdcompare.sequential(_items(rows, greater_is_better=False), "a", "b")
    assert res.loc[0, "decision"] == "worse"


def test_equivalent_within_the_margin_and_continue_without_it():
    rng = np.random.default_rng(4)
    base = rng.random(2000)
    rows = np.vstack([base, base + rng.normal(0, 0.01, 2000)])
    res = pdcompare.sequential(_items(rows), margin=0.01)
    assert res.loc[0, "decision"] == "equivalent"
    looks = _written_interval(rows[0] - rows[1], 0.05, 2000)
    first = next(t for t, _, low, high in looks if t >= 30 and low > -0.01 and high < 0.01)
    assert res.loc[0, "decided_at"] == first
    plain = pdcompare.sequential(_items(rows))
    assert plain.loc[0, "decision"] == "continue"
    assert pd.isna(plain.loc[0, "decided_at"])
    # a unit count: an integer column, missing (not NaN) while the pair continues
    assert res["decided_at"].dtype == np.int64
    assert plain["decided_at"].dtype == "Int64"


def test_clustered_units_in_order_of_first_appearance():
    rng = np.random.default_rng(5)
    n = 240
    cluster = {k: int(c) for k, c in enumerate(rng.permutation(np.repeat(np.arange(60), 4)))}
    rows = _stream(n, 0.7, 0.5, 6)
    res = pdcompare.sequential(_items(rows, cluster=cluster), alpha=0.05)
    codes = np.array([cluster[k] for k in range(n)])
    order = pd.unique(codes)
    d = rows[0] - rows[1]
    sums = np.array([d[codes == c].sum() for c in order])
    sizes = np.array([(codes == c).sum() for c in order], dtype=float)
    t = len(order)
    mean = sums.sum() / sizes.sum()
    sigma = np.sqrt(((sums - mean * sizes) ** 2).sum() / (t - 1))
    rho = _rho(t, 0.05)
    half = sigma * np.sqrt(2 * (t * rho**2 + 1) / (t**2 * rho**2)
                           * np.log(np.sqrt(t * rho**2 + 1) / 0.05)) / sizes.mean()  # fmt: skip
    assert (res.loc[0, "n_items"], res.loc[0, "n_clusters"]) == (240, 60)
    assert res.loc[0, "mean_diff"] == pytest.approx(mean)
    assert res.loc[0, "cs_high"] - mean == pytest.approx(half, rel=1e-5)


def test_bonferroni_over_pairs_divides_alpha():
    rng = np.random.default_rng(7)
    rows = (rng.random((3, 200)) < 0.6).astype(float)
    frame = _items(rows, names=("a", "b", "c"))
    three = pdcompare.sequential(frame, planned_n=200)
    alone = pdcompare.sequential(frame, three.loc[0, "model_1"], three.loc[0, "model_2"],
                                 alpha=0.05 / 3, planned_n=200)  # fmt: skip
    assert three.loc[0, "cs_low"] == pytest.approx(alone.loc[0, "cs_low"])
    none = pdcompare.sequential(frame, correction=None, planned_n=200)
    assert (none["cs_high"] - none["cs_low"] < three["cs_high"] - three["cs_low"]).all()


def test_evalue_reference_and_decision():
    # The discordant item against model a comes first: E grows to its last value, 9.496 < 20.
    a = [0] + [1] * 9 + [1] * 5
    b = [1] + [0] * 9 + [1] * 5
    res = pdcompare.sequential(_items([a, b]), boundary="evalue", min_n=2)
    assert res.loc[0, "evalue"] == pytest.approx(9.49609375)
    assert res.loc[0, "decision"] == "continue"  # below 1/alpha = 20
    a = [1] * 20 + [0] * 5 + [1] * 10
    b = [0] * 20 + [1] * 5 + [1] * 10
    res = pdcompare.sequential(_items([a, b]), boundary="evalue", min_n=2, alpha=0.1)
    assert res.loc[0, "evalue"] == pytest.approx(19.48528075)
    assert res.loc[0, "decision"] == "better"


def test_ebh_over_pairs_decides_at_least_what_bonferroni_does():
    rng = np.random.default_rng(8)
    rows = (rng.random((4, 300)) < [[0.9], [0.6], [0.55], [0.5]]).astype(float)
    frame = _items(rows, names=list("abcd"))
    bonf = pdcompare.sequential(frame, boundary="evalue")
    ebh = pdcompare.sequential(frame, boundary="evalue", correction="e-bh")
    assert (ebh["decision"] != "continue").sum() >= (bonf["decision"] != "continue").sum()
    assert bonf.loc[0, "decision"] == "better"


def test_betting_covers_and_decides_a_large_difference():
    rows = _stream(600, 0.9, 0.3, 9)
    res = pdcompare.sequential(_items(rows), boundary="betting")
    assert res.loc[0, "decision"] == "better"
    assert res.loc[0, "cs_low"] <= res.loc[0, "mean_diff"] <= res.loc[0, "cs_high"]


@pytest.mark.parametrize(
    ("options", "rows", "match"),
    [
        ({"boundary": "linear"}, [[0, 1] * 20, [1, 1] * 20], "'normal_mixture'.*'betting'"),
        ({"planned_n": 0}, [[0, 1] * 20, [1, 1] * 20], "`planned_n`"),
        ({"boundary": "betting"}, [[0, 2] * 20, [1, 1] * 20], "rescale them to \\[0, 1\\]"),
        ({"boundary": "evalue"}, [[0, 0.5] * 20, [1, 1] * 20], "graded scores"),
        ({"correction": "e-bh"}, [[0, 1] * 20, [1, 1] * 20], "'e-bh' goes with"),
        ({"order": [0, 1]}, [[0, 1] * 20, [1, 1] * 20], "`order` must list every item"),
    ],
)
def test_bad_input_names_the_keyword(options, rows, match):
    with pytest.raises(ValueError, match=match):
        pdcompare.sequential(_items(rows), **options)


def test_refuses_a_frame_that_is_not_items():
    frame = pd.DataFrame([[0.8, 0.9, 0.7], [0.7, 0.8, 0.6]], index=["a", "b"])
    with pytest.raises(ValueError, match="set_design\\(items=True\\)"):
        pdcompare.sequential(frame)


def test_trajectory_rows_and_json_attrs():
    rows = _stream(120, 0.7, 0.5, 10)
    res = pdcompare.sequential(_items(rows), min_n=30)
    json.dumps(res.attrs["pdcompare"])
    path = pdcompare.trajectory(res)
    assert list(path.columns) == ["model_1", "model_2", "n", "mean_diff", "cs_low", "cs_high"]
    assert path["n"].tolist() == list(range(30, 121))
    written = _written_interval(rows[0] - rows[1], 0.05, 120)
    np.testing.assert_allclose(path["cs_low"], [w[2] for w in written[28:]], rtol=1e-5)
    last = path.iloc[-1]
    assert last["cs_low"] == pytest.approx(res.loc[0, "cs_low"])
    with pytest.raises(ValueError, match="`trajectory` reads the result of `sequential`"):
        pdcompare.trajectory(pdcompare.ttest(_items(rows)))


def test_order_reads_the_items_in_the_given_order():
    rows = _stream(100, 0.8, 0.5, 11)
    frame = _items(rows)
    reverse = list(frame.columns[::-1])
    res = pdcompare.sequential(frame, order=reverse, min_n=10)
    backwards = pdcompare.sequential(_items(rows[:, ::-1]), min_n=10)
    pd.testing.assert_frame_equal(res, backwards, check_like=True)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["normal_mixture", "betting"]))
def test_interval_holds_the_running_mean_and_swapping_mirrors(seed, boundary):
    rows = _stream(80, 0.6, 0.5, seed)
    frame = _items(rows)
    res = pdcompare.sequential(frame, "a", "b", boundary=boundary, min_n=10)
    path = pdcompare.trajectory(res)
    assert (path["cs_low"] <= path["mean_diff"] + 1e-12).all()
    assert (path["mean_diff"] <= path["cs_high"] + 1e-12).all()
    mirror = pdcompare.trajectory(pdcompare.sequential(frame, "b", "a", boundary=boundary,
                                                       min_n=10))  # fmt: skip
    np.testing.assert_allclose(mirror["mean_diff"], -path["mean_diff"], atol=1e-12)
    tol = 0.0 if boundary == "normal_mixture" else 2 / 400  # the betting grid's step
    np.testing.assert_allclose(mirror["cs_low"], -path["cs_high"], atol=tol + 1e-12)


def test_interval_narrows_on_average():
    widths = []
    for seed in range(30):
        res = pdcompare.sequential(_items(_stream(400, 0.6, 0.5, seed)), min_n=10)
        path = pdcompare.trajectory(res)
        width = (path["cs_high"] - path["cs_low"]).to_numpy()
        widths.append(width[[40, 190, 390]])
    mean = np.mean(widths, axis=0)
    assert mean[0] > mean[1] > mean[2]


def test_plot_draws_each_pair_and_caps_them():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(12)
    rows = (rng.random((20, 200)) < np.linspace(0.8, 0.5, 20)[:, None]).astype(float)
    res = pdcompare.sequential(_items(rows, names=[f"m{k}" for k in range(20)]))
    ax = res.cmp.plot()
    labels = ax.get_legend_handles_labels()[1]
    assert len(labels) == 6  # the pairs among the best 4 models
    assert "(pairs among the best 4 of 20 models)" in ax.get_title()
    path = pdcompare.trajectory(res)
    first = path[(path["model_1"] == labels[0].split(" − ")[0])
                 & (path["model_2"] == labels[0].split(" − ")[1])]  # fmt: skip
    line = ax.get_legend_handles_labels()[0][0]
    np.testing.assert_allclose(line.get_ydata(), first["mean_diff"])
    plt.close("all")


def test_report_says_the_items_were_monitored():
    rows = _stream(300, 0.8, 0.55, 13)
    frame = _items(rows)
    text = frame.cmp.report(sequential=True)
    assert "Monitored after every item; the interval is valid at every look" in text
    res = pdcompare.sequential(frame)
    assert f"confidence sequence {res.loc[0, 'cs_low']:.4f} to {res.loc[0, 'cs_high']:.4f}" in text
    assert f"decided after {res.loc[0, 'decided_at']:g} items" in text
    assert "Monitored" not in frame.cmp.report()

"""The Bayesian signed-rank test across data sets against baycomp.SignedRankTest (DESIGN §9)."""

import numpy as np
import pandas as pd
import pytest
from baycomp import SignedRankTest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

import pdcompare
from pdcompare import PdcompareWarning
from pdcompare.datasets import load_benchmark


def table(x, y, extra=None):
    rows = {"x": x, "y": y, **(extra or {})}
    frame = pd.DataFrame(rows).T
    frame.columns = pd.Index([f"d{k}" for k in range(frame.shape[1])], name="dataset")
    return frame


RNG = np.random.default_rng(7)
X = RNG.uniform(0.6, 0.95, 25)
CASES = {
    "x slightly better": (X, X - RNG.normal(0.01, 0.02, 25)),
    "ties and zero differences": (X, np.where(np.arange(25) < 10, X, X - 0.01)),
    "x always wins": (X, X - 0.08),
    "y better, few data sets": (X[:8], X[:8] + RNG.normal(0.02, 0.01, 8)),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("rope", [0.0, 0.01])
def test_probabilities_agree_with_baycomp(case, rope):
    x, y = CASES[case]
    reference = SignedRankTest.probs(x, y, rope=rope, nsamples=50000, random_state=1)
    if rope == 0:
        reference = (reference[0], 0.0, reference[1])
    result = table(x, y).cmp.bayes("x", "y", rope=rope, n_samples=50000, random_state=2)
    got = result.loc[0, ["prob_better", "prob_rope", "prob_worse"]].to_numpy(dtype=float)
    # Two independent Monte Carlo estimates of one probability: 4 standard errors apart at most.
    se = np.sqrt(np.maximum(np.asarray(reference) * (1 - np.asarray(reference)), 1e-4) / 50000)
    assert np.all(np.abs(got - reference) <= 4 * np.sqrt(2) * se + 1e-12), (got, reference)
    assert got.sum() == pytest.approx(1.0)
    assert result.loc[0, "mean_diff"] == pytest.approx(np.mean(x - y))


def test_every_pair_at_once_equals_each_pair_alone():
    bench = load_benchmark()
    together = bench.cmp.bayes(pdcompare.inputs.scores.ALL_PAIRS, rope=0.01, random_state=0)
    assert len(together) == 21
    for row in together.iloc[[0, 7, 20]].itertuples():
        alone = bench.cmp.bayes(row.model_1, row.model_2, rope=0.01, random_state=0)
        # Same posterior, other draws: equal within Monte Carlo error.
        assert_allclose(
            alone.loc[0, ["prob_better", "prob_rope", "prob_worse"]].to_numpy(dtype=float),
            [row.prob_better, row.prob_rope, row.prob_worse],
            atol=0.012,
        )


def test_random_state_reproducible_and_decisions():
    bench = load_benchmark()
    first = bench.cmp.bayes(rope=0.01, random_state=3, n_samples=5000)
    again = bench.cmp.bayes(rope=0.01, random_state=3, n_samples=5000)
    pd.testing.assert_frame_equal(first, again)
    assert list(first.columns) == [
        "model_1", "model_2", "mean_diff", "prob_better", "prob_rope", "prob_worse", "decision"
    ]  # fmt: skip
    meta = first.attrs["pdcompare"]
    assert (meta["test"], meta["method"], meta["unit"], meta["rope"]) == (
        "bayes", "signed_rank", "dataset", [-0.01, 0.01]
    )  # fmt: skip
    decided = first["prob_better"] >= 0.95
    assert (first.loc[decided, "decision"] == first.loc[decided, "model_1"]).all()
    undecided = first[["prob_better", "prob_rope", "prob_worse"]].max(axis=1) < 0.95
    assert (first.loc[undecided, "decision"] == "undecided").all()


def test_losses_flip_the_direction():
    x, y = CASES["x slightly better"]
    scores = table(x, y).cmp.bayes("x", "y", rope=0.01, random_state=0)
    losses = table(1 - x, 1 - y).cmp.bayes(
        "x", "y", rope=0.01, random_state=0, greater_is_better=False
    )
    assert_allclose(
        losses[["prob_better", "prob_rope", "prob_worse"]],
        scores[["prob_better", "prob_rope", "prob_worse"]],
    )


@settings(max_examples=20, deadline=None)
@given(
    differences=st.lists(
        st.floats(-0.2, 0.2, allow_nan=False).map(lambda v: round(v, 3)), min_size=3, max_size=15
    ),
    rope=st.sampled_from([0.0, 0.01, 0.05]),
)
def test_swapping_the_models_mirrors_the_probabilities(differences, rope):
    y = np.linspace(0.5, 0.8, len(differences))
    x = y + np.asarray(differences)
    forward = table(x, y).cmp.bayes("x", "y", rope=rope, random_state=5, n_samples=2000)
    backward = table(x, y).cmp.bayes("y", "x", rope=rope, random_state=5, n_samples=2000)
    f = forward.loc[0, ["prob_better", "prob_rope", "prob_worse"]].to_numpy(dtype=float)
    b = backward.loc[0, ["prob_better", "prob_rope", "prob_worse"]].to_numpy(dtype=float)
    assert f.sum() == pytest.approx(1.0)
    # Mirrored posterior masses; equal masses (a tie) go to the first region in both.
    samples_differ = not np.isclose(f[0], b[2], atol=1e-12)
    if samples_differ:
        assert_allclose(f[[0, 2]].sum(), b[[0, 2]].sum(), atol=1e-12)
    else:
        assert_allclose(f, b[::-1], atol=1e-12)


def test_missing_data_sets_by_policy():
    bench = load_benchmark().copy()
    bench.iloc[0, :10] = np.nan  # logistic misses the first data set
    with pytest.warns(PdcompareWarning, match=r"\['logistic'\] have no score on data set"):
        propagated = bench.cmp.bayes(rope=0.01, random_state=0, n_samples=2000)
    with_logistic = (propagated["model_1"] == "logistic") | (propagated["model_2"] == "logistic")
    assert propagated.loc[with_logistic, "prob_better"].isna().all()
    assert propagated.loc[with_logistic, "decision"].isna().all()
    with pytest.warns(PdcompareWarning, match="leaves those data sets out"):
        omitted = bench.cmp.bayes("logistic", "lda", rope=0.01, random_state=0, nan_policy="omit")
    means = bench.cmp.means()
    kept = means.columns[1:]
    alone = means[kept].cmp.bayes("logistic", "lda", rope=0.01, random_state=9)
    assert omitted.loc[0, "mean_diff"] == pytest.approx(alone.loc[0, "mean_diff"])
    assert_allclose(
        omitted.loc[0, ["prob_better", "prob_rope", "prob_worse"]].to_numpy(dtype=float),
        alone.loc[0, ["prob_better", "prob_rope", "prob_worse"]].to_numpy(dtype=float),
        atol=0.015,
    )


def test_bad_keywords_are_clear_errors():
    bench = load_benchmark()
    with pytest.raises(ValueError, match="`rope` must be symmetric"):
        bench.cmp.bayes(rope=(-0.01, 0.02))
    with pytest.raises(TypeError, match="`ci` applies to the correlated t-test"):
        bench.cmp.bayes(ci=0.9)
    with pytest.raises(ValueError, match="`prior` must be a positive number"):
        bench.cmp.bayes(prior=0)
    scores = pdcompare.datasets.load_grid_search_scores()
    with pytest.raises(TypeError, match="`n_samples` applies to the Bayesian signed-rank"):
        scores.cmp.bayes(n_samples=100)
    with pytest.raises(ValueError, match=r"per_dataset|random_effects"):
        bench.cmp.posterior("svc_rbf", "forest")


def test_simplex_pictures_the_posterior_of_one_pair():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bench = load_benchmark()
    ax = bench.cmp.plot("simplex", a="knn", b="naive_bayes", rope=0.01)
    result = bench.cmp.bayes("knn", "naive_bayes", rope=0.01, random_state=0)
    texts = [t.get_text() for t in ax.texts]
    assert f"knn better\nP = {result.loc[0, 'prob_better']:.3f}" in texts
    assert f"rope ±0.01\nP = {result.loc[0, 'prob_rope']:.3f}" in texts
    points = ax.collections[0].get_offsets()
    # Barycentric coordinates inside the triangle with corners (0, 0), (1, 0), (1/2, sqrt(3)/2).
    height = np.sqrt(3) / 2
    assert (points[:, 1] >= -1e-12).all()
    assert (points[:, 1] <= height * (1 - np.abs(2 * points[:, 0] - 1)) + 1e-9).all()
    # Back to masses: the share of points where naive_bayes's mass is largest is P(worse).
    rope_mass = points[:, 1] / height
    worse = points[:, 0] - 0.5 * rope_mass
    masses = np.column_stack([1 - rope_mass - worse, rope_mass, worse])
    share = float(np.mean(np.argmax(masses, axis=1) == 2))
    assert share == pytest.approx(result.loc[0, "prob_worse"], abs=0.02)
    assert result.cmp.plot().get_title() == ax.get_title()
    # All pairs of a Bayesian result draw the probability matrix, not a CD diagram.
    matrix = bench.cmp.bayes(
        pdcompare.inputs.scores.ALL_PAIRS, rope=0.01, n_samples=500
    ).cmp.plot()
    assert len(matrix.images) == 1
    with pytest.raises(ValueError, match="needs a benchmark frame"):
        pdcompare.datasets.load_grid_search_scores().cmp.plot("simplex", a="rbf", b="linear")
    plt.close("all")

"""Malformed frames at every public method: a result or a clear error, never a crash (issue 12).

Each call either returns or raises ``ValueError``/``TypeError``/``KeyError`` (the
errors pdcompare raises with the parameter, model or column named), never
another exception type from deep inside pandas, numpy or matplotlib, and
never changes the frame or its attrs.
"""

import os
import traceback
import warnings

import matplotlib
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pdcompare

matplotlib.use("Agg")

CELLS = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=32),
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from(["a", "", "0.5", "nan"]),
)
LABELS = st.one_of(
    st.sampled_from(["m1", "m2", "m, 3", "y", "split0", "dataset"]),
    st.integers(0, 3),
    st.none(),
    st.tuples(st.sampled_from(["m1", "m2"]), st.integers(0, 1)),  # tuples as names
)


@st.composite
def frames(draw):
    rows = draw(st.integers(0, 4))
    cols = draw(st.integers(0, 4))
    kind = draw(st.sampled_from(["floats", "mixed", "ints", "bools"]))
    if kind == "floats":
        cell = st.one_of(st.floats(0, 1), st.just(float("nan")), st.just(float("inf")))
    elif kind == "ints":
        cell = st.integers(0, 2)
    elif kind == "bools":
        cell = st.booleans()
    else:
        cell = CELLS
    data = [[draw(cell) for _ in range(cols)] for _ in range(rows)]
    index = draw(st.lists(LABELS, min_size=rows, max_size=rows))
    columns = draw(st.lists(LABELS, min_size=cols, max_size=cols))
    frame = pd.DataFrame(
        data,
        index=pd.Index(index, tupleize_cols=False) if rows else None,
        columns=pd.Index(columns, tupleize_cols=False) if cols else None,
    )
    shape = draw(
        st.sampled_from(
            [
                "labels",
                "range",
                "multiindex",
                "dataset rows",
                "benchmark",
                "dataset columns",
                "items",
                "battles",
                "runs over tasks",
            ]
        )
    )
    if shape == "range" and rows:
        frame = frame.reset_index(drop=True)
    elif shape == "multiindex" and rows:  # model rows as a MultiIndex
        frame.index = pd.MultiIndex.from_arrays([["g"] * rows, [f"m{k}" for k in range(rows)]])
    elif shape == "dataset rows":  # the shape autorank takes
        frame = frame.rename_axis(index="dataset")
    elif shape == "dataset columns":  # per-data-set means (one column: a single data set)
        frame = frame.rename_axis(columns="dataset")
    elif shape in ("benchmark", "runs over tasks") and cols:  # (dataset, split) columns
        datasets = [f"d{k * 2 // cols}" for k in range(cols)]
        frame.columns = pd.MultiIndex.from_arrays(
            [datasets, [f"s{k % 2}" for k in range(cols)]], names=["dataset", "split"]
        )
        if shape == "runs over tasks":  # seeds on tasks: rliable's frames
            frame.attrs["pdcompare"] = {"design": {"paired": False}}
    elif shape == "items":  # models x questions, marked as set_design(items=True) marks it
        frame.attrs["pdcompare"] = {"design": {"items": True}}
    elif shape == "battles":  # a win matrix marked as from_battles marks it
        frame.attrs["pdcompare"] = {"kind": "battles", "ties": [[0] * cols] * rows}
    return frame


ALLOWED = (ValueError, TypeError, KeyError)
NAMED = ("`", "model", "column", "split", "frame", "label", "data set", "prediction", "battle")

CALLS = {
    "scores": {},
    "summary": {},
    "corrected_ttest": {"cv": 5},
    "ttest": {},
    "wilcoxon": {},
    "sign_test": {},
    "bayes": {"cv": 5, "rope": 0.01},
    "posterior": {"a": "m1", "b": "m2", "cv": 5},
    "pairwise": {"cv": 5},
    "ttest_5x2cv": {},
    "ftest_5x2cv": {},
    "mcnemar": {},
    "cochrans_q": {},
    "proportions_ztest": {},
    "accuracy_ci": {},
    "bootstrap": {"n_resamples": 20, "random_state": 0},
    "bootstrap_diff": {"n_resamples": 20, "random_state": 0},
    "select": {"rule": "one_se", "by": "C", "cv": 5},
    "means": {},
    "friedman": {},
    "per_dataset": {},
    "random_effects": {"cv": 5},
    "set_design": {"cv": 5},
    "effect_size": {},
    "equivalence": {"rope": 0.01},
    "power": {"delta": 0.01, "cv": 5},
    "aso": {"n_bootstrap": 20, "random_state": 0},
    "permutation_test": {"n_resamples": 20, "random_state": 0},
    "confidence_set": {"n_resamples": 20, "random_state": 0},
    "report": {"cv": 5},
    "matrix": {},
    "style": {},
    "plot": {},
    "welch_ttest": {},
    "mannwhitney": {},
    "hierarchical": {"cv": 5, "n_samples": 200, "chains": 2, "random_state": 0},
    "delong": {},
    "auc_ci": {},
    "diebold_mariano": {},
    "ranks": {"n_draws": 50, "random_state": 0},
    "top_set": {"n_draws": 50, "random_state": 0},
    "gate": {"candidate": "m1", "baseline": "m2", "margin": 0.01, "cv": 5},
    "pareto": {"cost": {"m1": 1.0, "m2": 2.0}, "cv": 5},
    "aggregate": {"n_resamples": 20, "random_state": 0},
    "prob_improvement": {"n_resamples": 20, "random_state": 0},
    "performance_profile": {},
    "bradley_terry": {"n_resamples": 20, "random_state": 0},
    "win_probability": {"n_resamples": 20, "random_state": 0},
    # This release's keywords (issue 57), on every malformed frame: "name (what)" calls name.
    "summary (wilson)": {"interval": "wilson"},
    "summary (se)": {"se": "cr1"},
    "ttest (estimator)": {"estimator": "labels"},
    "mcnemar (midp)": {"exact": "midp", "interval": "newcombe"},
    "friedman (skillings_mack)": {"nan_policy": "skillings_mack"},
    "friedman (durbin)": {"nan_policy": "durbin"},
    "judge_agreement": {"n_resamples": 20, "random_state": 0},
    "judge_agreement (level)": {"level": "ordinal", "n_resamples": 20, "random_state": 0},
    "sequential": {"boundary": "betting"},
    "sequential (planned_n)": {"planned_n": 100},
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CALLS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frame=frames())
def test_malformed_frames_get_a_result_or_a_clear_error(name, frame):
    import matplotlib.pyplot as plt

    before = frame.copy()
    attrs = dict(frame.attrs)
    message = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(pdcompare, name.split(" ")[0])(frame, **CALLS[name])
    except ALLOWED as error:
        message = str(error)
        # Raised by pdcompare itself, not from inside pandas or numpy. (Not yet for plot:
        # a square frame with equal row and column labels is drawn as a matrix, whose
        # cells pandas' astype converts.)
        raised_in = traceback.extract_tb(error.__traceback__)[-1].filename
        if name != "plot":
            assert os.sep + "pdcompare" + os.sep in raised_in, f"{name}: {message} ({raised_in})"
    finally:
        plt.close("all")
    if message is not None:
        # pdcompare's messages name what is wrong: a keyword in backticks, a model, a
        # column, a split or the frame (any case); pandas' own ("[nan] not in index") do not.
        assert any(word in message.lower() for word in NAMED), f"{name}: {message}"
    pd.testing.assert_frame_equal(frame, before)
    assert frame.attrs == attrs


COLUMNS = st.sampled_from(["model", "item", "score", "sample", "passage", "model_a", "model_b",
                           "winner", "dataset", "split", "other"])  # fmt: skip


@st.composite
def long_tables(draw):
    """Long tables as readers take them, with any of their columns missing or malformed."""
    rows = draw(st.integers(0, 6))
    names = draw(st.lists(COLUMNS, min_size=0, max_size=6, unique=True))
    cells = st.one_of(CELLS, st.sampled_from(["m1", "m2", "model_a", "model_b", "tie"]))
    return pd.DataFrame({name: [draw(cells) for _ in range(rows)] for name in names})


READERS = {
    "from_items": {},
    "from_items_attempts": {"sample": "sample", "estimand": "pass@k", "k": 2},
    "from_items_labelled": {"human": "other", "label_design": "stratified", "strata": "dataset"},
    "from_predictions": {"row": "item", "prediction": "score", "y": "winner"},
    "from_items_clustered": {"cluster": "passage", "sample": "sample"},
    "from_battles": {},
    "from_long": {},
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(READERS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=long_tables())
def test_malformed_long_tables_get_a_frame_or_a_clear_error(name, table):
    before = table.copy()
    reader = getattr(pdcompare, name.split("_")[0] + "_" + name.split("_")[1])
    message, raised_in = None, None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            reader(table, **READERS[name])
    except ALLOWED as error:
        message = str(error)
        raised_in = traceback.extract_tb(error.__traceback__)[-1].filename
    if message is not None:
        assert os.sep + "pdcompare" + os.sep in raised_in, f"{name}: {message} ({raised_in})"
        assert any(word in message for word in (*NAMED, "table", "row")), f"{name}: {message}"
    pd.testing.assert_frame_equal(table, before)


#: Calls on a frame marked first (a runs frame; forecasts in time order), as the docs chain them.
MARKED = {
    "runs power": ({"paired": False}, "power", {"delta": 0.01}),
    "runs report": ({"paired": False}, "report", {}),
    "forecasts report": ({"time_ordered": True}, "report", {"block_size": 2}),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(MARKED))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(frame=frames())
def test_malformed_marked_frames_get_a_result_or_a_clear_error(name, frame):
    design, function, options = MARKED[name]
    before, attrs = frame.copy(), dict(frame.attrs)
    message = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            marked = pdcompare.set_design(frame, **design)
            getattr(pdcompare, function)(marked, **options)
    except ALLOWED as error:
        message = str(error)
        raised_in = traceback.extract_tb(error.__traceback__)[-1].filename
        assert os.sep + "pdcompare" + os.sep in raised_in, f"{name}: {message} ({raised_in})"
    if message is not None:
        assert any(word in message.lower() for word in NAMED), f"{name}: {message}"
    pd.testing.assert_frame_equal(frame, before)
    assert frame.attrs == attrs

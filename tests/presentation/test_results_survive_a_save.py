"""Every result frame survives a save: JSON-able metadata, to_parquet, pickle, the same outputs.

DESIGN section 34. Each kind of result (every test of the registry on every
frame kind it takes, and the results of summary, pairwise, per_dataset,
matrix, select, hierarchical and random_effects of one pair or several) is
written with ``to_parquet`` (which stores ``attrs`` as JSON) and with pickle
and read back. The reference is the result itself before the save: its
metadata must come back equal, value for value and type for type (a tuple
stored would come back a list, a numpy number a Python one), and
``style()``, ``plot()`` and ``matrix()`` must give on the read-back frame
what they give on the original (or refuse it with the same sentence).
"""

import functools
import inspect
import io
import json
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from frames import (
    ar_forecasts,
    correlated_scores,
    eval_items_long,
    gate_predictions,
    gate_runs,
    gate_scores,
    label_predictions,
    runs_over_tasks,
    seed_runs,
    simulated_battles,
)
from hypothesis import given, settings
from hypothesis import strategies as st

import pdcompare
from pdcompare.compare.registry import TESTS
from pdcompare.datasets import load_benchmark
from pdcompare.inputs.attrs import jsonable, with_attrs


@functools.cache
def frame_of(kind):
    """A small frame of each kind (its design attached)."""
    if kind == "scores":
        return correlated_scores(4, 10).cmp.set_design(cv=10)
    if kind == "benchmark":
        return load_benchmark().loc[["svc_rbf", "forest", "knn"]].iloc[:, :60]
    if kind == "runs":
        return seed_runs().cmp.set_design(paired=False)
    if kind == "predictions":
        return label_predictions(accuracies=(0.9, 0.8, 0.75), names=("a", "b", "c"))
    if kind == "forecasts":
        return ar_forecasts(80)
    if kind == "items":
        table = eval_items_long(3, 6, 4, 1).drop(columns="sample")
        return pdcompare.from_items(table)
    if kind == "sampled_items":  # several samples per cell, clusters and tasks
        return pdcompare.from_items(
            eval_items_long(3, 6, 4, 3, tasks=2), sample="sample", cluster="passage", task="task"
        )
    if kind == "battles":
        return pdcompare.from_battles(simulated_battles([0.0, 0.5, 1.0], 300))
    if kind == "task_runs":
        return runs_over_tasks(3, 5, 4)
    if kind == "scored_predictions":  # scores, not labels: AUC and the gate
        return gate_predictions(0.5)
    raise KeyError(kind)


#: Options that keep every test small and seeded, given where the function takes them.
SMALL = {"random_state": 0, "n_resamples": 200, "n_draws": 500, "n_bootstrap": 100}
NEEDS = {
    "equivalence": {"rope": 0.01},
    "power": {"delta": 0.01},
    "hierarchical": {"n_samples": 400, "chains": 2},
}


def _registry_call(test, kind):
    """The frame, arguments and options of one registry test on one frame kind."""
    frame = frame_of(kind)
    if test.name.endswith("5x2cv"):
        frame = correlated_scores(4, 10).cmp.set_design(cv=2)
    if test.name in ("auc_ci", "delong"):
        frame = frame_of("scored_predictions")
    if test.name == "mcnemar" and kind == "items":
        frame = frame_of("items")
    options = dict(NEEDS.get(test.name, {}))
    params = inspect.signature(test.function).parameters
    options.update({k: v for k, v in SMALL.items() if k in params})
    args = ()
    if test.name in ("nemenyi", "conover"):
        options.update(alpha=0.05, correction=test.correction)
    if test.name == "bayes" and kind != "benchmark":
        options.pop("random_state", None)
    if test.name == "gate":
        frame = {
            "scores": gate_scores(0.01),
            "runs": gate_runs(0.01),
            "predictions": frame_of("scored_predictions"),
        }.get(kind, frame)
        args = {"items": ("m0", "m1"), "battles": ("m00", "m01")}.get(
            kind, ("candidate", "baseline")
        )
        options["margin"] = 20 if kind == "battles" else 0.02  # rating points on battles
        if kind == "scores":
            options["cv"] = 10
    if test.name == "pareto":
        models = list(frame.index) if "y" not in frame.columns else list(frame.columns[1:])
        args = ({model: k + 1.0 for k, model in enumerate(models)},)
    return frame, args, options


def _kind_name(kind):
    return getattr(kind, "value", kind)


def _judged_table():
    """Three judges' pass/fail scores of 60 answers (20 items), 45 of them labelled by a human."""
    rng = np.random.default_rng(0)
    truth = rng.integers(0, 2, 60).astype(float)
    judges = {f"judge_{k}": np.where(rng.random(60) < 0.15, 1 - truth, truth) for k in range(3)}
    human = np.where(np.arange(60) < 45, truth, np.nan)
    return pd.DataFrame({"human": human, **judges, "item": np.arange(60) // 3})


#: Every result kind: an id and how to build it (cached, built once).
def _registry_builder(test, kind):
    def build():
        frame, args, options = _registry_call(test, kind)
        return test.function(frame, *args, **options)

    return build


BUILDERS = {
    f"{test.name}-{_kind_name(kind)}": _registry_builder(test, _kind_name(kind))
    for test in TESTS
    for kind in test.kinds
}
#: The scores frame's models, simplest first (for select).
BY_SIZE = ["m3", "m2", "m1", "m0"]
BUILDERS.update(
    {
        "summary-scores": lambda: frame_of("scores").cmp.summary(),
        "summary-benchmark": lambda: frame_of("benchmark").cmp.summary(),
        "summary-runs": lambda: frame_of("runs").cmp.summary(),
        "summary-items": lambda: frame_of("sampled_items").cmp.summary(),
        "summary-task_runs": lambda: frame_of("task_runs").cmp.summary(),
        "pairwise-scores": lambda: frame_of("scores").cmp.pairwise(),
        "pairwise-benchmark": lambda: frame_of("benchmark").cmp.pairwise(),
        "pairwise-sampled_items": lambda: frame_of("sampled_items").cmp.pairwise(),
        "pairwise-battles": lambda: frame_of("battles").cmp.pairwise(),
        "per_dataset": lambda: frame_of("benchmark").cmp.per_dataset(),
        "matrix": lambda: frame_of("scores").cmp.pairwise().cmp.matrix(),
        "select-one_se": lambda: frame_of("scores").cmp.select(
            "one_se", by=["m3", "m2", "m1", "m0"]
        ),
        "select-equivalent": lambda: frame_of("scores").cmp.select(
            "equivalent", by=BY_SIZE, rope=0.01
        ),
        "bayes-one_pair-benchmark": lambda: frame_of("benchmark").cmp.bayes(
            "svc_rbf", "forest", rope=0.01, random_state=0, n_samples=2000
        ),
        "hierarchical-one_pair": lambda: frame_of("benchmark").cmp.hierarchical(
            "svc_rbf", "forest", rope=0.01, n_samples=400, chains=2, random_state=0
        ),
        "random_effects-one_pair": lambda: frame_of("benchmark").cmp.random_effects(
            "svc_rbf", "knn"
        ),
        "judge_agreement": lambda: pdcompare.judge_agreement(
            _judged_table(), cluster="item", n_resamples=200, random_state=0
        ),
    }
)


@functools.cache
def result_of(name):
    with warnings.catch_warnings():  # small frames and short chains warn; not the subject here
        warnings.simplefilter("ignore")
        return BUILDERS[name]()


def same(a, b, path="attrs"):
    """Equal value for value and type for type, NaN equal to NaN; AssertionError naming where."""
    # a dict or list that pandas' copies share (a subclass) is written and read back as one
    kind = next((base for base in (dict, list) if isinstance(a, base)), type(a))
    assert isinstance(b, kind) if kind in (dict, list) else type(b) is kind, (
        f"{path}: {type(a).__name__} != {type(b).__name__}"
    )
    if isinstance(a, dict):
        assert a.keys() == b.keys(), f"{path}: keys {set(a) ^ set(b)}"
        for key in a:
            same(a[key], b[key], f"{path}[{key!r}]")
    elif isinstance(a, list):
        assert len(a) == len(b), f"{path}: length {len(a)} != {len(b)}"
        for k, (x, y) in enumerate(zip(a, b, strict=True)):
            same(x, y, f"{path}[{k}]")
    elif isinstance(a, float) and np.isnan(a):
        assert np.isnan(b), f"{path}: NaN != {b!r}"
    else:
        assert a == b, f"{path}: {a!r} != {b!r}"


def parquet_round_trip(frame):
    buffer = io.BytesIO()
    frame.to_parquet(buffer)
    return pd.read_parquet(io.BytesIO(buffer.getvalue()))


def test_every_result_kind_is_built():
    # the registry's tests on every kind they take, and the other results: about 70
    assert len(BUILDERS) >= 60
    names = {test.name for test in TESTS}
    assert names <= {name.split("-")[0] for name in BUILDERS}


@pytest.mark.parametrize("name", list(BUILDERS))
def test_the_metadata_is_json(name):
    result = result_of(name)
    assert isinstance(result, pd.DataFrame)
    meta = result.attrs["pdcompare"]
    assert meta["kind"] == "result"
    # JSON gives back only str, int, float, bool, None, lists and dicts: equal types mean
    # nothing else (no tuple, no numpy number, no array, no frame) is stored.
    same(json.loads(json.dumps(meta)), meta)


@pytest.mark.parametrize("name", list(BUILDERS))
def test_parquet_and_pickle_keep_the_metadata_and_the_values(name):
    result = result_of(name)
    back = parquet_round_trip(result)
    same(back.attrs, result.attrs)
    pd.testing.assert_frame_equal(back, result, check_dtype=False, check_categorical=False)
    unpickled = pickle.loads(pickle.dumps(result))
    same(unpickled.attrs, result.attrs)
    pd.testing.assert_frame_equal(unpickled, result)


def _outcome(function, frame):
    """What ``function(frame)`` gives, or the sentence it refuses the frame with."""
    try:
        return True, function(frame)
    except (ValueError, TypeError) as error:
        return False, f"{type(error).__name__}: {error}"


def _html(frame):
    styler = frame.cmp.style()
    styler.set_uuid("saved")
    return styler.to_html()


def _picture(frame):
    import matplotlib.pyplot as plt

    ax = frame.cmp.plot()
    drawn = (
        ax.get_title(),
        ax.get_xlabel(),
        [t.get_text() for t in ax.get_yticklabels()],
        [t.get_text() for t in ax.get_xticklabels()],
        len(ax.collections),
        len(ax.lines),
    )
    plt.close("all")
    return drawn


#: Results without a picture of their own (plot() refuses them with a sentence).
NO_PICTURE = {"gate", "bradley_terry_z", "win_probability", "cochrans_q", "friedman", "summary"}
#: The results whose outputs the quick test loop checks; the others are `slow`.
QUICK = {
    "corrected_ttest-scores",
    "hierarchical-benchmark",
    "hierarchical-one_pair",
    "random_effects-benchmark",
    "bayes-one_pair-benchmark",
    "equivalence-items",
    "bradley_terry-battles",
    "aggregate-task_runs",
    "gate-scores",
    "judge_agreement",
}


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=[] if n in QUICK else [pytest.mark.slow]) for n in BUILDERS]
)
def test_style_plot_and_matrix_work_on_the_read_back_frame_as_on_the_original(name):
    result = result_of(name)
    back = parquet_round_trip(result)
    for output in (_html, _picture):
        worked, original = _outcome(output, result)
        again_worked, again = _outcome(output, back)
        assert again_worked == worked, (output.__name__, original, again)
        assert again == original
    assert _outcome(_html, back)[0]  # every result has a table
    assert _outcome(_picture, back)[0] or result.attrs["pdcompare"]["test"] in NO_PICTURE
    if {"model_1", "model_2"} <= set(result.columns):  # a result of pairs has a matrix
        worked, original = _outcome(lambda f: f.cmp.matrix(), result)
        again_worked, again = _outcome(lambda f: f.cmp.matrix(), back)
        assert again_worked == worked
        if worked:
            pd.testing.assert_frame_equal(again, original, check_dtype=False)
            same(again.attrs, original.attrs)
        else:
            assert again == original


@pytest.mark.parametrize(
    "kind", ["scores", "benchmark", "runs", "items", "sampled_items", "battles", "task_runs"]
)
def test_input_frames_keep_their_design_through_a_save(kind):
    frame = frame_of(kind)
    back = parquet_round_trip(frame)
    same(back.attrs, jsonable(frame.attrs))
    same(pickle.loads(pickle.dumps(frame)).attrs, jsonable(frame.attrs))


def test_a_read_back_items_frame_compares_as_the_original():
    # The items design (clusters, tasks, samples per cell and their variances) is stored
    # as lists and read back into arrays: the clustered, sample-aware tests are the same.
    frame = frame_of("sampled_items")
    back = parquet_round_trip(frame)
    for name in ("ttest", "equivalence", "effect_size", "power"):
        options = {"rope": 0.02} if name == "equivalence" else {}
        options = {"delta": 0.05} if name == "power" else options
        original = getattr(frame.cmp, name)(**options)
        again = getattr(back.cmp, name)(**options)
        pd.testing.assert_frame_equal(again, original, check_dtype=False)
        same(again.attrs, original.attrs)


def test_shrinkage_reads_a_read_back_result():
    for name in ("hierarchical-benchmark", "random_effects-benchmark", "hierarchical-one_pair"):
        result = result_of(name)
        pd.testing.assert_frame_equal(
            pdcompare.shrinkage(parquet_round_trip(result)), pdcompare.shrinkage(result)
        )


def test_results_concatenate_with_plain_dicts():
    # pandas 3 keeps the attrs of concatenated frames when they compare equal (==)
    first = result_of("random_effects-benchmark")
    both = pd.concat([first, parquet_round_trip(first)], ignore_index=True)
    same(both.attrs, first.attrs)
    other = result_of("hierarchical-benchmark")
    mixed = pd.concat([first, other], ignore_index=True)
    assert mixed.attrs == {}  # different results: pandas drops attrs that differ
    assert len(mixed) == len(first) + len(other)


def test_a_frame_in_the_metadata_is_refused():
    with pytest.raises(TypeError, match=r"JSON-able values only.*got a DataFrame"):
        with_attrs(pd.DataFrame({"x": [1.0]}), {"shrunk": pd.DataFrame({"a": [1.0]})})
    with pytest.raises(TypeError, match="got a Series"):
        jsonable({"nested": [pd.Series([1.0])]})


def test_tuples_numpy_numbers_and_arrays_are_stored_as_json_holds_them():
    stored = with_attrs(
        pd.DataFrame({"x": [1.0]}),
        {
            "rope": (-0.01, 0.01),
            "n": np.int64(3),
            "ok": np.bool_(True),
            "values": np.array([[1.5, np.nan]]),
            "labels": pd.Index(["a", "b"]),
            "by": {np.str_("a"): np.float32(0.5)},
        },
    ).attrs["pdcompare"]
    same(
        stored,
        {
            "rope": [-0.01, 0.01],
            "n": 3,
            "ok": True,
            "values": [[1.5, float("nan")]],
            "labels": ["a", "b"],
            "by": {"a": 0.5},
        },
    )


_json_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**53), 2**53),
    st.floats(allow_nan=False),
    st.text(max_size=5),
    st.integers(-1000, 1000).map(np.int64),
    st.floats(-1e6, 1e6).map(np.float64),
    st.booleans().map(np.bool_),
)
_values = st.recursive(
    _json_leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=4), inner, max_size=4),
    ),
    max_leaves=20,
)


@settings(max_examples=25)
@given(_values)
def test_jsonable_values_come_back_from_json_unchanged(value):
    stored = jsonable(value)
    same(json.loads(json.dumps(stored)), stored)
    same(jsonable(stored), stored)  # converting again changes nothing

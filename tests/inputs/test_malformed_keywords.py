"""Malformed values of this release's keywords: one clear error naming the keyword (issue 57).

The companion of ``test_malformed_frames.py``: there the frames are malformed, here
the keywords added with items, judges, attempts, small binary samples, holes,
sequential monitoring and the long predictions reader are. Each bad value (a
wrong type, an unknown string, a number out of range, a column the table does
not have, an option on a frame kind that has no use for it) must raise
``ValueError``/``TypeError``/``KeyError`` (``OptionError`` is a ``ValueError``)
from inside pdcompare, with the keyword named, and never return a result or let
an error escape from numpy or pandas.
"""

import os
import traceback
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import pdcompare
from pdcompare.cli import main

ALLOWED = (ValueError, TypeError, KeyError)
SWEBENCH = Path(__file__).resolve().parents[1] / "data" / "swebench" / "evaluation"

RNG = np.random.default_rng(0)
MODELS, ITEMS, SAMPLES = ["a", "b", "c"], range(40), range(4)
#: 0/1 attempts: 3 models x 40 items in 10 passages x 4 samples.
ATTEMPTS = pd.DataFrame(
    [(m, i, s, float(RNG.random() < 0.6), i // 4) for m in MODELS for i in ITEMS for s in SAMPLES],
    columns=["model", "item", "sample", "score", "passage"],
)
#: A judge's graded scores on every item, people's labels on every third item.
LABELLED = pd.DataFrame(
    [(m, i, RNG.random(), i // 4) for m in MODELS for i in ITEMS],
    columns=["model", "item", "score", "passage"],
)
LABELLED["human"] = np.where(LABELLED["item"] % 3 == 0, (LABELLED["score"] > 0.5) * 1.0, np.nan)
ITEMS_FRAME = pdcompare.from_items(LABELLED.drop(columns="human"), cluster="passage")
BINARY_ITEMS = pdcompare.from_items(ATTEMPTS[ATTEMPTS["sample"] == 0].drop(columns="sample"))
LABELLED_FRAME = pdcompare.from_items(LABELLED, human="human")
_Y = RNG.integers(0, 2, 60)
PREDICTIONS = pd.DataFrame(
    {
        "y": _Y,
        "m1": np.where(RNG.random(60) < 0.8, _Y, 1 - _Y),
        "m2": np.where(RNG.random(60) < 0.7, _Y, 1 - _Y),
    }
)
BENCHMARK = pd.DataFrame(RNG.random((4, 8)), index=list("ABCD")).rename_axis(columns="dataset")
BENCHMARK.iloc[0, 2] = np.nan  # a hole: Skillings–Mack's case
SCORES = pd.DataFrame(RNG.random((3, 10)), index=list("xyz"))  # models x CV splits
JUDGES = pd.DataFrame(
    {
        "human": RNG.integers(0, 3, 50),
        "j1": RNG.integers(0, 3, 50),
        "j2": RNG.integers(0, 3, 50),
        "g": np.arange(50) // 5,
    }
)
LONG_PREDICTIONS = pd.DataFrame(
    [(m, r, int(RNG.integers(0, 2)), int(_Y[r])) for m in ["m1", "m2"] for r in range(20)],
    columns=["model", "row", "prediction", "y"],
)
#: Every column name of the tables above: a drawn value equal to one may be a good one.
COLUMNS = {"model", "item", "sample", "score", "passage", "human", "j1", "j2", "g", "row",
           "prediction", "y"}  # fmt: skip

#: Values of every kind a caller might pass by mistake.
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 10**9),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(
        [
            "PASS@K",
            "pass@",
            "Mean",
            "CR2",
            "ppi+",
            "wilson ",
            "midp",
            "durbin",
            "skillings-mack",
            "ordinal",
            "betting",
            "obrien_fleming",
            "random",
        ]
    ),
    st.lists(st.sampled_from(["x", "human", "j1"]), max_size=2),
    st.dictionaries(st.sampled_from(["a", "x"]), st.integers(0, 2), max_size=1),
    st.tuples(st.just("x"), st.integers(0, 1)),
    st.just(b"score"),
)


def _is(value, *options):
    """Whether ``value`` is one of ``options`` (``0 == False`` does not count)."""
    return any(type(value) is type(o) and value == o for o in options if o is not None) or (
        value is None and None in options
    )


def _positive_int(value, high=np.inf):
    return type(value) is int and 1 <= value <= high


def _column(value):
    try:
        return value in COLUMNS
    except TypeError:  # unhashable: never a column
        return False


#: name -> (call with the value, whether the value is a good one, the keyword named).
CASES = {
    "from_items(estimand=)": (
        lambda v: pdcompare.from_items(ATTEMPTS, sample="sample", estimand=v, k=2),
        lambda v: _is(v, "mean", "pass@k", "pass^k"),
        "estimand",
    ),
    "from_items(estimand='pass@k', k=)": (
        lambda v: pdcompare.from_items(ATTEMPTS, sample="sample", estimand="pass@k", k=v),
        lambda v: _positive_int(v, 4),
        "k",
    ),
    "from_items(estimand='pass^k', k=)": (
        lambda v: pdcompare.from_items(ATTEMPTS, sample="sample", estimand="pass^k", k=v),
        lambda v: _positive_int(v, 4),
        "k",
    ),
    "from_items(k=) without an estimand": (
        lambda v: pdcompare.from_items(ATTEMPTS, sample="sample", k=v),
        lambda v: v is None,
        "k",
    ),
    "from_items(human=)": (
        lambda v: pdcompare.from_items(LABELLED, human=v),
        lambda v: v is None or _column(v),
        "human",
    ),
    "from_items(label_design=)": (
        lambda v: pdcompare.from_items(LABELLED, human="human", label_design=v),
        lambda v: _is(v, "random", "stratified", "class_balanced"),
        "label_design",
    ),
    "from_items(label_design='stratified', strata=)": (
        lambda v: pdcompare.from_items(
            LABELLED, human="human", label_design="stratified", strata=v
        ),
        _column,
        "strata",
    ),
    "from_items(strata=) without label_design": (
        lambda v: pdcompare.from_items(LABELLED, human="human", strata=v),
        lambda v: v is None,
        "strata",
    ),
    "labelled items ttest(estimator=)": (
        lambda v: LABELLED_FRAME.cmp.ttest(estimator=v),
        lambda v: _is(v, None, "ppi++", "ppi", "labels", "judge", "rogan_gladen"),
        "estimator",
    ),
    "labelled items summary(estimator=)": (
        lambda v: LABELLED_FRAME.cmp.summary(estimator=v),
        lambda v: _is(v, None, "ppi++", "ppi", "labels", "judge", "rogan_gladen"),
        "estimator",
    ),
    "items without labels ttest(estimator=)": (
        lambda v: ITEMS_FRAME.cmp.ttest(estimator=v),
        lambda v: v is None,
        "estimator",
    ),
    "scores ttest(estimator=)": (
        lambda v: SCORES.cmp.ttest(estimator=v, cv=10),
        lambda v: v is None,
        "estimator",
    ),
    "items ttest(se=)": (
        lambda v: ITEMS_FRAME.cmp.ttest(se=v),
        lambda v: _is(v, None, "cr2", "cr1"),
        "se",
    ),
    "items summary(se=)": (
        lambda v: ITEMS_FRAME.cmp.summary(se=v),
        lambda v: _is(v, None, "cr2", "cr1"),
        "se",
    ),
    "scores ttest(se=)": (
        lambda v: SCORES.cmp.corrected_ttest(se=v, cv=10),
        lambda v: False,
        "se",
    ),
    "mcnemar(interval=)": (
        lambda v: PREDICTIONS.cmp.mcnemar(interval=v),
        lambda v: _is(v, None, "tango", "newcombe", "wald"),
        "interval",
    ),
    "mcnemar(exact=)": (
        lambda v: PREDICTIONS.cmp.mcnemar(exact=v),
        lambda v: v is None or v is True or v is False or _is(v, "midp"),
        "exact",
    ),
    "binary items summary(interval=)": (
        lambda v: BINARY_ITEMS.cmp.summary(interval=v),
        lambda v: _is(v, None, "t", "wilson"),
        "interval",
    ),
    "scores summary(interval=)": (
        lambda v: SCORES.cmp.summary(interval=v),
        lambda v: _is(v, None, "t"),
        "interval",
    ),
    "benchmark friedman(nan_policy=)": (
        lambda v: BENCHMARK.cmp.friedman(nan_policy=v),
        lambda v: _is(v, "propagate", "omit", "skillings_mack"),
        "nan_policy",
    ),
    "judge_agreement(level=)": (
        lambda v: pdcompare.judge_agreement(JUDGES, level=v, n_resamples=20, random_state=0),
        lambda v: _is(v, "nominal", "ordinal", "interval"),
        "level",
    ),
    "judge_agreement(judges=)": (
        lambda v: pdcompare.judge_agreement(JUDGES, judges=v, n_resamples=20, random_state=0),
        lambda v: v is None or _column(v) or v in (["j1"],),
        "judges",
    ),
    "judge_agreement(cluster=)": (
        lambda v: pdcompare.judge_agreement(JUDGES, cluster=v, n_resamples=20, random_state=0),
        lambda v: v is None or _column(v),
        "cluster",
    ),
    "labelled items judge_agreement(level=)": (
        lambda v: LABELLED_FRAME.cmp.judge_agreement(level=v, n_resamples=20, random_state=0),
        lambda v: _is(v, "nominal", "ordinal", "interval"),
        "level",
    ),
    "labelled items judge_agreement(judges=)": (
        lambda v: LABELLED_FRAME.cmp.judge_agreement(judges=v, n_resamples=20, random_state=0),
        lambda v: v is None or v == {},
        "judges",
    ),
    "labelled items judge_agreement(cluster=)": (
        lambda v: LABELLED_FRAME.cmp.judge_agreement(cluster=v, n_resamples=20, random_state=0),
        lambda v: v is None,
        "cluster",
    ),
    "from_predictions(model=)": (
        lambda v: pdcompare.from_predictions(LONG_PREDICTIONS, model=v),
        lambda v: _is(v, "model"),
        "model",
    ),
    "from_predictions(prediction=)": (
        lambda v: pdcompare.from_predictions(LONG_PREDICTIONS, prediction=v),
        lambda v: _is(v, "prediction"),
        "prediction",
    ),
    "from_predictions(nan_policy=)": (
        lambda v: pdcompare.from_predictions(LONG_PREDICTIONS, nan_policy=v),
        lambda v: _is(v, "raise", "omit", "propagate"),
        "nan_policy",
    ),
    "sequential(boundary=)": (
        lambda v: BINARY_ITEMS.cmp.sequential(boundary=v),
        lambda v: _is(v, "normal_mixture", "betting", "evalue"),
        "boundary",
    ),
    "sequential(planned_n=)": (
        lambda v: BINARY_ITEMS.cmp.sequential(planned_n=v),
        lambda v: v is None or _positive_int(v),
        "planned_n",
    ),
}


def _message_of(call, value):
    """The error ``call(value)`` raises (asserting it is raised inside pdcompare), or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(value)
    except ALLOWED as error:
        raised_in = traceback.extract_tb(error.__traceback__)[-1].filename
        message = str(error)
    else:
        return None
    assert os.sep + "pdcompare" + os.sep in raised_in, f"{message} ({raised_in})"
    return message


@pytest.mark.parametrize("name", list(CASES))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=VALUES)
def test_bad_values_of_new_keywords_are_refused_by_name(name, value):
    call, good, keyword = CASES[name]
    assume(not good(value))
    message = _message_of(call, value)
    assert message is not None, f"{name}: {value!r} gave a result"
    assert f"`{keyword}" in message, f"{name}: {value!r}: {message}"


#: Values that look right but are not: each case's error names its keyword.
PLAIN = [
    ("from_items(estimand=)", "pass@K"),
    ("from_items(estimand='pass@k', k=)", 5),  # more than the 4 attempts
    ("from_items(estimand='pass@k', k=)", 2.0),
    ("from_items(k=) without an estimand", 2),
    ("from_items(human=)", "labels"),
    ("from_items(label_design=)", "balanced"),
    ("from_items(label_design='stratified', strata=)", {0: "s"}),  # items without a stratum
    ("from_items(strata=) without label_design", "passage"),
    ("labelled items ttest(estimator=)", "ppi+"),
    ("items without labels ttest(estimator=)", "ppi++"),
    ("items without labels ttest(estimator=)", "labels"),
    ("scores ttest(estimator=)", "judge"),
    ("items ttest(se=)", "hc3"),
    ("items summary(se=)", "CR2"),
    ("mcnemar(interval=)", "wilson"),
    ("mcnemar(exact=)", "mid-p"),
    ("binary items summary(interval=)", "clopper_pearson"),
    ("scores summary(interval=)", "wilson"),  # a proportion's interval on CV scores
    ("benchmark friedman(nan_policy=)", "durbin"),  # not a balanced incomplete design
    ("benchmark friedman(nan_policy=)", "skillings-mack"),
    ("judge_agreement(level=)", "ratio"),
    ("judge_agreement(judges=)", ["j1", "j1"]),
    ("judge_agreement(judges=)", ["j1", "human"]),
    ("judge_agreement(cluster=)", "passage"),
    ("labelled items judge_agreement(judges=)", ["j1"]),
    ("labelled items judge_agreement(cluster=)", "passage"),
    ("from_predictions(model=)", "y"),
    ("from_predictions(model=)", None),
    ("from_predictions(nan_policy=)", "skillings_mack"),
    ("sequential(boundary=)", "obrien_fleming"),
    ("sequential(planned_n=)", 0),
    ("sequential(planned_n=)", 10.5),
]


@pytest.mark.parametrize(("name", "value"), PLAIN)
def test_near_miss_values_are_refused_by_name(name, value):
    call, _, keyword = CASES[name]
    message = _message_of(call, value)
    assert message is not None, f"{name}: {value!r} gave a result"
    assert f"`{keyword}" in message, f"{name}: {value!r}: {message}"


def test_the_score_column_is_not_its_own_human_labels():
    """``human=`` naming the judge's score column would compare the judge with itself."""
    with pytest.raises(ValueError, match=r"`human` names the score column 'score'"):
        pdcompare.from_items(LABELLED, human="score")


def test_unhashable_columns_are_refused_by_name():
    """A list or dict where a column name is wanted: the keyword named, not pandas' TypeError."""
    with pytest.raises(ValueError, match=r"`human`: the table has no column \['x'\]"):
        pdcompare.from_items(LABELLED, human=["x"])
    with pytest.raises(ValueError, match=r"`strata`: the table has no column \['x'\]"):
        pdcompare.from_items(LABELLED, human="human", label_design="stratified", strata=["x"])
    with pytest.raises(ValueError, match=r"`cluster`: the table has no column \['x'\]"):
        pdcompare.judge_agreement(JUDGES, cluster=["x"])
    with pytest.raises(ValueError, match=r"`judges`: the table has no column \{'a': 1\}"):
        pdcompare.judge_agreement(JUDGES, judges={"a": 1})
    with pytest.raises(ValueError, match=r"`model`: the table has no column \['x'\]"):
        pdcompare.from_predictions(LONG_PREDICTIONS, model=["x"])
    with pytest.raises(ValueError, match=r"`model` must name a column of the table; got None"):
        pdcompare.from_predictions(LONG_PREDICTIONS, model=None)


# The command line: argparse's refusals and pdcompare's, with the option named, exit 2.
@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("keywords")
    ATTEMPTS.to_csv(folder / "attempts.csv", index=False)
    LABELLED.to_csv(folder / "labelled.csv", index=False)
    (folder / "empty.txt").write_text("")
    return folder


CLI = [
    (["attempts.csv", "--items", "--sample-col", "sample", "--estimand", "pass@"], "--estimand"),
    (["attempts.csv", "--items", "--sample-col", "sample", "--estimand", "pass@k", "--k", "0"],
     "--k"),
    (["attempts.csv", "--items", "--sample-col", "sample", "--estimand", "pass@k", "--k", "x"],
     "--k"),
    (["attempts.csv", "--items", "--sample-col", "sample", "--estimand", "pass@k", "--k", "1.5"],
     "--k"),
    (["attempts.csv", "--items", "--sample-col", "sample", "--estimand", "pass^k", "--k", "9"],
     "--k"),
    (["attempts.csv", "--items", "--sample-col", "sample", "--k", "2"], "--k"),
    (["labelled.csv", "--items", "--human-col", "people"], "--human-col"),
    (["labelled.csv", "--items", "--human-col", "model"], "human"),
    (["labelled.csv", "--items", "--human-col", "human", "--estimator", "ppi+"], "--estimator"),
    (["labelled.csv", "--items", "--estimator", "ppi"], "estimator"),
    (["labelled.csv", "--items", "--human-col", "human", "--estimator", "rogan_gladen"],
     "estimator"),
    (["attempts.csv", "--items", "--instances", "no_such_file.txt"], "--instances"),
    (["SWEBENCH", "--format", "swebench", "--instances", "empty.txt"], "instances"),
    (["SWEBENCH", "--format", "swebench", "--instances", "attempts.csv"], "instances"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "named"), CLI)
def test_command_line_refuses_bad_values_by_name(capsys, files, argv, named):
    argv = [str(files / a) if a.endswith((".csv", ".txt")) else a for a in argv]
    argv = [str(SWEBENCH) if a == "SWEBENCH" else a for a in argv]
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own refusals
        code = stop.code
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert "Traceback" not in err
    assert named in err, err

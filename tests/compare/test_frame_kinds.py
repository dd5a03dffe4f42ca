"""Every (registry test, frame kind) pair: a result where the registry allows it, else a sentence.

The frame kind is decided in one place (``inputs/kinds.frame_kind``) and every
public comparison is declared against its registry row (``compare/calls.py``),
so the table of kinds is the truth: a test runs on every kind its row names
and refuses every other kind with a sentence naming what to use. The keywords
every family shares are refused by every allowed pair, whatever the kind
(an items frame once accepted ``nan_policy="bogus"`` silently).

Reference: the registry's own rows (``BY_NAME[test].kinds``) and the rule of
each shared keyword (scipy's three ``nan_policy`` values, the five
alternatives, a level in (0, 1)).
"""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from frames import (
    ar_forecasts,
    correlated_scores,
    eval_items_long,
    runs_over_tasks,
    seed_runs,
    simulated_battles,
)

import pdcompare
from pdcompare._validation import OptionError
from pdcompare.compare.registry import TESTS
from pdcompare.inputs.kinds import FrameKind, frame_kind

K = FrameKind

#: Tests whose predictions are scores (probabilities), not labels.
SCORE_TESTS = ("auc_ci", "delong")
#: The 5x2cv tests: ten splits of 2-fold CV.
FIVE_BY_TWO = ("ttest_5x2cv", "ftest_5x2cv")
#: Tests of forecasts (a continuous truth in time order).
FORECAST_TESTS = ("diebold_mariano", "confidence_set")


def _cv_results():
    rng = np.random.default_rng(0)
    frame = {"params": [{"C": c} for c in (1, 2, 3)], "param_C": [1, 2, 3]}
    for split in range(10):
        frame[f"split{split}_test_score"] = 0.8 + rng.normal(0, 0.02, 3)
    return pd.DataFrame(frame)


def _predictions(test, dates=False):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 120)
    if test in SCORE_TESTS:
        frame = pd.DataFrame({"y": y, **{m: y + rng.normal(0, s, 120) for m, s in
                                         (("a", 0.6), ("b", 0.9), ("c", 1.2))}})  # fmt: skip
    else:
        frame = pd.DataFrame(
            {
                "y": y,
                **{
                    m: np.where(rng.random(120) < p, y, 1 - y)
                    for m, p in (("a", 0.9), ("b", 0.8), ("c", 0.7))
                },
            }
        )
    if dates:
        frame.index = pd.date_range("2024-01-01", periods=len(frame), freq="D")
    return frame


def frame_of(kind, test):
    """A small frame of ``kind`` on which ``test`` can run when its row allows the kind."""
    if kind is K.SCORES:
        return correlated_scores(3, 10).cmp.set_design(cv=2 if test in FIVE_BY_TWO else 10)
    if kind is K.CV_RESULTS:
        return _cv_results()
    if kind is K.BENCHMARK:
        frames = {f"d{d}": correlated_scores(3, 5, seed=d) for d in range(8)}
        return pd.concat(frames, axis=1, names=["dataset", "split"]).cmp.set_design(cv=5)
    if kind is K.RUNS:
        return seed_runs(3, 8).cmp.set_design(paired=False)
    if kind is K.TASK_RUNS:
        return runs_over_tasks(3, 4, 4)
    if kind is K.PREDICTIONS:
        return _predictions(test)
    if kind is K.FORECASTS:
        return ar_forecasts(80) if test in FORECAST_TESTS else _predictions(test, dates=True)
    if kind is K.ITEMS:  # McNemar and Cochran take unclustered items
        cluster = None if test in ("mcnemar", "cochrans_q") else "passage"
        return pdcompare.from_items(eval_items_long(3, 8, 4, 1), cluster=cluster)
    if kind is K.BATTLES:
        return pdcompare.from_battles(simulated_battles([0.6, 0.0, -0.6], 400, seed=1))
    return pdcompare.ttest(correlated_scores(3, 10))


def options_of(test, kind, frame):
    """The keywords ``test`` cannot run without, small resampling sizes, the design it needs."""
    options = {
        "equivalence": {"rope": 0.01}, "power": {"delta": 0.01},
        "nemenyi": {"alpha": 0.05, "correction": None},
        "conover": {"alpha": 0.05, "correction": "holm"},
        "hierarchical": {"n_samples": 300, "chains": 2, "random_state": 0},
    }.get(test, {})  # fmt: skip
    for keyword in ("n_resamples", "n_draws", "n_bootstrap"):
        options[keyword] = 199
    if kind is K.CV_RESULTS:
        options["cv"] = 2 if test in FIVE_BY_TWO else 10
    if kind.reads_as(K.PREDICTIONS):
        models = [column for column in frame.columns if column != "y"]
    else:
        models = pdcompare.scores(frame).index if kind is K.CV_RESULTS else frame.index
    if test == "gate":
        options.update(candidate=models[0], baseline=models[1], margin=0.01)
    if test == "pareto":
        options["cost"] = pd.Series(np.arange(1.0, len(models) + 1), index=list(models))
    return options


def call(test, kind, **extra):
    """Run ``test`` on the frame of ``kind`` with what it needs and no keyword it does not take."""
    row = next(t for t in TESTS if t.name == test)
    frame = frame_of(kind, test)
    options = {**options_of(test, kind, frame), **extra}
    import inspect

    parameters = inspect.signature(row.function).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    for keyword in ("n_resamples", "n_draws", "n_bootstrap", "random_state"):
        if keyword in options and keyword not in parameters and keyword not in extra:
            options.pop(keyword)
    if not takes_any:
        options = {k: v for k, v in options.items() if k in parameters or k in extra}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return row.function(frame, **options)


PAIRS = [(test.name, kind) for test in TESTS for kind in FrameKind]
ALLOWED = [(name, kind) for name, kind in PAIRS if next(t for t in TESTS if t.name == name)
           .accepts(kind)]  # fmt: skip
REFUSED = [pair for pair in PAIRS if pair not in ALLOWED]


def test_every_kind_is_decided_from_its_frame():
    for kind in FrameKind:
        test = "delong" if kind.reads_as(K.PREDICTIONS) else "ttest"
        assert frame_kind(frame_of(kind, test)) is kind, kind


def test_the_pairs_cover_the_registry_and_every_kind():
    assert len(PAIRS) == len(TESTS) * len(FrameKind)
    assert {name for name, _ in ALLOWED} == {test.name for test in TESTS}
    assert {kind for _, kind in ALLOWED} == set(FrameKind) - {K.RESULT}


@pytest.mark.parametrize(("test", "kind"), ALLOWED, ids=[f"{t}-{k}" for t, k in ALLOWED])
def test_an_allowed_pair_gives_a_result(test, kind):
    result = call(test, kind)
    assert isinstance(result, pd.DataFrame)
    assert len(result) > 0


@pytest.mark.parametrize(("test", "kind"), REFUSED, ids=[f"{t}-{k}" for t, k in REFUSED])
def test_every_other_pair_is_refused_with_one_sentence_naming_what_to_use(test, kind):
    with pytest.raises(ValueError, match=r"\.$") as caught:
        call(test, kind)
    message = str(caught.value)
    assert "\n" not in message
    assert re.search(r"`[.a-z_]+(\(|`)", message), message  # a function or keyword to use
    assert not isinstance(caught.value, TypeError)


BAD_KEYWORDS = [
    ("nan_policy", "bogus", "`nan_policy` must be one of"),
    ("alternative", "sideways", "`alternative` must be one of"),
    ("alpha", 2, "`alpha` must be"),
]


@pytest.mark.parametrize(("test", "kind"), ALLOWED, ids=[f"{t}-{k}" for t, k in ALLOWED])
@pytest.mark.parametrize(
    ("keyword", "value", "match"), BAD_KEYWORDS, ids=[b[0] for b in BAD_KEYWORDS]
)
def test_a_bad_shared_keyword_is_refused_by_every_allowed_pair(test, kind, keyword, value, match):
    with pytest.raises(OptionError, match=match) as caught:
        call(test, kind, **{keyword: value})
    assert caught.value.keyword == keyword

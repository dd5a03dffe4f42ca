"""A release gate: whether a candidate model is not worse than its baseline by a margin.

The decision of ``pdcompare gate`` and of ``report(baseline=..., margin=...)``
lives here; they only word it. One one-sided test of non-inferiority (the
candidate better than the baseline minus the margin) and one of
inferiority (the candidate worse than the baseline) give the two one-sided
bounds of candidate − baseline at 1 − alpha, and the outcome follows from
them: "non-inferior" when the lower bound is above −margin, "worse" when the
upper bound is below 0 (and non-inferiority is not shown), else
"inconclusive". For losses the same in the direction of the scores.
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np
import pandas as pd

from pdcompare._validation import (
    OptionError,
    check_call_keywords,
    check_fraction,
    check_option,
    warnings_once,
)
from pdcompare.compare.auc import delong
from pdcompare.compare.battles_gate import battles_gate
from pdcompare.compare.calls import comparison
from pdcompare.compare.margin import OUTCOMES, check_margin, gate_outcome  # noqa: F401 (gate.OUTCOMES)
from pdcompare.compare.paired import corrected_ttest, ttest
from pdcompare.compare.registry import gate_tests
from pdcompare.compare.unpaired import welch_ttest
from pdcompare.inputs.attrs import with_attrs
from pdcompare.inputs.data import scores_data, validated_once
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.results import column_values, result_meta
from pdcompare.stats.spending import SPENDING, critical_values, upper_tail

#: The tests a gate can rest on (those that take ``margin=``): the registry's ``gates`` rows.
GATE_TESTS = gate_tests()

_FUNCTIONS = {
    "corrected_ttest": corrected_ttest,
    "ttest": ttest,
    "welch_ttest": welch_ttest,
    "delong": delong,
}


def truth_column(frame: pd.DataFrame, y: Any = None) -> Any:
    """The truth column of a predictions frame (``y``, or a column named "y"), else None."""
    if y is not None:
        if y not in frame.columns:
            msg = f"`y`: the truth column {y!r} is not a column of the frame."
            raise OptionError(msg, keyword="y")
        return y
    return "y" if "y" in frame.columns and not frame_kind(frame).has_datasets else None


def gate_test(frame: pd.DataFrame, y: Any = None, **design: Any) -> str:
    """The test a gate of ``frame`` rests on, as ``report()`` chooses it.

    ``delong`` on a predictions frame (a truth column), ``welch_ttest`` on a
    runs frame, ``corrected_ttest`` on a scores frame whose CV design is
    known, the plain ``ttest`` otherwise.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> gate_test(load_grid_search_scores())
    'corrected_ttest'
    """
    if truth_column(frame, y) is not None:
        return "delong"
    _refuse_benchmark(frame)
    # ``estimator`` (a labelled items frame's) and ``se`` (the items ttest's clustered
    # standard error) are read by its ttest, not CV design keywords.
    data = scores_data(
        frame, **{key: value for key, value in design.items() if key not in ("estimator", "se")}
    )
    if not data.design.paired:
        return "welch_ttest"
    return "corrected_ttest" if data.design.test_train_ratio is not None else "ttest"


def _refuse_benchmark(frame: pd.DataFrame) -> None:
    if frame_kind(frame).has_datasets:
        msg = (
            "A gate compares two models on one evaluation; this is a benchmark frame (several "
            "data sets). Gate on one data set's scores frame (`df[name]`)."
        )
        raise ValueError(msg)


@comparison("gate")
def gate(
    frame: pd.DataFrame,
    candidate: Any,
    baseline: Any,
    *,
    margin: float,
    alpha: float = 0.05,
    test: str | None = None,
    y: Any = None,
    spending: str = "obf",
    look: tuple[int, int] | None = None,
    **design: Any,
) -> pd.DataFrame:
    """Gate a release: is ``candidate`` not worse than ``baseline`` by ``margin`` or more.

    Parameters
    ----------
    frame : pandas.DataFrame
        A scores, runs (``paired=False``), items, predictions (of scores) or
        battles frame (``from_battles``: see Notes).
    candidate, baseline : model name
        The model that would be released and the one it replaces.
    margin : float
        How much worse than the baseline the candidate may be and still pass,
        in the units of the score (≥ 0; 0 asks for "not significantly worse
        than", which a candidate can pass only by being significantly better).
    alpha : float, default 0.05
        Both bounds are one-sided at level 1 − alpha.
    test : {"corrected_ttest", "ttest", "welch_ttest", "delong"}, optional
        The test; by default the frame's own, as ``report()`` chooses it:
        ``corrected_ttest`` when the CV design is known (``cv=``,
        ``test_size=`` or stored), else ``ttest``; ``welch_ttest`` on runs;
        ``delong`` on a predictions frame.
    y : label, optional
        The truth column of a predictions frame (a column named "y" is
        found without it).
    spending : {"obf", "pocock", "bonferroni"}, default "obf"
        With ``look``: how ``alpha`` is spent over the planned looks
        (Lan–DeMets, O'Brien–Fleming-type by default: little early, close to
        ``alpha`` at the last look).
    look : (int, int), optional
        ``(k, K)``: this gate is the k-th of K planned looks (nightly runs of
        one release), at information fraction ``k / K``. Both bounds are then
        one-sided at 1 − the look's level: the tail probability of the
        spending's normal bound (the design two-sided at ``2 alpha``, each
        side spending ``alpha``), read on the test's own t (or normal)
        distribution. Without it, one look at ``alpha``.
    **design
        ``cv=``, ``test_size=``, ``n_train=`` with ``n_test=``,
        ``greater_is_better=``, ``paired=`` (scores frames); ``pos_label=``
        (predictions frames).
        On a labelled items frame (``from_items(..., human=)``) also
        ``estimator=``: "ppi++" (the default: the judge's scores corrected
        by the human labels, λ tuned), "ppi" (λ = 1), "labels" (the labelled
        items alone), "judge" (the judge alone, uncorrected) or
        "rogan_gladen" (class-balanced binary labels; DESIGN section 31).

    Returns
    -------
    pandas.DataFrame
        One row: ``candidate, baseline, test, mean_diff`` (candidate −
        baseline: the AUC difference for ``delong``), ``margin, ci_low,
        ci_high`` (one-sided bounds of the difference at 1 − alpha each),
        ``pvalue`` (of non-inferiority: H0 candidate worse by at least the
        margin), ``pvalue_worse`` (H0 candidate not worse), ``outcome``.
        ``attrs["pdcompare"]`` holds ``test="gate"``, the test used
        (``gate_test``), alpha, margin, the direction, the ``unit`` of the
        evidence ("split", "run" or "sample") and ``n`` (how many of them
        each model has).

    Notes
    -----
    With higher scores better, ``outcome`` is "non-inferior" when
    ``ci_low > −margin`` (equivalently ``pvalue < alpha``), "worse" when
    ``ci_high < 0`` and non-inferiority is not shown, "inconclusive"
    otherwise; with losses (``greater_is_better=False``) "non-inferior" when
    ``ci_high < margin`` and "worse" when ``ci_low > 0``. A candidate shown
    worse than the baseline but by less than the margin is non-inferior.
    "Inconclusive" is not a pass: the evaluation is too small to tell a
    regression of the margin's size from none (Wellek 2010; the FDA's
    non-inferiority guidance, 2016).

    A scores frame is models x CV splits, a runs frame models x seeds, a
    predictions frame a truth column and one column of probabilities per
    model. On a battles frame the gate reads the Bradley–Terry rating
    difference, the margin in rating points, ``ties=`` as in
    ``bradley_terry`` (``pdcompare.compare.battles_gate.battles_gate``).

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> rng = np.random.default_rng(0)
    >>> base = 0.8 + rng.normal(0, 0.02, 10)
    >>> scores = pd.DataFrame([base - 0.002 + rng.normal(0, 0.003, 10), base],
    ...                       index=["new", "old"])
    >>> out = scores.cmp.gate("new", "old", margin=0.01, cv=10)
    >>> out[["test", "mean_diff", "ci_low", "outcome"]].round(4)
                  test  mean_diff  ci_low       outcome
    0  corrected_ttest    -0.0034 -0.0057  non-inferior

    The bound is the one-sided corrected t interval; compare with scipy:

    >>> from scipy import stats
    >>> d = scores.loc["new"] - scores.loc["old"]
    >>> se = np.sqrt(d.var() * (1 / 10 + 1 / 9))
    >>> round(float(d.mean() - stats.t.ppf(0.95, 9) * se), 4)
    -0.0057
    """
    margin = check_margin(margin, "better")
    if margin is None:
        msg = "`margin` is required: how much worse the candidate may be, in score units."
        raise TypeError(msg)
    alpha = check_fraction("alpha", alpha)
    if alpha >= 0.5:
        msg = f"`alpha` must be below 0.5 for a one-sided gate; got {alpha!r}."
        raise OptionError(msg, keyword="alpha")
    if frame_kind(frame) is FrameKind.BATTLES:
        return _battles(frame, candidate, baseline, margin, alpha, test, y, look, design)
    level = look_level(alpha, spending, look)
    if candidate == baseline:
        msg = f"`candidate` and `baseline` are the same model ({candidate!r})."
        raise OptionError(msg, keyword="candidate")
    # One validation of the frame for every test asked below, each warning said once.
    with warnings_once(), validated_once():
        truth = truth_column(frame, y)
        if truth is None:
            _refuse_benchmark(frame)
        if test is None:
            test = gate_test(frame, y, **design)
        check_option("test", test, GATE_TESTS)
        if (test == "delong") != (truth is not None):
            kind = "predictions" if truth is not None else "scores"
            wanted = "delong" if truth is not None else "corrected_ttest, ttest or welch_ttest"
            msg = f"`test={test!r}` does not fit a {kind} frame; use {wanted}."
            raise OptionError(msg, keyword="test")
        options = {"y": truth, **design} if truth is not None else design
        run = _FUNCTIONS[test]
        check_call_keywords(run, options, f"A gate resting on `{test}`")
        better = run(
            frame, candidate, baseline, alternative="better", alpha=level, correction=None,
            margin=margin, **options,
        )  # fmt: skip
        worse = run(
            frame, candidate, baseline, alternative="worse", alpha=level, correction=None,
            **options,
        )  # fmt: skip
        meta = better.attrs["pdcompare"]
        unit, sizes = _sizes(frame, test, meta, candidate, baseline, design)
    greater_is_better = bool(meta.get("greater_is_better", True))
    # Read as numpy: a column as a Series would copy the attrs (every model's name) each time.
    diff = _first(better, "auc_diff" if test == "delong" else "mean_diff")
    if greater_is_better:
        low, high = _first(better, "ci_low"), _first(worse, "ci_high")
    else:
        low, high = _first(worse, "ci_low"), _first(better, "ci_high")
    if np.isnan(low) or np.isnan(high):
        msg = (
            f"The gate of {candidate!r} against {baseline!r} has no bounds: a score is "
            "missing or there are too few splits (see the warnings)."
        )
        raise ValueError(msg)
    outcome = gate_outcome(low, high, margin, greater_is_better)
    row = {
        "candidate": [candidate],
        "baseline": [baseline],
        "test": [test],
        "mean_diff": [diff],
        "margin": [margin],
        "ci_low": [low],
        "ci_high": [high],
        "pvalue": [_first(better, "pvalue")],
        "pvalue_worse": [_first(worse, "pvalue")],
        "outcome": [outcome],
    }
    result = pd.DataFrame(row)
    keep = ("design", "unit", "score", "n_pos", "n_neg", "pos_label", *_ITEMS_KEYS)
    return with_attrs(
        result,
        result_meta(
            "gate",
            gate_test=test,
            alpha=alpha,
            margin=margin,
            greater_is_better=greater_is_better,
            models=[candidate, baseline],
            unit=unit,
            n=sizes,
            **{key: meta[key] for key in keep if key in meta and key != "unit"},
            **({} if look is None else {"spending": spending, "look": list(look), "level": level}),
        ),
    )


def look_level(alpha: float, spending: str, look: Any) -> float:
    """The one-sided level of a gate at look ``(k, K)`` (``alpha`` without a look).

    The two-sided design at ``2 alpha`` spends ``alpha`` a side; the level is
    the one-sided tail of the k-th bound, ``1 − Φ(c_k)``.

    Examples
    --------
    >>> round(look_level(0.05, "obf", (1, 2)), 5), round(look_level(0.05, "obf", (2, 2)), 5)
    (0.00557, 0.04825)
    >>> look_level(0.05, "obf", None)
    0.05
    """
    check_option("spending", spending, SPENDING)
    if look is None:
        return alpha
    if (
        not isinstance(look, tuple | list)
        or len(look) != 2
        or not all(isinstance(x, numbers.Integral) and not isinstance(x, bool) for x in look)
        or not 1 <= look[0] <= look[1]
    ):
        msg = f"`look` must be (k, K), the k-th of K planned looks with 1 ≤ k ≤ K; got {look!r}."
        raise OptionError(msg, keyword="look")
    k, total = int(look[0]), int(look[1])
    bounds = critical_values(np.arange(1, total + 1) / total, 2.0 * alpha, spending)
    return float(upper_tail(bounds[k - 1]))


def _sizes(
    frame: pd.DataFrame, test: str, meta: dict, candidate: Any, baseline: Any, design: dict
) -> tuple[str, list[int]]:
    """The unit of the gate's evidence and how many of them each model has."""
    if test == "delong":
        return "sample", [int(meta["n_pos"] + meta["n_neg"])] * 2
    if meta.get("unit") == "item":  # an items frame: its items (every model has them all)
        return "item", [int(meta["n_items"])] * 2
    data = scores_data(frame, **design)
    present = ~np.isnan(data.values)
    where = [data.names.get_loc(model) for model in (candidate, baseline)]
    if test == "welch_ttest":
        return "run", [int(present[k].sum()) for k in where]
    both = int((present[where[0]] & present[where[1]]).sum())
    return "split", [both, both]


#: What a gate on an items frame keeps of its test's metadata (the words name the unit).
_ITEMS_KEYS = (
    "n_items", "n_clusters", "clustered", "cluster_name", "item_name", "task_name", "n_tasks",
    "samples_per_item", "task_sizes", "samples_range", "se_type", "se_df",
    "estimand", "k", "estimand_label", "attempts_per_item", "attempts_range",
    "estimator", "estimator_words", "label_design", "n_labelled", "n_unlabelled", "effective_n",
)  # fmt: skip


def _battles(frame, candidate, baseline, margin, alpha, test, y, look, design) -> pd.DataFrame:
    """The gate of a battles frame: :func:`battles_gate`, with the keywords it takes."""
    if test not in (None, "bradley_terry_z"):
        msg = (
            f"`test={test!r}` does not fit a battles frame, whose gate rests on the "
            "Bradley–Terry rating difference: leave out `test` (or pass 'bradley_terry_z')."
        )
        raise OptionError(msg, keyword="test")
    given = {"y": y, "look": look, **{key: True for key in design if key != "ties"}}
    for keyword, value in given.items():
        if value is not None:
            msg = (
                f"`{keyword}=` does not apply to a battles frame; its gate takes `margin` (in "
                f"rating points), `alpha` and `ties`. Leave out `{keyword}=`."
            )
            raise OptionError(msg, keyword=keyword)
    return battles_gate(
        frame, candidate, baseline, margin=margin, alpha=alpha, ties=design.get("ties", "half")
    )


def _first(result: pd.DataFrame, name: str) -> float:
    """The value of column ``name`` in the one row of a pair result."""
    return float(column_values(result, name)[0])

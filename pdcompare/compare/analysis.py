"""The comparisons a report rests on: which tests run on a frame, in one family, once.

``report()`` and the command line both describe a frame through the result
frames of one :class:`Analysis`: its summary, the Friedman test on a benchmark
frame, the frequentist test of one family of comparisons, the Bayesian
comparison of the same family when a rope is given, and the random-effects
pooling when asked. Deciding which comparisons to run is this module's job;
writing words about them is ``report.py``'s, printing them ``cli.py``'s.

The family (DESIGN section 14): every pair up to :data:`ALL_PAIRS_UP_TO`
models; beyond, the best model against each of the others, so that the
correction runs over the m − 1 comparisons the conclusions are drawn from and
every count a report gives ("18 of the other 59 models are significantly
worse") comes from that family alone. The mean-rank tests (Nemenyi, Conover)
always compare every pair: their statistic is defined over all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd

from pdcompare._validation import (
    OptionError,
    check_correction,
    check_fraction,
    check_option,
    check_rope,
)
from pdcompare.compare import bayes as bayes_module
from pdcompare.compare import rank_sets
from pdcompare.compare.aggregates import TaskRunsAnalysis, analyse_task_runs
from pdcompare.compare.calls import check_shared_keywords
from pdcompare.compare.effect_size import effect_size
from pdcompare.compare.equivalence import equivalence
from pdcompare.compare.forecast import confidence_set, diebold_mariano
from pdcompare.compare.hierarchical import hierarchical
from pdcompare.compare.pairwise import pairwise
from pdcompare.compare.pareto import pareto
from pdcompare.compare.power import detectable_difference
from pdcompare.compare.random_effects import random_effects
from pdcompare.compare.ranks import friedman
from pdcompare.compare.registry import BY_NAME, default_correction, report_tests
from pdcompare.compare.summary import items_summary, summary_table
from pdcompare.inputs.data import validated_once
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.inputs.scores import ALL_PAIRS, converted_search

#: Tests a report can use for its significance part, on a scores frame (the registry's).
REPORT_TESTS = report_tests("scores")
#: ... on an items frame (questions of an evaluation).
ITEMS_REPORT_TESTS = report_tests("items")
#: ... on a runs frame (independent runs over seeds).
RUNS_REPORT_TESTS = report_tests("runs")
#: ... and across the data sets of a benchmark frame.
BENCHMARK_REPORT_TESTS = report_tests("benchmark")
#: The mean-rank tests: their family is every pair, at any number of models.
RANK_TESTS = tuple(
    name for name in BENCHMARK_REPORT_TESTS if BY_NAME[name].family == "mean-rank test"
)
#: Up to this many models a report's family is every pair; beyond, the best against the rest.
ALL_PAIRS_UP_TO = 10


@dataclass(frozen=True)
class Analysis:
    """The result frames one report (or one run of the command line) rests on.

    Attributes
    ----------
    frame : pandas.DataFrame
        The compared frame: a scores or benchmark frame (a ``cv_results_``
        frame converted).
    benchmark : bool
        Whether the frame compares models across data sets.
    design_known : bool
        Whether the CV design (test/train ratio) is known.
    summary : pandas.DataFrame
        ``summary()`` of the frame, best first.
    test : str
        The frequentist test of :attr:`significance`.
    family : {"all_pairs", "vs_best"}
        Which comparisons :attr:`significance` (and :attr:`bayes`,
        :attr:`pooled`) hold: every pair, or the best model against each other.
    significance : pandas.DataFrame
        The frequentist test of the family, corrected over its rows.
    friedman : pandas.DataFrame or None
        Friedman's test, on a benchmark frame.
    bayes : pandas.DataFrame or None
        The Bayesian comparison of the family, when a rope was given and the
        design allows it: ``bayes``, or ``hierarchical`` when asked for.
    pooled : pandas.DataFrame or None
        ``random_effects`` of the family, when asked for.
    effect_sizes : pandas.DataFrame or None
        ``effect_size`` of the family (d_z on scores and benchmark frames,
        Cliff's delta on runs frames).
    detectable : numpy.ndarray or None
        For each row of :attr:`significance`, the difference the design could
        detect with power 0.8 at the family's Bonferroni level alpha/m (None
        when the design is unknown).
    equivalence : pandas.DataFrame or None
        On a runs frame with a rope: Welch's TOST of the family.
    runs : bool
        Whether the frame holds independent runs (``paired=False``).
    rope : float, (float, float) or None
        The rope asked for (:attr:`bayes` is None when the design is unknown).
    fallback_test : bool
        Whether the plain t-test stands in for the corrected one because the
        design is unknown and no test was asked for.
    pareto : pandas.DataFrame or None
        ``pareto`` of the frame against the cost asked for.
    ranks : pandas.DataFrame or None
        ``ranks()`` of the frame (simultaneous rank sets), when asked for.
    rank_sets : pandas.DataFrame or None
        The simultaneous 95% rank sets the report's "may be the best" reads,
        always (``rank_sets.report_rank_sets``; the same frame as
        :attr:`ranks` when asked for); None where the frame's covariance is
        unknown or the models are too many.
    """

    frame: pd.DataFrame
    benchmark: bool
    design_known: bool
    summary: pd.DataFrame
    test: str
    family: str
    significance: pd.DataFrame
    friedman: pd.DataFrame | None = None
    bayes: pd.DataFrame | None = None
    pooled: pd.DataFrame | None = None
    effect_sizes: pd.DataFrame | None = None
    detectable: Any = None
    equivalence: pd.DataFrame | None = None
    runs: bool = False
    rope: Any = None
    fallback_test: bool = False
    pareto: pd.DataFrame | None = None
    ranks: pd.DataFrame | None = None
    rank_sets: pd.DataFrame | None = None

    @property
    def best(self) -> Any:
        """The best model (first row of the summary)."""
        return self.summary.index[0]


@dataclass(frozen=True)
class ForecastAnalysis:
    """The result frames a report of forecasts in time order rests on.

    Attributes
    ----------
    frame : pandas.DataFrame
        The predictions frame: the observed values in ``y``, one column of
        forecasts per model, rows in time order.
    summary : pandas.DataFrame
        The model confidence set (``confidence_set``), indexed by model in
        elimination order: the best (lowest mean loss) last eliminated, first
        here after sorting by mean loss.
    significance : pandas.DataFrame
        ``diebold_mariano`` of the family (every pair up to 10 models, the
        best against the others beyond).
    family : {"all_pairs", "vs_best"}
        As in :class:`Analysis`.
    """

    frame: pd.DataFrame
    summary: pd.DataFrame
    significance: pd.DataFrame
    family: str
    test: str = "diebold_mariano"
    benchmark: bool = False
    bayes: Any = None
    equivalence: Any = None
    pooled: Any = None
    confidence_set: pd.DataFrame | None = None
    default_block: bool = True

    @property
    def best(self) -> Any:
        """The model with the lowest mean loss."""
        return self.summary.index[0]


def analyse_forecasts(
    frame: pd.DataFrame,
    *,
    alpha: float = 0.05,
    correction: str | None = "default",
    alternative: str = "two-sided",
    random_state: Any = 0,
    block_size: int | None = None,
) -> ForecastAnalysis:
    """Diebold–Mariano of the report's family and the model confidence set of a forecast frame.

    The confidence set resamples blocks of rows (the stationary bootstrap),
    as losses of forecasts in time order are correlated in time: of mean
    length ``block_size``, by default :func:`default_block_size` of the rows.
    """
    correction = default_correction("diebold_mariano", correction)
    default_block = block_size is None
    if default_block:
        block_size = default_block_size(len(frame))
    mcs = confidence_set(frame, random_state=random_state, block_size=block_size)
    family = report_family(len(mcs), "diebold_mariano")
    scope = ALL_PAIRS if family == "all_pairs" else None
    dm = diebold_mariano(frame, scope, alpha=alpha, correction=correction, alternative=alternative)
    return ForecastAnalysis(
        frame=frame,
        summary=mcs.sort_values("mean_loss", kind="stable"),
        significance=dm,
        family=family,
        confidence_set=mcs,
        default_block=default_block,
    )


def default_block_size(n_rows: int) -> int:
    """The report's mean block length for ``n_rows`` time points: round(n^(1/3)), at least 2.

    Never more than the rows (a frame of one row has no blocks to draw).

    Examples
    --------
    >>> default_block_size(100), default_block_size(5), default_block_size(1000)
    (5, 2, 10)
    """
    return max(min(2, n_rows), min(n_rows, round(n_rows ** (1.0 / 3.0))))


def report_family(n_models: int, test: str) -> str:
    """The family of comparisons a report of ``n_models`` models draws its conclusions from.

    Examples
    --------
    >>> report_family(4, "corrected_ttest"), report_family(60, "corrected_ttest")
    ('all_pairs', 'vs_best')
    >>> report_family(60, "nemenyi")
    'all_pairs'
    """
    if n_models <= ALL_PAIRS_UP_TO or test in RANK_TESTS:
        return "all_pairs"
    return "vs_best"


def check_report_options(
    frame: pd.DataFrame,
    test: str | None,
    rope: Any,
    alpha: float,
    ci: float,
    correction: str | None,
    alternative: str,
) -> None:
    """Refuse bad options before any comparison runs, naming the keyword."""
    check_fraction("alpha", alpha)
    check_fraction("ci", ci)
    if rope is not None:
        check_rope(rope)  # the one rule bayes applies
    if test is not None:
        check_option("test", test, report_tests(frame_kind(frame)))
    if correction != "default":
        check_correction(correction, "correction")
    if test in RANK_TESTS and alternative != "two-sided":
        msg = f"`alternative` must be 'two-sided' for test={test!r}; got {alternative!r}."
        raise ValueError(msg)


def analyse(
    frame: pd.DataFrame,
    *,
    test: str | None = None,
    rope: float | tuple[float, float] | None = None,
    alpha: float = 0.05,
    correction: str | None = "default",
    alternative: str = "two-sided",
    ci: float = 0.95,
    nan_policy: str = "propagate",
    pooled: bool = False,
    hierarchical: bool = False,
    random_state: Any = 0,
    cost: Any = None,
    ranks: bool = False,
    block_size: int | None = None,
    **design: Any,
) -> Analysis | ForecastAnalysis | TaskRunsAnalysis:
    """Run the comparisons a report of ``frame`` rests on, validating the frame once.

    A predictions frame of forecasts in time order (a truth column and a
    time index, or a time-ordered design) gets a :class:`ForecastAnalysis`; a
    runs-over-tasks frame (``paired=False``, tasks and runs) a
    :class:`~pdcompare.compare.aggregates.TaskRunsAnalysis`.

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores frame, ``cv_results_`` frame (``metric=``, ``names=``,
        ``iteration=`` among ``design``) or benchmark frame.
    test : str, optional
        The frequentist test (see :data:`REPORT_TESTS` and
        :data:`BENCHMARK_REPORT_TESTS`); by default the corrected t-test when
        the design is known, else the plain t-test, and "wilcoxon" across
        data sets.
    rope : float or (float, float), optional
        When given, the Bayesian comparison of the same family too (on a
        scores frame only when the design is known).
    alpha, correction, alternative, ci, nan_policy
        As in ``report``.
    pooled : bool, default False
        Add ``random_effects`` (a ``(dataset, split)`` benchmark frame only).
    hierarchical : bool, default False
        The Bayesian comparison of the family by ``hierarchical`` rather
        than the signed-rank test (a ``(dataset, split)`` benchmark frame
        with its CV design, and a ``rope``).
    random_state : int, numpy Generator or None, default 0
        Seed of every Monte Carlo step (the Bayesian signed-rank test, the
        hierarchical test's sampler, the rank sets' draws), so that the same
        frame gives the same analysis.
    cost : Series, DataFrame or str, optional
        Add ``pareto`` of the frame against this cost (one per model,
        per split, or a ``cv_results_`` column's name).
    ranks : bool, default False
        Add the 95% simultaneous rank confidence sets (``ranks``).
    block_size : int, optional
        Forecasts in time order only: the mean block length of the model
        confidence set's stationary bootstrap (default round(n^(1/3)) of the
        n time points, at least 2).
    **design
        The design keywords and ``greater_is_better=``.

    Returns
    -------
    Analysis
        The result frames.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> found = analyse(load_grid_search_scores(), rope=0.01)
    >>> found.test, found.family, len(found.significance), found.best
    ('corrected_ttest', 'all_pairs', 6, 'rbf')
    """
    check_shared_keywords(
        {"alpha": alpha, "ci": ci, "correction": correction, "alternative": alternative,
         "nan_policy": nan_policy, "random_state": random_state},
    )  # fmt: skip
    kind = frame_kind(frame)
    if block_size is not None and kind is not FrameKind.FORECASTS:
        msg = (
            "`block_size` is the mean block length of the model confidence set of forecasts "
            "in time order (a truth column 'y' and a date index, or "
            "`set_design(time_ordered=True)`); this frame holds no forecasts."
        )
        raise OptionError(msg, keyword="block_size")
    asked = {"test": test, "rope": rope, "pooled": pooled, "hierarchical": hierarchical}
    match kind:
        case FrameKind.FORECASTS:
            _refuse_for_forecasts(asked, ranks, design)
            return analyse_forecasts(
                frame, alpha=alpha, correction=correction, alternative=alternative,
                random_state=random_state, block_size=block_size,
            )  # fmt: skip
        case FrameKind.TASK_RUNS:
            if test is not None or rope is not None or pooled or hierarchical or design:
                msg = (
                    "A report of runs over tasks gives rliable's aggregates and the "
                    "probability of improvement; `test` and `rope` do not apply (nor pooled, "
                    "hierarchical or the CV design)."
                )
                raise ValueError(msg)
            return analyse_task_runs(frame, ci=ci, random_state=random_state)
    check_report_options(frame, test, rope, alpha, ci, correction, alternative)
    options = _Options(
        test, rope, alpha, correction, alternative, ci, nan_policy, pooled, hierarchical,
        random_state, cost, ranks,
    )  # fmt: skip
    return _analyse_scores(frame, options, design)


@dataclass(frozen=True)
class _Options:
    """The report's keywords, checked, as one value for the analysis of a frame of scores."""

    test: str | None
    rope: Any
    alpha: float
    correction: str | None
    alternative: str
    ci: float
    nan_policy: str
    pooled: bool
    hierarchical: bool
    random_state: Any
    cost: Any
    ranks: bool


def _refuse_for_forecasts(asked: dict[str, Any], ranks: bool, design: dict[str, Any]) -> None:
    others = asked["rope"] is not None or asked["pooled"] or asked["hierarchical"]
    if asked["test"] not in (None, "diebold_mariano") or others or ranks or design:
        msg = (
            "A report of forecasts in time order runs the Diebold–Mariano test and the model "
            "confidence set; `test`, `rope`, `pooled`, `hierarchical`, `ranks` and design "
            "keywords do not apply."
        )
        raise ValueError(msg)


def _analyse_scores(frame: pd.DataFrame, o: _Options, design: dict[str, Any]) -> Analysis:
    """The analysis of a frame of scores: models x splits, runs, items or data sets."""
    original, asked = frame, dict(design)  # pareto reads a cv_results_ frame's cost column
    frame, design = converted_search(frame, design)
    kind = frame_kind(frame)
    benchmark, items = kind.has_datasets, kind is FrameKind.ITEMS
    if o.pooled and not benchmark:
        msg = "`pooled=True` pools over data sets: it needs a benchmark frame."
        raise ValueError(msg)
    if o.hierarchical:
        _check_hierarchical(benchmark, o.rope)
    nan_policy, test = o.nan_policy, o.test
    with validated_once():
        summary = (items_summary if items else summary_table)(frame, ci=o.ci, **design)
        known = summary.attrs["pdcompare"].get("design", {}).get("test_train_ratio") is not None
        runs = summary.attrs["pdcompare"].get("unit") == "run"
        if runs and nan_policy == "propagate":
            nan_policy = "omit"  # on a runs frame NaN is an absent run, not a missing score
        fallback = test is None and not (known or benchmark or runs or items)
        test = test or ("ttest" if items else _default_test(known, benchmark, runs))
        family = report_family(len(summary), test)
        scope = ALL_PAIRS if family == "all_pairs" else None
        common = {"nan_policy": nan_policy, **design}
        found: dict[str, Any] = {}
        if benchmark:
            found["friedman"] = friedman(frame, **_friedman_options(summary, common))
        significance = _significance(
            frame, test, scope, o.correction, o.alternative, o.alpha, common
        )
        found.update(_bayes_family(frame, scope, o, common, known, benchmark, runs or items))
        if test not in RANK_TESTS and not items:
            found["effect_sizes"] = effect_size(frame, scope, **common)
        if (not runs and (known or benchmark or items)) or (runs and test == "welch_ttest"):
            found["detectable"] = detectable_difference(frame, significance, **design)
        found.update(_asked_extras(frame, original, asked, scope, o, common, design))
        found["rank_sets"] = found.get("ranks")
        if found["rank_sets"] is None:
            found["rank_sets"] = rank_sets.report_rank_sets(
                frame, random_state=o.random_state, **design
            )
    return Analysis(
        frame=frame, benchmark=benchmark, design_known=known, summary=summary, test=test,
        family=family, significance=significance, rope=o.rope, runs=runs,
        fallback_test=fallback, **found,
    )  # fmt: skip


def _friedman_options(summary: pd.DataFrame, common: dict[str, Any]) -> dict[str, Any]:
    """The report's Friedman keywords: Skillings–Mack on a benchmark with holes (by default).

    A benchmark whose models did not all run on every data set gets the
    Skillings–Mack test (every data set kept) unless ``nan_policy`` asked to
    leave the data sets out ("omit") or to raise.
    """
    holes = summary.attrs["pdcompare"].get("n_missing", 0)
    if holes and common["nan_policy"] == "propagate":
        return {**common, "nan_policy": "skillings_mack"}
    return common


def _bayes_family(frame, scope, o: _Options, common, known, benchmark, unpaired_or_items):
    """The Bayesian (or, on runs and items, the equivalence) comparison of the family."""
    if o.rope is not None and unpaired_or_items:
        return {"equivalence": equivalence(frame, scope, rope=o.rope, alpha=o.alpha, **common)}
    if o.hierarchical:
        return {
            "bayes": _hierarchical_family(frame, scope, o.rope, o.alpha, o.random_state, common)
        }
    if o.rope is not None and (known or benchmark):
        options = {"random_state": o.random_state} if benchmark else {"ci": o.ci}
        return {
            "bayes": bayes_module.bayes(
                frame, scope, rope=o.rope, alpha=o.alpha, **options, **common
            )
        }
    return {}


def _asked_extras(frame, original, asked, scope, o: _Options, common, design):
    """What the report was asked for beyond the family: trade-offs, pooling, rank sets."""
    found: dict[str, Any] = {}
    if o.cost is not None:
        found["pareto"] = pareto(
            original, o.cost, alpha=o.alpha,
            correction=default_correction("pareto", o.correction), **asked,
        )  # fmt: skip
    if o.pooled:
        correction = default_correction("random_effects", o.correction)
        found["pooled"] = random_effects(
            frame, scope, alpha=o.alpha, correction=correction, **common
        )
    if o.ranks:
        found["ranks"] = rank_sets.ranks(frame, random_state=o.random_state, **design)
    return found


def _default_test(known: bool, benchmark: bool, runs: bool) -> str:
    """The family's test when none is asked for: the one the frame's design supports."""
    if runs:
        return "welch_ttest"
    if benchmark:
        return "wilcoxon"
    return "corrected_ttest" if known else "ttest"


def _significance(
    frame: pd.DataFrame,
    test: str,
    scope: Any,
    correction: str | None,
    alternative: str,
    alpha: float,
    common: dict[str, Any],
) -> pd.DataFrame:
    """The family's frequentist test: every pair (mean-rank tests) or the report's scope."""
    if test in RANK_TESTS:
        return pairwise(frame, test=test, correction=correction, alpha=alpha, **common)
    return BY_NAME[test].function(
        frame, scope, alternative=alternative, alpha=alpha,
        correction=default_correction(test, correction), **common,
    )  # fmt: skip


def _check_hierarchical(benchmark: bool, rope: Any) -> None:
    """Refuse ``hierarchical=True`` where it cannot run, before any comparison."""
    if not benchmark:
        msg = (
            "`hierarchical=True` compares models across data sets, each with its folds: it "
            "needs a benchmark frame with (dataset, split) columns. On one data set `rope` "
            "alone gives the Bayesian correlated t-test."
        )
        raise ValueError(msg)
    if rope is None:
        msg = (
            "`hierarchical=True` gives the report's Bayesian verdicts: pass `rope` too (the "
            "region of practical equivalence, in the units of the score; 0 asks only which "
            "model is better)."
        )
        raise ValueError(msg)


def _hierarchical_family(frame, scope, rope, alpha, random_state, common):
    """``hierarchical`` of the report's family; its refusals name ``hierarchical=True``."""
    try:
        return hierarchical(
            frame, scope, rope=rope, alpha=alpha, random_state=random_state, **common
        )
    except ValueError as error:
        msg = f"`hierarchical=True`: {error}"
        cli = getattr(error, "cli_message", None)
        raise OptionError(
            msg, keyword="hierarchical", cli_message=f"--hierarchical: {cli}" if cli else None
        ) from None

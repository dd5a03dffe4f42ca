"""The conclusion of a comparison in plain words, with its numbers.

``df.cmp.report()`` writes what the result frames of one analysis say
(:func:`pdcompare.compare.analysis.analyse` decides which comparisons run: the
summary, the frequentist test of one family, the Bayesian comparison of the
same family when a rope is given): which model is best, which differences are
significant after correction, which are practically equivalent. Every sentence
quotes the numbers of the result frames it comes from, so the text can be
checked against them. This module runs no test of its own.

The text stays readable at any number of models: per-pair lines are written
for the best ``top`` models only (every pair among them up to ``top`` models;
beyond, the best against the next ``top - 1``), the rest are counted, and
lists of names are separated by "; " so that names containing commas stay
readable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import pandas as pd

from pdcompare._validation import (
    check_keywords,
    check_option,
    check_positive_int,
    warnings_once,
)
from pdcompare.compare.aggregates import TaskRunsAnalysis
from pdcompare.compare.analysis import Analysis, ForecastAnalysis, analyse
from pdcompare.compare.calls import check_shared_keywords
from pdcompare.compare.rank_sets import REPORT_RANKS_UP_TO
from pdcompare.inputs.attrs import read_only
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.presentation.labels import (
    PYTHON,
    Spelling,
    join_names,
    spelling,
    spoken,
)
from pdcompare.presentation.report import document
from pdcompare.presentation.report import items as item_words
from pdcompare.presentation.report.battles import battles_report
from pdcompare.presentation.report.bayes import bayes_lines
from pdcompare.presentation.report.equivalence import equivalence_lines
from pdcompare.presentation.report.forecasts import forecast_lines
from pdcompare.presentation.report.gate import gate_report
from pdcompare.presentation.report.pareto import pareto_lines
from pdcompare.presentation.report.pooled import pooled_lines
from pdcompare.presentation.report.rank_sets import best_line, not_ranked_line, rank_set_lines
from pdcompare.presentation.report.rows import rows_of
from pdcompare.presentation.report.runs_over_tasks import task_runs_lines
from pdcompare.presentation.report.sequential import sequential_lines
from pdcompare.presentation.report.significance import friedman_lines, significance_lines
from pdcompare.presentation.report.summary import summary_lines
from pdcompare.results import result_info


def _unknown_design() -> str:
    words = spelling()
    where = "" if words.command_line else "; on the command line --cv or --test-size"
    return (
        "WARNING: the CV design is unknown, so the corrected t-test cannot be used; the plain "
        "paired t-test is used instead. It treats the CV splits as independent, but they share "
        "training data, so its p-values are too small and differences look significant too "
        f"often. Pass the design ({words.design_keywords()}{where}) for the corrected test."
    )


#: Default number of models with lines of their own.
DEFAULT_TOP = 10


def _select_report(result: pd.DataFrame) -> str:
    info = result_info(result)
    chosen = result.index[result["selected"].to_numpy(dtype=bool)]
    eligible = result.index[result["eligible"].to_numpy(dtype=bool)]
    lines = [
        "pdcompare report: choosing a model",
        "==================================",
        f"Rule: {info.rule}; best mean: {info.best}; selected: {join_names(chosen)}.",
        info.get("reason", ""),
        f"Eligible under the rule, simplest first: {join_names(eligible)}.",
    ]
    return "\n".join(line for line in lines if line) + "\n"


def report(
    frame: pd.DataFrame,
    *,
    test: str | None = None,
    rope: float | tuple[float, float] | None = None,
    alpha: float = 0.05,
    correction: str | None = "default",
    alternative: str = "two-sided",
    ci: float = 0.95,
    nan_policy: str = "propagate",
    top: int | None = DEFAULT_TOP,
    pooled: bool = False,
    hierarchical: bool = False,
    random_state: Any = 0,
    ranks: bool = False,
    format: str = "text",
    baseline: Any = None,
    candidate: Any = None,
    margin: float | None = None,
    cost: Any = None,
    block_size: int | None = None,
    sequential: bool = False,
    **design: Any,
) -> str:
    """The comparison of the models of a scores frame, in plain words with its numbers.

    Parameters
    ----------
    frame : pandas.DataFrame
        Scores frame (models as rows, splits as columns), ``cv_results_``
        frame, benchmark frame (several data sets), or the result of
        ``select`` (then the choice is explained).
    test : str, optional
        Test of every pair: "corrected_ttest", "ttest", "wilcoxon" or
        "sign_test"; across data sets "wilcoxon", "sign_test", "ttest",
        "nemenyi" or "conover". Default: the corrected t-test when the design
        is known, else the plain t-test, with a warning sentence in the text;
        "wilcoxon" on a benchmark frame.
    rope : float or (float, float), optional
        Half-width (or bounds) of the region of practical equivalence, in the
        units of the score; when given (and the design is known), the Bayesian
        correlated t-test of every pair (the Bayesian signed-rank test on a
        benchmark frame) says which models are practically equivalent.
    alpha : float, default 0.05
        Significance level; the Bayesian decision threshold is ``1 - alpha``.
    correction : str or None, default "default"
        Multiple-testing correction over the pairs (statsmodels' names,
        "shaffer" or None); "default" is "holm", and None for "nemenyi".
    alternative : {"two-sided", "better", "worse", "greater", "less"}, default "two-sided"
        Alternative of the frequentist test, about model_1 − model_2.
    ci : float, default 0.95
        Level of the summary's intervals and of the credible intervals.
    nan_policy : {"propagate", "omit", "raise"}, default "propagate"
        Missing scores: "propagate" reports those pairs as without result (and
        warns), "omit" drops the missing splits (data sets) pair by pair,
        "raise" raises.
    top : int or None, default 10
        Number of best models with lines of their own: up to ``top`` models
        every pair is listed; beyond, the best model against the next
        ``top - 1``, and the other models are counted. None lists every pair.
    pooled : bool, default False
        On a benchmark frame with ``(dataset, split)`` columns, add the
        random-effects pooling of the per-data-set differences
        (``random_effects``): the pooled difference, its interval, and the
        prediction interval for a new data set.
    hierarchical : bool, default False
        On a benchmark frame with ``(dataset, split)`` columns, the CV design
        and a ``rope``: the Bayesian paragraph comes from the hierarchical
        test (``hierarchical``) of the report's family, which keeps every
        data set's folds, instead of the signed-rank test of the per-data-set
        means (see Notes). Refused on other frames and without ``rope``.
    random_state : int, numpy Generator or None, default 0
        Seed of every Monte Carlo step (the Bayesian signed-rank test across
        data sets, the hierarchical test's sampler, the rank sets' draws), so
        that the same frame gives the same text on every run.
    ranks : bool, default False
        Add the rank sets of the best ``top`` (``ranks``). Which models may
        be the best, from the 95% simultaneous rank confidence sets, is said
        always (up to 200 models; 2,000 draws beyond 50 models), under the
        summary, wherever the frame's covariance is known (the CV design on a
        scores frame). The report of a ``ranks`` result is that paragraph
        alone.
    format : {"text", "markdown", "html"}, default "text"
        Plain text; Markdown (the same words, the per-pair lines as lists,
        the tables as pipe tables: for a pull request or an experiment log);
        or one self-contained HTML page (the words, the styled tables of
        ``style()`` and the figures that suit the frame inline as SVG, no
        external resource, no script).
    cost : Series, DataFrame or str, optional
        Add a paragraph of the trade-off against this cost (``pareto``): one
        cost per model, per-split costs, or on a ``cv_results_`` frame a
        column's name such as ``"mean_fit_time"``.
    block_size : int, optional
        Forecasts in time order only: the model confidence set resamples
        blocks of rows (the stationary bootstrap) of this mean length,
        because losses in time are correlated; default round(n^(1/3)) of the
        n time points, at least 2, stated in the text.
    baseline, candidate, margin : optional
        A release gate instead of the comparison of every model: whether
        ``candidate`` (by default the best model other than the baseline)
        is not worse than ``baseline`` by ``margin`` or more (in the units
        of the score), in the words of ``pdcompare gate`` (see
        :func:`pdcompare.gate`); also on a predictions frame of scores.
        Text or Markdown; ``rope``, ``pooled`` and ``hierarchical`` do not
        apply.
    sequential : bool, default False
        An items frame read while it ran: add the paragraph of its
        confidence sequences (``pdcompare.sequential``), "monitored after
        every item; the interval is valid at every look".
    **design
        ``cv=``, ``test_size=``, or ``n_train=`` with ``n_test=``, and
        ``greater_is_better=``; on a ``cv_results_`` frame also ``metric=``,
        ``names=`` and ``iteration=`` (as in ``scores``).
        On a labelled items frame (``from_items(..., human=)``) also
        ``estimator=``: "ppi++" (the default: the judge's scores corrected
        by the human labels, λ tuned), "ppi" (λ = 1), "labels" (the labelled
        items alone), "judge" (the judge alone, uncorrected) or
        "rogan_gladen" (class-balanced binary labels; DESIGN section 31).

    Returns
    -------
    str
        Several lines of text.

    Notes
    -----
    The text is made from the result frames of
    ``pdcompare.compare.analysis.analyse``: ``summary`` and one family
    of comparisons, every pair up to 10 models (``pairwise(test)``), the
    best against each other model beyond (``test()``), corrected over the
    family's rows; ``bayes`` of the same family with a rope (Welch's TOST,
    ``equivalence``, on a runs frame). Every significant difference names
    its magnitude (``effect_size``: d_z, Cliff's delta on runs, with the
    conventional cut points); every difference that is not significant
    says what the design could have detected with power 0.8 at the
    family's Bonferroni level alpha/m (``power``); when the family cannot
    reach alpha at all (a rank test on few data sets) the text says so
    instead of calling the best "luck". Pairs are best-first, so a
    difference is ``model_1 − model_2`` of the higher-ranked minus the
    lower-ranked model. On a benchmark frame the Friedman test is reported
    too, never as a gate.

    ``hierarchical=True`` is opt-in: the hierarchical test uses more of the
    data (every fold, with the correlation the design implies) and answers
    about the next data set, but it samples a posterior for every pair
    (about a second of CPU time per pair at the default 10000 draws), so a
    report of 10 models takes 45 of those. The text names the test, says
    that it keeps the folds and whether its chains agree (split R-hat of
    ``δ0`` at most 1.01 on every pair); the HTML page draws the shrinkage of
    the first pair's data sets (its triangle when the family is one pair).

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> text = load_grid_search_scores().cmp.report(rope=0.01)
    >>> print(text.splitlines()[4])
    Best model: rbf, mean score 0.9400 (95% CI 0.8850 to 0.9950, corrected).
    >>> print(text.splitlines()[6])
    May be the best: rbf, linear and 3_poly (95% simultaneous rank sets).
    >>> print(text.splitlines()[9])  # doctest: +NORMALIZE_WHITESPACE
      rbf vs linear: difference +0.0100, 95% CI -0.0164 to 0.0364, t = 0.750,
      p = 0.455, holm-adjusted p = 0.538: not significant; these splits could detect
      about 0.0472 or more (power 0.8 at 0.05/6).
    >>> print(text.splitlines()[11])  # doctest: +NORMALIZE_WHITESPACE
      rbf vs 2_poly: difference +0.2548, 95% CI 0.1441 to 0.3655, t = 4.565, p < 0.001,
      holm-adjusted p < 0.001: SIGNIFICANT, large effect (d_z = 1.59).
    """
    shared = {"alpha": alpha, "correction": correction, "alternative": alternative, "ci": ci}
    check_shared_keywords(
        {**shared, "nan_policy": nan_policy, "random_state": random_state}
    )  # before the kind decides which report this is
    if baseline is not None or candidate is not None or margin is not None:
        if baseline is None:
            msg = "`candidate` and `margin` gate a candidate against a `baseline`: pass it."
            raise ValueError(msg)
        if rope is not None or pooled or hierarchical:
            msg = "`rope`, `pooled` and `hierarchical` do not apply to a gate (`baseline=`)."
            raise ValueError(msg)
        return gate_report(
            frame, baseline=baseline, candidate=candidate, margin=margin, alpha=alpha,
            test=test, format=format, **design,
        )  # fmt: skip
    match frame_kind(frame):
        case FrameKind.BATTLES:
            # A battles frame: Bradley–Terry ratings, rank sets and the pairs told apart.
            check_keywords(design, ("ties",), "The report of a battles frame")
            return battles_report(
                frame, alpha=alpha, correction=correction, ci=ci, top=top,
                random_state=random_state, format=format, **design,
            )  # fmt: skip
        case FrameKind.RESULT:
            return _result_report(frame, top)
    top = len(frame) if top is None else check_positive_int("top", top, minimum=2)
    check_option("format", format, ("text", "markdown", "html"))
    with warnings_once():
        analysis = analyse(
            frame,
            test=test,
            rope=rope,
            alpha=alpha,
            correction=correction,
            alternative=alternative,
            ci=ci,
            nan_policy=nan_policy,
            pooled=pooled,
            hierarchical=hierarchical,
            random_state=random_state,
            cost=cost,
            ranks=ranks,
            block_size=block_size,
            **design,
        )
        extra = sequential_lines(frame, alpha=alpha, top=top) if sequential else ()
        return report_text(analysis, top=top, format=format, extra=extra)


def _result_report(frame: pd.DataFrame, top: int | None) -> str:
    """The words of a result frame that has them (a selection, rank sets); others are refused."""
    info = result_info(frame)
    if info.test == "select":
        return _select_report(frame)
    if info.test == "ranks":
        shown = len(frame) if top is None else check_positive_int("top", top)
        return "\n".join(rank_set_lines(frame, shown)) + "\n"
    msg = (
        f"report() reads a scores, cv_results_ or benchmark frame; this is the result frame "
        f"of {info.test!r}. Call report() on the frame of scores the result came from "
        "(or style()/plot() on the result)."
    )
    raise ValueError(msg)


def report_text(
    analysis: Analysis,
    *,
    top: int | None = DEFAULT_TOP,
    format: str = "text",
    words: Spelling = PYTHON,
    extra: Sequence[str] = (),
) -> str:
    """The text of ``report`` (plain, Markdown or HTML) from an analysis already run.

    The command line prints the tables of the same analysis above it, and
    writes its ``--html`` and ``--markdown`` documents from it, in its own
    ``words`` (``COMMAND_LINE``: options, not keywords). ``extra`` lines
    (a paragraph of their own) close the text.
    """
    with spoken(words):
        return _report_text(analysis, top, format, extra)


def _report_text(analysis: Analysis, top: int | None, format: str, extra=()) -> str:
    top = len(analysis.summary) if top is None else top
    if isinstance(analysis, ForecastAnalysis):
        # The words only read the result frames: views whose metadata pandas need not copy.
        frames = vars(analysis).items()
        reading = dataclasses.replace(
            analysis, **{k: read_only(v) for k, v in frames if isinstance(v, pd.DataFrame)}
        )
        lines = forecast_lines(reading, top)
    elif isinstance(analysis, TaskRunsAnalysis):
        lines = task_runs_lines(analysis, top)
    else:
        lines = _report_lines(analysis, top)
    if extra:
        lines = [*lines, "", *extra]
    if format == "text":
        return "\n".join(lines) + "\n"

    if format == "markdown":
        return document.markdown(lines, analysis, top)
    return document.html_document(lines, analysis, top)


def _report_lines(analysis: Analysis, top: int) -> list[str]:
    # The words read each result frame's columns once, as numpy arrays (report.rows).
    summary = rows_of(analysis.summary)
    summary_design = summary.info.design
    best = analysis.best
    top_names = summary.index[:top]
    lines = ["pdcompare report", "================"]
    frame_info = result_info(analysis.frame) if analysis.frame is not None else None
    lines += summary_lines(summary, summary_design, top, analysis.benchmark, frame_info)
    lines += _best_lines(analysis)
    items = item_words.is_items_result(summary.info)
    lines += item_words.task_lines(analysis.frame, top_names) if items else []
    if analysis.fallback_test:
        lines += ["", _unknown_design()]
    if analysis.friedman is not None:
        lines += ["", *friedman_lines(rows_of(analysis.friedman))]
    lines += ["", *significance_lines(analysis, best, top_names)]
    lines += item_words.binary_lines(analysis.frame, summary.info, analysis.test) if items else []
    if analysis.bayes is not None:
        bayes = rows_of(analysis.bayes)
        lines += ["", *bayes_lines(bayes, analysis.family, best, top_names, analysis.benchmark)]
    elif analysis.rope is not None and analysis.equivalence is None:
        lines += [
            "",
            "Practical equivalence: not assessed, because the Bayesian correlated t-test "
            f"needs the CV design (pass {spelling().design_keywords()}).",
        ]
    if analysis.equivalence is not None:
        lines += ["", *equivalence_lines(rows_of(analysis.equivalence), best, top_names)]
    if analysis.pooled is not None:
        pooled = rows_of(analysis.pooled)
        lines += ["", *pooled_lines(pooled, analysis.family, best, top_names)]
    if analysis.pareto is not None:
        lines += ["", *pareto_lines(analysis.pareto)]
    if analysis.ranks is not None:  # asked for: the sets of the best (the best said above)
        lines += ["", rank_set_lines(analysis.ranks, top)[1]]
    return lines


def _best_lines(analysis: Analysis) -> list[str]:
    """Who may be the best (DESIGN 22 and 35), always: from the analysis's rank sets."""
    if analysis.rank_sets is not None:
        return [best_line(analysis.rank_sets)]
    if len(analysis.summary) > REPORT_RANKS_UP_TO:
        return [not_ranked_line(len(analysis.summary))]
    return []

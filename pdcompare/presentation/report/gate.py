"""The paragraph of a release gate: the outcome of ``gate()`` in words, with its numbers.

``pdcompare gate`` prints it (and writes it with ``--markdown`` for a pull
request comment) and ``report(baseline=..., margin=...)`` returns it: the
same words from the same one-row result frame. Nothing here decides:
:func:`gate_report` asks :func:`pdcompare.gate` and words its answer.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare._validation import check_option
from pdcompare.compare.auc import auc_ci
from pdcompare.compare.gate import gate, truth_column
from pdcompare.compare.summary import summary_table
from pdcompare.presentation.labels import (
    PYTHON,
    REPORT_TEST_NAMES,
    Spelling,
    format_number,
    format_signed,
    p_text,
    plural,
)
from pdcompare.presentation.report import items as item_words
from pdcompare.results import result_info

#: How the gate names each test it can rest on.
GATE_TEST_NAMES = {
    **REPORT_TEST_NAMES,
    "delong": "DeLong's test of the two AUCs on the same test samples",
    "bradley_terry_z": "z test of the Bradley–Terry rating difference (rating points, "
    "standard error from the Fisher information)",
}

#: The verdict that opens the paragraph, by outcome.
VERDICTS = {
    "non-inferior": "PASS (non-inferior)",
    "worse": "FAIL (significantly worse)",
    "inconclusive": "INCONCLUSIVE (not a pass)",
}


def _evidence(unit: str, sizes: Any, info: Any = None) -> str:
    sizes = [int(n) for n in sizes]
    if unit == "item":
        return item_words.unit_words(info, clustered_by=False, after=", answered by both models")
    if unit == "run":
        return f"{sizes[0]} and {sizes[1]} independent runs"
    if unit == "battle":
        among = f" among {info.get('n_models')} models" if info.get("n_models") else ""
        candidate, baseline = info.models
        return f"{sizes[0]} battles of {candidate} and {sizes[1]} of {baseline}{among}"
    if unit == "sample":
        return plural(sizes[0], "test sample", "test samples") + " scored by both models"
    return plural(sizes[0], "CV split", "CV splits") + " shared by both models"


def gate_lines(result: pd.DataFrame, *, words: Spelling = PYTHON) -> list[str]:
    """The gate's paragraph as lines: the verdict, the question, the numbers, the reason.

    Parameters
    ----------
    result : pandas.DataFrame
        The one-row result of :func:`pdcompare.gate`.
    words : Spelling, default PYTHON
        Keywords of a call, or the command line's options (``COMMAND_LINE``).

    Returns
    -------
    list of str
        The lines of the paragraph (plain text).

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> res = load_grid_search_scores().cmp.gate("linear", "rbf", margin=0.05)
    >>> print(gate_lines(res)[0])
    Gate: PASS (non-inferior). Candidate linear against baseline rbf, margin 0.05.
    """
    info = result_info(result)
    row = result.iloc[0]
    candidate, baseline = row["candidate"], row["baseline"]
    margin, alpha = float(row["margin"]), float(info.alpha)
    low, high, diff = float(row["ci_low"]), float(row["ci_high"]), float(row["mean_diff"])
    higher = info.direction
    unit, sizes = info.unit or "split", info.get("n", (0, 0))
    level = f"{1 - alpha:.0%}"
    look = info.get("look")
    if look is not None:  # a planned look of several: the bounds at the look's spent level
        level = (
            f"{1 - float(info.get('level')):.2%} (look {look[0]} of {look[1]}, "
            f"{info.get('spending')} spending of alpha = {alpha:g})"
        )
    what = "AUC difference" if row["test"] == "delong" else "difference"
    items = unit == "item"
    name = (
        item_words.family_test_name(row["test"], info) if items else GATE_TEST_NAMES[row["test"]]
    )
    lines = [
        f"Gate: {VERDICTS[row['outcome']]}. Candidate {candidate} against baseline "
        f"{baseline}, margin {margin:g}.",
        f"Test: {name}, on {_evidence(unit, sizes, info)}; "
        f"{'higher' if higher else 'lower'} {_scores(unit)} are better.",
        f"The {what} {candidate} − {baseline} is {format_signed(diff)}; one-sided {level} "
        f"bounds: lower {format_signed(low)}, upper {format_signed(high)}.",
    ]
    # In the direction of the scores: how much worse the candidate might be, and whether it is.
    worst, best_case = (low, high) if higher else (-high, -low)
    p = p_text("p", row["pvalue"])
    p_worse = p_text("p", row["pvalue_worse"])
    bound = "lower" if higher else "upper"
    limit = format_signed(-margin if higher else margin)
    if row["outcome"] == "non-inferior":
        reason = (
            f"Non-inferior: the {bound} bound is {'above' if higher else 'below'} {limit}, so "
            f"{candidate} is shown to be less than {margin:g} worse than {baseline} "
            f"({p} against 'worse by {margin:g} or more')."
        )
        if best_case < 0:
            reason += (
                f" It is significantly worse than {baseline} ({p_worse}), but by less "
                "than the margin."
            )
    elif row["outcome"] == "worse":
        reason = (
            f"Significantly worse: the {'upper' if higher else 'lower'} bound is "
            f"{'below' if higher else 'above'} 0 ({p_worse} against 'not worse'), and "
            f"non-inferiority by {margin:g} is not shown ({p})."
        )
    else:
        reason = (
            f"Inconclusive: the bounds allow {candidate} to be up to "
            f"{format_number(-worst)} worse, "
            f"more than the margin {margin:g} ({p} against 'worse by {margin:g} or "
            f"more'), and do not show it worse ({p_worse}). A regression of "
            f"{margin:g} cannot be told from none with this evaluation; more "
            f"{_more(unit, info)} would decide."
        )
    lines.append(reason)
    if row["test"] == "ttest" and not items:
        lines.append(
            "The CV design is unknown, so this is the plain t-test, whose bounds are too "
            "narrow when CV splits share training data; pass the design "
            f"({words.design_keywords()}) for the corrected test."
        )
    return lines


def _scores(unit: str) -> str:
    return "ratings" if unit == "battle" else "scores"


def _more(unit: str, info: Any) -> str:
    if unit == "item":
        noun = item_words.item_noun(info)
        clusters = f" (in more {item_words.cluster_noun(info)}s)" if info.clustered else ""
        return f"{noun}s{clusters}"
    return {"run": "runs", "sample": "test samples", "battle": "battles"}.get(
        unit, "CV splits (repeats)"
    )


def gate_text(result: pd.DataFrame, *, format: str = "text", words: Spelling = PYTHON) -> str:
    """The gate's paragraph as plain text or Markdown (for a pull-request comment).

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> res = load_grid_search_scores().cmp.gate("linear", "rbf", margin=0.05)
    >>> print(gate_text(res, format="markdown").splitlines()[0])
    ### Gate: **PASS (non-inferior)**
    """
    lines = gate_lines(result, words=words)
    if format != "markdown":
        return "\n".join(lines) + "\n"
    head, rest = lines[0].split(". ", 1)
    verdict = head.removeprefix("Gate: ")
    body = [rest, "", *(f"- {line}" for line in lines[1:])]
    return "\n".join([f"### Gate: **{verdict}**", "", *body]) + "\n"


def _best_other(frame: pd.DataFrame, baseline: Any, y: Any, design: dict[str, Any]) -> Any:
    """The best model other than ``baseline``: by mean score, or by AUC on predictions."""
    if truth_column(frame, y) is not None:
        options = {k: v for k, v in design.items() if k == "pos_label"}
        order = list(auc_ci(frame, y=truth_column(frame, y), **options).index)
    else:
        order = list(summary_table(frame, **design).index)
    if baseline not in order:
        msg = f"`baseline`: unknown model {baseline!r}; the models are {order!r}."
        raise ValueError(msg)
    return next(model for model in order if model != baseline)


def gate_report(
    frame: pd.DataFrame,
    *,
    baseline: Any,
    candidate: Any = None,
    margin: float | None = None,
    alpha: float = 0.05,
    test: str | None = None,
    format: str = "text",
    y: Any = None,
    **design: Any,
) -> str:
    """``report(baseline=..., margin=...)``: the gate of a candidate against a baseline, in words.

    The candidate is the best model other than the baseline unless
    ``candidate=`` names it; the paragraph is :func:`gate_text` of
    :func:`pdcompare.gate`, the words of ``pdcompare gate``.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> text = load_grid_search_scores().cmp.report(baseline="linear", margin=0.02)
    >>> print(text.splitlines()[0])
    Gate: PASS (non-inferior). Candidate rbf against baseline linear, margin 0.02.
    """
    check_option("format", format, ("text", "markdown"))
    if margin is None:
        msg = (
            "`margin` is required with `baseline`: how much worse than the baseline the "
            "candidate may be, in the units of the score (0 asks for 'not worse at all')."
        )
        raise TypeError(msg)
    if candidate is None:
        candidate = _best_other(frame, baseline, y, design)
    result = gate(frame, candidate, baseline, margin=margin, alpha=alpha, test=test, y=y, **design)
    return gate_text(result, format=format)

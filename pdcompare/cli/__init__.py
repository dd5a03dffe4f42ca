"""The ``pdcompare`` command: compare the models of a file of fold scores from the shell.

``pdcompare FILE`` reads a CSV (or parquet) of fold scores, first column the
model names, or a saved ``cv_results_`` table,
and prints the summary, the pairwise table and the report. ``pdcompare demo``
does the same on the bundled grid-search scores. Bad input ends with exit
status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from pdcompare.cli.gate import build_gate_parser, gate_main
from pdcompare.cli.options import (
    EXIT_USAGE,
    FORECAST_CLI_TESTS,
    PREDICTION_CLI_TESTS,
    build_parser,
    check_output_paths,
    one_line,
    speak_cli,
)
from pdcompare.cli.outputs import (
    analysis_document,
    battles_output,
    bayes_table,
    load_file,
    plot_result,
    plot_scores,
    select_output,
    table_text,
    task_runs_output,
    write_documents,
)
from pdcompare.cli.predictions import predictions_output, truth_column
from pdcompare.compare.aggregates import TaskRunsAnalysis
from pdcompare.compare.analysis import analyse
from pdcompare.inputs.files import read_frame, read_table, result_format
from pdcompare.inputs.kinds import FrameKind, frame_kind
from pdcompare.presentation.labels import (
    BENCHMARK_REPORT_TEST_NAMES,
    COMMAND_LINE,
    REPORT_TEST_NAMES,
    method_label,
    plural,
)
from pdcompare.presentation.report import report_text
from pdcompare.results import result_info

__all__ = ["build_gate_parser", "build_parser", "main", "read_frame", "run", "speak_cli"]


def run(args: argparse.Namespace) -> str:
    """Do what the parsed command line asks and return the text to print.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed by :func:`build_parser`.

    Returns
    -------
    str
        The summary, the pairwise table and the report (or the choice of a
        model with ``--select``).
    """
    check_output_paths(args)
    recognised = _recognised_format(args)
    if recognised is not None:  # read as --format auto would, without recognising it again
        args = argparse.Namespace(**{**vars(args), "format": recognised})
    if args.block_size is not None and not args.forecasts:
        msg = (
            "--block-size is the mean block length of the model confidence set of forecasts "
            "in time order: it applies with --forecasts only"
        )
        raise ValueError(msg)
    if args.battles:
        return battles_output(args)
    if args.forecasts or args.y is not None or _may_hold_truth(args):
        table = read_table(args.source)
        truth = truth_column(table, args)
        if truth is not None:  # a predictions file: its truth column is never a model
            return predictions_output(args, table, truth)
    if args.test in PREDICTION_CLI_TESTS + FORECAST_CLI_TESTS:
        msg = (
            f"--test {args.test} compares predictions: it reads a file with one row per test "
            "sample (or time point), the truth in a column (--y COLUMN, default y) and one "
            "column per model; this file has no truth column"
        )
        raise ValueError(msg)
    frame, title = load_file(args)
    searched = frame_kind(frame) is FrameKind.CV_RESULTS
    if args.metric is not None and args.format is None and not searched:
        msg = "`--metric` applies to cv_results_ files only; this file holds fold scores"
        raise ValueError(msg)
    design: dict[str, Any] = {}
    if args.cv is not None:
        design["cv"] = args.cv
    if args.test_size is not None:
        design["test_size"] = args.test_size
    if args.lower_is_better:
        design["greater_is_better"] = False
    if getattr(args, "estimator", None) is not None:  # a labelled items file's (--human-col)
        design["estimator"] = args.estimator
    if args.select:
        return title + "\n\n" + select_output(frame, args, design).rstrip("\n") + "\n"
    cost = None
    if args.cost is not None and frame_kind(frame) is FrameKind.CV_RESULTS:
        cost = args.cost  # pareto reads it from the cv_results_ frame's own columns
    elif args.cost is not None:
        if args.cost not in frame.columns:
            shown = ", ".join(map(str, list(frame.columns)[:8]))
            msg = f"--cost {args.cost}: no such column in this file (it has {shown}, ...)"
            raise ValueError(msg)
        cost = pd.to_numeric(frame[args.cost], errors="coerce")
        frame = frame.drop(columns=[args.cost])
    if frame_kind(frame) is FrameKind.CV_RESULTS:
        design["metric"] = args.metric
    bayes = args.test == "bayes"
    if bayes and args.rope is None:
        # The rope is the question the Bayesian test answers: not one to guess for the user.
        msg = (
            "--test bayes needs --rope R: the half-width of the region of practical "
            "equivalence, in the units of the score (say --rope 0.01); --rope 0 asks only "
            "which model is better"
        )
        raise ValueError(msg)
    # One analysis: the tables printed here and the report below come from the same results.
    analysis = analyse(
        frame,
        test=None if bayes else args.test,
        rope=args.rope,
        alpha=args.alpha,
        correction=args.correction,
        hierarchical=args.hierarchical,
        cost=cost,
        ranks=args.ranks,
        **design,
    )
    design.pop("metric", None)
    if isinstance(analysis, TaskRunsAnalysis):
        return task_runs_output(analysis, title, args)
    return _analysis_output(analysis, title, args, design)


def _analysis_output(analysis: Any, title: str, args: argparse.Namespace, design: dict) -> str:
    """The summary, the pairwise table, the rank sets, the report, the figure and documents."""
    bayes = args.test == "bayes"
    scores, summary, pairwise = analysis.frame, analysis.summary, analysis.significance
    benchmark, test = analysis.benchmark, analysis.test
    text = speak_cli(report_text(analysis, top=args.top, words=COMMAND_LINE))
    info = result_info(pairwise)
    correction = info.correction or (
        "family-wise p-values" if test == "nemenyi" else "no correction"
    )
    direction = "higher" if result_info(summary).direction else "lower"
    names = BENCHMARK_REPORT_TEST_NAMES if benchmark else REPORT_TEST_NAMES
    top = len(summary) if args.top is None else args.top
    shown_models = set(summary.index[:top])
    in_top = pairwise["model_1"].isin(shown_models) & pairwise["model_2"].isin(shown_models)
    parts = [
        title,
        "",
        f"Summary (best first; {direction} scores are better)",
        table_text(summary.iloc[:top]),
    ]
    if len(summary) > top:
        rest = plural(len(summary) - top, "more model", "more models")
        parts.append(f"({rest}; --top 0 shows them all)")
    name = method_label(info) if info.unit in ("item", "cluster means") else names[test]
    heading = f"Pairwise comparisons: {name}, {correction}, alpha = {args.alpha:g}"
    if bayes:
        heading, pairwise = bayes_table(analysis, args.alpha)
        in_top = pairwise["model_1"].isin(shown_models) & pairwise["model_2"].isin(shown_models)
    parts += ["", heading, table_text(pairwise[in_top], index=False)]
    if (~in_top).any():
        rest = plural(int((~in_top).sum()), "more pair", "more pairs")
        parts.append(f"({rest}; --top 0 shows them all)")
    if analysis.ranks is not None:
        parts += _rank_sets_lines(analysis.ranks, top)
    parts += ["", text]
    if args.plot:
        holes = result_info(summary).get("n_missing", 0)
        if benchmark and holes and analysis.rank_sets is not None:
            # No critical-difference diagram with holes: each model's rank set instead.
            plot_result(analysis.rank_sets, args.plot, args.top)
            parts.append(
                f"({holes} cells missing: the figure shows the rank sets, not a CD diagram)"
            )
        elif benchmark:
            # The critical-difference diagram of the frequentist test.
            plot_result(analysis.significance, args.plot, args.top)
        elif args.items:  # each model's clustered interval
            plot_result(scores, args.plot, args.top)
        else:
            plot_scores(scores, args.plot, design, args.top)
        parts.append(f"Figure saved to {args.plot}")
    parts += write_documents(args, analysis_document(analysis, args.top))
    return "\n".join(parts).rstrip("\n") + "\n"


def _rank_sets_lines(ranks: pd.DataFrame, top: int) -> list[str]:
    """The table of the rank sets of the best ``top`` models, under its heading."""
    heading = (
        f"Rank sets (95% simultaneous, best first; covariance: {result_info(ranks).covariance})"
    )
    lines = ["", heading, table_text(ranks.iloc[:top])]
    if len(ranks) > top:
        rest = plural(len(ranks) - top, "more model", "more models")
        lines.append(f"({rest}; --top 0 shows them all)")
    return lines


def _recognised_format(args: argparse.Namespace) -> str | None:
    """The tool whose evaluation results the source holds, when no option names its kind.

    What :func:`~pdcompare.inputs.files.result_format` recognises (an Every
    Eval Ever file, a HELM run, lighteval details, a SWE-bench result, a
    promptfoo output); None when an option names what the file is
    (``--format``, ``--items``, ``--long``, ``--benchmark``, ``--transpose``,
    ``--battles``, ``--forecasts``, ``--y``) or it is none of them.
    """
    declared = args.battles or args.forecasts or args.y is not None or args.transpose
    if declared or not _may_hold_truth(args):
        return None
    return result_format(args.source)


def _may_hold_truth(args: argparse.Namespace) -> bool:
    """Whether the source is a wide file read as it is, which a truth column makes predictions."""
    if args.source == "demo" and not Path("demo").exists():
        return False
    return not (args.long or args.items or args.benchmark or args.format is not None)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``pdcompare`` command.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 on bad input (with one line on stderr); ``pdcompare
        gate`` exits as :func:`gate_main` says.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["gate"]:
        return gate_main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            text = run(args)
    except (ValueError, TypeError, OSError, ImportError, KeyError) as error:
        print(f"pdcompare: error: {one_line(error)}", file=sys.stderr)
        return EXIT_USAGE
    # A warning given by several comparisons of the analysis is said once.
    for message in dict.fromkeys(one_line(warning.message) for warning in caught):
        print(f"pdcompare: warning: {message}", file=sys.stderr)
    sys.stdout.write(text)
    return 0

"""``pdcompare gate FILE --candidate A --baseline B --margin M``: a gate with exit codes."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

from pdcompare.cli.options import (
    GATE_OPTIONS,
    Parser,
    add_options,
    check_output_paths,
    folds,
    fraction,
    one_line,
)
from pdcompare.compare.gate import GATE_TESTS, gate
from pdcompare.inputs.files import read_frame, read_table
from pdcompare.presentation.labels import (
    COMMAND_LINE,
)
from pdcompare.presentation.report.gate import gate_text

#: Exit status of ``pdcompare gate`` by outcome; 3 when the gate cannot run.
GATE_EXIT = {"non-inferior": 0, "worse": 1, "inconclusive": 2}


EXIT_GATE_ERROR = 3


_GATE_EPILOG = """\
exit status:
  0  non-inferior: the lower one-sided bound of candidate - baseline is above -margin
  1  significantly worse: the upper bound is below 0 (non-inferiority not shown)
  2  inconclusive: neither; the evaluation cannot tell a regression of the margin from none
  3  cannot run: a file, model or option the gate cannot use (one line on stderr)

examples:
  pdcompare gate scores.csv --candidate new --baseline prod --margin 0.01 --cv 10
  pdcompare gate runs.csv --runs --candidate new --baseline prod --margin 0.5
  pdcompare gate nightly.csv --candidate new --baseline prod --margin 0.01 --look 3/10
  pdcompare gate predictions.csv --y label --candidate new --baseline prod --margin 0.02 \\
      --markdown gate.md
"""


class _GateParser(Parser):
    """The gate's parser: a usage error is one line on stderr and exit status 3."""

    def error(self, message: str):
        self.exit(EXIT_GATE_ERROR, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def look_of(text: str) -> tuple[int, int]:
    """``--look k/K``: the k-th of K planned looks, 1 ≤ k ≤ K.

    Examples
    --------
    >>> look_of("2/5")
    (2, 5)
    """
    parts = text.split("/")
    if len(parts) == 2 and all(part.strip().isdigit() for part in parts):
        k, total = int(parts[0]), int(parts[1])
        if 1 <= k <= total:
            return k, total
    msg = f"--look must be k/K with 1 <= k <= K (the k-th of K planned looks); got {text!r}"
    raise argparse.ArgumentTypeError(msg)


def build_gate_parser() -> argparse.ArgumentParser:
    """The parser of ``pdcompare gate``.

    Returns
    -------
    argparse.ArgumentParser
        Parser whose usage errors print one line and exit with status 3.

    Examples
    --------
    >>> args = build_gate_parser().parse_args(
    ...     ["s.csv", "--candidate", "new", "--baseline", "old", "--margin", "0.01"])
    >>> args.candidate, args.margin, args.alpha, args.test
    ('new', 0.01, 0.05, None)
    """
    parser = _GateParser(
        prog="pdcompare gate",
        description="Gate a release: is the candidate not worse than the baseline by more "
        "than the margin? One paragraph, and the answer as the exit status.",
        epilog=_GATE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("source", metavar="FILE", help="scores, runs or predictions file")
    add_options(parser, GATE_OPTIONS)
    parser.add_argument("--cv", type=folds, help="k of the k-fold CV of the scores")
    parser.add_argument("--test-size", type=fraction, help="test fraction of each split")
    parser.add_argument(
        "--test", choices=GATE_TESTS, help="the test (default: the file's own, as the report's)"
    )
    parser.add_argument(
        "--alpha", type=fraction, default=0.05, help="both bounds at 1 - alpha (0.05)"
    )
    parser.add_argument(
        "--spending",
        choices=("obf", "pocock", "bonferroni"),
        default="obf",
        help="with --look: how alpha is spent over the planned looks (obf)",
    )
    parser.add_argument(
        "--look",
        type=look_of,
        metavar="k/K",
        help="this run is the k-th of K planned looks (nightly runs of one release)",
    )
    parser.add_argument("--markdown", metavar="FILE", help="write the paragraph as Markdown")
    parser.add_argument(
        "--y", metavar="COLUMN", help="truth column of a predictions file (default: y)"
    )
    parser.add_argument(
        "--runs", action="store_true", help="rows hold independent runs (seeds), not CV splits"
    )
    parser.add_argument("--lower-is-better", action="store_true", help="scores are losses")
    parser.add_argument("--transpose", action="store_true", help="models are the columns")
    return parser


def run_gate(args: argparse.Namespace) -> tuple[str, str]:
    """Gate as the parsed command line asks; return the paragraph and the outcome.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed by :func:`build_gate_parser`.

    Returns
    -------
    (str, str)
        The text to print and the outcome of :func:`pdcompare.gate`.
    """
    check_output_paths(args)
    table = read_table(args.source)
    truth = args.y if args.y is not None else "y"
    design: dict[str, Any] = {}
    if truth in table.columns:
        frame, y = table, truth
    elif args.y is not None:
        msg = f"--y: {args.source} has no column {args.y!r}"
        raise ValueError(msg)
    else:
        frame, y = read_frame(args.source, transpose=args.transpose), None
        if args.runs:
            design["paired"] = False
    if args.cv is not None:
        design["cv"] = args.cv
    if args.test_size is not None:
        design["test_size"] = args.test_size
    if args.lower_is_better:
        design["greater_is_better"] = False
    result = gate(
        frame, args.candidate, args.baseline, margin=args.margin, alpha=args.alpha,
        test=args.test, y=y, spending=args.spending, look=args.look, **design,
    )  # fmt: skip
    text = f"File: {args.source}\n\n" + gate_text(result, words=COMMAND_LINE)
    if args.markdown:
        markdown = gate_text(result, format="markdown", words=COMMAND_LINE)
        Path(args.markdown).write_text(markdown, encoding="utf-8")
        text += f"Gate (Markdown) saved to {args.markdown}\n"
    return text, str(result["outcome"].iloc[0])


def gate_main(argv: list[str]) -> int:
    """``pdcompare gate``: exit 0 non-inferior, 1 significantly worse, 2 inconclusive, 3 error.

    Parameters
    ----------
    argv : list of str
        The arguments after ``gate``.

    Returns
    -------
    int
        The exit status (see the epilog of ``pdcompare gate --help``).
    """
    args = build_gate_parser().parse_args(argv)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            text, outcome = run_gate(args)
    except (ValueError, TypeError, OSError, ImportError, KeyError) as error:
        print(f"pdcompare gate: error: {one_line(error)}", file=sys.stderr)
        return EXIT_GATE_ERROR
    for message in dict.fromkeys(one_line(warning.message) for warning in caught):
        print(f"pdcompare gate: warning: {message}", file=sys.stderr)
    sys.stdout.write(text)
    return GATE_EXIT[outcome]

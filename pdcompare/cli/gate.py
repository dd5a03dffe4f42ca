"""``pdcompare gate FILE --candidate A --baseline B --margin M``: a gate with exit codes."""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from pdcompare.cli.options import (
    GATE_OPTIONS,
    Parser,
    add_options,
    attempts_k,
    check_output_paths,
    folds,
    fraction,
    one_line,
)
from pdcompare.compare.gate import GATE_TESTS, gate, gate_test
from pdcompare.inputs.battles import from_battles
from pdcompare.inputs.files import read_frame, read_table
from pdcompare.inputs.items import from_items
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
  pdcompare gate answers.csv --items --cluster-col passage --candidate new --baseline prod \\
      --margin 0.02
  pdcompare gate battles.csv --battles --candidate new --baseline prod --margin 20
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
    parser.add_argument(
        "source", metavar="FILE", help="scores, runs, predictions, items or battles file"
    )
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
    _add_long_files(parser)
    return parser


#: The column options of the long files a gate reads, by the option that reads the file.
_ITEM_OPTIONS = ("item_col", "cluster_col", "sample_col", "task_col", "estimand", "k")
_BATTLE_OPTIONS = ("model_a_col", "model_b_col", "winner_col", "ties")
_LONG_OPTIONS = ("model_col", "score_col")


def _add_long_files(parser: argparse.ArgumentParser) -> None:
    """``--items`` and ``--battles`` with their column options (defaults resolved when read)."""
    items = parser.add_argument_group(
        "items (a long file, one row per model, item and sample: the paired t over items)"
    )
    items.add_argument("--items", action="store_true", help="the file is a long table of items")
    items.add_argument("--model-col", metavar="COL", help="(model)")
    items.add_argument("--score-col", metavar="COL", help="(score)")
    items.add_argument("--item-col", metavar="COL", help="(item)")
    items.add_argument("--cluster-col", metavar="COL", help="(none: items are independent)")
    items.add_argument("--sample-col", metavar="COL", help="(none: one row per model and item)")
    items.add_argument("--task-col", metavar="COL", help="(none: one task)")
    items.add_argument(
        "--estimand", choices=["mean", "pass@k", "pass^k"], help="per item, from 0/1 attempts"
    )
    items.add_argument("--k", type=attempts_k, metavar="K", help="the k of pass@k and pass^k")
    duels = parser.add_argument_group(
        "battles (a long file, one row per battle: --margin in Bradley–Terry rating points)"
    )
    duels.add_argument("--battles", action="store_true", help="the file is a table of battles")
    duels.add_argument("--model-a-col", metavar="COL", help="(model_a)")
    duels.add_argument("--model-b-col", metavar="COL", help="(model_b)")
    duels.add_argument("--winner-col", metavar="COL", help="(winner)")
    duels.add_argument("--ties", choices=["half", "davidson"], help="(half)")


def _verb(given: list[str]) -> str:
    return "is an option of" if len(given) == 1 else "are options of"


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _check_file_options(args: argparse.Namespace) -> None:
    """Column options only with the option that reads their kind of file."""
    if args.items and args.battles:
        msg = "--items and --battles read different files: pass one of them"
        raise ValueError(msg)
    for flag, names in (("items", _ITEM_OPTIONS), ("battles", _BATTLE_OPTIONS)):
        given = [_option(name) for name in names if getattr(args, name) is not None]
        if given and not getattr(args, flag):
            kind = "an items" if flag == "items" else "a battles"
            msg = f"{' and '.join(given)} {_verb(given)} {kind} file: add --{flag}"
            raise ValueError(msg)
    given = [_option(name) for name in _LONG_OPTIONS if getattr(args, name) is not None]
    if given and not args.items:
        msg = f"{' and '.join(given)} {_verb(given)} an items file: add --items"
        raise ValueError(msg)
    if (args.items or args.battles) and (args.transpose or args.runs or args.y is not None):
        kind = "--items" if args.items else "--battles"
        msg = f"{kind} reads a long table: leave out --transpose, --runs and --y"
        raise ValueError(msg)
    if args.battles and (args.cv is not None or args.test_size is not None or args.test):
        msg = (
            "--battles gates on the Bradley–Terry ratings: leave out --cv, --test-size and --test"
        )
        raise ValueError(msg)
    if args.battles and args.lower_is_better:
        msg = "--battles: a win is better by definition; leave out --lower-is-better"
        raise ValueError(msg)


def _items_frame(args: argparse.Namespace) -> pd.DataFrame:
    return from_items(
        read_table(args.source),
        model=args.model_col or "model",
        item=args.item_col or "item",
        score=args.score_col or "score",
        sample=args.sample_col,
        cluster=args.cluster_col,
        task=args.task_col,
        greater_is_better=not args.lower_is_better,
        estimand=args.estimand or "mean",
        k=args.k,
    )


def _battles_result(args: argparse.Namespace) -> pd.DataFrame:
    battles = from_battles(
        read_table(args.source),
        model_a=args.model_a_col or "model_a",
        model_b=args.model_b_col or "model_b",
        winner=args.winner_col or "winner",
    )
    return gate(
        battles, args.candidate, args.baseline, margin=args.margin, alpha=args.alpha,
        ties=args.ties or "half",
    )  # fmt: skip


def _refuse_unknown_design(frame: pd.DataFrame, args: argparse.Namespace) -> None:
    """A gate on CV splits needs their design, or the plain t asked for by name."""
    if args.test is not None or args.cv is not None or args.test_size is not None:
        return
    if gate_test(frame) == "ttest":
        msg = (
            f"{args.source} holds CV splits whose design is unknown: pass --cv K or "
            "--test-size F for the corrected t-test (CV splits share training data), or "
            "--test ttest to gate on the plain t-test anyway (it passes about 30 % of "
            "candidates that are worse by the margin)"
        )
        raise ValueError(msg)


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
    _check_file_options(args)
    if args.battles:
        return _words(_battles_result(args), args)
    frame, y, design = _read(args)
    if args.cv is not None:
        design["cv"] = args.cv
    if args.test_size is not None:
        design["test_size"] = args.test_size
    if y is None and not args.items and not args.runs:
        _refuse_unknown_design(frame, args)
    result = gate(
        frame, args.candidate, args.baseline, margin=args.margin, alpha=args.alpha,
        test=args.test, y=y, spending=args.spending, look=args.look, **design,
    )  # fmt: skip
    return _words(result, args)


def _read(args: argparse.Namespace) -> tuple[pd.DataFrame, Any, dict[str, Any]]:
    """The frame to gate, its truth column (predictions) and the design the options give."""
    if args.items:
        return _items_frame(args), None, {}
    design: dict[str, Any] = {"greater_is_better": False} if args.lower_is_better else {}
    table = read_table(args.source)
    truth = args.y if args.y is not None else "y"
    if truth in table.columns:
        return table, truth, design
    if args.y is not None:
        msg = f"--y: {args.source} has no column {args.y!r}"
        raise ValueError(msg)
    if args.runs:
        design["paired"] = False
    return read_frame(args.source, transpose=args.transpose), None, design


def _words(result: pd.DataFrame, args: argparse.Namespace) -> tuple[str, str]:
    """The paragraph to print (and the Markdown file written), and the outcome."""
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

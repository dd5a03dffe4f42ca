"""The ``pdcompare`` command: compare the models of a file of fold scores from the shell.

``pdcompare FILE`` reads a CSV (or parquet) of fold scores, first column the
model names, or a saved ``cv_results_`` table,
and prints the summary, the pairwise table and the report. ``pdcompare demo``
does the same on the bundled grid-search scores. Bad input ends with exit
status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from pdcompare.compare.summary import summary_table
from pdcompare.inputs.files import read_csv
from pdcompare.report import REPORT_TESTS, TEST_NAMES
from pdcompare.stats.multitest import check_correction

EXIT_USAGE = 2

_EPILOG = """\
examples:
  pdcompare demo
  pdcompare scores.csv --cv 10 --rope 0.01
  pdcompare cv_results.csv --cv 5 --metric roc_auc --plot comparison.png

A scores file has one row per model: the model name in the first column,
then one column per CV split. A cv_results_ file is
pd.DataFrame(search.cv_results_).to_csv(...). Without --cv or --test-size the
design is unknown and the (too optimistic) plain t-test is used.
"""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (and exit status 2)."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        msg = f"expected a number strictly between 0 and 1, got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    if not 0.0 < value < 1.0:
        msg = f"expected a number strictly between 0 and 1, got {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return value


def _non_negative(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0.0:
        msg = f"expected a non-negative number, got {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return value


def _folds(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 2:
        msg = f"expected the number of folds k >= 2 of k-fold CV, got {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return value


def _correction(text: str) -> str | None:
    try:
        return check_correction(text)
    except ValueError:
        msg = (
            f"expected a statsmodels multipletests method or alias (holm, bonferroni, "
            f"fdr_bh, ...), shaffer or none, got {text!r}"
        )
        raise argparse.ArgumentTypeError(msg) from None


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser of ``pdcompare``.

    Returns
    -------
    argparse.ArgumentParser
        Parser whose usage errors print one line and exit with status 2.

    Examples
    --------
    >>> args = build_parser().parse_args(["demo", "--rope", "0.01"])
    >>> args.source, args.rope, args.correction
    ('demo', 0.01, 'holm')
    """
    parser = _Parser(
        prog="pdcompare",
        description="Is the best cross-validated model really better? Compare models "
        "from their fold scores.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "source",
        metavar="FILE|demo",
        help="CSV or parquet file of fold scores or of cv_results_; 'demo' for the bundled data",
    )
    design = parser.add_mutually_exclusive_group()
    design.add_argument("--cv", type=_folds, metavar="K", help="the scores come from K-fold CV")
    design.add_argument(
        "--test-size",
        type=_fraction,
        metavar="F",
        help="fraction of the data in each test split (ShuffleSplit-like designs)",
    )
    parser.add_argument(
        "--rope",
        type=_non_negative,
        metavar="R",
        help="half-width of the region of practical equivalence; adds the Bayesian test",
    )
    parser.add_argument(
        "--correction",
        type=_correction,
        default="holm",
        metavar="NAME",
        help="multiple-testing correction: holm (default), bonferroni, fdr_bh, ... or none",
    )
    parser.add_argument(
        "--alpha", type=_fraction, default=0.05, metavar="A", help="significance level (0.05)"
    )
    parser.add_argument(
        "--test",
        choices=REPORT_TESTS,
        help="pairwise test (default: corrected_ttest when the design is known, else ttest)",
    )
    parser.add_argument("--metric", metavar="NAME", help="metric of a multi-metric cv_results_")
    parser.add_argument(
        "--lower-is-better", action="store_true", help="scores are losses (lower is better)"
    )
    parser.add_argument(
        "--plot", metavar="FILE.png", help="also save a figure (folds, correlation, intervals)"
    )
    return parser


def read_frame(path: str | Path) -> pd.DataFrame:
    """Read a scores file (CSV or parquet) or a saved ``cv_results_`` table.

    Parameters
    ----------
    path : str or pathlib.Path
        A ``.csv`` file (anything not ``.parquet``/``.pq`` is read as CSV) or a
        parquet file (needs pyarrow or fastparquet).

    Returns
    -------
    pandas.DataFrame
        A scores frame indexed by model name (the first column), or the
        ``cv_results_`` frame as saved (its ``params`` text is never parsed:
        the parameters are read from the ``param_*`` columns).

    Raises
    ------
    FileNotFoundError
        The file does not exist.
    ImportError
        A parquet file without pyarrow or fastparquet installed.
    ValueError
        The file is not a readable table.
    """
    path = Path(path)
    if not path.is_file():
        msg = f"no such file: {str(path)!r}"
        raise FileNotFoundError(msg)
    if path.suffix.lower() in (".parquet", ".pq"):
        if not any(importlib.util.find_spec(m) for m in ("pyarrow", "fastparquet")):
            msg = (
                f"reading {path.name} needs pyarrow (pip install pyarrow); "
                "or save the scores as CSV"
            )
            raise ImportError(msg)
        frame = pd.read_parquet(path)
    else:
        try:
            frame = read_csv(path)
        except pd.errors.EmptyDataError:
            msg = f"{path.name} is empty; expected a CSV of fold scores"
            raise ValueError(msg) from None
        except (pd.errors.ParserError, UnicodeDecodeError) as error:
            detail = " ".join(str(error).split())
            msg = f"{path.name} is not a readable CSV file ({detail})"
            raise ValueError(msg) from None
    if "params" in frame.columns:
        return frame  # a saved cv_results_: its parameters are read from the param_* columns
    if isinstance(frame.index, pd.RangeIndex) and frame.shape[1] > 0:
        frame = frame.set_index(frame.columns[0])
    frame.index = frame.index.astype(str)
    frame.index.name = "model"
    return frame


def _table(frame: pd.DataFrame, index: bool = True) -> str:
    from pdcompare.styling import column_formatters

    return frame.to_string(formatters=column_formatters(frame, 4), index=index)


def _plot(scores: pd.DataFrame, path: str, design: dict[str, Any]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 3, figsize=(18, 5), width_ratios=[1.7, 1, 1])
    try:
        scores.cmp.plot("folds", ax=axes[0])
        scores.cmp.plot("corr", ax=axes[1])
        scores.cmp.plot("intervals", ax=axes[2], **design)
        figure.tight_layout()
        figure.savefig(path, dpi=100)
    finally:
        plt.close(figure)


def run(args: argparse.Namespace) -> str:
    """Do what the parsed command line asks and return the text to print.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed by :func:`build_parser`.

    Returns
    -------
    str
        The summary, the pairwise table and the report.
    """
    if args.source == "demo" and not Path("demo").exists():
        from pdcompare.datasets import load_grid_search_scores

        frame = load_grid_search_scores()
        title = "Bundled data: the scikit-learn grid-search example (4 SVC kernels, ROC AUC)"
    else:
        frame = read_frame(args.source)
        title = f"File: {args.source}"
    from pdcompare.inputs.cv_results import is_cv_results

    if is_cv_results(frame):
        scores = frame.cmp.scores(metric=args.metric)
    elif args.metric is not None:
        msg = "`--metric` applies to cv_results_ files only; this file holds fold scores"
        raise ValueError(msg)
    else:
        scores = frame
    design: dict[str, Any] = {}
    if args.cv is not None:
        design["cv"] = args.cv
    if args.test_size is not None:
        design["test_size"] = args.test_size
    if args.lower_is_better:
        design["greater_is_better"] = False
    summary = summary_table(scores, **design)
    known = summary.attrs["pdcompare"]["interval"] == "nadeau-bengio"
    test = args.test or ("corrected_ttest" if known else "ttest")
    pairwise = scores.cmp.pairwise(
        test=test, correction=args.correction, alpha=args.alpha, **design
    )
    report = scores.cmp.report(
        test=args.test,
        rope=args.rope,
        alpha=args.alpha,
        correction=args.correction,
        **design,
    )
    correction = args.correction or "no correction"
    parts = [
        title,
        "",
        "Summary (best first)",
        _table(summary),
        "",
        f"Pairwise comparisons: {TEST_NAMES[test]}, {correction}, alpha = {args.alpha:g}",
        _table(pairwise, index=False),
        "",
        report,
    ]
    if args.plot:
        _plot(scores, args.plot, design)
        parts.append(f"Figure saved to {args.plot}")
    return "\n".join(parts).rstrip("\n") + "\n"


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    if isinstance(error, KeyError):
        text = text.strip("'\"")
    return text or type(error).__name__


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``pdcompare`` command.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success, 2 on bad input (with one line on stderr).
    """
    args = build_parser().parse_args(argv)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            text = run(args)
    except (ValueError, TypeError, OSError, ImportError, KeyError) as error:
        print(f"pdcompare: error: {_one_line(error)}", file=sys.stderr)
        return EXIT_USAGE
    for warning in caught:
        print(f"pdcompare: warning: {_one_line(warning.message)}", file=sys.stderr)
    sys.stdout.write(text)
    return 0

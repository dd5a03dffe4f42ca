"""The command line's options and words: the parser, its argument types, keywords as options."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from pdcompare import __version__
from pdcompare._validation import check_correction
from pdcompare.compare.analysis import BENCHMARK_REPORT_TESTS, REPORT_TESTS
from pdcompare.compare.select import RULES
from pdcompare.presentation.report import DEFAULT_TOP

EXIT_USAGE = 2

#: The tests of a predictions file, and of a forecasts file, on the command line.
PREDICTION_CLI_TESTS = ("delong", "mcnemar", "permutation_test")
FORECAST_CLI_TESTS = ("diebold_mariano", "confidence_set")


_EPILOG = """\
examples:
  pdcompare demo
  pdcompare scores.csv --cv 10 --rope 0.01
  pdcompare cv_results.csv --cv 5 --metric roc_auc --plot comparison.png
  pdcompare cv_results.csv --cv 5 --select one_se --by C
  pdcompare results.csv --long --model-col framework --dataset-col task \\
      --split-col fold --score-col auc --plot cd.png
  pdcompare predictions.csv --y target --test delong
  pdcompare forecasts.csv --forecasts --test diebold_mariano

A scores file has one row per model: the model name in the first column,
then one column per CV split. A cv_results_ file is
pd.DataFrame(search.cv_results_).to_csv(...). A long file (--long) has one
row per model x data set (x split): the benchmark of several data sets.
A predictions file has one row per test sample, the truth in a column (y,
or --y) and one column per model; a forecasts file (--forecasts) the time
in its first column.
Without --cv or --test-size the design is unknown and the (too optimistic)
plain t-test is used. Commas, tabs (.tsv) and semicolons separate columns.
"""


#: Keywords of the library and the options that give them here. An error or warning that
#: carries its keyword (``OptionError.keyword``) is named by this table, field by field;
#: one that carries ``cli_message`` says it in these words already.
_OPTIONS = (
    ("cv=, test_size=, or n_train= with n_test=", "--cv or --test-size"),
    ("`cv=` (the same cv as the search), `test_size=`, or `n_train=` with `n_test=`", "--cv"),
    ("`greater_is_better=False`", "--lower-is-better"),
    ("`cost`", "--cost"),
    ("`hierarchical=True`", "--hierarchical"),
    ("`pairwise(test='nemenyi')`", "--test nemenyi"),
    ("`correction='shaffer'`", "--correction shaffer"),
    *(
        (f"`{keyword}{suffix}`", option)
        for keyword, option in (
            ("metric", "--metric"),
            ("model", "--model-col"),
            ("dataset", "--dataset-col"),
            ("split", "--split-col"),
            ("score", "--score-col"),
            ("cv", "--cv"),
            ("test_size", "--test-size"),
            ("rope", "--rope"),
            ("alpha", "--alpha"),
            ("correction", "--correction"),
            ("top", "--top"),
            ("by", "--by"),
            ("test", "--test"),
            ("iteration", "--iteration"),
            ("item", "--item-col"),
            ("cluster", "--cluster-col"),
            ("sample", "--sample-col"),
            ("task", "--task-col"),
            ("margin", "--margin"),
            ("block_size", "--block-size"),
            ("candidate", "--candidate"),
            ("baseline", "--baseline"),
        )
        for suffix in ("=", "")
    ),
)


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (and exit status 2)."""

    def error(self, message: str):
        """Print one line naming the problem and exit with status 2."""
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def fraction(text: str) -> float:
    """A number strictly between 0 and 1 (``--alpha``, ``--test-size``)."""
    try:
        value = float(text)
    except ValueError:
        msg = f"expected a number strictly between 0 and 1, got {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    if not 0.0 < value < 1.0:
        msg = f"expected a number strictly between 0 and 1, got {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return value


def non_negative(text: str) -> float:
    """A number >= 0 (``--rope``, ``--margin``)."""
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0.0:
        msg = f"expected a non-negative number, got {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return value


def _whole_number(minimum: int, words: str) -> Callable[[str], int]:
    """An argparse type: a whole number >= ``minimum``, else "expected {words}, got ..."."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            msg = f"expected {words}, got {text!r}"
            raise argparse.ArgumentTypeError(msg)
        return value

    return parse


#: The k >= 2 of k-fold CV (``--cv``).
folds = _whole_number(2, "the number of folds k >= 2 of k-fold CV")
#: The model confidence set's mean block length (``--block-size``).
_block_size = _whole_number(1, "a whole number of time points >= 1")


def _top(text: str) -> int | None:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value == 0:
        return None
    if value < 2:
        msg = f"expected a number of models >= 2 (0 for all), got {text!r}"
        raise argparse.ArgumentTypeError(msg)
    return value


def _correction(text: str) -> str | None:
    if text == "default":
        return text
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
    ('demo', 0.01, 'default')
    """
    parser = Parser(
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
    design.add_argument("--cv", type=folds, metavar="K", help="the scores come from K-fold CV")
    design.add_argument(
        "--test-size",
        type=fraction,
        metavar="F",
        help="fraction of the data in each test split (ShuffleSplit-like designs)",
    )
    parser.add_argument(
        "--rope",
        type=non_negative,
        metavar="R",
        help="half-width of the region of practical equivalence, in the units of the score; "
        "adds the Bayesian test (correlated t-test; signed-rank test across data sets)",
    )
    parser.add_argument(
        "--hierarchical",
        action="store_true",
        help="with --rope on --long data (folds of every data set) and --cv or --test-size: "
        "the Bayesian verdicts from the hierarchical test, which keeps every data set's folds, "
        "instead of the signed-rank test of the per-data-set means (seconds per pair)",
    )
    parser.add_argument(
        "--cost",
        metavar="COLUMN",
        help="add the trade-off against a cost: a column of a cv_results_ file "
        "(mean_fit_time, mean_score_time), or of a scores file, one cost per model "
        "(the column is then no split): which models are worth their cost",
    )
    parser.add_argument(
        "--ranks",
        action="store_true",
        help="add each model's 95%% simultaneous rank confidence set and which models may be "
        "the best (Mogstad et al. 2024)",
    )
    parser.add_argument(
        "--correction",
        type=_correction,
        default="default",
        metavar="NAME",
        help="multiple-testing correction: holm (default; none for nemenyi), bonferroni, "
        "fdr_bh, shaffer, ... or none",
    )
    parser.add_argument(
        "--alpha", type=fraction, default=0.05, metavar="A", help="significance level (0.05)"
    )
    parser.add_argument(
        "--test",
        choices=(
            *dict.fromkeys(REPORT_TESTS + BENCHMARK_REPORT_TESTS),
            "bayes",
            *PREDICTION_CLI_TESTS,
            *FORECAST_CLI_TESTS,
        ),
        help="pairwise test (default: corrected_ttest when the design is known, else ttest; "
        "wilcoxon across data sets; nemenyi and conover need several data sets: --long "
        "data or a --benchmark file of per-data-set means). bayes prints the "
        "Bayesian test's table (needs --rope, and --cv or --test-size for one data set); "
        "--rope alone adds the Bayesian test to the report. A predictions file: delong "
        "(default for numeric scores), mcnemar (default for labels) or permutation_test; "
        "a forecasts file: confidence_set (default) or diebold_mariano",
    )
    parser.add_argument("--metric", metavar="NAME", help="metric of a multi-metric cv_results_")
    parser.add_argument(
        "--lower-is-better", action="store_true", help="scores are losses (lower is better)"
    )
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also save a figure (folds, correlation, intervals; the critical-difference "
        "diagram for --long data; the choice for --select)",
    )
    parser.add_argument(
        "--html",
        metavar="FILE.html",
        help="also write the report as one self-contained HTML page (tables, inline figures)",
    )
    parser.add_argument(
        "--markdown",
        metavar="FILE.md",
        help="also write the report as Markdown (pipe tables), for a pull request or a log",
    )
    parser.add_argument(
        "--top",
        type=_top,
        default=DEFAULT_TOP,
        metavar="N",
        help=f"models with lines of their own in tables and report ({DEFAULT_TOP}); 0 for all",
    )
    parser.add_argument(
        "--transpose",
        action="store_true",
        help="the models are the columns (one column of fold scores per model)",
    )
    parser.add_argument(
        "--benchmark",
        action="store_true",
        help="the columns are data sets: one score per model and data set "
        "(what bench.cmp.means().to_csv() writes)",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    choose = parser.add_argument_group("choosing a model (cv_results_ files)")
    choose.add_argument(
        "--select",
        choices=RULES,
        metavar="RULE",
        help=f"choose a model by a rule: {', '.join(RULES)} (needs --by)",
    )
    choose.add_argument(
        "--by",
        metavar="PARAM",
        help="the parameter that orders the models by complexity, simplest = smallest",
    )
    choose.add_argument("--descending", action="store_true", help="larger --by values are simpler")
    long = parser.add_argument_group("several data sets (a long file, one row per score)")
    long.add_argument("--long", action="store_true", help="the file is a long table")
    long.add_argument("--model-col", default="model", metavar="COL", help="(model)")
    long.add_argument("--dataset-col", default="dataset", metavar="COL", help="(dataset)")
    long.add_argument("--split-col", metavar="COL", help="(none: one score per data set)")
    long.add_argument("--score-col", default="score", metavar="COL", help="(score)")
    items = parser.add_argument_group(
        "questions of an evaluation (a long file, one row per model, item and sample; "
        "--model-col and --score-col as above)"
    )
    items.add_argument(
        "--items", action="store_true", help="the file is a long table of item scores"
    )
    items.add_argument("--item-col", default="item", metavar="COL", help="(item)")
    items.add_argument("--cluster-col", metavar="COL", help="(none: items are independent)")
    items.add_argument("--sample-col", metavar="COL", help="(none: one row per model and item)")
    items.add_argument("--task-col", metavar="COL", help="(none: one task)")
    preds = parser.add_argument_group(
        "predictions (one row per test sample, a truth column, one column per model)"
    )
    preds.add_argument(
        "--y",
        metavar="COLUMN",
        help="the truth column of a predictions or forecasts file (default: a column named y; "
        "a file with one is read as predictions, never as scores)",
    )
    preds.add_argument(
        "--forecasts",
        action="store_true",
        help="the file holds forecasts in time order: the time in the first column, the "
        "observed values in the truth column (the model confidence set and Diebold–Mariano)",
    )
    preds.add_argument(
        "--block-size",
        type=_block_size,
        metavar="N",
        help="with --forecasts: the mean length, in time points, of the blocks the model "
        "confidence set resamples (default round(n^(1/3)), at least 2; 1 resamples single rows)",
    )
    duels = parser.add_argument_group("battles (a long file, one row per battle)")
    duels.add_argument("--battles", action="store_true", help="Bradley–Terry ratings of battles")
    duels.add_argument("--model-a-col", default="model_a", metavar="COL", help="(model_a)")
    duels.add_argument("--model-b-col", default="model_b", metavar="COL", help="(model_b)")
    duels.add_argument("--winner-col", default="winner", metavar="COL", help="(winner)")
    duels.add_argument("--ties", choices=["half", "davidson"], default="half", help="(half)")
    long.add_argument(
        "--runs",
        action="store_true",
        help="the splits are independent runs (seeds), not shared CV splits: with --long and "
        "a data-set (task) column, runs over tasks (rliable's aggregates); otherwise a runs "
        "frame (unpaired tests)",
    )
    return parser


def speak_cli(text: str) -> str:
    """``text`` of the library (a message, a report) with its keywords named as options.

    Each keyword in backticks becomes the option that gives it (``cv=`` ->
    ``--cv``); nothing else of the sentence changes. Sentences whose advice
    differs on the command line are written for it where they are made
    (``cli_message`` of errors and warnings, ``report_text(words=COMMAND_LINE)``).

    Examples
    --------
    >>> speak_cli("`alpha` must be strictly between 0 and 1; got 1.5.")
    '--alpha must be strictly between 0 and 1; got 1.5.'
    >>> speak_cli("Pass `metric=` to choose one.")
    'Pass --metric to choose one.'
    """
    for keyword, option in _OPTIONS:
        text = text.replace(keyword, option)
    return text


def one_line(error: BaseException | Warning) -> str:
    """An error or warning as one line in the command line's words (its ``cli_message``)."""
    # An error or warning about a keyword may carry its own command-line words.
    text = " ".join((getattr(error, "cli_message", None) or str(error)).split())
    if isinstance(error, KeyError):
        text = text.strip("'\"")
    return speak_cli(text) or type(error).__name__


def check_output_paths(args: argparse.Namespace) -> None:
    """Refuse an output file (``--plot``, ``--html``, ``--markdown``) whose folder is missing.

    Said before any test runs, in a sentence naming the option and the folder
    (not the operating system's "[Errno 2]" after the work is done).

    Examples
    --------
    >>> check_output_paths(argparse.Namespace(html="no_such_folder/report.html"))
    Traceback (most recent call last):
    ...
    ValueError: --html no_such_folder/report.html: folder no_such_folder does not exist; ...
    """
    for option in ("plot", "html", "markdown"):
        path = getattr(args, option, None)
        if not path:
            continue
        folder = Path(path).parent
        if not folder.is_dir():
            msg = (
                f"--{option} {path}: folder {folder} does not exist; create it first or "
                "write the file elsewhere"
            )
            raise ValueError(msg)

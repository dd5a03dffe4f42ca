"""The command line's options and words: the parser, its argument types, keywords as options."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pdcompare._validation import check_correction
from pdcompare._version import __version__
from pdcompare.compare.analysis import BENCHMARK_REPORT_TESTS, REPORT_TESTS
from pdcompare.compare.registry import cli_tests
from pdcompare.compare.select import RULES
from pdcompare.inputs.labels import ESTIMATORS
from pdcompare.presentation.report import DEFAULT_TOP

EXIT_USAGE = 2

#: The tests of a predictions file, and of a forecasts file, on the command line.
PREDICTION_CLI_TESTS = cli_tests("predictions")
FORECAST_CLI_TESTS = cli_tests("forecasts")


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
#: The k of pass@k and pass^k (``--k``).
attempts_k = _whole_number(1, "a whole number of attempts k >= 1")
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


@dataclass(frozen=True)
class Option:
    """One option of a parser: its flags, its group, the keyword it gives, argparse's settings.

    ``keyword`` is the library's keyword the option gives (``--model-col`` gives
    ``model=``); ``gives`` is the value a flag gives it (``--lower-is-better``
    gives ``greater_is_better=False``). Messages that name the keyword name the
    option instead (:func:`option_words`).
    """

    flags: tuple[str, ...]
    settings: Mapping[str, Any] = field(default_factory=dict)
    group: str | None = None
    keyword: str | None = None
    gives: Any = None


_GROUPS = {
    "design": None,  # mutually exclusive: --cv or --test-size
    "choose": "choosing a model (cv_results_ files)",
    "long": "several data sets (a long file, one row per score)",
    "items": "questions of an evaluation (a long file, one row per model, item and sample; "
    "--model-col and --score-col as above)",
    "preds": "predictions (one row per test sample, a truth column, one column per model)",
    "duels": "battles (a long file, one row per battle)",
}

_TESTS = (
    *dict.fromkeys(REPORT_TESTS + BENCHMARK_REPORT_TESTS),
    "bayes",
    *PREDICTION_CLI_TESTS,
    *FORECAST_CLI_TESTS,
)

#: The options of ``pdcompare``, in the order of ``--help`` (each group's in its own).
OPTIONS = (
    Option(
        ("source",),
        {
            "metavar": "FILE|demo",
            "help": "CSV or parquet file of fold scores or of cv_results_; 'demo' for the "
            "bundled data",
        },
    ),
    Option(
        ("--cv",),
        {"type": folds, "metavar": "K", "help": "the scores come from K-fold CV"},
        "design",
        "cv",
    ),
    Option(
        ("--test-size",),
        {
            "type": fraction,
            "metavar": "F",
            "help": "fraction of the data in each test split (ShuffleSplit-like designs)",
        },
        "design",
        "test_size",
    ),
    Option(
        ("--rope",),
        {
            "type": non_negative,
            "metavar": "R",
            "help": "half-width of the region of practical equivalence, in the units of the "
            "score; adds the Bayesian test (correlated t-test; signed-rank test across data sets)",
        },
        keyword="rope",
    ),
    Option(
        ("--hierarchical",),
        {
            "action": "store_true",
            "help": "with --rope on --long data (folds of every data set) and --cv or "
            "--test-size: the Bayesian verdicts from the hierarchical test, which keeps every "
            "data set's folds, instead of the signed-rank test of the per-data-set means "
            "(seconds per pair)",
        },
        keyword="hierarchical",
        gives=True,
    ),
    Option(
        ("--cost",),
        {
            "metavar": "COLUMN",
            "help": "add the trade-off against a cost: a column of a cv_results_ file "
            "(mean_fit_time, mean_score_time), or of a scores file, one cost per model "
            "(the column is then no split): which models are worth their cost",
        },
        keyword="cost",
    ),
    Option(
        ("--ranks",),
        {
            "action": "store_true",
            "help": "add the table of each model's 95%% simultaneous rank confidence set "
            "(Mogstad et al. 2024); the report says which models may be the best without it",
        },
    ),
    Option(
        ("--correction",),
        {
            "type": _correction,
            "default": "default",
            "metavar": "NAME",
            "help": "multiple-testing correction: holm (default; none for nemenyi), "
            "bonferroni, fdr_bh, shaffer, ... or none",
        },
        keyword="correction",
    ),
    Option(
        ("--alpha",),
        {"type": fraction, "default": 0.05, "metavar": "A", "help": "significance level (0.05)"},
        keyword="alpha",
    ),
    Option(
        ("--test",),
        {
            "choices": _TESTS,
            "help": "pairwise test (default: corrected_ttest when the design is known, else "
            "ttest; wilcoxon across data sets; nemenyi and conover need several data sets: "
            "--long data or a --benchmark file of per-data-set means). bayes "
            "prints the Bayesian test's table (needs --rope, and --cv or --test-size for one "
            "data set); --rope alone adds the Bayesian test to the report. A predictions "
            "file: delong (default for numeric scores), mcnemar (default for labels) or "
            "permutation_test; a forecasts file: confidence_set (default) or diebold_mariano",
        },
        keyword="test",
    ),
    Option(
        ("--metric",),
        {"metavar": "NAME", "help": "metric of a multi-metric cv_results_"},
        keyword="metric",
    ),
    Option(
        ("--lower-is-better",),
        {"action": "store_true", "help": "scores are losses (lower is better)"},
        keyword="greater_is_better",
        gives=False,
    ),
    Option(
        ("--plot",),
        {
            "metavar": "FILE.png",
            "help": "also save a figure (folds, correlation, intervals; the "
            "critical-difference diagram for --long data; the choice for --select)",
        },
    ),
    Option(
        ("--html",),
        {
            "metavar": "FILE.html",
            "help": "also write the report as one self-contained HTML page (tables, inline "
            "figures)",
        },
    ),
    Option(
        ("--markdown",),
        {
            "metavar": "FILE.md",
            "help": "also write the report as Markdown (pipe tables), for a pull request or a log",
        },
    ),
    Option(
        ("--top",),
        {
            "type": _top,
            "default": DEFAULT_TOP,
            "metavar": "N",
            "help": f"models with lines of their own in tables and report ({DEFAULT_TOP}); "
            "0 for all",
        },
        keyword="top",
    ),
    Option(
        ("--transpose",),
        {
            "action": "store_true",
            "help": "the models are the columns (one column of fold scores per model)",
        },
    ),
    Option(
        ("--benchmark",),
        {
            "action": "store_true",
            "help": "the columns are data sets: one score per model and data set "
            "(what bench.cmp.means().to_csv() writes)",
        },
    ),
    Option(("--version",), {"action": "version", "version": f"%(prog)s {__version__}"}),
    Option(
        ("--select",),
        {
            "choices": RULES,
            "metavar": "RULE",
            "help": f"choose a model by a rule: {', '.join(RULES)} (needs --by)",
        },
        "choose",
    ),
    Option(
        ("--by",),
        {
            "metavar": "PARAM",
            "help": "the parameter that orders the models by complexity, simplest = smallest",
        },
        "choose",
        "by",
    ),
    Option(
        ("--descending",),
        {"action": "store_true", "help": "larger --by values are simpler"},
        "choose",
    ),
    Option(("--long",), {"action": "store_true", "help": "the file is a long table"}, "long"),
    Option(
        ("--model-col",),
        {"default": "model", "metavar": "COL", "help": "(model)"},
        "long",
        "model",
    ),
    Option(
        ("--dataset-col",),
        {"default": "dataset", "metavar": "COL", "help": "(dataset)"},
        "long",
        "dataset",
    ),
    Option(
        ("--split-col",),
        {"metavar": "COL", "help": "(none: one score per data set)"},
        "long",
        "split",
    ),
    Option(
        ("--score-col",),
        {"default": "score", "metavar": "COL", "help": "(score)"},
        "long",
        "score",
    ),
    Option(
        ("--items",),
        {"action": "store_true", "help": "the file is a long table of item scores"},
        "items",
    ),
    Option(
        ("--item-col",), {"default": "item", "metavar": "COL", "help": "(item)"}, "items", "item"
    ),
    Option(
        ("--cluster-col",),
        {"metavar": "COL", "help": "(none: items are independent)"},
        "items",
        "cluster",
    ),
    Option(
        ("--sample-col",),
        {"metavar": "COL", "help": "(none: one row per model and item)"},
        "items",
        "sample",
    ),
    Option(("--task-col",), {"metavar": "COL", "help": "(none: one task)"}, "items", "task"),
    Option(
        ("--estimand",),
        {
            "choices": ["mean", "pass@k", "pass^k"],
            "help": "what each item's 0/1 samples (attempts) give: their mean, or the unbiased "
            "pass@k (solved at least once in --k tries) or pass^k (every time); (mean)",
        },
        "items",
        "estimand",
    ),
    Option(
        ("--k",),
        {"type": attempts_k, "metavar": "K", "help": "the k of pass@k and pass^k"},
        "items",
        "k",
    ),
    Option(
        ("--human-col",),
        {
            "metavar": "COL",
            "help": "(none) people's labels of some rows, NaN on the others: --score-col is "
            "then a judge's and the comparisons correct it (prediction-powered, PPI++)",
        },
        "items",
        "human",
    ),
    Option(
        ("--estimator",),
        {
            "choices": list(ESTIMATORS),
            "help": "with --human-col: ppi++ (default), ppi, labels (the labels alone), judge "
            "(the judge alone, uncorrected) or rogan_gladen (class-balanced binary labels)",
        },
        "items",
        "estimator",
    ),
    Option(
        ("--format",),
        {
            "choices": ["auto", "eee", "helm", "lighteval", "swebench", "promptfoo"],
            "help": "the file (or folder) holds evaluation results of that tool (auto: "
            "recognise it); --metric picks the metric (helm: the stat, promptfoo: score, "
            "success or a named score)",
        },
        "items",
    ),
    Option(
        ("--instances",),
        {
            "metavar": "FILE",
            "help": "with --format swebench: the split's instance ids (a text file, one per "
            "line; a JSON list; or the instance_id column of a CSV or parquet file), so that "
            "every instance a submission did not resolve counts 0",
        },
        "items",
        "instances",
    ),
    Option(
        ("--y",),
        {
            "metavar": "COLUMN",
            "help": "the truth column of a predictions or forecasts file (default: a column "
            "named y; a file with one is read as predictions, never as scores)",
        },
        "preds",
    ),
    Option(
        ("--forecasts",),
        {
            "action": "store_true",
            "help": "the file holds forecasts in time order: the time in the first column, the "
            "observed values in the truth column (the model confidence set and "
            "Diebold–Mariano)",
        },
        "preds",
    ),
    Option(
        ("--block-size",),
        {
            "type": _block_size,
            "metavar": "N",
            "help": "with --forecasts: the mean length, in time points, of the blocks the "
            "model confidence set resamples (default round(n^(1/3)), at least 2; 1 resamples "
            "single rows)",
        },
        "preds",
        "block_size",
    ),
    Option(
        ("--battles",),
        {"action": "store_true", "help": "Bradley–Terry ratings of battles"},
        "duels",
    ),
    Option(
        ("--model-a-col",), {"default": "model_a", "metavar": "COL", "help": "(model_a)"}, "duels"
    ),
    Option(
        ("--model-b-col",), {"default": "model_b", "metavar": "COL", "help": "(model_b)"}, "duels"
    ),
    Option(
        ("--winner-col",), {"default": "winner", "metavar": "COL", "help": "(winner)"}, "duels"
    ),
    Option(
        ("--ties",),
        {"choices": ["half", "davidson"], "default": "half", "help": "(half)"},
        "duels",
    ),
    Option(
        ("--runs",),
        {
            "action": "store_true",
            "help": "the splits are independent runs (seeds), not shared CV splits: with "
            "--long and a data-set (task) column, runs over tasks (rliable's aggregates); "
            "otherwise a runs frame (unpaired tests)",
        },
        "long",
    ),
)

#: The options of ``pdcompare gate`` that give keywords the main command has no option for.
GATE_OPTIONS = (
    Option(
        ("--candidate",), {"required": True, "help": "the model to release"}, None, "candidate"
    ),
    Option(("--baseline",), {"required": True, "help": "the model it replaces"}, None, "baseline"),
    Option(
        ("--margin",),
        {
            "required": True,
            "type": non_negative,
            "help": "how much worse the candidate may be, in the units of the score",
        },
        None,
        "margin",
    ),
)

#: The one mapping of the library's keywords to the options that give them.
KEYWORD_OPTIONS: Mapping[str, Option] = MappingProxyType(
    {option.keyword: option for option in (*OPTIONS, *GATE_OPTIONS) if option.keyword}
)


def add_options(parser: argparse.ArgumentParser, options: Iterable[Option]) -> None:
    """Add ``options`` to ``parser`` in their order, each to its group (made on first use)."""
    groups: dict[str | None, Any] = {None: parser}
    for option in options:
        if option.group not in groups:
            title = _GROUPS[option.group]
            groups[option.group] = (
                parser.add_mutually_exclusive_group()
                if title is None
                else parser.add_argument_group(title)
            )
        groups[option.group].add_argument(*option.flags, **option.settings)


def build_parser() -> argparse.ArgumentParser:
    """The command-line parser of ``pdcompare``, from the table :data:`OPTIONS`.

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
    add_options(parser, OPTIONS)
    return parser


#: A keyword in backticks: ```cv```, ```cv=```, ```correction='shaffer'```.
_KEYWORD = re.compile(r"`(?P<keyword>\w+)(?:=(?P<value>[^`]*))?`")


def option_words(keyword: str, value: str | None = None) -> str | None:
    """The option that gives ``keyword`` (with ``value``, as a command line spells it).

    None when no option gives it (or a flag gives another value).

    Examples
    --------
    >>> option_words("cv"), option_words("model"), option_words("correction", "'shaffer'")
    ('--cv', '--model-col', '--correction shaffer')
    >>> option_words("greater_is_better", "False"), option_words("hierarchical", "True")
    ('--lower-is-better', '--hierarchical')
    >>> option_words("greater_is_better", "True"), option_words("nan_policy")
    (None, None)
    """
    option = KEYWORD_OPTIONS.get(keyword)
    if option is None:
        return None
    flag = option.flags[0]
    if not value:
        return flag
    if option.settings.get("action") == "store_true":
        return flag if value == repr(option.gives) else None
    return f"{flag} {value.strip(chr(39) + chr(34))}"


def speak_cli(text: str) -> str:
    """``text`` of the library (a message, a report) with its keywords named as options.

    Each keyword in backticks that an option gives becomes that option
    (:data:`KEYWORD_OPTIONS`: ``cv=`` -> ``--cv``); nothing else of the
    sentence changes. Sentences whose advice differs on the command line are
    written for it where they are made (``cli_message`` of errors and
    warnings, ``report_text(words=COMMAND_LINE)``).

    Examples
    --------
    >>> speak_cli("`alpha` must be strictly between 0 and 1; got 1.5.")
    '--alpha must be strictly between 0 and 1; got 1.5.'
    >>> speak_cli("Pass `metric=` to choose one; `nan_policy` stays.")
    'Pass --metric to choose one; `nan_policy` stays.'
    """

    def named(match: re.Match[str]) -> str:
        return option_words(match["keyword"], match["value"]) or match[0]

    return _KEYWORD.sub(named, text)


def one_line(error: BaseException | Warning) -> str:
    """An error or warning as one line in the command line's words.

    Its ``cli_message`` when it has one (written for the command line).
    Otherwise its message, where every keyword named in backticks is the
    option that gives it (:func:`speak_cli`); the keyword the error carries
    (``keyword``, of :class:`~pdcompare._validation.OptionError` and of
    warnings) leads the line as its option when the sentence does not name it.

    Examples
    --------
    >>> from pdcompare._validation import OptionError
    >>> one_line(OptionError("`test='delong'` does not fit a scores frame.", keyword="test"))
    '--test delong does not fit a scores frame.'
    >>> one_line(OptionError("must be below 0.5; got 0.6.", keyword="alpha"))
    '--alpha: must be below 0.5; got 0.6.'
    >>> one_line(OptionError("Bad.", keyword="cv", cli_message="Pass --cv or --test-size."))
    'Pass --cv or --test-size.'
    """
    cli_message = getattr(error, "cli_message", None)
    if cli_message:
        return " ".join(cli_message.split())
    text = " ".join(str(error).split())
    if isinstance(error, KeyError):
        text = text.strip("'\"")
    keyword = getattr(error, "keyword", None)
    named = [match for match in _KEYWORD.finditer(text) if match["keyword"] == keyword]
    if keyword in KEYWORD_OPTIONS and not named:
        # The keyword at fault, by its field, where the sentence does not name it.
        text = f"{option_words(keyword)}: {text}"
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

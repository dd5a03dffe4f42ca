"""The ``pdcompare`` command: compare the models of a file of fold scores from the shell.

``pdcompare FILE`` reads a CSV (or parquet) of fold scores, first column the
model names, or a saved ``cv_results_`` table,
and prints the summary, the pairwise table and the report. ``pdcompare demo``
does the same on the bundled grid-search scores. Bad input ends with exit
status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import re
import sys
import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from pdcompare import __version__
from pdcompare.compare.aggregates import TaskRunsAnalysis
from pdcompare.compare.analysis import BENCHMARK_REPORT_TESTS, REPORT_TESTS, analyse
from pdcompare.compare.select import RULES, select
from pdcompare.compare.summary import set_design
from pdcompare.inputs.files import read_frame, read_table
from pdcompare.presentation.labels import BENCHMARK_REPORT_TEST_NAMES, REPORT_TEST_NAMES, plural
from pdcompare.presentation.report import DEFAULT_TOP, report, report_text
from pdcompare.results import result_info
from pdcompare.stats.multitest import check_correction

EXIT_USAGE = 2

_EPILOG = """\
examples:
  pdcompare demo
  pdcompare scores.csv --cv 10 --rope 0.01
  pdcompare cv_results.csv --cv 5 --metric roc_auc --plot comparison.png
  pdcompare cv_results.csv --cv 5 --select one_se --by C
  pdcompare results.csv --long --model-col framework --dataset-col task \\
      --split-col fold --score-col auc --plot cd.png

A scores file has one row per model: the model name in the first column,
then one column per CV split. A cv_results_ file is
pd.DataFrame(search.cv_results_).to_csv(...). A long file (--long) has one
row per model x data set (x split): the benchmark of several data sets.
Without --cv or --test-size the design is unknown and the (too optimistic)
plain t-test is used. Commas, tabs (.tsv) and semicolons separate columns.
"""

#: Keyword phrases of the library's messages, in the words of the command line.
_CLI_WORDS = (
    ("cv=, test_size=, or n_train= with n_test=", "--cv or --test-size"),
    ("`cv=` (the same cv as the search), `test_size=`, or `n_train=` with `n_test=`", "--cv"),
    ("`metric=`", "--metric"),
    ("`model=`", "--model-col"),
    ("`dataset=`", "--dataset-col"),
    ("`split=`", "--split-col"),
    ("`score=`", "--score-col"),
    ("`model`", "--model-col"),
    ("`dataset`", "--dataset-col"),
    ("`split`", "--split-col"),
    ("`score`", "--score-col"),
    ("`metric`", "--metric"),
    ("`cv=`", "--cv"),
    ("`test_size=`", "--test-size"),
    ("`hierarchical=True`", "--hierarchical"),
    ("`rope`", "--rope"),
    ("`alpha`", "--alpha"),
    ("`correction`", "--correction"),
    ("`top`", "--top"),
    ("`by`", "--by"),
    ("`test`", "--test"),
    ("`iteration`", "--iteration"),
    ("`greater_is_better=False`", "--lower-is-better"),
)

#: Sentences of the library that have no keyword-for-option translation: (regex, CLI words).
_CLI_PATTERNS = (
    # The design keywords, however a message lists them ("Pass `cv=` (the k of k-fold, ...)").
    (
        r"`?cv=`?(?: \([^)]*\))?,? `?test_size=`?(?: \([^)]*\))?,? or "
        r"`?n_train=`? with `?n_test=`?",
        "--cv or --test-size",
    ),
    (r"[;,]? (?:or )?\(?(?:or )?store it(?: once)? with `(?:df\.cmp\.)?set_design[^`]*`\)?", ""),
    (r"; on the command line --cv or --test-size", ""),
    # A design as the report states it: "cv=10" was --cv 10; "cv=KFold(...)" names a splitter.
    (r"(?<![\w-])cv=(\d+)\b", r"--cv \1"),
    (r"(?<![\w-])test_size=([\d.]+)", r"--test-size \1"),
    (r"(?<![\w-])cv=(?=[A-Z])", ""),
    # The report names the Python call that lists every pair; here it is --top 0.
    (r"not listed; [^;]*? gives them all\.\)", "not listed; --top 0 lists them all.)"),
    # The command line keeps every split: missing scores are the file's to mend.
    (r"see the warning, or pass nan_policy='omit'", "fill in or remove them in the file"),
    (
        r"[Pp]ass `?nan_policy='omit'`?(?: to [^.;]+?)?(?:,? or `?nan_policy='propagate'`? "
        r"to [^.;]+?)?(?: instead)?(?=[.;]|$)",
        lambda match: (
            ("T" if match.group(0)[0] == "P" else "t")
            + "he command line compares complete files only: fill in or remove the missing scores"
        ),
    ),
    (r"use nan_policy='omit' to leave them out", "fill in or remove them in the file"),
    # Tests the command line runs with --test; one model against the others it cannot run.
    (r", or one model against the others with `\w+\(a=\.\.\.\)`", ""),
    (r" or one model against the others \(`\w+\(a=\.\.\.\)`\)", ""),
    (r"`pairwise\(test='(\w+)'\)`", r"--test \1"),
    (r"`(corrected_ttest|wilcoxon|sign_test|ttest)`(?=,? (?:cannot|can|whose))", r"--test \1"),
    (r"`correction='(\w+)'`", r"--correction \1"),
)


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
        "--correction",
        type=_correction,
        default="default",
        metavar="NAME",
        help="multiple-testing correction: holm (default; none for nemenyi), bonferroni, "
        "fdr_bh, shaffer, ... or none",
    )
    parser.add_argument(
        "--alpha", type=_fraction, default=0.05, metavar="A", help="significance level (0.05)"
    )
    parser.add_argument(
        "--test",
        choices=(*dict.fromkeys(REPORT_TESTS + BENCHMARK_REPORT_TESTS), "bayes"),
        help="pairwise test (default: corrected_ttest when the design is known, else ttest; "
        "wilcoxon across data sets; nemenyi and conover need --long data). bayes prints the "
        "Bayesian test's table (needs --rope, and --cv or --test-size for one data set); "
        "--rope alone adds the Bayesian test to the report",
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
    long.add_argument(
        "--runs",
        action="store_true",
        help="the splits are independent runs (seeds), not shared CV splits: with --long and "
        "a data-set (task) column, runs over tasks (rliable's aggregates); otherwise a runs "
        "frame (unpaired tests)",
    )
    return parser


def _table(frame: pd.DataFrame, index: bool = True) -> str:
    from pdcompare.presentation.styling import column_formatters

    return frame.to_string(formatters=column_formatters(frame, 4), index=index)


def _save(figure: Any, path: str) -> None:
    import matplotlib.pyplot as plt

    try:  # pdcompare's figures lay themselves out (constrained layout, or the CD diagram's own)
        figure.savefig(path, dpi=100)
    finally:
        plt.close(figure)


def _plot(scores: pd.DataFrame, path: str, design: dict[str, Any], top: int | None) -> None:
    """Save the overview of the best ``top`` of every model (its titles say "best 10 of 60")."""
    import matplotlib

    matplotlib.use("Agg")
    from pdcompare.presentation.plotting.scores import overview_figure

    _save(overview_figure(scores, top=top, **design), path)


def _plot_result(result: pd.DataFrame, path: str, top: int | None = None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    from pdcompare.presentation.plotting import plot

    _save(plot(result, top=top).figure, path)


def _load(args: argparse.Namespace) -> tuple[pd.DataFrame, str]:
    """The frame the command line compares, and the title of its output."""
    if args.source == "demo" and not Path("demo").exists():
        from pdcompare.datasets import load_grid_search_scores

        title = "Bundled data: the scikit-learn grid-search example (4 SVC kernels, ROC AUC)"
        return load_grid_search_scores(), title
    title = f"File: {args.source}"
    if args.long:
        from pdcompare.inputs.benchmark import from_long

        if args.transpose or args.benchmark:
            msg = "--transpose and --benchmark read wide tables; --long reads a long one"
            raise ValueError(msg)
        table = read_table(args.source)
        if "params" in table.columns:
            msg = "--long reads a long table of scores; this file is a cv_results_ table"
            raise ValueError(msg)
        return (
            from_long(
                table,
                model=args.model_col,
                dataset=args.dataset_col,
                split=args.split_col,
                score=args.score_col,
                greater_is_better=not args.lower_is_better,
                paired=not args.runs,
            ),
            title,
        )
    frame = read_frame(args.source, transpose=args.transpose, benchmark=args.benchmark)
    if args.runs:
        frame = set_design(frame, paired=False)
    return frame, title


def _select(frame: pd.DataFrame, args: argparse.Namespace, design: dict[str, Any]) -> str:
    if args.by is None:
        msg = "--select needs --by: the parameter that orders the models by complexity"
        raise ValueError(msg)
    choice = select(
        frame,
        args.select,
        by=args.by,
        ascending=not args.descending,
        alpha=args.alpha,
        rope=args.rope,
        metric=args.metric,
        **design,
    )
    if args.plot:
        _plot_result(choice, args.plot)
    shown = choice if args.top is None else choice.iloc[: max(args.top, 1)]
    more = len(choice) - len(shown)
    parts = [
        f"Choosing a model by the rule {args.select!r}, simplest first by {args.by}",
        _table(shown),
    ]
    if more:
        parts.append(f"({plural(more, 'more model', 'more models')}; --top 0 shows them all)")
    parts += ["", speak_cli(report(choice))]
    return "\n".join(parts)


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
    from pdcompare.inputs.cv_results import is_cv_results

    frame, title = _load(args)
    if args.metric is not None and not is_cv_results(frame):
        msg = "`--metric` applies to cv_results_ files only; this file holds fold scores"
        raise ValueError(msg)
    design: dict[str, Any] = {}
    if args.cv is not None:
        design["cv"] = args.cv
    if args.test_size is not None:
        design["test_size"] = args.test_size
    if args.lower_is_better:
        design["greater_is_better"] = False
    if args.select:
        return title + "\n\n" + _select(frame, args, design).rstrip("\n") + "\n"
    if is_cv_results(frame):
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
        **design,
    )
    design.pop("metric", None)
    if isinstance(analysis, TaskRunsAnalysis):
        return _task_runs_output(analysis, title, args)
    scores, summary, pairwise = analysis.frame, analysis.summary, analysis.significance
    benchmark, test = analysis.benchmark, analysis.test
    text = speak_cli(report_text(analysis, top=args.top))
    meta = pairwise.attrs["pdcompare"]
    correction = meta.get("correction") or (
        "family-wise p-values" if test == "nemenyi" else "no correction"
    )
    direction = "higher" if summary.attrs["pdcompare"]["greater_is_better"] else "lower"
    names = BENCHMARK_REPORT_TEST_NAMES if benchmark else REPORT_TEST_NAMES
    top = len(summary) if args.top is None else args.top
    shown_models = set(summary.index[:top])
    in_top = pairwise["model_1"].isin(shown_models) & pairwise["model_2"].isin(shown_models)
    parts = [
        title,
        "",
        f"Summary (best first; {direction} scores are better)",
        _table(summary.iloc[:top]),
    ]
    if len(summary) > top:
        rest = plural(len(summary) - top, "more model", "more models")
        parts.append(f"({rest}; --top 0 shows them all)")
    heading = f"Pairwise comparisons: {names[test]}, {correction}, alpha = {args.alpha:g}"
    if bayes:
        heading, pairwise = _bayes_table(analysis, args.alpha)
        in_top = pairwise["model_1"].isin(shown_models) & pairwise["model_2"].isin(shown_models)
    parts += ["", heading, _table(pairwise[in_top], index=False)]
    if (~in_top).any():
        rest = plural(int((~in_top).sum()), "more pair", "more pairs")
        parts.append(f"({rest}; --top 0 shows them all)")
    parts += ["", text]
    if args.plot:
        if benchmark:
            # The critical-difference diagram of the frequentist test.
            _plot_result(analysis.significance, args.plot, args.top)
        else:
            _plot(scores, args.plot, design, args.top)
        parts.append(f"Figure saved to {args.plot}")
    for path, kind in ((args.html, "html"), (args.markdown, "markdown")):
        if path:
            _write_document(analysis, args.top, kind, path)
            parts.append(f"Report ({'HTML' if kind == 'html' else 'Markdown'}) saved to {path}")
    return "\n".join(parts).rstrip("\n") + "\n"


def _task_runs_output(analysis: Any, title: str, args: argparse.Namespace) -> str:
    """The tables, the report and the figure of runs over tasks (``--long --runs``)."""
    summary, improvement = analysis.summary, analysis.significance
    top = len(summary) if args.top is None else args.top
    flat = summary.iloc[:top].copy()
    flat.columns = [f"{metric} {part}" for metric, part in flat.columns]
    parts = [
        title,
        "",
        "Aggregates over tasks (best first by IQM; stratified bootstrap intervals)",
        _table(flat),
        "",
        "Probability of improvement (the best by IQM against the others)",
        _table(improvement.iloc[: max(top - 1, 1)], index=False),
        "",
        speak_cli(report_text(analysis, top=top)),
    ]
    if args.plot:
        _plot_result(summary, args.plot, args.top)
        parts.append(f"Figure saved to {args.plot}")
    for path, kind in ((args.html, "html"), (args.markdown, "markdown")):
        if path:
            _write_document(analysis, args.top, kind, path)
            parts.append(f"Report ({'HTML' if kind == 'html' else 'Markdown'}) saved to {path}")
    return "\n".join(parts).rstrip("\n") + "\n"


def _write_document(analysis: Any, top: int | None, kind: str, path: str) -> None:
    """The report of the same analysis as one HTML page or Markdown file."""
    if kind == "html":
        import matplotlib

        matplotlib.use("Agg")
    document = speak_cli(report_text(analysis, top=top, format=kind))
    Path(path).write_text(document, encoding="utf-8")


def speak_cli(text: str) -> str:
    """``text`` of the library (a message, a report) in the words of the command line.

    Keyword arguments become options (``cv=`` -> ``--cv``); advice the command
    line cannot follow (``nan_policy='omit'``, ``set_design``) becomes what it can.

    Examples
    --------
    >>> speak_cli("Pass `cv=` (the k of k-fold), `test_size=` or `n_train=` with `n_test=`.")
    'Pass --cv or --test-size.'
    >>> speak_cli("missing scores (NaN); see the warning, or pass nan_policy='omit'.")
    'missing scores (NaN); fill in or remove them in the file.'
    """
    for pattern, words in _CLI_PATTERNS:
        text = re.sub(pattern, words, text)
    for keyword, option in _CLI_WORDS:
        text = text.replace(keyword, option)
    return text


def _bayes_table(analysis: Any, alpha: float) -> tuple[str, pd.DataFrame]:
    """The heading and the table of ``--test bayes``: the analysis's Bayesian comparisons."""
    if analysis.bayes is None:
        msg = (
            "--test bayes on the folds of one data set is the Bayesian correlated t-test, "
            "which needs the CV design: pass --cv or --test-size"
        )
        raise ValueError(msg)
    low, high = result_info(analysis.bayes).rope or (0.0, 0.0)
    method = "signed-rank test" if analysis.benchmark else "correlated t-test"
    if result_info(analysis.bayes).test == "hierarchical":
        method = "hierarchical test (every data set's folds kept)"
    heading = (
        f"Pairwise comparisons: Bayesian {method}, rope [{low:g}, {high:g}], "
        f"decided when a probability reaches {1 - alpha:g}"
    )
    return heading, analysis.bayes


def _one_line(error: BaseException | Warning) -> str:
    text = " ".join(str(error).split())
    if isinstance(error, KeyError):
        text = text.strip("'\"")
    return speak_cli(text) or type(error).__name__


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
    # A warning given by several comparisons of the analysis is said once.
    for message in dict.fromkeys(_one_line(warning.message) for warning in caught):
        print(f"pdcompare: warning: {message}", file=sys.stderr)
    sys.stdout.write(text)
    return 0

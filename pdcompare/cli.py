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

from pdcompare import __version__
from pdcompare._validation import check_correction
from pdcompare.compare.aggregates import TaskRunsAnalysis
from pdcompare.compare.analysis import BENCHMARK_REPORT_TESTS, REPORT_TESTS, analyse
from pdcompare.compare.battles import bradley_terry
from pdcompare.compare.gate import GATE_TESTS, gate
from pdcompare.compare.select import RULES, select
from pdcompare.compare.summary import set_design
from pdcompare.inputs.battles import from_battles
from pdcompare.inputs.files import read_frame, read_table
from pdcompare.presentation.labels import (
    BENCHMARK_REPORT_TEST_NAMES,
    COMMAND_LINE,
    REPORT_TEST_NAMES,
    method_label,
    plural,
)
from pdcompare.presentation.report import DEFAULT_TOP, report, report_text
from pdcompare.presentation.report.battles import battles_report
from pdcompare.presentation.report.gate import gate_text
from pdcompare.results import result_info

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
            ("candidate", "--candidate"),
            ("baseline", "--baseline"),
        )
        for suffix in ("=", "")
    ),
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


def _battles(args: argparse.Namespace) -> str:
    """The ratings table, the pairs and the report of a file of battles (``--battles``)."""
    if args.long or args.transpose or args.benchmark:
        msg = "--battles reads a long table of battles: drop --long, --transpose and --benchmark"
        raise ValueError(msg)
    table = read_table(args.source)
    battles = from_battles(
        table, model_a=args.model_a_col, model_b=args.model_b_col, winner=args.winner_col
    )
    top = len(battles) if args.top is None else args.top
    ratings = bradley_terry(battles, ties=args.ties, random_state=0)
    words = battles_report(
        battles, ties=args.ties, alpha=args.alpha, correction=args.correction, top=top
    )
    parts = [
        f"File: {args.source}",
        "",
        "Bradley–Terry ratings (best first)",
        _table(ratings.iloc[:top]),
        "",
        words,
    ]
    if args.plot:
        _plot_result(ratings, args.plot, args.top)
        parts.append(f"Figure saved to {args.plot}")
    for path, kind in ((args.html, "html"), (args.markdown, "markdown")):
        if path:
            Path(path).write_text(
                battles_report(
                    battles,
                    ties=args.ties,
                    alpha=args.alpha,
                    correction=args.correction,
                    top=top,
                    format=kind,
                ),
                encoding="utf-8",
            )
            parts.append(f"Report ({'HTML' if kind == 'html' else 'Markdown'}) saved to {path}")
    return "\n".join(parts).rstrip("\n") + "\n"


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
    if args.items:
        from pdcompare.inputs.items import from_items

        if args.long or args.transpose or args.benchmark:
            msg = (
                "--items reads a long table of item scores; leave out --long, --transpose "
                "and --benchmark"
            )
            raise ValueError(msg)
        frame = from_items(
            read_table(args.source),
            model=args.model_col,
            item=args.item_col,
            score=args.score_col,
            sample=args.sample_col,
            cluster=args.cluster_col,
            task=args.task_col,
            greater_is_better=not args.lower_is_better,
        )
        return frame, title
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

    if args.battles:
        return _battles(args)
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
    cost = None
    if args.cost is not None and is_cv_results(frame):
        cost = args.cost  # pareto reads it from the cv_results_ frame's own columns
    elif args.cost is not None:
        if args.cost not in frame.columns:
            shown = ", ".join(map(str, list(frame.columns)[:8]))
            msg = f"--cost {args.cost}: no such column in this file (it has {shown}, ...)"
            raise ValueError(msg)
        cost = pd.to_numeric(frame[args.cost], errors="coerce")
        frame = frame.drop(columns=[args.cost])
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
        cost=cost,
        ranks=args.ranks,
        **design,
    )
    design.pop("metric", None)
    if isinstance(analysis, TaskRunsAnalysis):
        return _task_runs_output(analysis, title, args)
    scores, summary, pairwise = analysis.frame, analysis.summary, analysis.significance
    benchmark, test = analysis.benchmark, analysis.test
    text = speak_cli(report_text(analysis, top=args.top, words=COMMAND_LINE))
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
    name = method_label(meta) if meta.get("unit") in ("item", "cluster means") else names[test]
    heading = f"Pairwise comparisons: {name}, {correction}, alpha = {args.alpha:g}"
    if bayes:
        heading, pairwise = _bayes_table(analysis, args.alpha)
        in_top = pairwise["model_1"].isin(shown_models) & pairwise["model_2"].isin(shown_models)
    parts += ["", heading, _table(pairwise[in_top], index=False)]
    if (~in_top).any():
        rest = plural(int((~in_top).sum()), "more pair", "more pairs")
        parts.append(f"({rest}; --top 0 shows them all)")
    if analysis.ranks is not None:
        ranks = analysis.ranks
        heading = (
            "Rank sets (95% simultaneous, best first; covariance: "
            f"{ranks.attrs['pdcompare']['covariance']})"
        )
        parts += ["", heading, _table(ranks.iloc[:top])]
        if len(ranks) > top:
            rest = plural(len(ranks) - top, "more model", "more models")
            parts.append(f"({rest}; --top 0 shows them all)")
    parts += ["", text]
    if args.plot:
        if benchmark:
            # The critical-difference diagram of the frequentist test.
            _plot_result(analysis.significance, args.plot, args.top)
        elif args.items:  # each model's clustered interval
            _plot_result(scores, args.plot, args.top)
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
    document = speak_cli(report_text(analysis, top=top, format=kind, words=COMMAND_LINE))
    Path(path).write_text(document, encoding="utf-8")


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
    # An error or warning about a keyword may carry its own command-line words.
    text = " ".join((getattr(error, "cli_message", None) or str(error)).split())
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
        print(f"pdcompare: error: {_one_line(error)}", file=sys.stderr)
        return EXIT_USAGE
    # A warning given by several comparisons of the analysis is said once.
    for message in dict.fromkeys(_one_line(warning.message) for warning in caught):
        print(f"pdcompare: warning: {message}", file=sys.stderr)
    sys.stdout.write(text)
    return 0


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
  pdcompare gate predictions.csv --y label --candidate new --baseline prod --margin 0.02 \\
      --markdown gate.md
"""


class _GateParser(_Parser):
    """The gate's parser: a usage error is one line on stderr and exit status 3."""

    def error(self, message: str):
        self.exit(EXIT_GATE_ERROR, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


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
    parser.add_argument("--candidate", required=True, help="the model to release")
    parser.add_argument("--baseline", required=True, help="the model it replaces")
    parser.add_argument(
        "--margin",
        required=True,
        type=_non_negative,
        help="how much worse the candidate may be, in the units of the score",
    )
    parser.add_argument("--cv", type=_folds, help="k of the k-fold CV of the scores")
    parser.add_argument("--test-size", type=_fraction, help="test fraction of each split")
    parser.add_argument(
        "--test", choices=GATE_TESTS, help="the test (default: the file's own, as the report's)"
    )
    parser.add_argument(
        "--alpha", type=_fraction, default=0.05, help="both bounds at 1 - alpha (0.05)"
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
        test=args.test, y=y, **design,
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
        print(f"pdcompare gate: error: {_one_line(error)}", file=sys.stderr)
        return EXIT_GATE_ERROR
    for message in dict.fromkeys(_one_line(warning.message) for warning in caught):
        print(f"pdcompare gate: warning: {message}", file=sys.stderr)
    sys.stdout.write(text)
    return GATE_EXIT[outcome]

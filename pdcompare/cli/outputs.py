"""What the command line prints and writes: tables, figures, documents, by kind of file."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from pdcompare.cli.options import speak_cli
from pdcompare.compare.battles import bradley_terry
from pdcompare.compare.select import select
from pdcompare.compare.summary import set_design
from pdcompare.datasets import load_grid_search_scores
from pdcompare.inputs.battles import from_battles
from pdcompare.inputs.benchmark import from_long
from pdcompare.inputs.files import read_frame, read_results, read_table, scan_table
from pdcompare.inputs.items import from_items
from pdcompare.presentation.labels import (
    COMMAND_LINE,
    plural,
)
from pdcompare.presentation.plotting import plot
from pdcompare.presentation.plotting.scores import overview_figure
from pdcompare.presentation.report import report, report_text
from pdcompare.presentation.report.battles import battles_report
from pdcompare.presentation.styling import column_formatters
from pdcompare.results import result_info


def battles_output(args: argparse.Namespace) -> str:
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
        table_text(ratings.iloc[:top]),
        "",
        words,
    ]
    if args.plot:
        plot_result(ratings, args.plot, args.top)
        parts.append(f"Figure saved to {args.plot}")
    parts += write_documents(
        args,
        lambda kind: battles_report(
            battles, ties=args.ties, alpha=args.alpha, correction=args.correction, top=top,
            format=kind,
        ),
    )  # fmt: skip
    return "\n".join(parts).rstrip("\n") + "\n"


def table_text(frame: pd.DataFrame, index: bool = True) -> str:
    """A result table as text, with the formats of ``style()`` (p-values, integers)."""
    return frame.to_string(formatters=column_formatters(frame, 4), index=index, na_rep="")


def _save(figure: Any, path: str) -> None:
    import matplotlib.pyplot as plt

    try:  # pdcompare's figures lay themselves out (constrained layout, or the CD diagram's own)
        figure.savefig(path, dpi=100)
    finally:
        plt.close(figure)


def plot_scores(scores: pd.DataFrame, path: str, design: dict[str, Any], top: int | None) -> None:
    """Save the overview of the best ``top`` of every model (its titles say "best 10 of 60")."""
    import matplotlib

    matplotlib.use("Agg")

    _save(overview_figure(scores, top=top, **design), path)


def plot_result(result: pd.DataFrame, path: str, top: int | None = None) -> None:
    """Save the picture of a result frame to ``path`` (``--plot``)."""
    import matplotlib

    matplotlib.use("Agg")

    _save(plot(result, top=top).figure, path)


def load_file(args: argparse.Namespace) -> tuple[pd.DataFrame, str]:
    """The frame the command line compares, and the title of its output."""
    if args.source == "demo" and not Path("demo").exists():
        title = "Bundled data: the scikit-learn grid-search example (4 SVC kernels, ROC AUC)"
        return load_grid_search_scores(), title
    title = f"File: {args.source}"
    instances = getattr(args, "instances", None)
    if getattr(args, "format", None) is not None:  # a tool's results (inputs/files.py)
        frame = read_results(args.source, args.format, metric=args.metric, instances=instances)
        return frame, title
    if instances is not None:
        msg = "--instances applies to --format swebench only; add --format swebench"
        raise ValueError(msg)
    passk = [f"--{name}" for name in ("estimand", "k") if getattr(args, name, None) is not None]
    if passk and not args.items:
        msg = f"{' and '.join(passk)} {'is an option' if len(passk) == 1 else 'are options'} of "
        msg += "an items file (0/1 attempts per model and item): add --items"
        raise ValueError(msg)
    if args.items:
        if args.long or args.transpose or args.benchmark:
            msg = (
                "--items reads a long table of item scores; leave out --long, --transpose "
                "and --benchmark"
            )
            raise ValueError(msg)
        human = getattr(args, "human_col", None)  # the labels are read from a pandas table
        frame = from_items(
            scan_table(args.source) if human is None else read_table(args.source),
            human=human,
            model=args.model_col,
            item=args.item_col,
            score=args.score_col,
            sample=args.sample_col,
            cluster=args.cluster_col,
            task=args.task_col,
            greater_is_better=not args.lower_is_better,
            estimand=args.estimand or "mean",
            k=args.k,
        )
        return frame, title
    if args.long:
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


def select_output(frame: pd.DataFrame, args: argparse.Namespace, design: dict[str, Any]) -> str:
    """The choice of a model (``--select``): its table and the report of the choice."""
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
        plot_result(choice, args.plot)
    shown = choice if args.top is None else choice.iloc[: max(args.top, 1)]
    more = len(choice) - len(shown)
    parts = [
        f"Choosing a model by the rule {args.select!r}, simplest first by {args.by}",
        table_text(shown),
    ]
    if more:
        parts.append(f"({plural(more, 'more model', 'more models')}; --top 0 shows them all)")
    parts += ["", speak_cli(report(choice))]
    return "\n".join(parts)


def task_runs_output(analysis: Any, title: str, args: argparse.Namespace) -> str:
    """The tables, the report and the figure of runs over tasks (``--long --runs``)."""
    summary, improvement = analysis.summary, analysis.significance
    top = len(summary) if args.top is None else args.top
    flat = summary.iloc[:top].copy()
    flat.columns = [f"{metric} {part}" for metric, part in flat.columns]
    parts = [
        title,
        "",
        "Aggregates over tasks (best first by IQM; stratified bootstrap intervals)",
        table_text(flat),
        "",
        "Probability of improvement (the best by IQM against the others)",
        table_text(improvement.iloc[: max(top - 1, 1)], index=False),
        "",
        speak_cli(report_text(analysis, top=top)),
    ]
    if args.plot:
        plot_result(summary, args.plot, args.top)
        parts.append(f"Figure saved to {args.plot}")
    parts += write_documents(args, analysis_document(analysis, args.top))
    return "\n".join(parts).rstrip("\n") + "\n"


def write_documents(args: Any, document: Callable[[str], str]) -> list[str]:
    """Write the report where ``--html`` and ``--markdown`` ask; the lines saying so.

    ``document(kind)`` gives the report as "html" or "markdown" text.
    """
    lines = []
    for path, kind in ((args.html, "html"), (args.markdown, "markdown")):
        if path:
            Path(path).write_text(document(kind), encoding="utf-8")
            lines.append(f"Report ({'HTML' if kind == 'html' else 'Markdown'}) saved to {path}")
    return lines


def analysis_document(analysis: Any, top: int | None) -> Callable[[str], str]:
    """The report of an analysis as one HTML page or Markdown text, in the command line's words."""

    def document(kind: str) -> str:
        if kind == "html":
            import matplotlib

            matplotlib.use("Agg")
        return speak_cli(report_text(analysis, top=top, format=kind, words=COMMAND_LINE))

    return document


def bayes_table(analysis: Any, alpha: float) -> tuple[str, pd.DataFrame]:
    """The heading and the table of ``--test bayes``: the analysis's Bayesian comparisons."""
    if analysis.bayes is None:
        msg = (
            "--test bayes on the folds of one data set is the Bayesian correlated t-test, "
            "which needs the CV design: pass --cv or --test-size"
        )
        raise ValueError(msg)
    info = result_info(analysis.bayes)
    low, high = info.rope or (0.0, 0.0)
    method = "signed-rank test" if analysis.benchmark else "correlated t-test"
    if info.test == "hierarchical":
        method = "hierarchical test (every data set's folds kept)"
    heading = (
        f"Pairwise comparisons: Bayesian {method}, rope [{low:g}, {high:g}], "
        f"decided when a probability reaches {1 - alpha:g}"
    )
    return heading, analysis.bayes

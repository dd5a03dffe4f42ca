"""The command line on a predictions file (a truth column) or a forecasts file (``--forecasts``).

A predictions file has one row per test sample: the truth in a column (``--y``,
default ``y``) and one column of predictions per model. Its models are the
other columns, never the truth; numeric scores (probabilities, decision
values) are compared by DeLong's test of AUCs by default, predicted labels by
McNemar's test. A forecasts file (``--forecasts``) has the time in its first
column, the observed values in the truth column and one column of forecasts
per model; it gets the model confidence set and the Diebold–Mariano tests of
the forecast report, its confidence set resampling blocks of time points.
"""

from __future__ import annotations

import argparse
import contextlib
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.cli.options import FORECAST_CLI_TESTS, PREDICTION_CLI_TESTS, speak_cli
from pdcompare.cli.outputs import analysis_document, plot_result, table_text, write_documents
from pdcompare.compare.analysis import ALL_PAIRS_UP_TO, analyse
from pdcompare.compare.auc import auc_ci, delong
from pdcompare.compare.bootstrap import accuracy_ci
from pdcompare.compare.permutation import permutation_test
from pdcompare.compare.predictions import mcnemar
from pdcompare.compare.summary import set_design
from pdcompare.inputs.scores import ALL_PAIRS
from pdcompare.presentation.labels import COMMAND_LINE, plural
from pdcompare.presentation.report import report_text
from pdcompare.results import result_info

_NAMES = {
    "delong": "DeLong's test of ROC AUCs",
    "mcnemar": "McNemar's test of paired errors",
    "permutation_test": "paired permutation test",
}


def truth_column(table: pd.DataFrame, args: argparse.Namespace) -> Any:
    """The truth column of a file read as a table, or None when it holds none.

    ``--y COLUMN`` names it (an error when the file lacks it); otherwise a
    column named ``y`` is the truth. ``--forecasts`` needs one.
    """
    truth = "y" if args.y is None else args.y
    if truth in table.columns:
        return truth
    if args.y is not None:
        shown = ", ".join(map(str, list(table.columns)[:8]))
        msg = f"--y {args.y}: the file has no column {args.y!r} (it has {shown})"
        raise ValueError(msg)
    if args.forecasts:
        msg = (
            "--forecasts reads a file of forecasts with the observed values in a column 'y' "
            "(or name it with --y COLUMN); this file has no column 'y'"
        )
        raise ValueError(msg)
    return None


def _refuse_other_options(args: argparse.Namespace, kind: str) -> None:
    given = [
        option
        for option, flag in (
            ("--transpose", args.transpose),
            ("--long", args.long),
            ("--benchmark", args.benchmark),
            ("--items", args.items),
            ("--runs", args.runs),
            ("--cv", args.cv is not None),
            ("--test-size", args.test_size is not None),
            ("--rope", args.rope is not None),
            ("--select", args.select is not None),
            ("--cost", args.cost is not None),
            ("--ranks", args.ranks),
            ("--hierarchical", args.hierarchical),
            ("--metric", args.metric is not None),
        )
        if flag
    ]
    if given:
        row = "time point" if kind == "forecasts" else "test sample"
        msg = (
            f"this is a {kind} file (one row per {row}, "
            f"the truth in column {args.y or 'y'!r}, one column per model): "
            f"{' and '.join(given)} {'does' if len(given) == 1 else 'do'} not apply; leave "
            f"{'it' if len(given) == 1 else 'them'} out"
        )
        raise ValueError(msg)


def holds_scores(frame: pd.DataFrame, truth: Any) -> bool:
    """Whether the models' columns hold numeric scores rather than predicted labels.

    Labels take only values the truth takes; numbers outside them (a
    probability, a decision value) are scores.

    Examples
    --------
    >>> frame = pd.DataFrame({"y": [0, 1, 1], "a": [0.2, 0.9, 0.6], "b": [0, 1, 0]})
    >>> holds_scores(frame, "y"), holds_scores(frame[["y", "b"]], "y")
    (True, False)
    """
    models = frame.drop(columns=[truth])
    numeric = all(
        pd.api.types.is_numeric_dtype(models[c]) and not pd.api.types.is_bool_dtype(models[c])
        for c in models.columns
    )
    if not numeric:
        return False
    labels = set(pd.unique(frame[truth].dropna()))
    values = pd.unique(models.to_numpy(dtype=float).ravel())
    values = values[~np.isnan(values)]
    return any(value not in labels for value in values.tolist())


def _is_continuous(truth: pd.Series) -> bool:
    """A truth of numbers that are not class labels: more than two values, some not integers."""
    if not pd.api.types.is_float_dtype(truth):
        return False
    values = truth.dropna().to_numpy(dtype=float)
    return len(np.unique(values)) > 2 and not np.all(values == np.round(values))


def _scope(n_models: int) -> Any:
    """Every pair up to ten models (as the report), the best against the rest beyond."""
    return ALL_PAIRS if n_models <= ALL_PAIRS_UP_TO else None


def predictions_output(args: argparse.Namespace, table: pd.DataFrame, truth: Any) -> str:
    """The tables of a predictions file (or the report of a forecasts file), as text."""
    if args.forecasts:
        return _forecasts_output(args, table, truth)
    _refuse_other_options(args, "predictions")
    for option, path in (("--html", args.html), ("--markdown", args.markdown)):
        if path:
            msg = (
                f"{option}: the report of a predictions file is its tables here; "
                "write them with the shell's > instead"
            )
            raise ValueError(msg)
    if str(table.columns[0]).startswith("Unnamed: "):
        table = table.drop(columns=table.columns[0])  # the row index that to_csv wrote
    observed = table[truth]
    if _is_continuous(observed):
        msg = (
            f"the truth column {truth!r} holds {observed.nunique()} distinct numbers, not "
            "classes: for forecasts in time order pass --forecasts (the time in the first "
            "column); the tests of predictions here compare classifiers"
        )
        raise ValueError(msg)
    scores = holds_scores(table, truth)
    test = args.test or ("delong" if scores else "mcnemar")
    if test not in PREDICTION_CLI_TESTS:
        msg = (
            f"--test {test} does not apply to a predictions file; choose one of "
            f"{', '.join(PREDICTION_CLI_TESTS)} (or --forecasts for forecasts in time order)"
        )
        raise ValueError(msg)
    n_models = table.shape[1] - 1
    if n_models < 2:
        msg = (
            f"a predictions file needs at least 2 model columns besides the truth column "
            f"{truth!r}; this one has {n_models}"
        )
        raise ValueError(msg)
    correction = "holm" if args.correction == "default" else args.correction
    scope = _scope(n_models)
    if scores:
        models, heading = auc_ci(table, y=truth), "AUC of each model (DeLong's interval)"
    else:
        models, heading = accuracy_ci(table, y=truth), "Accuracy of each model (Wilson interval)"
    if test == "delong":
        result = delong(table, scope, y=truth, alpha=args.alpha, correction=correction)
    else:
        if test == "mcnemar":
            result = mcnemar(table, scope, y=truth, alpha=args.alpha, p_adjust=correction)
        else:
            score = "roc_auc" if scores else "accuracy"
            result = permutation_test(
                table, scope, y=truth, score=score, alpha=args.alpha, correction=correction,
                random_state=0,
            )  # fmt: skip
    models = models.sort_values("auc" if scores else "accuracy", ascending=False, kind="stable")
    named = f" of {'ROC AUC' if scores else 'accuracy'}" if test == "permutation_test" else ""
    if test == "mcnemar" and "ci_low" in result:
        named = " (mean_diff: accuracy_1 − accuracy_2, with Tango's 95% interval)"
    top = len(models) if args.top is None else args.top
    shown = result["model_1"].isin(models.index[:top]) & result["model_2"].isin(models.index[:top])
    parts = [
        f"File: {args.source}",
        "",
        f"Predictions of {plural(n_models, 'model', 'models')} on "
        f"{plural(len(table), 'test sample', 'test samples')}; the truth is column {truth!r}.",
        "",
        heading + " (best first)",
        table_text(models.iloc[:top]),
        "",
        f"Pairwise comparisons: {_NAMES[test]}{named}, "
        f"{correction or 'no'} correction, alpha = {args.alpha:g}",
        table_text(result[shown], index=False),
    ]
    if (~shown).any():
        rest = plural(int((~shown).sum()), "more pair", "more pairs")
        parts.append(f"({rest}; --top 0 shows them all)")
    if args.plot:
        plot_result(result, args.plot, args.top)
        parts.append(f"Figure saved to {args.plot}")
    return "\n".join(parts).rstrip("\n") + "\n"


def forecasts_frame(table: pd.DataFrame, truth: Any) -> pd.DataFrame:
    """The forecasts of a file: its first column the time (dates when they parse), in time order.

    The rows stay in the file's order, which is the time order; a first
    column of numbers or text that does not parse as dates is kept as the
    index and the frame is marked ``set_design(time_ordered=True)``.
    """
    first = table.columns[0]
    if first == truth:
        msg = (
            f"--forecasts reads the time from the first column; this file's first column is the "
            f"truth column {truth!r}: put the time first"
        )
        raise ValueError(msg)
    frame = table.set_index(first)
    if truth != "y":
        if "y" in frame.columns:
            msg = f"--y {truth}: the file also has a column 'y'; rename one of them"
            raise ValueError(msg)
        frame = frame.rename(columns={truth: "y"})
    if not pd.api.types.is_numeric_dtype(frame.index):
        # Labels of time points that are not dates (quarters, "t1") say the order only.
        with contextlib.suppress(ValueError, TypeError):
            frame.index = pd.DatetimeIndex(pd.to_datetime(frame.index, format="mixed"))
    if not isinstance(frame.index, pd.DatetimeIndex):
        frame = set_design(frame, time_ordered=True)
    return frame


def _forecasts_output(args: argparse.Namespace, table: pd.DataFrame, truth: Any) -> str:
    _refuse_other_options(args, "forecasts")
    test = args.test or "confidence_set"
    if test not in FORECAST_CLI_TESTS:
        msg = (
            f"--test {test} does not apply to a forecasts file; choose diebold_mariano or "
            "confidence_set (or leave out --forecasts for predictions of test samples)"
        )
        raise ValueError(msg)
    frame = forecasts_frame(table, truth)
    analysis = analyse(
        frame, alpha=args.alpha, correction=args.correction, block_size=args.block_size
    )
    top = len(analysis.summary) if args.top is None else args.top
    if test == "confidence_set":
        mcs = analysis.confidence_set
        level = 1 - result_info(mcs).alpha
        heading = f"Model confidence set at {level:.0%} (elimination order, the best last)"
        shown = mcs.iloc[-top:]
        body = table_text(shown)
        rest = len(mcs) - len(shown)
    else:
        dm = analysis.significance
        names = set(analysis.summary.index[:top])
        in_top = dm["model_1"].isin(names) & dm["model_2"].isin(names)
        heading = f"Pairwise comparisons: Diebold–Mariano test, alpha = {args.alpha:g}"
        body = table_text(dm[in_top], index=False)
        rest = int((~in_top).sum())
    parts = [f"File: {args.source}", "", heading, body]
    if rest:
        what = "more model" if test == "confidence_set" else "more pair"
        parts.append(f"({plural(rest, what, what + 's')}; --top 0 shows them all)")
    parts += ["", speak_cli(report_text(analysis, top=top, words=COMMAND_LINE))]
    if args.plot:
        shown = analysis.confidence_set if test == "confidence_set" else analysis.significance
        plot_result(shown, args.plot, args.top)
        parts.append(f"Figure saved to {args.plot}")
    parts += write_documents(args, analysis_document(analysis, args.top))
    return "\n".join(parts).rstrip("\n") + "\n"

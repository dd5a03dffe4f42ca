"""The report's words for an items frame: the unit (questions, passages, samples) and the test.

Items frames (DESIGN section 21) are compared over questions, clustered when
the frame has clusters; the report names that unit where a scores frame's
says "CV splits": "200 questions in 50 passages, clustered by passage; 5
samples per question".
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pdcompare.presentation.labels import (
    attempts_phrase,
    format_number,
    format_significant,
    listed_name,
    spelling,
)
from pdcompare.results import ResultInfo

#: ``attrs["pdcompare"]["unit"]`` of the results of items frames.
ITEM_UNITS = ("item", "cluster means")


def is_items_result(info: ResultInfo) -> bool:
    """Whether a result (or summary) was computed on an items frame."""
    return info.unit in ITEM_UNITS


def _noun(name: Any, default: str) -> str:
    """A column's name as a noun when it reads as one ("question", "passage"), else default."""
    if isinstance(name, str) and name.isalpha() and name.islower() and len(name) > 2:
        return name
    return default


def _plural(count: float, noun: str) -> str:
    return f"{count:g} {noun}" if count == 1 else f"{count:g} {noun}s"


def item_noun(info: ResultInfo) -> str:
    """What an item is called: the item column's name ("question"), else "item"."""
    return _noun(info.get("item_name"), "item")


def cluster_noun(info: ResultInfo) -> str:
    """What a cluster is called: the cluster column's name ("passage"), else "cluster"."""
    return _noun(info.get("cluster_name"), "cluster")


def task_words(info: ResultInfo) -> str:
    """The tasks of an items result, their item counts and the weighting, or "".

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> task_words(info_from_meta({"task_sizes": [["sums", 40], ["products", 30]]}))
    ' in 2 tasks (sums 40, products 30), pooled by item'
    """
    sizes = info.get("task_sizes")
    if not sizes:
        return ""
    shown = ", ".join(f"{listed_name(task)} {int(n)}" for task, n in sizes[:_TASKS_NAMED])
    if len(sizes) > _TASKS_NAMED:
        shown += f" and {len(sizes) - _TASKS_NAMED} more"
    weight = info.get("weight") or "item"
    pooled = "pooled by item" if weight == "item" else "each task weighing the same"
    return f" in {len(sizes)} tasks ({shown}), {pooled}"


#: Tasks named with their item counts in the data line; the rest are counted.
_TASKS_NAMED = 10


def samples_words(info: ResultInfo) -> str:
    """How many samples each item has: "3 samples per item", "2 to 3 samples per item", or ""."""
    samples = info.get("samples_per_item")
    if samples is None:
        return ""
    item = item_noun(info)
    low, high = info.get("samples_range") or (None, None)
    if low is not None and low < high:
        return f"{int(low)} to {int(high)} samples per {item}"
    # A count as an integer; an average count in 3 significant digits, never 1e+03.
    shown = f"{samples:.0f}" if float(samples).is_integer() else format_significant(samples)
    return f"{shown} samples per {item}"


def unit_words(info: ResultInfo, *, clustered_by: bool = True, after: str = "") -> str:
    """The items of a result in words, with their tasks, clusters and samples.

    ``after`` is written before the samples; ``clustered_by=False`` leaves
    out "clustered by ..." (when the test's name says it).

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> unit_words(info_from_meta({"n_items": 200, "n_clusters": 50, "clustered": True,
    ...                         "item_name": "question", "cluster_name": "passage",
    ...                         "samples_per_item": 5.0}))
    '200 questions in 50 passages, clustered by passage; 5 samples per question'
    >>> unit_words(info_from_meta({"n_items": 10, "n_clusters": 10, "clustered": False}))
    '10 items'
    >>> unit_words(info_from_meta({"n_items": 500, "n_clusters": 500, "clustered": False,
    ...                         "item_name": "task", "estimand_label": "pass@5",
    ...                         "attempts_range": [16, 16]}))
    'pass@5 over 500 tasks, 16 attempts each'
    """
    item = item_noun(info)
    text = _plural(info.n_items or 0, item)
    if info.clustered:
        cluster = cluster_noun(info)
        text += f" in {_plural(info.n_clusters or 0, cluster)}"
        text += f", clustered by {cluster}," if clustered_by else ","
    text = (text + task_words(info)).removesuffix(",") + after
    text = attempts_phrase(info, text)  # pass@k, pass^k: "pass@5 over 500 tasks, 16 attempts each"
    samples = samples_words(info)
    return f"{text}; {samples}" if samples else text


def data_line(info: ResultInfo, n_models: int, direction: str) -> str:
    """The report's "Data:" sentence for an items frame (and a judge's, its labels)."""
    times = ", " if info.get("estimand_label") else " x "
    return (
        f"Data: {n_models} models{times}{unit_words(info)}; {direction} scores are better. The "
        f"{item_noun(info)}s are the unit: every model answered the same ones, so the tests "
        f"are paired over them.{judge_words(info)}"
    )


def judge_words(info: ResultInfo) -> str:
    """What a labelled items frame's estimates are: a judge's scores, corrected or not.

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> print(judge_words(info_from_meta({"estimator": "ppi++", "n_labelled": 200,
    ...                                   "effective_n": 520})).strip())
    ... # doctest: +NORMALIZE_WHITESPACE
    The scores are a judge's, corrected with 200 human labels: as informative as 520 labels
    alone (PPI++).
    >>> print(judge_words(info_from_meta({"estimator": "judge", "n_labelled": 200})).strip())
    The scores are a judge's, judge only, uncorrected: biased as the judge is.
    """
    estimator = info.get("estimator")
    if estimator is None:
        return ""
    labels = int(info.get("n_labelled") or 0)
    if estimator == "judge":
        return " The scores are a judge's, judge only, uncorrected: biased as the judge is."
    if estimator == "labels":
        return f" The scores are the {labels} human labels alone (the judge's left out)."
    names = {"ppi++": "PPI++", "ppi": "PPI", "rogan_gladen": "Rogan–Gladen"}
    name = names.get(estimator, estimator)
    effective = info.get("effective_n")
    worth = f": as informative as {effective} labels alone" if effective is not None else ""
    return f" The scores are a judge's, corrected with {labels} human labels{worth} ({name})."


def interval_kind(info: ResultInfo) -> str:
    """How the best model's interval was computed, in words."""
    if info.get("estimator_words"):  # a judge's scores and human labels (DESIGN 31)
        clustered = f", clustered by {cluster_noun(info)}" if info.clustered else ""
        return f"t{clustered}; {info.get('estimator_words')}"
    if info.clustered:
        return f"t, clustered by {cluster_noun(info)}{se_words(info, brief=True)}"
    return f"t over {item_noun(info)}s"


def se_words(info: ResultInfo, *, brief: bool = False) -> str:
    """The clustered standard error in words: "(CR2 standard error, 5.0 Satterthwaite ...)".

    ``brief``: ", CR2 standard error" (inside the interval's parenthesis).

    Results saved before ``se_type`` existed (DESIGN 33) were CR1's.

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> se_words(info_from_meta({"n_clusters": 12, "clustered": True,
    ...                          "se_type": "CR2 (Satterthwaite df)", "se_df": 5.04}))
    ' (CR2 standard error, 5.0 Satterthwaite degrees of freedom)'
    >>> cr1 = info_from_meta({"n_clusters": 12, "clustered": True, "se_type": "CR1"})
    >>> se_words(cr1, brief=True)
    ', CR1 standard error'
    >>> se_words(info_from_meta({"n_clusters": 12, "clustered": True}))
    ' (CR1 standard error, 11 degrees of freedom)'
    """
    if info.get("se_type", "CR1") != "CR1":
        if brief:
            return ", CR2 standard error"
        df = float(info.get("se_df", float("nan")))
        df_text = f"{df:.0f}" if abs(df - round(df)) < 1e-9 else f"{df:.1f}"
        return f" (CR2 standard error, {df_text} Satterthwaite degrees of freedom)"
    if brief:
        return ", CR1 standard error" if info.get("se_type") else ""
    df = int(info.n_clusters or 0) - 1
    return f" (CR1 standard error, {df} degrees of freedom)"


def family_test_name(test: str, info: ResultInfo) -> str:
    """The family's test in words on an items frame."""
    item = item_noun(info)
    if test == "ttest" and info.get("estimator_words"):  # a judge's scores and human labels
        clustered = f", clustered by {cluster_noun(info)}" if info.clustered else ""
        return f"paired t-test over {item}s{clustered} ({info.get('estimator_words')})"
    if test == "ttest":
        if info.clustered:
            return f"paired t-test over {item}s, clustered by {cluster_noun(info)}" + se_words(
                info
            )
        return f"paired t-test over {item}s"
    base = {"wilcoxon": "Wilcoxon signed-rank test", "sign_test": "sign test"}.get(test, test)
    if info.unit == "cluster means":
        return f"{base} on the means of the {cluster_noun(info)}s"
    return f"{base} over {item}s"


def detectable_unit(info: ResultInfo) -> str:
    """The subject of "... could detect about X or more"."""
    return f"these {item_noun(info)}s"


def task_lines(frame: Any, names: Any) -> list[str]:
    """One line per task of an items frame: the mean scores of ``names`` on its items.

    The tests of the report pool every item; these lines show where the
    differences come from (``ttest(by="task")`` tests them task by task).

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 1, 0, 1], [0, 1, 0, 0]], index=["a", "b"])
    >>> items = wide.cmp.set_design(items=True, task={0: "sums", 1: "sums", 2: "p", 3: "p"})
    >>> task_lines(items, ["a", "b"])
    ['By task (mean scores): sums (2 items): a 1.0000; b 0.5000. p (2 items): a 0.5000; b 0.0000.']
    """
    if frame is None or frame.columns.nlevels != 2:
        return []
    tasks = frame.columns.get_level_values(0)
    shown = [name for name in names if name in frame.index]
    rows = frame.index.get_indexer(shown)
    values = frame.to_numpy(dtype=float)[rows]
    parts = []
    for task in tasks.unique()[:_TASKS_NAMED]:
        keep = np.asarray(tasks == task)
        means = values[:, keep].mean(axis=1)
        scores = "; ".join(
            f"{listed_name(name)} {format_number(mean)}"
            for name, mean in zip(shown, means, strict=True)
        )
        parts.append(f"{listed_name(task)} ({_plural(int(keep.sum()), 'item')}): {scores}.")
    rest = len(tasks.unique()) - _TASKS_NAMED
    more = [f"and {_plural(rest, 'other task')}."] if rest > 0 else []
    return [" ".join(["By task (mean scores):", *parts, *more])]


def binary_lines(frame: Any, info: ResultInfo, test: str) -> list[str]:
    """On 0/1 items compared by the paired t: why ``mcnemar()`` gives other p-values.

    Examples
    --------
    >>> import pandas as pd
    >>> import pdcompare
    >>> wide = pd.DataFrame([[1, 1, 0, 1], [0, 1, 0, 0]], index=["a", "b"])
    >>> items = wide.cmp.set_design(items=True)
    >>> from pdcompare.results import result_info
    >>> info = result_info(items.cmp.summary())
    >>> print(binary_lines(items, info, "ttest")[0][:59])
    The scores are 0/1, so `mcnemar` also compares these pairs:
    """
    if frame is None or test != "ttest" or info.clustered or info.get("estimator"):
        return []  # a judge's scores corrected by labels: McNemar would test the judge
    if info.get("samples_per_item") is not None:
        return []
    values = frame.to_numpy(dtype=float)
    if not np.isin(values, (0.0, 1.0)).all():
        return []
    item = item_noun(info)
    return [
        f"The scores are 0/1, so {spelling().test_name('mcnemar')} also compares these pairs: its "
        f"exact p-values differ from the paired t's because McNemar's test counts only the "
        f"{item}s on which the two models disagree (a binomial test of who was right on "
        f"them), while the t-test uses every {item}'s difference with a t reference. Both "
        "hold the level; they agree closely when the disagreements are many."
    ]

"""The report's words for an items frame: the unit (questions, passages, samples) and the test.

Items frames (DESIGN section 21) are compared over questions, clustered when
the frame has clusters; the report names that unit where a scores frame's
says "CV splits": "200 questions in 50 passages, clustered by passage; 5
samples per question".
"""

from __future__ import annotations

from typing import Any

from pdcompare.presentation.labels import format_significant
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


def unit_words(info: ResultInfo) -> str:
    """The items of a result in words, with their clusters and samples.

    Examples
    --------
    >>> from pdcompare.results import info_from_meta
    >>> unit_words(info_from_meta({"n_items": 200, "n_clusters": 50, "clustered": True,
    ...                         "item_name": "question", "cluster_name": "passage",
    ...                         "samples_per_item": 5.0}))
    '200 questions in 50 passages, clustered by passage; 5 samples per question'
    >>> unit_words(info_from_meta({"n_items": 10, "n_clusters": 10, "clustered": False}))
    '10 items'
    """
    item = item_noun(info)
    text = _plural(info.n_items or 0, item)
    if info.clustered:
        cluster = cluster_noun(info)
        text += f" in {_plural(info.n_clusters or 0, cluster)}, clustered by {cluster}"
    samples = info.get("samples_per_item")
    if samples is not None:
        # A count as an integer; an average count in 3 significant digits, never 1e+03.
        shown = f"{samples:.0f}" if float(samples).is_integer() else format_significant(samples)
        text += f"; {shown} samples per {item}"
    return text


def data_line(info: ResultInfo, n_models: int, direction: str) -> str:
    """The report's "Data:" sentence for an items frame."""
    return (
        f"Data: {n_models} models x {unit_words(info)}; {direction} scores are better. The "
        f"{item_noun(info)}s are the unit: every model answered the same ones, so the tests "
        "are paired over them."
    )


def interval_kind(info: ResultInfo) -> str:
    """How the best model's interval was computed, in words."""
    if info.clustered:
        return f"t, clustered by {cluster_noun(info)}"
    return f"t over {item_noun(info)}s"


def family_test_name(test: str, info: ResultInfo) -> str:
    """The family's test in words on an items frame."""
    item = item_noun(info)
    if test == "ttest":
        if info.clustered:
            df = int(info.n_clusters or 0) - 1
            return (
                f"paired t-test over {item}s, clustered by {cluster_noun(info)} "
                f"(CR1 standard error, {df} degrees of freedom)"
            )
        return f"paired t-test over {item}s"
    base = {"wilcoxon": "Wilcoxon signed-rank test", "sign_test": "sign test"}.get(test, test)
    if info.unit == "cluster means":
        return f"{base} on the means of the {cluster_noun(info)}s"
    return f"{base} over {item}s"


def luck_words(info: ResultInfo) -> str:
    """What a non-significant lead may be luck of."""
    return f"of the {item_noun(info)}s"


def detectable_unit(info: ResultInfo) -> str:
    """The subject of "... could detect about X or more"."""
    return f"these {item_noun(info)}s"

"""The report's paragraph on rank confidence sets: which models may be the best."""

from __future__ import annotations

import pandas as pd

from pdcompare.presentation.labels import join_names, listed_name, spelling
from pdcompare.results import result_info

#: At most this many names in the "may be the best" line; the rest are counted.
LISTED = 10

#: The covariance a result names (``attrs["pdcompare"]["covariance"]``), in words.
_SOURCES = {
    "Nadeau–Bengio corrected": "the Nadeau–Bengio corrected covariance of the mean scores",
    "across data sets": "the covariance of the mean scores across data sets",
    "diagonal (independent runs)": "the variances of the mean scores of independent runs",
    "per-row correctness": "the covariance of the accuracies over the rows",
}


def set_text(low: int, high: int) -> str:
    """A set of ranks in words: "3" for one rank, "1–3" for several.

    Examples
    --------
    >>> set_text(1, 3), set_text(4, 4)
    ('1–3', '4')
    """
    return str(low) if low == high else f"{low}–{high}"


def best_line(result: pd.DataFrame) -> str:
    """Which models may be the best, from a ``ranks`` result: rank_low 1, in section 22's words.

    Examples
    --------
    >>> import pdcompare
    >>> result = pdcompare.datasets.load_grid_search_scores().cmp.ranks(random_state=0)
    >>> best_line(result)
    'May be the best: rbf, linear and 3_poly (95% simultaneous rank sets).'
    """
    info = result_info(result)
    coverage = float(0.95 if info.coverage is None else info.coverage)
    kind = "simultaneous" if info.simultaneous in (None, True) else "marginal"
    low = result["rank_low"].to_numpy()
    best = [name for name, first in zip(result.index.tolist(), low <= 1, strict=True) if first]
    more = len(best) - LISTED
    names = (
        f"{', '.join(map(listed_name, best[:LISTED]))} and {more} more"
        if more > 0
        else join_names(best, sentence=True)
    )
    return f"May be the best: {names} ({100 * coverage:g}% {kind} rank sets)."


def not_ranked_line(m: int) -> str:
    """The "may be the best" line of a report of more models than it ranks.

    Examples
    --------
    >>> not_ranked_line(1000)
    'May be the best: not computed for 1000 models in the report (ranks() gives the rank sets).'
    """
    call = "--ranks" if spelling().command_line else "ranks()"
    return (
        f"May be the best: not computed for {m} models in the report ({call} gives the rank sets)."
    )


def rank_set_lines(result: pd.DataFrame, top: int) -> list[str]:
    """Which models may be the best, and the rank sets of the best ``top``, from ``ranks``.

    Examples
    --------
    >>> import pdcompare
    >>> result = pdcompare.datasets.load_grid_search_scores().cmp.ranks(random_state=0)
    >>> first, sets = rank_set_lines(result, top=10)
    >>> print(first)
    May be the best: rbf, linear and 3_poly (95% simultaneous rank sets).
    >>> print(sets)  # doctest: +NORMALIZE_WHITESPACE
    Rank sets, best first: rbf 1–3, linear 1–3, 3_poly 1–3, 2_poly 4 (Mogstad et al. 2024,
    from the Nadeau–Bengio corrected covariance of the mean scores; a set says which ranks
    the data allow, not that the models in it are equal).
    """
    info = result_info(result)
    low = result["rank_low"].to_numpy()
    high = result["rank_high"].to_numpy()
    names = result.index.tolist()
    first = best_line(result)
    shown = min(top, len(names))
    sets = ", ".join(
        f"{listed_name(name)} {set_text(int(a), int(b))}"
        for name, a, b in zip(names[:shown], low[:shown], high[:shown], strict=True)
    )
    more = f", and {len(names) - shown} more models" if shown < len(names) else ""
    covariance = info.covariance or ""
    source = _SOURCES.get(covariance, f"{covariance} covariance of the estimates")
    text = (
        f"Rank sets, best first: {sets}{more} (Mogstad et al. 2024, from {source}; a set "
        "says which ranks the data allow, not that the models in it are equal)."
    )
    return [first, text]

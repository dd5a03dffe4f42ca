"""The report of a battles frame: Bradley–Terry ratings, rank sets and the pairs told apart.

``report()`` on a battles frame (``from_battles``) returns these words, and
the command line prints them with ``--battles``. Nothing here decides:
:func:`battles_report` asks :func:`~pdcompare.compare.battles.bradley_terry`
and the z tests of ``pairwise()`` and words their answers.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from pdcompare._validation import check_option, check_positive_int
from pdcompare.compare.battles import battles_pairwise, bradley_terry
from pdcompare.inputs.battles import battles_data
from pdcompare.presentation.labels import format_number, listed_name, p_text, plural
from pdcompare.results import result_info


def battles_lines(ratings: pd.DataFrame, pairs: pd.DataFrame, top: int) -> list[str]:
    """The report's lines from a ``bradley_terry`` result and the pairwise z tests."""
    info = result_info(ratings)
    n_battles = int(ratings["n_battles"].sum() // 2)
    m = len(ratings)
    ties = info.ties or "half"
    tie_words = (
        "ties counted as half a win for each model"
        if ties == "half"
        else f"ties fitted by Davidson's model (nu = {info.get('nu'):.3f})"
    )
    level = float(0.95 if info.ci is None else info.ci)
    lines = ["pdcompare report", "================", ""]
    lines.append(
        f"Battles: {n_battles:,} battles between {m} models; Bradley–Terry ratings "
        f"(Elo scale, {tie_words})."
    )
    lines.append(
        f"Intervals: {level:.0%} percentile bootstrap over {info.n_resamples:,} rounds of "
        "resampled battles; rank sets: "
        f"{level:.0%} simultaneous, from the inverse Fisher information."
    )
    lines.append("")
    shown = ratings.iloc[:top]
    width = max(len(str(name)) for name in shown.index)
    for k, (name, row) in enumerate(shown.iterrows(), start=1):
        low, high = int(row["rank_low"]), int(row["rank_high"])
        rank_set = f"{low}" if low == high else f"{low}-{high}"
        rounds = (
            ""
            if row["n_rounds"] == info.n_resamples
            else (f", interval from {int(row['n_rounds'])} rounds")
        )
        if row["interval"] == "fisher":
            rounds = ", normal interval (every pair unanimous: resampling cannot vary it)"
        lines.append(
            f"  {k:>2}. {name!s:<{width}}  {format_number(row['rating'], 1)} "
            f"({format_number(row['ci_low'], 1)} to {format_number(row['ci_high'], 1)}), "
            f"rank set {rank_set}, {int(row['n_battles']):,} battles{rounds}"
        )
    if top < m:
        lines.append(f"  ... and {m - top} more models (the best {top} shown).")
    best = ratings.index[ratings["rank_low"].to_numpy() == 1]
    lines.append("")
    lines.append(
        f"May be the best: {', '.join(map(listed_name, best))} "
        f"({level:.0%} simultaneous rank sets)."
    )
    tests = result_info(pairs)
    told = int(pairs["reject"].sum())
    correction = tests.correction or "no"
    lines.append(
        f"Pairs told apart by the z test of their ratings ({correction} correction, "
        f"alpha {tests.alpha:g}): {told} of {plural(len(pairs), 'pair', 'pairs')}."
    )
    first = ratings.index[0]
    against = pairs[(pairs["model_1"] == first) & ~pairs["reject"].to_numpy(dtype=bool)]
    if len(against):
        row = against.iloc[0]
        lines.append(
            f"  {first} vs {row['model_2']}: difference {format_number(row['rating_diff'], 1)} "
            f"(se {format_number(row['se'], 1)}), {p_text('p_adj', row['pvalue_adj'])}: "
            "not told apart (the battles do not separate them; that is not evidence "
            "they are equal)."
        )
    return lines


def battles_report(
    frame: pd.DataFrame,
    *,
    ties: str = "half",
    alpha: float = 0.05,
    correction: str | None = "default",
    ci: float = 0.95,
    top: int | None = 20,
    random_state: Any = 0,
    format: str = "text",
) -> str:
    """The report of a battles frame: ratings with intervals and rank sets, pairs told apart.

    Examples
    --------
    >>> import pandas as pd
    >>> wins = pd.DataFrame([[0, 30, 25], [10, 0, 14], [15, 16, 0]], index=list("ABC"),
    ...                     columns=list("ABC"))
    >>> text = battles_report(wins)
    >>> print(text.splitlines()[3])  # doctest: +NORMALIZE_WHITESPACE
    Battles: 110 battles between 3 models; Bradley–Terry ratings (Elo scale, ties
    counted as half a win for each model).
    >>> print(text.splitlines()[10])
    May be the best: A (95% simultaneous rank sets).
    """
    check_option("format", format, ("text", "markdown", "html"))
    data = battles_data(frame)
    top = len(data.names) if top is None else check_positive_int("top", top, minimum=2)
    ratings = bradley_terry(frame, ties=ties, ci=ci, random_state=random_state)
    pairs = battles_pairwise(frame, ties=ties, correction=correction, alpha=alpha)
    lines = battles_lines(ratings, pairs, min(top, len(ratings)))
    if format == "text":
        return "\n".join(lines) + "\n"
    from pdcompare.presentation.report import document

    if format == "markdown":
        return document.battles_markdown(lines, ratings, pairs, top)
    return document.battles_html(lines, ratings, pairs, top)

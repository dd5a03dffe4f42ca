"""The report as one document to share: Markdown with pipe tables, or self-contained HTML.

Both are assembled from an analysis already run (:mod:`pdcompare.compare.analysis`)
and the words ``report.entry`` writes for it: the conclusions, the tables of
``presentation.styling`` and, in HTML, the figures of ``presentation.plotting``
inline as SVG. Nothing
here runs a test. The HTML has no external resource and no script: one
doctype, a title, the styles in the head, element ids unique across the inline
figures (each figure's ids get a prefix of their own), so that it can be mailed,
attached to a pull request or kept in an experiment log as a single file.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from pdcompare.presentation.labels import score_noun
from pdcompare.presentation.plotting import plot
from pdcompare.presentation.plotting.scores import draw_intervals
from pdcompare.presentation.shown import DEFAULT_TOP_ALL_PAIRS, top_pairs
from pdcompare.presentation.styling import column_formatters, style
from pdcompare.results import result_info

_PAGE_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 72em; padding: 0 1em; color: #1a1a1a; line-height: 1.45; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.9em; }
th, td { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; }
caption { caption-side: top; text-align: left; font-weight: 600; padding: 0.3em 0; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
ul.pairs { font-size: 0.92em; } .note { color: #555; font-size: 0.9em; }
"""


def _blocks(lines: Sequence[str]) -> list[list[str]]:
    """The report's lines in paragraphs (groups separated by a blank line), title left out."""
    blocks: list[list[str]] = [[]]
    for line in lines[2:]:  # "pdcompare report" and its underline
        if line:
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return [block for block in blocks if block]


#: Columns of items results that are the same on every row unless the pairs differ in
#: their items; left out of the document's tables when constant (the caption says them).
_CONSTANT_ITEMS_COLUMNS = ("df", "n_items", "n_clusters", "samples_per_item")


def _without_constants(title: str, frame: pd.DataFrame) -> tuple[str, pd.DataFrame]:
    """An items table narrower: the technical columns equal on every row go to the caption.

    Examples
    --------
    >>> frame = pd.DataFrame({"mean": [0.5, 0.4], "n_items": [40, 40], "df": [9.0, 8.0]})
    >>> title, narrow = _without_constants("Summary", frame)
    >>> title, list(narrow.columns)
    ('Summary (every row: n_items 40)', ['mean', 'df'])
    """
    same = [
        column
        for column in _CONSTANT_ITEMS_COLUMNS
        if column in frame.columns and len(frame) and _constant(frame[column].to_numpy())
    ]
    if not same:
        return title, frame
    values = ", ".join(f"{column} {_plain_number(frame[column].iloc[0])}" for column in same)
    return f"{title} (every row: {values})", frame.drop(columns=same)


def _constant(values: np.ndarray) -> bool:
    first = values[0]
    return bool((values == first).all()) if first == first else bool(pd.isna(values).all())


def _plain_number(value: Any) -> str:
    number = float(value)
    return f"{number:.0f}" if number.is_integer() else f"{number:.3g}"


def _tables(analysis: Any, top: int) -> list[tuple[str, pd.DataFrame]]:
    """The tables of the document: the summary and the family's results, the best first.

    On an items frame the columns equal on every row (degrees of freedom,
    items, clusters, samples per item) are said in the caption instead, so
    the family's table fits a page of 1,200 pixels.
    """
    summary = analysis.summary.iloc[:top]
    family, _ = top_pairs(analysis.significance, top)
    info = result_info(analysis.summary)
    if info.test == "confidence_set":  # forecasts: the summary is the model confidence set
        title = (
            f"Model confidence set at alpha = {info.alpha:g}, best first (in_set: the models "
            "kept; eliminated_at: the step of the elimination sequence that removes it)"
        )
        tables = [(title, summary), ("Comparisons of the family", family)]
    elif info.unit == "item":
        tables = [
            _without_constants("Summary, best first", summary),
            _without_constants("Comparisons of the family", family),
        ]
    else:
        tables = [("Summary, best first", summary), ("Comparisons of the family", family)]
    if analysis.bayes is not None:
        hierarchical = result_info(analysis.bayes).test == "hierarchical"
        title = "Hierarchical Bayesian comparison" if hierarchical else "Bayesian comparison"
        tables.append((title, top_pairs(analysis.bayes, top)[0]))
    if analysis.equivalence is not None:
        tables.append(("Equivalence (TOST)", top_pairs(analysis.equivalence, top)[0]))
    if analysis.pooled is not None:
        tables.append(("Pooled over data sets", top_pairs(analysis.pooled, top)[0]))
    return tables


def _pipe_table(frame: pd.DataFrame) -> str:
    """A Markdown pipe table of ``frame`` with pdcompare's number formats."""
    formatters = column_formatters(frame, 4)
    index_name = frame.index.name or ""
    with_index = not isinstance(frame.index, pd.RangeIndex)
    # two-level columns (rliable's metrics x estimate, ci_low, ci_high) as "iqm ci_low"
    names = [" ".join(map(str, c)) if isinstance(c, tuple) else str(c) for c in frame.columns]
    header = ([str(index_name)] if with_index else []) + names
    rows = []
    for label, row in frame.iterrows():
        cells = [formatters.get(c, str)(v) for c, v in row.items()]
        rows.append(([str(label)] if with_index else []) + cells)

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    return "\n".join([line(header), line(["---"] * len(header)), *map(line, rows)])


def markdown(lines: Sequence[str], analysis: Any, top: int) -> str:
    """The report as Markdown: headed paragraphs, the per-pair lines as lists, pipe tables.

    Examples
    --------
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> text = load_grid_search_scores().cmp.report(format="markdown")
    >>> text.splitlines()[0]
    '# pdcompare report'
    >>> "| model | mean |" in text.replace("| model | mean | std", "| model | mean |")
    True
    """
    out = ["# pdcompare report", ""]
    for block in _blocks(lines):
        for line, following in zip(block, [*block[1:], ""], strict=True):
            if line.startswith("  "):  # a per-pair line: an item of a list
                out.append(f"- {line.strip()}")
                if not following.startswith("  "):
                    out.append("")
            else:  # a sentence of its own: a paragraph
                out += [line, ""]
    for title, table in _tables(analysis, top):
        out += [f"## {title}", "", _pipe_table(table), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def _svg(ax: Any, prefix: str) -> str:
    """The figure of ``ax`` as inline SVG, every id (and reference to it) prefixed."""
    import matplotlib as mpl
    import matplotlib.pyplot as plt

    buffer = io.StringIO()
    figure = ax.figure.figure  # the root figure, also of an Axes in a SubFigure
    with mpl.rc_context({"svg.hashsalt": "pdcompare", "svg.fonttype": "none"}):
        # No date in the metadata: the same report is the same page on every run.
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    text = buffer.getvalue()
    text = text[text.index("<svg") :]  # no XML declaration or SVG doctype in an HTML page
    seen: dict[str, int] = {}

    def unique(match: re.Match) -> str:
        # A group id (gid) such as "cd-model" marks several artists: number the repeats.
        name = match.group(1)
        seen[name] = seen.get(name, 0) + 1
        suffix = "" if seen[name] == 1 else f"-{seen[name]}"
        return f'id="{prefix}-{name}{suffix}"'

    text = re.sub(r'\bid="([^"]+)"', unique, text)
    text = re.sub(r"url\(#([^)]+)\)", rf"url(#{prefix}-\1)", text)
    return re.sub(r'href="#([^"]+)"', rf'href="#{prefix}-\1"', text)


def _figures(analysis: Any, top: int) -> list[tuple[str, Any]]:
    """The pictures that suit the frame, as (caption, Axes)."""
    figures = []
    family = analysis.significance
    if getattr(analysis, "confidence_set", None) is not None:  # forecasts in time order
        return [("Model confidence set", plot(analysis.confidence_set, top=top))]
    if analysis.benchmark:
        holes = result_info(family).get("n_missing", 0)
        if holes and analysis.rank_sets is not None and analysis.ranks is None:
            # no critical-difference diagram of a benchmark with holes: the rank sets
            caption = f"Simultaneous rank sets ({holes} cells missing: no CD diagram)"
            figures.append((caption, plot(analysis.rank_sets, top=top)))
        elif not holes and result_info(family).scope == "all_pairs":
            figures.append(("Critical-difference diagram", plot(family, top=top)))
        figures.append(("Multiple Comparison Matrix", plot(analysis.frame, "mcm", top=top)))
        pooled = analysis.pooled
        if pooled is not None and len(pooled) and "differences" in result_info(pooled).stated:
            figures.append(("Random-effects meta-analysis", plot(pooled, top=top)))
        bayes = analysis.bayes
        if bayes is not None and result_info(bayes).test == "hierarchical":
            first = bayes.iloc[0]
            pair = f"{first['model_1']} vs {first['model_2']}"
            if len(bayes) == 1:
                figures.append((f"Hierarchical test: {pair}", plot(bayes)))
            elif not np.isnan(first["mean_diff"]):
                caption = f"Hierarchical test: each data set's difference shrunk, {pair}"
                figures.append((caption, plot(bayes, kind="shrinkage")))
    else:
        if {"ci_low", "ci_high"} <= set(analysis.summary.columns):
            intervals = draw_intervals(analysis.summary, top=top)
            noun = score_noun(result_info(analysis.summary))  # "pass@5" on a pass@k frame
            figures.append((f"{noun[:1].upper()}{noun[1:]} per model and its interval", intervals))
        if {"ci_low", "ci_high"} <= set(family.columns):
            figures.append(("Differences and their intervals", plot(family, top=top)))
        if analysis.bayes is not None and len(analysis.bayes):
            figures.append(("Bayesian comparison", plot(analysis.bayes, top=top)))
    if getattr(analysis, "ranks", None) is not None:
        figures.append(("Simultaneous rank sets", plot(analysis.ranks, top=top)))
    return figures


def _html_table(title: str, frame: pd.DataFrame, key: int) -> str:
    styler = style(frame, caption=title)
    styler.set_uuid(f"t{key}")
    return styler.to_html()


def _html_paragraph(block: Sequence[str]) -> str:
    """A block of the report in its order: sentences as paragraphs, pair lines as lists."""
    out: list[str] = []
    items: list[str] = []
    for line in [*block, ""]:
        if line.startswith("  "):
            items.append(f"<li>{html.escape(line.strip())}</li>")
            continue
        if items:
            out.append(f'<ul class="pairs">{"".join(items)}</ul>')
            items = []
        if line:
            out.append(f"<p>{html.escape(line)}</p>")
    return "\n".join(out)


def html_document(lines: Sequence[str], analysis: Any, top: int) -> str:
    """The report as one self-contained HTML5 page: words, styled tables, inline SVG figures.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare.datasets import load_grid_search_scores
    >>> page = load_grid_search_scores().cmp.report(format="html")
    >>> page.startswith("<!DOCTYPE html>"), "<script" in page, page.count("<svg")
    (True, False, 2)
    """
    info = result_info(analysis.summary)
    direction = "higher" if info.direction else "lower"
    note = f"{len(analysis.summary)} models; {direction} scores are better."
    return _html_page(note, lines, _tables(analysis, top), _figures(analysis, top))


def _html_page(note: str, lines: Sequence[str], tables: list, figures: list) -> str:
    """One self-contained HTML page: the note, the report's words, its tables and figures."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>pdcompare report</title>",
        f"<style>{_PAGE_STYLE}</style>",
        "</head>",
        "<body>",
        "<h1>pdcompare report</h1>",
        f'<p class="note">{note}</p>',
        "<h2>Conclusions</h2>",
    ]
    parts += [_html_paragraph(block) for block in _blocks(lines)]
    parts.append("<h2>Tables</h2>")
    parts += [_html_table(title, table, key) for key, (title, table) in enumerate(tables)]
    if figures:
        parts.append("<h2>Figures</h2>")
    for key, (caption, ax) in enumerate(figures):
        parts.append(
            f"<figure>{_svg(ax, f'fig{key}')}"
            f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        )
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


# The document of a battles frame (report/battles.py): the report's words, the ratings and
# the pairs as tables, the ratings and the pairs as figures.


def battles_tables(
    ratings: pd.DataFrame, pairs: pd.DataFrame, top: int
) -> list[tuple[str, pd.DataFrame]]:
    """The tables of a battles document: the ratings and the pairs, the best first."""
    shown, _ = top_pairs(pairs, min(top, DEFAULT_TOP_ALL_PAIRS))
    rated = ratings.iloc[:top]
    if (rated["interval"] == "bootstrap").all():  # said in the words; a column only if mixed
        rated = rated.drop(columns="interval")
    return [
        ("Bradley–Terry ratings, best first", rated),
        ("Pairs of ratings (z tests), best first", shown),
    ]


def battles_markdown(lines: Sequence[str], ratings: pd.DataFrame, pairs: pd.DataFrame, top: int):
    """A battles report as Markdown: its paragraphs and lists, then pipe tables.

    Examples
    --------
    >>> from pdcompare import from_battles
    >>> from pdcompare.datasets import load_battles
    >>> text = from_battles(load_battles()).cmp.report(format="markdown")
    >>> "## Bradley–Terry ratings, best first" in text, "| model | rating |" in text
    (True, True)
    """
    out = ["# pdcompare report", ""]
    for block in _blocks(lines):
        for line in block:
            item = line.strip()  # a numbered rating line is an item of an ordered list
            bullet = "" if re.match(r"\d+\. ", item) else "- "
            out += [f"{bullet}{item}"] if line.startswith("  ") else ["", line, ""]
        out.append("")
    for title, table in battles_tables(ratings, pairs, top):
        out += [f"## {title}", "", _pipe_table(table), ""]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).rstrip("\n") + "\n"


def battles_html(lines: Sequence[str], ratings: pd.DataFrame, pairs: pd.DataFrame, top: int):
    """A battles report as one self-contained HTML page: words, tables, inline SVG figures.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from pdcompare import from_battles
    >>> from pdcompare.datasets import load_battles
    >>> page = from_battles(load_battles()).cmp.report(format="html")
    >>> page.startswith("<!DOCTYPE html>"), "<script" in page, page.count("<svg")
    (True, False, 2)
    """
    info = result_info(ratings)
    n_battles = int(ratings["n_battles"].sum() // 2)
    note = (
        f"{len(ratings)} models, {n_battles:,} battles; Bradley–Terry ratings on the Elo "
        f"scale (ties: {info.ties or 'half'})."
    )
    tables = battles_tables(ratings, pairs, top)
    figures = [
        ("Ratings and their intervals, best first", plot(ratings, top=top)),
        ("Pairs of ratings: differences and their intervals", plot(tables[1][1], top=top)),
    ]
    return _html_page(note, lines, tables, figures)

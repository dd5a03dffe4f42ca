"""The section "Small samples of binary items" of the guide page "When the data are thin" runs.

Its >>> examples run as doctests and print what the page shows; its numbers are
those of ``mcnemar`` and ``summary(interval="wilson")``, themselves tested against
the references in tests/compare/test_binary_intervals.py.
"""

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "guide" / "thin_data.md"
SECTION = "## Small samples of binary items"


def section_text() -> str:
    """The section's text, code fences blanked (a fence ends an example's output)."""
    text = PAGE.read_text()
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    part = text[start : end if end >= 0 else len(text)]
    return "\n".join("" if line.startswith("```") else line for line in part.split("\n"))


def test_every_example_of_the_section_prints_what_it_shows():
    test = doctest.DocTestParser().get_doctest(section_text(), {}, PAGE.name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 10
    assert result.failed == 0


def test_the_section_cites_the_validity_numbers_it_shows():
    table = (ROOT / "docs" / "validity_table_binary_intervals.md").read_text()
    text = section_text()
    # The lowest coverages the words quote are the table's.
    for number in ("0.941", "0.832", "0.846", "0.860", "0.797"):
        assert number in table
    for words in ("94.1 %", "83.2 %", "84.6 %", "86 %", "80 %"):
        assert words in text

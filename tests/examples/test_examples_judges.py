"""The guide page "Models graded by a judge" runs as written (its >>> examples, as doctests)."""

import doctest
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "guide" / "judges.md"


def test_every_example_of_the_page_prints_what_it_shows():
    # The code fences end an example's expected output, as a blank line does.
    text = "\n".join(
        "" if line.startswith("```") else line for line in PAGE.read_text().split("\n")
    )
    test = doctest.DocTestParser().get_doctest(text, {}, PAGE.name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        runner.run(test)
    finally:
        os.chdir(here)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 12
    assert result.failed == 0


def test_the_guide_lists_the_page():
    assert "judges" in (ROOT / "docs" / "guide" / "index.md").read_text()

"""The section "Agreement" of the judges guide page (docs/guide/judges.md) runs as written.

Its >>> examples run as doctests here on their own (and with the whole page in
test_examples_judges.py); its picture is checked for content by
test_docs_figures.py with every guide page.
"""

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "guide" / "judges.md"


def _section() -> str:
    """The section "Agreement", up to the items frame's own example (which needs the page)."""
    text = PAGE.read_text()
    section = text[text.index("## Agreement") :]
    return section[: section.index("On a labelled items frame the frame's own scores")]


def test_every_example_of_the_section_prints_what_it_shows():
    # The code fences end an example's expected output, as a blank line does.
    text = "\n".join(
        "" if line.startswith("```") else line for line in _section().split("\n")
    )
    test = doctest.DocTestParser().get_doctest(text, {}, PAGE.name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 8
    assert result.failed == 0


def test_the_numbers_in_the_words_are_the_result():
    # The prose quotes the α of all raters and effective_judges: the doctest's own result.
    text = _section()
    globs = {}
    code = [line[4:] for line in text.split("\n") if line.startswith((">>> ", "... "))]
    exec("\n".join(code[:-2]), globs)  # up to the result, without its printed tables
    result = globs["result"]
    assert f"({result.attrs['pdcompare']['alpha_all']:.3f})" in text
    assert f"as {result['effective_judges'].iloc[0]:.2f} judges" in text

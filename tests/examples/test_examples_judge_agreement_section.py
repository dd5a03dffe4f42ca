"""The section "Agreement" (docs/guide/judge_agreement_section.md) runs as written.

Its >>> examples run as doctests; its picture is checked for content by
test_docs_figures.py with every guide page. The section is pasted into the
judges guide page at merge: then point ``PAGE`` at that page.
"""

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "guide" / "judge_agreement_section.md"


def test_every_example_of_the_section_prints_what_it_shows():
    # The code fences end an example's expected output, as a blank line does.
    text = "\n".join(
        "" if line.startswith("```") else line for line in PAGE.read_text().split("\n")
    )
    test = doctest.DocTestParser().get_doctest(text, {}, PAGE.name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 8
    assert result.failed == 0


def test_the_numbers_in_the_words_are_the_result():
    # The prose quotes the α of all raters and effective_judges: the doctest's own result.
    text = PAGE.read_text()
    globs = {}
    code = [line[4:] for line in text.split("\n") if line.startswith((">>> ", "... "))]
    exec("\n".join(code[:-2]), globs)  # up to the result, without its printed tables
    result = globs["result"]
    assert f"({result.attrs['pdcompare']['alpha_all']:.3f})" in text
    assert f"as {result['effective_judges'].iloc[0]:.2f} judges" in text

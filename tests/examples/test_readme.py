"""The README's code runs as written: its Python blocks are executed in order."""

import re
from pathlib import Path

import matplotlib
import pytest

README = Path(__file__).resolve().parents[2] / "README.md"


def python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


@pytest.mark.slow
def test_readme_python_blocks_run():
    matplotlib.use("Agg")
    blocks = python_blocks()
    assert len(blocks) >= 1
    namespace = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)


def test_readme_gives_the_two_quick_start_commands():
    text = README.read_text(encoding="utf-8")
    quick_start = text.split("## Quick start", 1)[1].split("##", 1)[0]
    assert "make demo" in quick_start
    assert "make test" in quick_start


def test_readme_says_how_long_the_tests_take_and_names_the_quick_loop():
    text = " ".join(README.read_text(encoding="utf-8").split())
    development = text.split("## Development", 1)[1]
    assert re.search(r"took \d+ min \d+ s on 2 cores", development)
    assert 'pytest -m "not slow"' in development

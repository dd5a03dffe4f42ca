"""The examples and the README use the public API: names of ``pdcompare``, never module paths.

A user copies an example; a module path (``pdcompare.presentation.plotting.runs``) is
the package's inside, which moves between releases while ``pdcompare.plot`` and
``df.cmp.plot("runs")`` stay.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: pdcompare's inside: its layers' modules (the bundled data sets are public).
INSIDE = re.compile(r"pdcompare\.(presentation|compare|stats|inputs|results|_validation)\b")


def test_examples_and_readme_name_no_module_path():
    found = []
    for path in [*ROOT.glob("examples/*.py"), ROOT / "README.md"]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if INSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []

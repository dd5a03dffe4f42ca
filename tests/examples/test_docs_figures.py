"""Every figure of the guide's ``.. plot::`` blocks draws something: no all-white picture.

The docs build runs these blocks with matplotlib's plot directive (``plot_pre_code``
of docs/conf.py) and saves every open figure; a stray ``plt.figure()`` gave an
empty one between two plots. Here each block runs the same way and every figure
it leaves is rendered and must have non-white pixels.
"""

import re
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest

import pdcompare

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide"
BLOCK = re.compile(r"\.\. plot::\n((?:   :[^\n]*\n)*)\n((?:   [^\n]*\n|\n)+)")


def plot_blocks():
    for page in sorted(GUIDE.glob("*.md")):
        for k, match in enumerate(BLOCK.finditer(page.read_text(encoding="utf-8"))):
            code = "\n".join(line[3:] for line in match.group(2).splitlines())
            yield pytest.param(code, id=f"{page.stem}-{k + 1}")


def blank(figure) -> bool:
    """Whether the rendered figure is white (or transparent) everywhere."""
    figure.canvas.draw()
    pixels = np.asarray(figure.canvas.buffer_rgba())
    opaque = pixels[..., 3] > 0
    return not np.any(opaque & np.any(pixels[..., :3] < 250, axis=-1))


def test_blank_sees_an_empty_figure():
    assert blank(plt.figure())
    ax = plt.figure().add_subplot()
    ax.plot([0, 1], [0, 1])
    assert not blank(ax.figure)
    plt.close("all")


@pytest.mark.slow
@pytest.mark.parametrize("code", list(plot_blocks()))
def test_every_guide_figure_has_content(code):
    plt.close("all")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the pages show warnings; the build does not stop
        exec(code, {"plt": plt, "pdcompare": pdcompare})
    figures = [plt.figure(n) for n in plt.get_fignums()]
    assert figures
    empty = [n for n, figure in enumerate(figures, 1) if blank(figure)]
    plt.close("all")
    assert not empty, f"figure(s) {empty} of the block are all white"


def test_docs_build_refuses_an_all_white_png(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(GUIDE.parent / "_ext"))
    from pdcompare_docs import refuse_blank

    plt.figure().savefig(tmp_path / "white.png")
    ax = plt.figure().add_subplot()
    ax.plot([0, 1], [0, 1])
    ax.figure.savefig(tmp_path / "drawn.png")
    plt.close("all")
    refuse_blank(tmp_path / "drawn.png")
    with pytest.raises(RuntimeError, match="all-white figure"):
        refuse_blank(tmp_path / "white.png")

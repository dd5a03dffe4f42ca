"""report(format="markdown"/"html") and --html/--markdown (DESIGN section 19).

References: the plain report of the same frame (the words must be the same),
Python's html.parser (one doctype, a title, unique ids, no script, no external
resource), and Markdown's pipe-table rule (every row as many cells as the header).
"""

import re
import shutil
import subprocess
from html.parser import HTMLParser

import matplotlib
import matplotlib.image
import numpy as np
import pandas as pd
import pytest

import pdcompare  # noqa: F401
from pdcompare.cli import main
from pdcompare.datasets import load_benchmark, load_grid_search_scores

matplotlib.use("Agg")


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.doctypes, self.ids, self.tags, self.text, self.links = [], [], [], [], []

    def handle_decl(self, decl):
        self.doctypes.append(decl)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        for key in ("src", "href", "xlink:href"):
            if key in attrs:
                self.links.append(attrs[key])

    def handle_data(self, data):
        if data.strip():
            self.text.append(data.strip())


def parse(page):
    parser = Page()
    parser.feed(page)
    return parser


@pytest.mark.parametrize("frame", [load_grid_search_scores, load_benchmark])
def test_html_is_one_self_contained_valid_page(frame):
    page = frame().cmp.report(format="html", rope=0.01)
    found = parse(page)
    assert found.doctypes == ["DOCTYPE html"]
    assert "title" in found.tags
    assert "script" not in found.tags
    assert len(found.ids) == len(set(found.ids))  # unique across the inline figures
    # No external resource: links within the page, images inline (imshow's PNG).
    assert all(link.startswith(("#", "data:")) for link in found.links)
    assert "<?xml" not in page
    assert "<!DOCTYPE svg" not in page
    assert page.count("<svg") >= 1


def test_html_of_a_scores_frame_carries_the_intervals_and_the_comparison_figure():
    # One data set's HTML report carried one figure: the differences, not the intervals.
    page = load_grid_search_scores().cmp.report(format="html")
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert captions == [
        "Mean score per model and its interval",
        "Differences and their intervals",
    ]
    assert page.count("<svg") == 2


def test_html_of_a_pooled_benchmark_report_carries_the_forest_plot():
    bench = load_benchmark()
    with pytest.warns(UserWarning, match="The fold differences are the same on every fold"):
        page = bench.cmp.report(format="html", pooled=True)
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert captions[-1] == "Random-effects meta-analysis"
    assert "Random-effects meta-analysis" not in bench.cmp.report(format="html")
    assert len(parse(page).ids) == len(set(parse(page).ids))


def test_the_report_draws_the_intervals_of_its_summary():
    from pdcompare.presentation.plotting.scores import draw_intervals

    scores = load_grid_search_scores()
    summary = scores.cmp.summary()
    ax = draw_intervals(summary)
    segments = ax.collections[0].get_segments()
    np.testing.assert_allclose([s[0][0] for s in segments], summary["ci_low"])
    np.testing.assert_allclose([s[1][0] for s in segments], summary["ci_high"])
    assert [t.get_text() for t in ax.get_yticklabels()] == summary.index.tolist()
    # The same picture as plot("intervals"), which runs summary() itself.
    again = scores.cmp.plot("intervals")
    np.testing.assert_allclose(
        again.collections[0].get_segments(), ax.collections[0].get_segments()
    )


def test_html_holds_the_words_of_the_report_and_is_the_same_twice():
    scores = load_grid_search_scores()
    text = scores.cmp.report(rope=0.01)
    first = parse(scores.cmp.report(format="html", rope=0.01)).text
    second = parse(scores.cmp.report(format="html", rope=0.01)).text
    assert first == second
    words = " ".join(first)
    for line in text.splitlines()[2:]:
        if line.strip():
            assert line.strip() in words


def test_markdown_pipe_tables_and_words():
    bench = load_benchmark()
    text = bench.cmp.report(rope=0.01)
    md = bench.cmp.report(format="markdown", rope=0.01)
    assert md.startswith("# pdcompare report\n")
    for line in text.splitlines()[2:]:
        if line.startswith("  "):
            assert f"- {line.strip()}" in md
        elif line:
            assert line in md
    tables = re.findall(r"(?:^\|.*\|\n)+", md, flags=re.M)
    assert len(tables) >= 2
    for table in tables:
        rows = table.strip().splitlines()
        widths = {len(re.split(r"(?<!\\)\|", row)) for row in rows}
        assert len(widths) == 1
        assert set(rows[1].replace("|", "").split()) == {"---"}


def test_documents_stay_short_at_sixty_models():
    rng = np.random.default_rng(0)
    values = np.linspace(0.9, 0.7, 60)[:, None] + rng.normal(0, 0.02, (60, 20))
    scores = pd.DataFrame(values, index=[f"svc(C={k}, gamma=0.1)" for k in range(60)])
    scores = scores.cmp.set_design(cv=10)
    md = scores.cmp.report(format="markdown")
    summary = md.split("## Summary, best first")[1].split("##")[0]
    assert summary.count("\n| svc") == 10  # the best 10 (top) models
    page = scores.cmp.report(format="html")
    assert len(page) < 2_000_000


def test_format_is_checked():
    with pytest.raises(ValueError, match="`format` must be one of"):
        load_grid_search_scores().cmp.report(format="pdf")


def test_command_line_writes_both(tmp_path, capsys):
    html_path, md_path = tmp_path / "r.html", tmp_path / "r.md"
    code = main(["demo", "--rope", "0.01", "--html", str(html_path), "--markdown", str(md_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert f"Report (HTML) saved to {html_path}" in out
    assert parse(html_path.read_text(encoding="utf-8")).doctypes == ["DOCTYPE html"]
    assert md_path.read_text(encoding="utf-8").startswith("# pdcompare report")


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (.ci/run installs it)")
@pytest.mark.parametrize("n_models", [4, 20, 60])
def test_the_page_renders_in_a_real_browser(tmp_path, n_models):
    rng = np.random.default_rng(n_models)
    values = np.linspace(0.9, 0.7, n_models)[:, None] + rng.normal(0, 0.02, (n_models, 12))
    bench = pd.DataFrame(values, index=[f"model_{k}, C={k}" for k in range(n_models)],
                         columns=pd.Index([f"d{k}" for k in range(12)], name="dataset"))
    page = tmp_path / "report.html"
    page.write_text(bench.cmp.report(format="html", rope=0.01), encoding="utf-8")
    shot = tmp_path / "report.png"
    done = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr",
         "--window-size=1200,1600", f"--screenshot={shot}", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert shot.exists(), done.stderr[-2000:]
    pixels = matplotlib.image.imread(shot)
    assert pixels[..., :3].std() > 0.05  # not a blank page
    # The page logs nothing to the console: no script, no failed load.
    assert "CONSOLE" not in done.stderr

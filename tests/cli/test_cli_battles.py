"""``pdcompare FILE --battles``: the ratings of a file of battles, run as a subprocess."""

import re

import pandas as pd
import pytest
from _cli import run_cli as run

import pdcompare
from pdcompare.datasets import load_battles


@pytest.mark.slow
def test_battles_file_prints_the_ratings_and_the_report(tmp_path):
    table = load_battles().rename(columns={"model_a": "left", "winner": "verdict"})
    path = tmp_path / "battles.csv"
    table.to_csv(path, index=False)
    figure = tmp_path / "ratings.png"
    process = run(path, "--battles", "--model-a-col", "left", "--winner-col", "verdict",
                  "--top", 3, "--plot", figure, "--markdown", tmp_path / "r.md",
                  "--html", tmp_path / "r.html")  # fmt: skip
    assert process.returncode == 0, process.stderr
    ratings = pdcompare.bradley_terry(
        pdcompare.from_battles(table, model_a="left", winner="verdict"), random_state=0
    )
    best = ratings.index[0]
    assert re.search(rf"1\. {best} +{ratings['rating'].iloc[0]:.1f} ", process.stdout)
    assert "Bradley–Terry ratings (best first)" in process.stdout
    assert "May be the best:" in process.stdout
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "r.md").read_text().startswith("# pdcompare report")
    page = (tmp_path / "r.html").read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<table") == 2
    assert page.count("<svg") == 2
    assert f">{ratings['rating'].iloc[0]:.3f}<" in page


def test_battles_file_with_a_bad_winner_is_refused(tmp_path):
    path = tmp_path / "battles.csv"
    pd.DataFrame({"model_a": ["x"], "model_b": ["y"], "winner": ["w"]}).to_csv(path, index=False)
    process = run(path, "--battles")
    assert process.returncode != 0
    assert "'w' in rows 0 is neither" in process.stderr

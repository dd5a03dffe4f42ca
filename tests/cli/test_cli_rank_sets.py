"""The command line's --ranks: the rank-sets table and the report's paragraph."""

from _cli import run_cli as run

import pdcompare


def test_demo_with_ranks_prints_the_sets_and_who_may_be_the_best():
    process = run("demo", "--ranks")
    assert process.returncode == 0, process.stderr
    out = process.stdout
    assert "Rank sets (95% simultaneous, best first; covariance: Nadeau–Bengio corrected)" in out
    table = out.split("Rank sets (95% simultaneous")[1].split("\n\n")[0].splitlines()
    expected = pdcompare.datasets.load_grid_search_scores().cmp.ranks(random_state=0)
    rows = [line.split() for line in table[3:]]
    assert [row[0] for row in rows] == expected.index.tolist()
    assert [int(row[-2]) for row in rows] == expected["rank_low"].tolist()
    assert [int(row[-1]) for row in rows] == expected["rank_high"].tolist()
    assert "May be the best: rbf, linear and 3_poly (95% simultaneous rank sets)." in out


def test_without_ranks_only_who_may_be_the_best():
    process = run("demo")
    assert process.returncode == 0, process.stderr
    assert "Rank sets" not in process.stdout
    line = "May be the best: rbf, linear and 3_poly (95% simultaneous rank sets)."
    assert process.stdout.count(line) == 1

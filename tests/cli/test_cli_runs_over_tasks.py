"""The command line on runs over tasks: ``--long --runs`` with a task column."""

from pathlib import Path

from _cli import run_cli as run

DATA = Path(__file__).resolve().parents[2] / "pdcompare" / "datasets" / "data" / "rl_runs.csv"
OPTIONS = [
    "--long",
    "--runs",
    "--model-col",
    "agent",
    "--dataset-col",
    "task",
    "--split-col",
    "seed",
]




def test_long_runs_prints_aggregates_improvement_and_report(tmp_path):
    figure = tmp_path / "aggregate.png"
    out = run(str(DATA), *OPTIONS, "--plot", str(figure))
    assert out.returncode == 0, out.stderr
    assert "Aggregates over tasks (best first by IQM" in out.stdout
    assert "rainbow       0.8498" in out.stdout  # the IQM of load_rl_runs()
    assert "Probability of improvement (the best by IQM against the others)" in out.stdout
    assert "5 models, 26 tasks, 5 runs per task" in out.stdout
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_long_runs_refuses_a_test_in_cli_words():
    out = run(str(DATA), *OPTIONS, "--test", "wilcoxon")
    assert out.returncode == 2
    assert "--test and --rope do not apply" in out.stderr
    assert "Traceback" not in out.stderr

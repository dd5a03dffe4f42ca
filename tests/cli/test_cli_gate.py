"""``pdcompare gate``: exit codes 0/1/2/3 on constructed files of each kind, as a subprocess."""

import numpy as np
import pandas as pd
import pytest
from _cli import run_cli
from frames import gate_predictions, gate_runs, gate_scores

import pdcompare
from pdcompare.cli import build_gate_parser


def run(*args, cwd=None):
    return run_cli("gate", *args, cwd=cwd)


def gate_args(path, margin, *more):
    return (path, "--candidate", "candidate", "--baseline", "baseline", "--margin", margin, *more)


def assert_cannot_run(process, *fragments):
    assert process.returncode == 3, process.stderr
    assert process.stdout == ""
    lines = process.stderr.splitlines()
    assert len(lines) == 1, process.stderr
    assert lines[0].startswith("pdcompare gate: error: ")
    assert "Traceback" not in process.stderr
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shift", "margin", "status", "verdict"),
    [
        (-0.002, 0.02, 0, "PASS (non-inferior)"),
        (-0.05, 0.01, 1, "FAIL (significantly worse)"),
        (-0.005, 0.01, 2, "INCONCLUSIVE (not a pass)"),
    ],
)
def test_scores_file(tmp_path, shift, margin, status, verdict):
    path = tmp_path / "scores.csv"
    gate_scores(shift).to_csv(path)
    done = run(*gate_args(path, margin, "--cv", 10))
    assert done.returncode == status, done.stderr
    assert f"Gate: {verdict}" in done.stdout
    assert "Nadeau–Bengio corrected resampled t-test" in done.stdout
    # The same answer as the library, in the same words.
    result = pdcompare.gate(gate_scores(shift), "candidate", "baseline", margin=margin, cv=10)
    assert done.stdout.endswith(pdcompare.presentation.report.gate.gate_text(result))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("shift", "status"), [(0.0, 0), (-0.08, 1), (-0.01, 2)], ids=["pass", "worse", "unsure"]
)
def test_runs_file(tmp_path, shift, status):
    path = tmp_path / "runs.csv"
    gate_runs(shift).to_csv(path)
    done = run(*gate_args(path, 0.02, "--runs"))
    assert done.returncode == status, done.stderr
    assert "Welch's unequal-variance t-test" in done.stdout
    assert "8 and 10 independent runs" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    ("noise", "margin", "status"), [(0.8, 0.05, 0), (2.5, 0.01, 1), (1.0, 0.005, 2)]
)
def test_predictions_file(tmp_path, noise, margin, status):
    path = tmp_path / "predictions.csv"
    gate_predictions(noise).rename(columns={"y": "label"}).to_csv(path, index=False)
    done = run(*gate_args(path, margin, "--y", "label"))
    assert done.returncode == status, done.stderr
    assert "DeLong's test" in done.stdout
    assert "400 test samples" in done.stdout


def test_losses_and_markdown(tmp_path):
    path, markdown = tmp_path / "losses.csv", tmp_path / "gate.md"
    gate_scores(0.05).to_csv(path)
    done = run(*gate_args(path, 0.01, "--cv", 10, "--lower-is-better", "--markdown", markdown))
    assert done.returncode == 1, done.stderr
    assert "lower scores are better" in done.stdout
    assert markdown.read_text().startswith("### Gate: **FAIL (significantly worse)**")


def test_unknown_design_says_the_options(tmp_path):
    path = tmp_path / "scores.csv"
    gate_scores(-0.005).to_csv(path)
    done = run(*gate_args(path, 0.01, "--test", "ttest"))
    assert done.returncode == 2
    assert "plain paired t-test" in done.stdout
    assert "(--cv or --test-size)" in done.stdout


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (("{missing}", "--candidate", "candidate", "--baseline", "baseline", "--margin", 0.01),
         ("no such file", "nope.csv")),
        (("{path}", "--candidate", "nope", "--baseline", "baseline", "--margin", 0.01, "--cv", 10),
         ("nope",)),
        (("{path}", "--candidate", "candidate", "--baseline", "baseline", "--margin", -0.01),
         ("--margin", "-0.01")),
        (("{path}", "--baseline", "baseline", "--margin", 0.01), ("--candidate",)),
        (("{path}", "--candidate", "candidate", "--baseline", "baseline", "--margin", 0.01,
          "--test", "delong"), ("delong",)),
        (("{path}", "--candidate", "candidate", "--baseline", "baseline", "--margin", 0.01,
          "--y", "label"), ("--y", "'label'")),
    ],
    ids=["file", "model", "margin", "candidate", "test", "y"],
)  # fmt: skip
def test_cannot_run_exits_3_with_one_line(tmp_path, args, fragments):
    path = tmp_path / "scores.csv"
    gate_scores(0.0).to_csv(path)
    names = {"path": path, "missing": tmp_path / "nope.csv"}
    assert_cannot_run(run(*(str(a).format(**names) for a in args)), *fragments)


def test_the_parser_in_process():
    args = build_gate_parser().parse_args(
        ["f.csv", "--candidate", "a", "--baseline", "b", "--margin", "0", "--runs"]
    )
    assert (args.margin, args.runs, args.alpha) == (0.0, True, 0.05)


def test_look_and_spending_options_parse():
    args = build_gate_parser().parse_args(
        ["s.csv", "--candidate", "a", "--baseline", "b", "--margin", "0.01", "--look", "2/5"]
    )
    assert (args.look, args.spending) == ((2, 5), "obf")


@pytest.mark.slow
def test_a_planned_look_gates_at_its_level(tmp_path):
    path = tmp_path / "scores.csv"
    gate_scores(-0.002).to_csv(path)
    done = run(*gate_args(path, 0.02, "--cv", 10, "--look", "1/4", "--spending", "pocock"))
    result = pdcompare.gate(
        gate_scores(-0.002), "candidate", "baseline", margin=0.02, cv=10, look=(1, 4),
        spending="pocock",
    )  # fmt: skip
    assert done.stdout.endswith(pdcompare.presentation.report.gate.gate_text(result))
    assert "look 1 of 4" in done.stdout
    bad = run(*gate_args(path, 0.02, "--cv", 10, "--look", "5/4"))
    assert_cannot_run(bad, "--look must be k/K")


def test_items_file(tmp_path):
    from frames import eval_items_long

    path = tmp_path / "answers.csv"
    long = eval_items_long(n_models=3, n_clusters=8, per_cluster=5, n_samples=3, tasks=2)
    long.to_csv(path, index=False)
    columns = ("--cluster-col", "passage", "--sample-col", "sample", "--task-col", "task")
    done = run(
        path, "--items", *columns, "--candidate", "m1", "--baseline", "m0", "--margin", 0.05
    )
    items = pdcompare.from_items(long, sample="sample", cluster="passage", task="task")
    result = pdcompare.gate(items, "m1", "m0", margin=0.05)
    assert done.returncode == pdcompare.cli.gate.GATE_EXIT[result["outcome"].iloc[0]]
    assert done.stdout.endswith(pdcompare.presentation.report.gate.gate_text(result))
    assert "40 items in 8 passages, in 2 tasks (t0 20, t1 20)" in done.stdout
    assert "split" not in done.stdout


def test_battles_file(tmp_path):
    from frames import simulated_battles
    from scipy import stats

    path = tmp_path / "battles.csv"
    simulated_battles([0.0, 0.1, 0.5], 3000).to_csv(path, index=False)
    done = run(path, "--battles", "--candidate", "m00", "--baseline", "m02", "--margin", 20)
    assert done.returncode == 1, done.stderr
    assert "Bradley–Terry rating difference" in done.stdout
    # Two models: the rating difference is 400 log10(wins/losses), its standard error
    # 400/ln 10 sqrt(1/wins + 1/losses) (the binomial's Fisher information on the log odds).
    from pdcompare.compare.battles_gate import battles_gate

    wins = pd.DataFrame([[0, 60], [40, 0]], index=["new", "old"], columns=["new", "old"])
    result = battles_gate(wins, "new", "old", margin=20, alpha=0.05)
    diff = 400 * np.log10(60 / 40)
    se = 400 / np.log(10) * np.sqrt(1 / 60 + 1 / 40)
    assert result["mean_diff"].iloc[0] == pytest.approx(diff, rel=1e-6)
    assert result["ci_low"].iloc[0] == pytest.approx(diff - stats.norm.ppf(0.95) * se, rel=1e-6)
    assert result["pvalue"].iloc[0] == pytest.approx(stats.norm.sf((diff + 20) / se), rel=1e-6)
    assert result["outcome"].iloc[0] == "non-inferior"


@pytest.mark.parametrize(("baseline", "margin", "ties"), [("m01", 60, "half"),
                                                           ("m02", 20, "davidson")])
def test_the_library_gate_of_a_battles_frame_is_the_command_lines(tmp_path, baseline, margin,
                                                                    ties):
    from frames import simulated_battles

    path = tmp_path / "battles.csv"
    raw = simulated_battles([0.0, 0.1, 0.5], 3000)
    raw.to_csv(path, index=False)
    done = run(path, "--battles", "--candidate", "m00", "--baseline", baseline,
               "--margin", margin, "--ties", ties)  # fmt: skip
    battles = pdcompare.from_battles(raw)
    result = pdcompare.gate(battles, "m00", baseline, margin=margin, ties=ties)
    assert battles.cmp.gate("m00", baseline, margin=margin, ties=ties).equals(result)
    outcome = result["outcome"].iloc[0]
    assert done.returncode == ("non-inferior", "worse", "inconclusive").index(outcome)
    row = result.iloc[0]
    bounds = f"lower {row['ci_low']:.4f}, upper {row['ci_high']:+.4f}"
    assert f"is {row['mean_diff']:.4f}; one-sided 95% bounds: {bounds}" in done.stdout
    assert row["test"] == "bradley_terry_z"
    with pytest.raises(ValueError, match=r"`cv=` does not apply to a battles frame"):
        pdcompare.gate(battles, "m00", baseline, margin=margin, cv=5)
    with pytest.raises(ValueError, match=r"`test='ttest'` does not fit a battles frame"):
        pdcompare.gate(battles, "m00", baseline, margin=margin, test="ttest")


def test_cv_splits_without_their_design_exit_3_naming_the_options(tmp_path):
    path = tmp_path / "scores.csv"
    gate_scores(-0.005).to_csv(path)
    done = run(*gate_args(path, 0.01))
    assert_cannot_run(done, "--cv", "--test-size", "--test ttest", "30 %")
    assert run(*gate_args(path, 0.01, "--test", "ttest")).returncode == 2


@pytest.mark.parametrize(
    ("more", "named"),
    [
        (("--item-col", "question"), "--item-col is an option of an items file: add --items"),
        (("--winner-col", "w"), "--winner-col is an option of a battles file: add --battles"),
    ],
)
def test_column_options_without_their_file_kind_are_refused(tmp_path, more, named):
    path = tmp_path / "scores.csv"
    gate_scores(0.0).to_csv(path)
    assert_cannot_run(run(*gate_args(path, 0.01, "--cv", 10, *more)), named)

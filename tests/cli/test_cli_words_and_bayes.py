"""The command line speaks its options, takes --test bayes, says what its figure leaves out."""

import re

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from numpy.testing import assert_allclose

import pdcompare
from pdcompare import cli
from pdcompare.inputs.scores import ALL_PAIRS

#: Python's words that a command-line user cannot type.
PYTHON_WORDS = re.compile(
    r"(?<![\w-])(cv|test_size|n_train|n_test|nan_policy|rope|alpha|top|metric)=|set_design|"
    r"`a complete file`|pairwise\(|bayes\(|random_effects\("
)


def write(tmp_path, n=5, missing=False, seed=0, name="scores.csv"):
    rng = np.random.default_rng(seed)
    values = 0.8 - 0.003 * np.arange(n)[:, None] + rng.normal(0, 0.01, (n, 10))
    if missing:
        values[1, 3] = np.nan
    frame = pd.DataFrame(values, index=[f"model_{k}" for k in range(n)])
    path = tmp_path / name
    frame.to_csv(path)
    return str(path), frame


def cli_run(capsys, *args):
    status = cli.main([*args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(
    "options",
    [
        [],
        ["--rope", "0.01"],
        ["--cv", "5", "--rope", "0.01"],
        ["--test-size", "0.2"],
        ["--cv", "5", "--top", "3"],
        ["--test", "corrected_ttest"],
        ["--test", "bayes", "--rope", "0.01"],
    ],
)
@pytest.mark.parametrize("missing", [False, True])
def test_every_line_speaks_cli(tmp_path, capsys, options, missing):
    path, _ = write(tmp_path, n=30 if "--top" in options else 5, missing=missing)
    status, out, err = cli_run(capsys, path, *options)
    assert status in (0, 2)
    said = PYTHON_WORDS.findall(out + err)
    assert not said, out + err
    assert "Pass `" not in out + err


def test_design_and_missing_scores_in_cli_words(tmp_path, capsys):
    path, _ = write(tmp_path, missing=True)
    _, out, err = cli_run(capsys, path, "--rope", "0.01")
    assert "Pass the design (--cv or --test-size) for the corrected test." in out
    assert "needs the CV design (pass --cv or --test-size)." in out
    assert "fill in or remove them in the file" in out
    assert "The command line compares complete files only" in err
    _, out, _ = cli_run(capsys, path, "--cv", "5")
    assert "CV design: --cv 5 (test/train size ratio 0.2500)." in out
    status, _, err = cli_run(capsys, path, "--test", "corrected_ttest")
    assert status == 2
    assert err.strip().endswith("Pass --cv or --test-size.")


def test_the_command_line_spelling_of_each_form():
    # The report's sentences ask the spelling for the words that tell the reader what to pass.
    from pdcompare.presentation.labels import COMMAND_LINE, PYTHON

    assert COMMAND_LINE.design_keywords() == "--cv or --test-size"
    assert PYTHON.design_keywords() == "cv=, test_size=, or n_train= with n_test="
    assert COMMAND_LINE.design_source("cv=KFold(n_splits=5)") == "KFold(n_splits=5)"
    assert COMMAND_LINE.design_source("test_size=0.2") == "--test-size 0.2"
    assert COMMAND_LINE.list_all("bayes()") == "--top 0 lists them all"
    assert PYTHON.list_all("bayes()") == "bayes() gives them all"


def test_errors_carry_their_keyword_and_command_line_words():
    from pdcompare._validation import OptionError

    scores = pd.DataFrame(np.random.default_rng(0).normal(0.8, 0.02, (3, 6)), index=list("abc"))
    with pytest.raises(OptionError, match="Pass `cv=`") as caught:
        scores.cmp.corrected_ttest()
    assert caught.value.keyword == "cv"
    assert caught.value.cli_message.endswith("Pass --cv or --test-size.")
    with pytest.raises(OptionError) as caught:
        scores.cmp.ttest(alpha=1.5)
    assert caught.value.keyword == "alpha"
    assert cli.speak_cli(str(caught.value)).startswith("--alpha must be")


def test_the_keyword_an_error_carries_is_named_as_its_option():
    from pdcompare._validation import OptionError, PdcompareWarning, warn
    from pdcompare.cli.options import one_line

    # By the field: the keyword with its value is the option with its argument.
    error = OptionError("`test='delong'` does not fit a scores frame.", keyword="test")
    assert one_line(error) == "--test delong does not fit a scores frame."
    error = OptionError("`correction='shaffer'` needs all pairs.", keyword="correction")
    assert one_line(error) == "--correction shaffer needs all pairs."
    # A flag names the value it gives, and only that one.
    with pytest.warns(PdcompareWarning) as record:
        warn("Drop `greater_is_better=False`, or negate the losses.", keyword="greater_is_better")
    assert record[0].message.keyword == "greater_is_better"
    assert one_line(record[0].message) == "Drop --lower-is-better, or negate the losses."
    error = OptionError("`greater_is_better=True` is the default.", keyword="greater_is_better")
    assert one_line(error) == "`greater_is_better=True` is the default."
    # A keyword no option gives stays a keyword; command-line words are printed as written.
    error = OptionError("`nan_policy` must be 'propagate'.", keyword="nan_policy")
    assert one_line(error) == "`nan_policy` must be 'propagate'."
    error = OptionError("Pass `cv=`.", keyword="cv", cli_message="Pass --cv or --test-size.")
    assert one_line(error) == "Pass --cv or --test-size."
    # A sentence that does not name the keyword it carries is led by its option.
    error = OptionError("must be below 0.5 for a one-sided gate; got 0.6.", keyword="alpha")
    assert one_line(error) == "--alpha: must be below 0.5 for a one-sided gate; got 0.6."


def test_every_keyword_is_named_by_an_option_of_a_parser():
    from pdcompare.cli.options import KEYWORD_OPTIONS, option_words

    flags = {
        flag
        for parser in (cli.build_parser(), cli.build_gate_parser())
        for flag in parser._option_string_actions
    }
    assert {option.flags[0] for option in KEYWORD_OPTIONS.values()} <= flags
    assert option_words("model") == "--model-col"
    assert option_words("block_size", "5") == "--block-size 5"
    assert option_words("margin") == "--margin"  # pdcompare gate's


def test_test_bayes_needs_a_rope(tmp_path, capsys):
    path, _ = write(tmp_path)
    status, out, err = cli_run(capsys, path, "--cv", "10", "--test", "bayes")
    assert status == 2
    assert out == ""
    assert "--test bayes needs --rope R" in err
    status, _, err = cli_run(capsys, path, "--test", "bayes", "--rope", "0.01")
    assert status == 2
    assert "needs the CV design: pass --cv or --test-size" in err


def test_test_bayes_prints_the_bayesian_table(tmp_path, capsys):
    path, frame = write(tmp_path)
    status, out, _ = cli_run(capsys, path, "--cv", "10", "--test", "bayes", "--rope", "0.01")
    assert status == 0
    assert "Pairwise comparisons: Bayesian correlated t-test, rope [-0.01, 0.01]" in out
    table = out.split("decided when a probability reaches 0.95\n", 1)[1].split("\n\n", 1)[0]
    rows = [line.split() for line in table.splitlines()[1:]]
    expected = pdcompare.bayes(frame, ALL_PAIRS, rope=0.01, cv=10)
    assert [(r[0], r[1]) for r in rows] == list(
        zip(expected["model_1"], expected["model_2"], strict=True)
    )
    header = table.splitlines()[0].split()
    printed = np.array(
        [[float(r[header.index(c)]) for c in ("prob_better", "prob_rope")] for r in rows]
    )
    assert_allclose(printed, expected[["prob_better", "prob_rope"]].to_numpy(), atol=5e-5)
    assert "Practical equivalence: Bayesian correlated t-test" in out


def test_cli_figure_says_how_many_models_it_shows(tmp_path, capsys, monkeypatch):
    path, frame = write(tmp_path, n=60)
    saved = []
    monkeypatch.setattr(cli.outputs, "_save", lambda figure, where: saved.append(figure))
    status, _, _ = cli_run(capsys, path, "--cv", "10", "--plot", str(tmp_path / "f.png"))
    assert status == 0
    (figure,) = saved
    titles = [panel.axes[0].get_title() for panel in figure.subfigs]
    assert all("best 10 of 60 models" in title for title in titles)
    best = frame.mean(axis=1).sort_values(ascending=False).index[:10].tolist()
    shown = [t.get_text() for t in figure.subfigs[2].axes[0].get_yticklabels()]
    assert shown == best


def test_cli_figure_of_losses_runs_lowest_first(tmp_path, capsys, monkeypatch):
    path, frame = write(tmp_path, n=12)
    saved = []
    monkeypatch.setattr(cli.outputs, "_save", lambda figure, where: saved.append(figure))
    cli_run(capsys, path, "--cv", "10", "--lower-is-better", "--plot", str(tmp_path / "f.png"))
    folds, corr, intervals = (panel.axes[0] for panel in saved[0].subfigs)
    lowest = frame.mean(axis=1).sort_values().index[:10].tolist()
    legend = [t.get_text().rsplit(" (mean", 1)[0] for t in folds.get_legend().get_texts()]
    assert legend == lowest
    assert [t.get_text() for t in corr.get_yticklabels()] == lowest
    assert [t.get_text() for t in intervals.get_yticklabels()] == lowest


def test_one_more_model_is_singular(tmp_path, capsys):
    path, _ = write(tmp_path, n=4)
    _, out, _ = cli_run(capsys, path, "--cv", "10", "--top", "3")
    assert "(1 more model; --top 0 shows them all)" in out
    assert "(3 more pairs; --top 0 shows them all)" in out


def test_a_benchmark_whose_family_cannot_reject_is_told_in_cli_words(tmp_path, capsys):
    # 5 models x 8 data sets: Wilcoxon with Holm cannot reach 0.05 (smallest p 0.078).
    rng = np.random.default_rng(1)
    values = np.linspace(0.9, 0.8, 5)[:, None] + rng.normal(0, 0.01, (5, 8))
    bench = pd.DataFrame(
        values,
        index=[f"model_{k}" for k in range(5)],
        columns=pd.Index([f"d{k}" for k in range(8)], name="dataset"),
    )
    path = tmp_path / "bench.csv"
    bench.to_csv(path)
    status, out, err = cli_run(capsys, str(path), "--benchmark")
    assert status == 0
    assert not PYTHON_WORDS.findall(out + err), out + err
    assert "`" not in err
    assert "--test wilcoxon cannot reject any of 10 pairs" in err
    assert "0.078 after --correction holm over 10 pairs" in err
    assert err.rstrip().endswith("compare mean ranks with --test nemenyi or --test conover.")
    assert "; --test nemenyi can reject with these data." in out
    assert "could detect" not in out
    status, out, _ = cli_run(capsys, str(path), "--benchmark", "--test", "nemenyi")
    assert status == 0
    assert "could have been significant" not in out


def test_an_unreachable_test_names_the_test_to_run_as_an_option():
    # Wilcoxon on 4 splits: its smallest two-sided p-value is 0.125, above any usual alpha.
    from pdcompare._validation import PdcompareWarning

    scores = pd.DataFrame([[0.9, 0.8, 0.85, 0.9], [0.8, 0.7, 0.8, 0.85]], index=["a", "b"])
    with pytest.warns(PdcompareWarning, match="`wilcoxon` cannot reject") as caught:
        scores.cmp.wilcoxon()
    warning = next(w.message for w in caught if "cannot reject" in str(w.message))
    assert warning.keyword == "test"
    assert warning.cli_message.startswith("--test wilcoxon cannot reject this pair")
    assert "use --test corrected_ttest, whose p-values are not discrete" in warning.cli_message

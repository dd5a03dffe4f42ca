"""The command line on a predictions file (a truth column) and a forecasts file."""

import pandas as pd
import pytest
from frames import ar_forecasts, gate_predictions, label_predictions
from scipy import stats

import pdcompare
from pdcompare.cli import main


def call(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def files(tmp_path):
    paths = {
        "scores": tmp_path / "scores.csv",
        "labels": tmp_path / "labels.csv",
        "forecasts": tmp_path / "forecasts.csv",
        "forecasts_int": tmp_path / "forecasts_int.csv",
    }
    gate_predictions(0.5).to_csv(paths["scores"], index=False)
    label_predictions().to_csv(paths["labels"], index=False)
    ar_forecasts().to_csv(paths["forecasts"])
    ar_forecasts(dates=False).to_csv(paths["forecasts_int"])
    return paths


def test_numeric_scores_get_delong_and_the_truth_is_no_model(capsys, files):
    code, out, err = call(capsys, files["scores"])
    assert code == 0, err
    assert "Pairwise comparisons: DeLong's test of ROC AUCs, holm correction" in out
    frame = pd.read_csv(files["scores"])
    expected = frame.cmp.delong("candidate", "baseline")
    assert f"{expected['pvalue'].iloc[0]:.4f}" in out
    # The AUC printed is scikit-learn's (Mann–Whitney U / n_pos n_neg), written out here.
    positive = frame["y"] == 1
    u = stats.mannwhitneyu(frame.loc[positive, "candidate"], frame.loc[~positive, "candidate"])
    assert f"{u.statistic / (positive.sum() * (~positive).sum()):.4f}" in out
    assert " y " not in out.split("Pairwise")[0].splitlines()[-3]
    assert "transpose" not in out + err


def test_labels_get_mcnemar_with_statsmodels_numbers(capsys, files):
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    code, out, err = call(capsys, files["labels"])
    assert code == 0, err
    assert "McNemar's test of paired errors" in out
    frame = pd.read_csv(files["labels"])
    right = frame[["logistic", "tree"]].eq(frame["y"], axis=0)
    table = pd.crosstab(right["logistic"], right["tree"]).to_numpy()
    reference = sm_mcnemar(table, exact=False, correction=True)
    assert f"{reference.pvalue:.4f}" in out
    assert "y is significantly" not in out


def test_permutation_test_of_scores_uses_the_auc(capsys, files):
    code, out, err = call(capsys, files["scores"], "--test", "permutation_test")
    assert code == 0, err
    assert "paired permutation test of ROC AUC" in out


def test_transpose_and_other_kinds_of_tests_are_refused_for_predictions(capsys, files):
    code, _, err = call(capsys, files["labels"], "--transpose")
    assert code == 2
    assert "this is a predictions file" in err
    assert "--transpose does not apply; leave it out" in err
    code, _, err = call(capsys, files["scores"], "--test", "confidence_set")
    assert code == 2
    assert "--test confidence_set does not apply to a predictions file" in err


def test_predictions_test_on_a_scores_file_names_the_truth_column(capsys, tmp_path):
    path = tmp_path / "folds.csv"
    pdcompare.datasets.load_grid_search_scores().to_csv(path)
    code, _, err = call(capsys, path, "--test", "delong")
    assert code == 2
    assert "--test delong compares predictions" in err
    assert "--y COLUMN" in err


def test_y_names_another_truth_column(capsys, files, tmp_path):
    path = tmp_path / "target.csv"
    pd.read_csv(files["labels"]).rename(columns={"y": "target"}).to_csv(path, index=False)
    code, out, err = call(capsys, path, "--y", "target")
    assert code == 0, err
    assert "the truth is column 'target'" in out
    code, _, err = call(capsys, path, "--y", "label")
    assert code == 2
    assert "--y label: the file has no column 'label'" in err
    # Without --y the file reads as numbers in the first column: the hint names --y too.
    code, _, err = call(capsys, path)
    assert code == 2
    assert "truth column with --y COLUMN" in err


def test_forecasts_file_gets_the_confidence_set_in_blocks(capsys, files):
    code, out, err = call(capsys, files["forecasts"], "--forecasts")
    assert code == 0, err
    assert "Model confidence set at 90%" in out
    assert "blocks of rows of mean length 5" in out
    expected = ar_forecasts().cmp.report()
    assert expected.splitlines()[-1] in out


def test_forecasts_with_an_integer_index_and_diebold_mariano(capsys, files):
    path = files["forecasts_int"]
    code, out, err = call(capsys, path, "--forecasts", "--test", "diebold_mariano")
    assert code == 0, err
    assert "Pairwise comparisons: Diebold–Mariano test" in out
    dm = ar_forecasts().cmp.diebold_mariano("ridge", "naive")
    assert f"{dm['pvalue'].iloc[0]:.4f}" in out


def test_forecasts_without_the_option_are_told_to_pass_it(capsys, files):
    code, _, err = call(capsys, files["forecasts"])
    assert code == 2
    assert "pass --forecasts" in err
    assert "transpose" not in err



def test_forecasts_with_a_block_size_resample_blocks_of_that_mean_length(capsys, files):
    code, out, err = call(capsys, files["forecasts"], "--forecasts", "--block-size", 3)
    assert code == 0, err
    assert "resamples of blocks of rows of mean length 3 (--block-size), as losses" in out
    # The set printed is the library's with block_size=3 (the command line's seed is 0).
    expected = pdcompare.confidence_set(ar_forecasts(), block_size=3, random_state=0)
    table = out.split("Model confidence set at 90%")[1].split("pdcompare report")[0]
    for name, pvalue in expected["pvalue"].items():
        assert f"{name} " in table
        assert f"{pvalue:.4f}" in table
    library = ar_forecasts().cmp.report(block_size=3)
    assert "mean length 3 (block_size), as losses" in library  # a call's words
    in_cli_words = library.splitlines()[-1].replace("(block_size)", "(--block-size)")
    assert out.rstrip().endswith(in_cli_words)


def test_a_block_size_of_one_resamples_single_rows(capsys, files):
    code, out, err = call(capsys, files["forecasts"], "--forecasts", "--block-size", 1)
    assert code == 0, err
    assert "1000 bootstrap resamples of single rows" in out


def test_a_block_size_needs_forecasts(capsys, files):
    code, out, err = call(capsys, files["labels"], "--block-size", 3)
    assert code == 2
    assert out == ""
    assert "--block-size is the mean block length" in err
    assert "applies with --forecasts only" in err


@pytest.mark.parametrize("value", ["0", "-2", "two", "2.5"])
def test_a_block_size_is_a_whole_number_of_time_points(capsys, files, value):
    with pytest.raises(SystemExit) as raised:
        main([str(files["forecasts"]), "--forecasts", "--block-size", value])
    assert raised.value.code == 2
    assert f"expected a whole number of time points >= 1, got {value!r}" in capsys.readouterr().err

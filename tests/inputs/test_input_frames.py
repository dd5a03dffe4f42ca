"""Input adapters: scores frames, cv_results_ frames, predictions frames, validation."""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, RandomizedSearchCV
from sklearn.tree import DecisionTreeClassifier

import pdcompare
from pdcompare.datasets import load_benchmark
from pdcompare.inputs.data import scores_data
from pdcompare.inputs.predictions import predictions_data
from pdcompare.inputs.scores import ALL_PAIRS, select_pairs

X_SMALL, Y_SMALL = make_classification(n_samples=60, n_features=5, random_state=0)


@pytest.fixture(scope="module")
def grid_results():
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 3], "criterion": ["gini", "entropy"]},
        cv=3,
    ).fit(X_SMALL, Y_SMALL)
    return search, pd.DataFrame(search.cv_results_)


# --------------------------------------------------------------------------- cv_results_


def test_cv_results_become_models_by_splits(grid_results):
    _, frame = grid_results
    scores = frame.cmp.scores()
    assert scores.shape == (6, 3)
    assert list(scores.index) == [
        "criterion=gini, max_depth=1",
        "criterion=gini, max_depth=2",
        "criterion=gini, max_depth=3",
        "criterion=entropy, max_depth=1",
        "criterion=entropy, max_depth=2",
        "criterion=entropy, max_depth=3",
    ]
    expected = frame[[f"split{i}_test_score" for i in range(3)]].to_numpy()
    np.testing.assert_array_equal(scores.to_numpy(), expected)


def test_names_as_callable_and_list(grid_results):
    _, frame = grid_results
    by_callable = frame.cmp.scores(names=lambda p: f"{p['criterion'][0]}{p['max_depth']}")
    assert list(by_callable.index) == ["g1", "g2", "g3", "e1", "e2", "e3"]
    by_list = frame.cmp.scores(names=list("abcdef"))
    assert list(by_list.index) == list("abcdef")
    with pytest.raises(ValueError, match=r"`names` has 2 entries but .* 6 candidates"):
        frame.cmp.scores(names=["a", "b"])
    with pytest.raises(ValueError, match=r"Model names must be unique; \['x'\]"):
        frame.cmp.scores(names=lambda p: "x")


def test_gallery_style_names_are_short():
    params = [{"kernel": "linear"}, {"degree": 2, "kernel": "poly"}, {"kernel": "rbf"}]
    frame = pd.DataFrame(
        {"params": params, "split0_test_score": [0.9, 0.7, 0.95], "split1_test_score": [1, 0.6, 1]}
    )
    assert list(frame.cmp.scores().index) == ["linear", "kernel=poly, degree=2", "rbf"]


def _cv_frame(params, scores=((0.9, 0.8), (0.7, 0.75))):
    columns = {"params": list(params)}
    columns.update(
        {f"split{k}_test_score": list(s) for k, s in enumerate(zip(*scores, strict=True))}
    )
    return pd.DataFrame(columns)


def test_names_and_split_columns_are_read_afresh_after_a_change():
    # Names are cached by the parameters' values and types, split columns by the
    # column Index object: none of these changes may give a stale answer.
    assert list(_cv_frame([{"C": 1.0}, {"C": 2.0}]).cmp.scores().index) == ["C=1", "C=2"]
    # True == 1.0 and 2 == 2.0 in Python, but they are other parameters.
    assert list(_cv_frame([{"C": True}, {"C": 2}]).cmp.scores().index) == ["C=True", "C=2"]
    frame = _cv_frame([{"C": 0.1}, {"C": 10.0}])
    assert list(frame.cmp.scores().index) == ["C=0.1", "C=10"]
    frame["params"].iloc[0]["C"] = 0.5  # a parameter dict changed in place
    assert list(frame.cmp.scores().index) == ["C=0.5", "C=10"]
    renamed = frame.cmp.scores()
    renamed.index.name = "candidate"  # the caller's Index, not the cache's
    assert frame.cmp.scores().index.name == "model"
    # A new column Index: the split columns are found again.
    frame = frame.rename(columns={"split1_test_score": "split1_test_auc"})
    with pytest.raises(ValueError, match="1 split column"):
        frame.cmp.scores(metric="score")
    frame["split1_test_score"] = [0.7, 0.6]
    np.testing.assert_array_equal(frame.cmp.scores(metric="score")["split1"], [0.7, 0.6])


@pytest.fixture(scope="module")
def two_metrics():
    search = RandomizedSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 3]},
        n_iter=3,
        cv=4,
        scoring={"acc": "accuracy", "auc": "roc_auc"},
        refit="acc",
        random_state=0,
    ).fit(X_SMALL, Y_SMALL)
    return search, pd.DataFrame(search.cv_results_)


def test_multi_metric_needs_metric(two_metrics):
    search, frame = two_metrics
    with pytest.raises(ValueError, match=r"several metrics \('acc', 'auc'\).*`metric=`"):
        frame.cmp.scores()
    with pytest.raises(ValueError, match=r"`metric`: unknown metric 'accuracy'"):
        frame.cmp.scores(metric="accuracy")
    auc = frame.cmp.scores(metric="auc")
    np.testing.assert_array_equal(auc["split3"], frame["split3_test_auc"])
    assert frame.cmp.summary(metric="acc", cv=4).shape == (3, 6)
    with pytest.raises(
        ValueError, match=r"`metric`: unknown metric 'acu'. Did you mean 'auc', 'acc'"
    ):
        pdcompare.from_search(search, metric="acu")


def test_failed_candidates_convert_with_nan():
    # C=-1 makes LogisticRegression fail to fit; scikit-learn then records NaN scores.
    search = GridSearchCV(LogisticRegression(), {"C": [-1.0, 1.0]}, cv=3, error_score=np.nan)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        search.fit(X_SMALL, Y_SMALL)
    scores = pdcompare.from_search(search)
    assert list(scores.index) == ["C=-1", "C=1"]
    assert scores.loc["C=-1"].isna().all()
    assert scores.loc["C=1"].notna().all()
    summary = scores.cmp.summary()
    assert summary.loc["C=-1", "n_splits"] == 0
    assert summary.index[0] == "C=1"


def test_report_and_plot_choose_and_name_the_candidates_of_a_search(two_metrics):
    _, frame = two_metrics
    # Every method converts a cv_results_ frame with `metric=`, `names=`, `iteration=`
    # (DESIGN §2); report and plot used to convert without them.
    def name(params):
        return f"depth {params['max_depth']}"

    scores = frame.cmp.scores(metric="auc", names=name)
    text = frame.cmp.report(metric="auc", names=name, cv=4, rope=0.01)
    assert text == scores.cmp.report(cv=4, rope=0.01)
    assert "Best model: depth " in text
    drawn = frame.cmp.plot("intervals", metric="auc", names=name, cv=4)
    expected = scores.cmp.plot("intervals", cv=4)
    assert [t.get_text() for t in drawn.get_yticklabels()] == [
        t.get_text() for t in expected.get_yticklabels()
    ]
    # The intervals: one segment per model.
    np.testing.assert_array_equal(
        drawn.collections[0].get_segments(), expected.collections[0].get_segments()
    )
    plt.close("all")


@pytest.mark.parametrize("frame_kind", ["scores", "benchmark"])
@pytest.mark.parametrize(
    "call",
    [
        lambda f: f.cmp.scores(metric="score"),
        lambda f: f.cmp.summary(names=["a", "b"]),
        lambda f: f.cmp.pairwise(metric="score"),
        lambda f: f.cmp.bayes(iteration=0, rope=0.01),
        lambda f: f.cmp.report(metric="score"),
        lambda f: f.cmp.plot("intervals", metric="score"),
        lambda f: f.cmp.plot("folds", names=["a", "b"]),
        lambda f: f.cmp.select("best", by=list(f.index), metric="score"),
    ],
)
def test_search_keywords_on_other_frames_are_errors(random_scores, frame_kind, call):
    # Never ignored: a benchmark frame given `metric=` was read as a scores frame.
    frame = random_scores if frame_kind == "scores" else load_benchmark()
    kind = "a scores frame" if frame_kind == "scores" else "a benchmark frame"
    match = rf"`metric`, `names` and `iteration` apply to cv_results_.*already {kind}"
    with pytest.raises(ValueError, match=match):
        call(frame)


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("frame", "error", "match"),
    [
        (pd.DataFrame(), ValueError, r"scores frame is empty \(shape \(0, 0\)\)"),
        (
            pd.DataFrame({"s0": [0.9, 0.8]}, index=["a", "b"]),
            ValueError,
            r"1 split column.*at least 2 CV splits.*pass `df.T`",
        ),
        (
            pd.DataFrame({"s0": [0.9, 0.8], "s1": [0.9, 0.7]}, index=["a", "a"]),
            ValueError,
            r"Model names must be unique; \['a'\]",
        ),
        (
            pd.DataFrame({"s0": [0.9, 0.8], "s1": ["x", "y"]}, index=["a", "b"]),
            TypeError,
            r"column\(s\) 's1' do not.*df.astype\(float\)",
        ),
        (
            pd.DataFrame({"s0": [0.9, 0.8], "s1": [True, False]}, index=["a", "b"]),
            TypeError,
            r"column\(s\) 's1'",
        ),
        (
            pd.DataFrame({"s0": [True, False], "s1": [True, True]}, index=["a", "b"]),
            TypeError,
            r"column\(s\) 's0', 's1'",
        ),
        (
            pd.DataFrame({"s0": pd.to_datetime(["2024-01-01"] * 2), "s1": [0.9, 0.7]}),
            TypeError,
            r"column\(s\) 's0'",
        ),
        (
            pd.DataFrame({"s0": [0.9, 0.8], "s1": [np.inf, 0.7]}, index=["a", "b"]),
            ValueError,
            r"finite; model 'a' has inf in split 's1'",
        ),
    ],
)
def test_bad_scores_frames(frame, error, match):
    with pytest.raises(error, match=match):
        frame.cmp.summary()


def test_unknown_model_suggests_close_names(gallery_scores):
    data = scores_data(gallery_scores)
    with pytest.raises(ValueError, match=r"`a`: unknown model 'rfb'. Did you mean 'rbf'\?"):
        data.pairs("rfb")
    with pytest.raises(ValueError, match=r"`b`: unknown model 'zzz'. Known models: 'rbf'"):
        data.pairs("rbf", "zzz")
    with pytest.raises(ValueError, match="`b` needs `a`"):
        data.pairs(b="rbf")
    with pytest.raises(ValueError, match="`a` and `b` are the same model"):
        data.pairs("rbf", "rbf")


def test_nullable_float_with_na_reads_as_nan():
    frame = pd.DataFrame(
        {"s0": [0.9, 0.8], "s1": [pd.NA, 0.7], "s2": [0.8, 0.75]}, index=["a", "b"]
    ).astype("Float64")
    data = scores_data(frame)
    assert data.values.dtype == np.float64
    assert np.isnan(data.values[0, 1])
    summary = frame.cmp.summary(cv=3)
    assert summary.loc["a", "n_splits"] == 2
    np.testing.assert_allclose(summary.loc["a", "mean"], 0.85)


@pytest.mark.parametrize("other", ["float64", "Int64"])
def test_categorical_scores_read_as_their_values(other):
    # One numpy array straight from the frame, or the per-column dtype check (a
    # nullable column): a categorical of numbers reads as its numbers either way.
    plain = pd.DataFrame(
        {"s0": [0.9, 0.8, 0.7], "s1": [0.7, np.nan, 0.6], "s2": [1, 0, 1]}, index=list("abc")
    )
    mixed = plain.astype({"s1": "category", "s2": other})
    np.testing.assert_array_equal(scores_data(mixed).values, scores_data(plain).values)
    text = plain.astype({"s1": str}).astype({"s1": "category"})
    with pytest.raises(TypeError, match=r"column\(s\) 's1'"):
        scores_data(text)


def test_nan_policy_raise_and_propagate_name_models():
    frame = pd.DataFrame({"s0": [0.9, 0.8, 0.7], "s1": [np.nan, 0.7, 0.6]}, index=["a", "b", "c"])
    data = scores_data(frame)
    i, j, _ = data.pairs(ALL_PAIRS)
    with pytest.raises(ValueError, match=r"Model\(s\) \['a'\] have missing scores"):
        data.nan_pairs(i, j, "raise")
    with pytest.warns(pdcompare.PdcompareWarning, match=r"\['a'\] have missing scores"):
        mask = data.nan_pairs(i, j, "propagate")
    names = [(data.names[p], data.names[q]) for p, q in zip(i[mask], j[mask], strict=True)]
    assert sorted(map(sorted, names)) == [["a", "b"], ["a", "c"]]
    # The policy itself is checked once, where a call begins (tests/compare/test_nan_policy.py).
    with pytest.raises(ValueError, match="`nan_policy` must be one of 'propagate', 'omit'"):
        pdcompare.ttest(frame, nan_policy="ignore")


# --------------------------------------------------------------------------- scopes


def test_scopes_follow_rank_order():
    names = pd.Index(["low", "high", "mid"])
    means = np.array([0.1, 0.9, 0.5])
    i, j, scope = select_pairs(names, means)
    assert scope == "best_vs_rest"
    assert list(names[i]) == ["high", "high"]
    assert list(names[j]) == ["mid", "low"]
    i, j, scope = select_pairs(names, means, "low")
    assert (scope, list(names[j])) == ("one_vs_rest", ["high", "mid"])
    i, j, scope = select_pairs(names, means, ALL_PAIRS)
    assert scope == "all_pairs"
    assert list(zip(names[i], names[j], strict=True)) == [
        ("high", "mid"),
        ("high", "low"),
        ("mid", "low"),
    ]
    i, j, _ = select_pairs(names, means, greater_is_better=False)
    assert list(names[i]) == ["low", "low"]


def test_comparisons_need_two_models():
    with pytest.raises(ValueError, match="at least 2 models; the frame has 1"):
        select_pairs(pd.Index(["only"]), np.array([0.5]))


# --------------------------------------------------------------------------- predictions


def test_predictions_of_any_label_dtype():
    frame = pd.DataFrame(
        {
            "truth": pd.Categorical(["cat", "dog", "cat", None]),
            "m1": ["cat", "dog", "dog", "cat"],
            "m2": pd.array(["cat", None, "cat", "dog"], dtype="string"),
        }
    )
    data = predictions_data(frame, y="truth")
    assert list(data.names) == ["m1", "m2"]
    assert data.y_pred.shape == (4, 2)
    assert list(data.y_true[:3]) == ["cat", "dog", "cat"]
    assert data.missing.tolist() == [
        [False, False, False],
        [False, False, True],
        [False, False, False],
        [True, False, False],
    ]


def test_predictions_need_the_truth_column():
    frame = pd.DataFrame({"target": [1, 0], "m1": [1, 1]})
    with pytest.raises(ValueError, match=r"no truth column 'y'; its columns are 'target', 'm1'"):
        predictions_data(frame)
    with pytest.raises(ValueError, match=r"`models`: unknown model 'm2'. Known models: 'm1'"):
        predictions_data(frame, y="target", models=["m2"])
    with pytest.raises(ValueError, match="no model column besides the truth"):
        predictions_data(frame[["target"]], y="target")


def test_halving_search_compares_one_iteration_only():
    from sklearn.experimental import enable_halving_search_cv  # noqa: F401
    from sklearn.model_selection import HalvingGridSearchCV

    X, y = make_classification(n_samples=400, random_state=0)
    search = HalvingGridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 3, 4, 5, 6]},
        cv=3,
        factor=2,
        random_state=0,
    ).fit(X, y)
    results = pd.DataFrame(search.cv_results_)
    scores = pdcompare.from_search(search)
    last = results["iter"].max()
    rows = np.flatnonzero(results["iter"] == last)
    assert len(rows) >= 2
    assert list(scores.index) == [f"max_depth={results['params'][r]['max_depth']}" for r in rows]
    assert scores.attrs["pdcompare"]["rows"] == rows.tolist()
    np.testing.assert_array_equal(
        scores.to_numpy(), results.loc[rows, [f"split{i}_test_score" for i in range(3)]]
    )
    assert scores.attrs["pdcompare"]["design"]["test_train_ratio"] == pytest.approx(0.5)
    first = pdcompare.from_search(search, iteration=0)
    assert len(first) == int((results["iter"] == 0).sum()) == 6
    with pytest.raises(ValueError, match=r"`iteration` must be one of the search's iterations"):
        pdcompare.from_search(search, iteration=7)
    with pytest.raises(ValueError, match="`iteration` applies to successive-halving"):
        pdcompare.from_search(
            GridSearchCV(DecisionTreeClassifier(), {"max_depth": [1, 2]}, cv=3).fit(X, y),
            iteration=0,
        )


def test_predictions_of_mixed_label_types_keep_their_values():
    # One model predicts ints, another strings: an int 1 must still equal a truth of 1.
    frame = pd.DataFrame({"y": [1, 0, 1], "ints": [1, 0, 0], "texts": ["1", "0", "1"]})
    data = predictions_data(frame)
    correct = data.y_pred == data.y_true[:, None]
    assert correct.tolist() == [[True, False], [True, False], [False, False]]


def test_read_csv_gives_correctly_rounded_floats(tmp_path):
    from pdcompare.inputs.files import read_csv

    # Values whose shortest repr pandas 2's default parser reads one bit off.
    values = np.array([[0.9600000000000001, 0.71999999999999997], [0.1 + 0.2, 1 / 3]])
    path = tmp_path / "scores.csv"
    pd.DataFrame(values, index=["a", "b"]).to_csv(path)
    frame = read_csv(path, index_col=0)
    np.testing.assert_array_equal(frame.to_numpy(), values)  # bit for bit, Python's float()

"""Items frames from long tables (pandas and dask) and wide frames, and their bad input."""

import numpy as np
import pandas as pd
import pytest
from frames import eval_items_long
from numpy.testing import assert_allclose

import pdcompare
from pdcompare import PdcompareWarning
from pdcompare.inputs.items import items_data
from pdcompare.inputs.kinds import FrameKind, frame_kind


def test_from_items_means_counts_and_variances_against_a_group_by():
    long = eval_items_long(n_models=3, n_samples=4)
    frame = pdcompare.from_items(long, sample="sample", cluster="passage")
    means = long.pivot_table(index="model", columns="item", values="score", aggfunc="mean")
    assert_allclose(frame.to_numpy(), means.loc[frame.index, frame.columns].to_numpy())
    data = items_data(frame)
    variances = long.pivot_table(index="model", columns="item", values="score", aggfunc="var")
    variances = variances.loc[frame.index, frame.columns]
    assert_allclose(data.within_var, variances.to_numpy())
    assert np.all(data.samples == 4)
    assert data.n_clusters == 8
    assert data.clustered
    assert frame_kind(frame) is FrameKind.ITEMS
    assert frame.attrs["pdcompare"]["design"]["items"] is True


def test_the_caller_table_is_unchanged_and_subsets_stay_aligned():
    long = eval_items_long()
    before = long.copy()
    frame = pdcompare.from_items(long, sample="sample", cluster="passage")
    pd.testing.assert_frame_equal(long, before)
    sub = frame.loc[["m2", "m0"], frame.columns[::-1][:20]]
    data = items_data(sub)
    full = items_data(frame)
    positions = frame.columns.get_indexer(sub.columns)
    assert_allclose(data.within_var, full.within_var[[2, 0]][:, positions])
    assert data.n_clusters == len(np.unique(full.cluster[positions]))
    assert pd.concat([frame, frame]).shape == (6, 40)  # attrs compare without arrays


def test_tasks_make_a_task_item_multiindex():
    long = eval_items_long(tasks=2)
    long.loc[long["task"] == "t1", "item"] = long.loc[long["task"] == "t1", "item"].str.upper()
    long.loc[long["item"] == "Q5", "item"] = "q0"  # the same id in another task: another item
    frame = pdcompare.from_items(long, sample="sample", task="task")
    assert frame.columns.names == ["task", "item"]
    assert ("t0", "q0") in frame.columns
    assert ("t1", "q0") in frame.columns
    assert frame.shape == (3, 40)


def test_set_design_items_on_a_wide_frame():
    wide = pd.DataFrame(np.eye(2, 6), index=["a", "b"], columns=[f"q{k}" for k in range(6)])
    framed = wide.cmp.set_design(items=True, cluster={f"q{k}": k // 2 for k in range(6)})
    assert wide.attrs == {}
    data = items_data(framed)
    assert data.n_clusters == 3
    assert data.clustered
    tasked = wide.cmp.set_design(items=True, task=pd.Series(["x"] * 3 + ["y"] * 3, wide.columns))
    assert tasked.columns.names == ["task", "item"]
    assert list(items_data(tasked).tasks) == ["x", "y"]


def test_from_items_on_dask_equals_pandas():
    dd = pytest.importorskip("dask.dataframe")
    long = eval_items_long(n_models=3, n_samples=3, tasks=2)
    expected = pdcompare.from_items(long, sample="sample", cluster="passage", task="task")
    got = pdcompare.from_items(
        dd.from_pandas(long, npartitions=4), sample="sample", cluster="passage", task="task"
    )
    got = got.loc[expected.index, expected.columns]
    assert_allclose(got.to_numpy(), expected.to_numpy())
    a, b = items_data(got), items_data(expected)
    assert_allclose(a.within_var, b.within_var)
    assert a.n_clusters == b.n_clusters
    numbers = ["mean_diff", "se", "pvalue", "n_clusters"]
    assert_allclose(got.cmp.ttest()[numbers].to_numpy(), expected.cmp.ttest()[numbers].to_numpy())


def test_text_scores_are_refused():
    long = pd.DataFrame({"model": ["a", "b"], "item": [1, 1], "score": ["C", "I"]})
    with pytest.raises(TypeError, match=r"`score`: column 'score' must hold numbers.*'C'"):
        pdcompare.from_items(long)


def test_missing_items_are_refused_naming_models_and_counts_or_omitted():
    long = eval_items_long(n_samples=1)
    short = long.drop(long.index[(long["model"] == "m1") & long["item"].isin(["q3", "q7"])])
    with pytest.raises(ValueError, match=r"'m1' lacks 2 of 40 items.*nan_policy='omit'"):
        pdcompare.from_items(short)
    with pytest.warns(PdcompareWarning, match="kept the 38 items every model has"):
        frame = pdcompare.from_items(short, nan_policy="omit")
    assert frame.shape == (3, 38)


def test_repeated_rows_without_sample_are_refused_naming_sample():
    long = eval_items_long(n_samples=2)
    with pytest.raises(ValueError, match=r"has 2 rows for item 'q0'.*pass `sample=`"):
        pdcompare.from_items(long)


def test_a_cluster_varying_within_an_item_is_refused():
    long = eval_items_long(n_samples=1)
    long.loc[0, "passage"] = "elsewhere"
    with pytest.raises(ValueError, match=r"`cluster`: column 'passage' varies within an item"):
        pdcompare.from_items(long, cluster="passage")
    numbered = eval_items_long(n_samples=1)
    numbered["passage"] = numbered["passage"].str[1:].astype(int)
    expected = pdcompare.from_items(eval_items_long(n_samples=1), cluster="passage")
    assert items_data(pdcompare.from_items(numbered, cluster="passage")).n_clusters == 8
    assert_allclose(
        pdcompare.from_items(numbered, cluster="passage").cmp.ttest()["se"],
        expected.cmp.ttest()["se"],
    )
    numbered.loc[3, "passage"] = 99
    with pytest.raises(ValueError, match=r"varies within an item: item 'q3'"):
        pdcompare.from_items(numbered, cluster="passage")


def test_a_single_cluster_and_a_single_item_are_refused():
    long = eval_items_long(n_samples=1).assign(passage="one")
    with pytest.raises(ValueError, match=r"every item is in one cluster \('one'\)"):
        pdcompare.from_items(long, cluster="passage")
    one = pd.DataFrame({"model": ["a", "b"], "item": ["q", "q"], "score": [1, 0]})
    with pytest.raises(ValueError, match="has 1 item: comparisons over items need at least 2"):
        pdcompare.from_items(one)


def test_unknown_columns_are_named():
    with pytest.raises(ValueError, match=r"`item`: the table has no column 'question'"):
        pdcompare.from_items(eval_items_long(), item="question")


def test_missing_cells_of_a_wide_frame_are_refused():
    wide = pd.DataFrame([[1.0, np.nan, 0.0], [1.0, 1.0, 0.0]], index=["a", "b"])
    with pytest.raises(ValueError, match=r"'a' lacks 1 of 3 items.*dropna"):
        wide.cmp.set_design(items=True)


def test_set_design_cluster_on_an_items_frame_keeps_its_samples():
    long = eval_items_long(n_models=3, n_samples=4)
    frame = pdcompare.from_items(long, sample="sample")
    clustered = frame.cmp.set_design(items=True, cluster=long.groupby("item")["passage"].first())
    expected = pdcompare.from_items(long, sample="sample", cluster="passage")
    data, reference = items_data(clustered), items_data(expected)
    assert data.n_clusters == 8
    # the per-cell counts and within-item variances of a group-by, kept
    variances = long.pivot_table(index="model", columns="item", values="score", aggfunc="var")
    assert_allclose(data.within_var, variances.loc[frame.index, frame.columns].to_numpy())
    assert np.all(data.samples == 4)
    columns = ["mean", "se", "samples_per_item", "within_item_share"]
    assert_allclose(
        clustered.cmp.summary()[columns].to_numpy(), expected.cmp.summary()[columns].to_numpy()
    )
    assert reference.n_clusters == 8
    # a selection of models and items keeps them aligned
    part = frame.loc[["m2", "m0"], frame.columns[::-2]].cmp.set_design(items=True)
    positions = frame.columns.get_indexer(part.columns)
    assert_allclose(
        items_data(part).within_var, items_data(frame).within_var[[2, 0]][:, positions]
    )


def test_set_design_refuses_to_drop_samples_that_no_longer_match():
    frame = pdcompare.from_items(eval_items_long(n_samples=2), sample="sample")
    renamed = frame.rename(columns=str.upper)
    with pytest.raises(ValueError, match=r"knows the samples of its items .*would drop them"):
        renamed.cmp.set_design(items=True)
    cleared = renamed.copy()
    cleared.attrs.clear()
    assert items_data(cleared.cmp.set_design(items=True)).samples is None


def test_a_missing_sample_score_is_refused_or_omitted_with_a_warning():
    long = eval_items_long(n_samples=3).astype({"score": float})
    long.loc[(long["model"] == "m1") & (long["item"] == "q4"), "score"] = np.nan
    long.loc[(long["model"] == "m2") & (long["item"] == "q9") & (long["sample"] == 0), "score"] = (
        np.nan
    )
    with pytest.raises(
        ValueError,
        match=r"4 rows have no score \(NaN in column 'score'; model 'm1', item 'q4' first\).*"
        r"nan_policy='omit'",
    ):
        pdcompare.from_items(long, sample="sample")
    with pytest.warns(PdcompareWarning) as caught:
        frame = pdcompare.from_items(long, sample="sample", nan_policy="omit")
    said = [str(w.message) for w in caught]
    assert any("4 rows have no score" in text and "'m1', item 'q4'" in text for text in said)
    assert any("kept the 39 items every model has" in text for text in said)  # q4 of m1
    # m2's q9 averages the two samples it has
    kept = long.dropna(subset=["score"])
    expected = kept[(kept["model"] == "m2") & (kept["item"] == "q9")]["score"]
    assert_allclose(frame.loc["m2", "q9"], expected.mean())
    assert items_data(frame).samples[2, list(frame.columns).index("q9")] == 2


def test_a_missing_sample_score_on_dask_as_on_pandas():
    dd = pytest.importorskip("dask.dataframe")
    long = eval_items_long(n_samples=2).astype({"score": float})
    long.loc[5, "score"] = np.nan
    row = long.loc[5]
    with pytest.raises(
        ValueError, match=rf"1 rows have no score .*model '{row['model']}', item '{row['item']}'"
    ):
        pdcompare.from_items(dd.from_pandas(long, npartitions=3), sample="sample")
    with pytest.warns(PdcompareWarning, match="1 rows have no score"):
        got = pdcompare.from_items(
            dd.from_pandas(long, npartitions=3), sample="sample", nan_policy="omit"
        )
    with pytest.warns(PdcompareWarning, match="1 rows have no score"):
        expected = pdcompare.from_items(long, sample="sample", nan_policy="omit")
    got = got.loc[expected.index, expected.columns]
    assert_allclose(got.to_numpy(), expected.to_numpy())


def test_within_item_share_is_within_over_within_plus_between():
    long = eval_items_long(n_models=3, n_samples=4)
    frame = pdcompare.from_items(long, sample="sample")
    share = frame.cmp.summary()["within_item_share"]
    # written out: within = mean item variance / K; between = var(item means) - within (>= 0)
    for model in frame.index:
        rows = long[long["model"] == model]
        variances = rows.groupby("item")["score"].var(ddof=1)
        means = rows.groupby("item")["score"].mean()
        within = variances.mean() / 4
        between = max(means.var(ddof=1) - within, 0.0)
        assert_allclose(share[model], within / (within + between))
    assert ((share >= 0) & (share <= 1)).all()


def test_within_item_share_stays_in_unit_interval_when_samples_vary_more_than_items():
    # every item has the same expected score: the item means vary only by sampling, and the
    # old ratio (within / var of item means) came out above 1 about half of the time
    rng = np.random.default_rng(3)
    shares = []
    for _ in range(20):
        rows = [
            {"model": m, "item": f"q{i}", "sample": s, "score": float(rng.random() < 0.5)}
            for m in ("a", "b")
            for i in range(30)
            for s in range(3)
        ]
        frame = pdcompare.from_items(pd.DataFrame(rows), sample="sample")
        shares.extend(frame.cmp.summary()["within_item_share"])
    shares = np.asarray(shares)
    assert ((shares >= 0) & (shares <= 1)).all()
    assert (shares == 1).any()


def _per_task(long, **keys):
    return {
        task: pdcompare.from_items(rows.drop(columns="task"), **keys)
        for task, rows in long.groupby("task", sort=True)
    }


def test_concat_items_equals_from_items_with_tasks():
    long = eval_items_long(n_models=3, n_samples=3, tasks=2)
    keys = {"sample": "sample", "cluster": "passage"}
    expected = pdcompare.from_items(long, task="task", **keys)
    parts = _per_task(long, **keys)
    # the second task's models in another order: rows follow the first frame
    parts["t1"] = parts["t1"].iloc[::-1]
    joined = pdcompare.concat_items(list(parts.values()), keys=list(parts))
    assert joined.columns.names == ["task", "item"]
    joined = joined.loc[expected.index, expected.columns]
    assert_allclose(joined.to_numpy(), expected.to_numpy())
    got, ref = items_data(joined), items_data(expected)
    assert got.n_clusters == ref.n_clusters == 8
    assert_allclose(got.within_var, ref.within_var)
    assert_allclose(got.samples, ref.samples)
    numbers = ["mean_diff", "se", "df", "pvalue", "n_clusters"]
    assert_allclose(joined.cmp.ttest()[numbers], expected.cmp.ttest()[numbers])
    by_task = joined.cmp.ttest(by="task")
    assert_allclose(by_task[numbers], expected.cmp.ttest(by="task")[numbers])
    # the mapping form names the tasks by its keys
    mapped = pdcompare.concat_items(parts)
    assert list(mapped.columns.get_level_values(0).unique()) == ["t0", "t1"]


def test_concat_items_keeps_clusters_within_their_task():
    # the same passage label in two tasks is two clusters; an unclustered task's items are
    # each their own cluster; a task without samples counts one per cell
    long = eval_items_long(n_models=2, n_samples=2, tasks=2)
    parts = _per_task(long, sample="sample", cluster="passage")
    plain = long[long["task"] == "t1"].pivot_table(
        index="model", columns="item", values="score", aggfunc="first", sort=False
    )
    plain = plain.astype(float).cmp.set_design(items=True)
    joined = pdcompare.concat_items([parts["t0"], plain], keys=["t0", "t1"])
    data = items_data(joined)
    assert data.n_clusters == 4 + 20
    assert data.clustered
    assert np.all(data.samples[:, 20:] == 1)
    assert np.all(np.isnan(data.within_var[:, 20:]))
    assert_allclose(data.within_var[:, :20], items_data(parts["t0"]).within_var)
    # the clustered standard error of each model's mean, written out (CR1 over 24 clusters)
    x = joined.to_numpy()
    for k in range(2):
        dev = x[k] - x[k].mean()
        sums = np.bincount(data.cluster, weights=dev)
        se = np.sqrt(24 / 23 * (sums**2).sum()) / x.shape[1]
        assert_allclose(joined.cmp.summary(se="cr1").loc[joined.index[k], "se"], se)


def test_concat_items_refusals():
    long = eval_items_long(n_models=3, n_samples=1, tasks=2)
    parts = _per_task(long)
    frames = list(parts.values())
    with pytest.raises(ValueError, match=r"`keys`: name the task of each frame"):
        pdcompare.concat_items(frames)
    with pytest.raises(ValueError, match="`keys` must name one task per frame: 2 frames, 1 keys"):
        pdcompare.concat_items(frames, keys=["t0"])
    with pytest.raises(ValueError, match="task 't0' is named twice"):
        pdcompare.concat_items(frames, keys=["t0", "t0"])
    with pytest.raises(ValueError, match=r"task 't1' has other models .*lacking \['m2'\]"):
        pdcompare.concat_items([frames[0], frames[1].iloc[:2]], keys=["t0", "t1"])
    plain = frames[1].copy()
    plain.attrs.clear()
    with pytest.raises(ValueError, match=r"task 't1': the frame is not an items frame"):
        pdcompare.concat_items([frames[0], plain], keys=["t0", "t1"])
    losses = frames[1].cmp.set_design(items=True, greater_is_better=False)
    with pytest.raises(ValueError, match=r"lower is better in task\(s\) \['t1'\]"):
        pdcompare.concat_items([frames[0], losses], keys=["t0", "t1"])
    tasked = pdcompare.from_items(long, task="task")
    with pytest.raises(ValueError, match="already has tasks"):
        pdcompare.concat_items([tasked], keys=["suite"])
    with pytest.raises(TypeError, match="`frames` must be a list of items frames"):
        pdcompare.concat_items(frames[0], keys=["t0"])

"""A single-data-set test run within every data set of a benchmark frame."""

from __future__ import annotations

import warnings
from typing import Any

import pandas as pd

from pdcompare._validation import check_option, warn
from pdcompare.compare.calls import frame_function
from pdcompare.compare.pairwise import pairwise
from pdcompare.compare.registry import BY_NAME, pairwise_tests
from pdcompare.inputs.attrs import pdcompare_attrs, with_attrs
from pdcompare.inputs.benchmark import DATASET
from pdcompare.inputs.frames import check_model_rows
from pdcompare.inputs.kinds import FrameKind, frame_kind

K = FrameKind

#: The tests of one data set that ``per_dataset`` runs (DESIGN section 4): those of ``pairwise``.
PER_DATASET_TESTS = pairwise_tests("scores")


@frame_function("per_dataset", (K.BENCHMARK,), correction_keyword="correction")
def per_dataset(
    scores: pd.DataFrame,
    test: str = "corrected_ttest",
    *,
    all_pairs: bool = False,
    **options: Any,
) -> pd.DataFrame:
    """Run a test of one data set within every data set of a benchmark frame.

    Each data set's fold scores (its ``split`` columns) form a scores frame
    with the benchmark's CV design, and ``test`` compares the models on it;
    the results are stacked with a leading ``dataset`` column. Any
    correction applies within each data set (its family is that data set's
    pairs).

    Parameters
    ----------
    scores : pandas.DataFrame
        A benchmark frame with ``(dataset, split)`` columns.
    test : str, default "corrected_ttest"
        "corrected_ttest", "ttest", "wilcoxon", "sign_test", "bayes",
        "ttest_5x2cv" or "ftest_5x2cv".
    all_pairs : bool, default False
        Compare every pair in each data set (``pairwise(test=...)``, the
        correction over that data set's pairs); otherwise the scope of
        ``a``/``b`` as for the test itself.
    **options
        Passed to the test: ``a``, ``b``, ``alternative``, ``correction``,
        ``alpha``, ``rope``, the design (``cv=``, ...) and so on.

    Returns
    -------
    pandas.DataFrame
        The test's result frame for every data set, one after the other,
        with a leading ``dataset`` column; ``attrs["pdcompare"]`` is the
        test's, with ``per_dataset=True`` and ``datasets``.

    See Also
    --------
    random_effects : one pooled difference per pair from the same folds.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from pdcompare.datasets import load_benchmark
    >>> bench = load_benchmark()
    >>> import warnings
    >>> with warnings.catch_warnings():  # on easy data sets some models tie on every fold
    ...     warnings.simplefilter("ignore")
    ...     res = bench.cmp.per_dataset("corrected_ttest", a="svc_rbf")
    >>> res[["dataset", "model_1", "model_2", "mean_diff", "reject"]].head(3)
      dataset  model_1      model_2  mean_diff  reject
    0    iris  svc_rbf          lda  -0.033333   False
    1    iris  svc_rbf     logistic  -0.006667   False
    2    iris  svc_rbf  naive_bayes  -0.006667   False

    The Weka-style tally of significant wins, ties and losses of svc_rbf
    against each model, over the data sets, is one ``crosstab``:

    >>> outcome = np.where(~res["reject"], "tie",
    ...                    np.where(res["mean_diff"] > 0, "win", "loss"))
    >>> tally = pd.crosstab(res["model_2"], outcome).reindex(
    ...     columns=["win", "tie", "loss"], fill_value=0)
    >>> tally.loc["tree"].to_dict()
    {'win': 6, 'tie': 16, 'loss': 0}
    """
    check_option("test", test, PER_DATASET_TESTS)
    check_model_rows(scores)  # data sets as rows: "pass `df.T`", not "needs a benchmark"
    if not frame_kind(scores).has_datasets or scores.columns.nlevels < 2:
        msg = (
            "`per_dataset` needs a benchmark frame with (dataset, split) columns: the fold "
            "scores of every data set (pdcompare.from_long(table, split=...), or "
            "pd.concat({name: scores, ...}, axis=1, names=['dataset', 'split']))."
        )
        raise ValueError(msg)
    function = BY_NAME[test].function
    if all_pairs:
        options = {**options, "test": test}
        function = pairwise
    meta = pdcompare_attrs(scores)
    datasets = pd.unique(scores.columns.get_level_values(0))
    parts = []
    said: dict[tuple[type, str], list[str]] = {}
    for dataset in datasets:
        sub = scores.xs(dataset, axis=1, level=0, drop_level=True).dropna(axis=1, how="all")
        sub = with_attrs(sub, {k: v for k, v in meta.items() if k == "design"})
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            parts.append(function(sub, **options))
        for warning in caught:
            said.setdefault((warning.category, str(warning.message)), []).append(str(dataset))
    for (category, message), where in said.items():
        shown = ", ".join(where[:10]) + (f" and {len(where) - 10} more" if len(where) > 10 else "")
        warn(f"On data set(s) {shown}: {message}", category)
    first = pdcompare_attrs(parts[0])
    out = pd.concat(parts, keys=list(datasets), names=[DATASET, None]).reset_index(level=0)
    out = out.reset_index(drop=True)
    first.update(per_dataset=True, datasets=[str(d) for d in datasets])
    return with_attrs(out, first)

"""A typical call: 20 models x 100 splits, ``summary``, ``corrected_ttest`` and ``bayes``.

At this size the statistics are microseconds; what a call costs is what
surrounds them (validation, the design, the pairs, the result frame). Each
call is compared with its floor: the numpy code for the same numbers plus
building the same result frame (``pd.DataFrame`` of the columns, model names
as categoricals over the model index). Times are interleaved minima of many
calls in one process.

Target (issue 16): every call within 2x of floor + frame.

Run: python benchmarks/bench_typical.py [--quick]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from _bench import bayes_frame, interleaved, make_scores, peak_mib, report, ttest_frame
from scipy import special

import pdcompare

N_MODELS, N_SPLITS = 20, 100
N_TRAIN, N_TEST = 90, 10
RATIO = N_TEST / N_TRAIN
ROPE = 0.01


def summary_floor(scores: pd.DataFrame) -> pd.DataFrame:
    """The numbers, and the result frame built already best first with its metadata."""
    values = scores.to_numpy(dtype=float)
    n = values.shape[1]
    mean = values.mean(axis=1)
    std = values.std(axis=1, ddof=1)
    half = special.stdtrit(n - 1, 0.975) * std * np.sqrt(1.0 / n + RATIO)
    order = np.argsort(-mean, kind="stable")
    rank = np.empty(mean.size, dtype=np.int64)
    rank[order] = np.arange(1, mean.size + 1)
    names = scores.index[order]
    frame = pd.DataFrame(
        {
            "mean": mean[order],
            "std": std[order],
            "n_splits": np.full(mean.size, n),
            "rank": rank[order],
            "ci_low": (mean - half)[order],
            "ci_high": (mean + half)[order],
        },
        index=names.rename("model"),
        copy=False,
    )
    frame.attrs["pdcompare"] = {
        "kind": "result",
        "test": "summary",
        "ci": 0.95,
        "interval": "nadeau-bengio",
        "design": dict(scores.attrs["pdcompare"]["design"]),
        "greater_is_better": True,
        "models": names.tolist(),
    }
    return frame


def _best_vs_rest(scores: pd.DataFrame):
    values = scores.to_numpy(dtype=float)
    n = values.shape[1]
    means = values.mean(axis=1)
    order = np.argsort(-means, kind="stable")
    i, j = np.full(order.size - 1, order[0]), order[1:]
    diff = values[i] - values[j]
    mean = diff.mean(axis=1)
    se = np.sqrt(diff.var(axis=1, ddof=1) * (1.0 / n + RATIO))
    return i, j, mean, se, n - 1


def ttest_floor(scores: pd.DataFrame) -> pd.DataFrame:
    return ttest_frame(*_best_vs_rest(scores), scores.index)


def bayes_floor(scores: pd.DataFrame) -> pd.DataFrame:
    return bayes_frame(*_best_vs_rest(scores), scores.index, ROPE)


def as_cv_results(scores: pd.DataFrame) -> pd.DataFrame:
    """The scores as ``pd.DataFrame(search.cv_results_)`` of a search over ``C`` lays them out."""
    n_models, n_splits = scores.shape
    C = np.logspace(-3, 3, n_models)
    columns = {
        "mean_fit_time": np.full(n_models, 0.1),
        "std_fit_time": np.full(n_models, 0.01),
        "param_C": np.ma.masked_array(C, mask=False, dtype=object),
        "params": [{"C": c} for c in C],
    }
    values = scores.to_numpy()
    columns.update({f"split{k}_test_score": values[:, k] for k in range(n_splits)})
    columns["mean_test_score"] = values.mean(axis=1)
    columns["std_test_score"] = values.std(axis=1)
    columns["rank_test_score"] = np.argsort(np.argsort(-values.mean(axis=1))) + 1
    return pd.DataFrame(columns)


def main() -> None:
    rounds = 100 if "--quick" in sys.argv[1:] else 400
    scores = make_scores(N_MODELS)
    cv_results = as_cv_results(scores)
    # The same call on both: the design given as keywords.
    converted = pdcompare.scores(cv_results)
    design = {"n_train": N_TRAIN, "n_test": N_TEST}
    cases = {
        "summary()": lambda: scores.cmp.summary(),
        "floor: summary": lambda: summary_floor(scores),
        "corrected_ttest()": lambda: scores.cmp.corrected_ttest(),
        "floor: corrected_ttest": lambda: ttest_floor(scores),
        "bayes(rope=0.01)": lambda: scores.cmp.bayes(rope=ROPE),
        "floor: bayes": lambda: bayes_floor(scores),
        # A test on a cv_results_ frame against the same test on its scores frame.
        "corrected_ttest() on cv_results_": lambda: cv_results.cmp.corrected_ttest(**design),
        "the same on its scores frame": lambda: converted.cmp.corrected_ttest(**design),
    }
    for function in cases.values():
        function()
    # The numbers agree with the floors.
    mine, floor = scores.cmp.corrected_ttest(), ttest_floor(scores)
    assert np.allclose(mine["pvalue_adj"], floor["pvalue_adj"], rtol=1e-9, atol=0)
    assert (mine["model_2"].astype(str) == floor["model_2"].astype(str)).all()
    mine, floor = scores.cmp.summary(), summary_floor(scores)
    assert np.allclose(mine[["mean", "ci_low", "ci_high"]], floor[["mean", "ci_low", "ci_high"]])
    from_cv = cv_results.cmp.corrected_ttest(**design)
    assert np.array_equal(from_cv["pvalue"], converted.cmp.corrected_ttest(**design)["pvalue"])
    best = interleaved(cases, rounds)
    peaks = {name: peak_mib(function) for name, function in cases.items()}
    names = list(cases)
    report(
        f"typical call, {N_MODELS} models x {N_SPLITS} splits (best against the rest; "
        "the last line: a cv_results_ frame against its scores frame)",
        best,
        peaks,
        [(names[k], names[k + 1]) for k in range(0, len(names), 2)],
    )
    print(f"  (per call, minimum over {rounds} interleaved rounds)")


if __name__ == "__main__":
    main()

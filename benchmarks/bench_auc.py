"""DeLong's test on every pair and the permutation test on predictions (issue 27).

**DeLong.** N rows x 50 models of continuous scores of a binary truth, every
pair (1,225) with ``pairwise(test="delong")``, against

* the floor: the 50 AUCs alone, one ``sklearn.metrics.roc_auc_score`` per
  model (no variance, no test) -- target: within 3x;
* a loop over the pairs of a per-pair O(n log n) DeLong, Sun & Xu's midrank
  algorithm for two models (as in ``yandexdataschool/roc_comparison``, with
  ``scipy.stats.rankdata`` for the midranks instead of a Python loop),
  written below -- target: pdcompare at least 100x faster. The loop is timed
  on a few pairs and scaled to all 1,225 (printed as such).

**Permutation test.** N rows x 20 models of binary predicted labels, the
best model against the rest (19 pairs), 9,999 resamples:

* ``permutation_test(score="accuracy")`` against
  ``scipy.stats.permutation_test(..., permutation_type="samples",
  vectorized=True)`` on one pair's 0/1 correctness (the cheapest statistic a
  scipy user can write: the difference of the means), timed at a few
  resamples and scaled to 9,999 resamples x 19 pairs -- target: at least 100x;
* ``score="f1_macro"`` (confusion counts) and ``score="roc_auc"`` (a score
  of the whole sample, on score columns; rows swapped pair by pair): the
  cost of one resample of one pair against one call of scikit-learn's
  metric on the same rows. For f1_macro the whole call at 9,999 resamples
  over resamples x pairs (fixed costs included, an upper bound: a resample
  costs too little to time alone); for roc_auc the slope between 4 and 104
  resamples of the pair alone (a frame of its two columns).

The number of distinct (truth, predictions) patterns of all models is
printed: the count scores' randomised resamples no longer depend on it
(each pair draws binomial swap counts of its own (truth, prediction 1,
prediction 2) triples), only the exact pairs and the scores on all rows do.

Run: python benchmarks/bench_auc.py [--quick] [--rows 1000000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from _bench import interleaved, report
from scipy import special, stats
from sklearn import metrics

import pdcompare  # noqa: F401  (registers DataFrame.cmp)

N_DELONG_MODELS = 50
N_LABEL_MODELS = 20


def make_scores(n_rows: int, n_models: int, seed: int = 0) -> pd.DataFrame:
    """A binary truth and ``n_models`` score columns, separations from 1.2 down to 0.4."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n_rows)
    columns = {"y": y}
    shared = rng.normal(size=n_rows)  # correlated models, as on one test set
    for k, separation in enumerate(np.linspace(1.2, 0.4, n_models)):
        noise = 0.6 * shared + 0.8 * rng.normal(size=n_rows)
        columns[f"m{k:02d}"] = separation * y + noise
    return pd.DataFrame(columns)


def make_labels(scores: pd.DataFrame) -> pd.DataFrame:
    """Predicted labels: each model's scores thresholded half-way between the classes."""
    y = scores["y"].to_numpy()
    columns = {"y": y}
    for name in scores.columns[1:]:
        values = scores[name].to_numpy()
        middle = (values[y == 1].mean() + values[y == 0].mean()) / 2.0
        columns[name] = (values > middle).astype(np.int64)
    return pd.DataFrame(columns)


# --- DeLong ---------------------------------------------------------------


def sklearn_aucs(frame: pd.DataFrame) -> np.ndarray:
    y = frame["y"].to_numpy()
    return np.array(
        [metrics.roc_auc_score(y, frame[name].to_numpy()) for name in frame.columns[1:]]
    )


def pair_delong(y: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[float, float, float]:
    """Sun & Xu's O(n log n) DeLong for two models: (auc_a - auc_b, z, two-sided p)."""
    positive = y == 1
    n_pos = int(positive.sum())
    n_neg = y.size - n_pos
    v10, v01, auc = [], [], []
    for scores in (a, b):
        pos, neg = scores[positive], scores[~positive]
        all_ranks = stats.rankdata(np.concatenate([pos, neg]))  # midranks
        pos_ranks, neg_ranks = stats.rankdata(pos), stats.rankdata(neg)
        v10.append((all_ranks[:n_pos] - pos_ranks) / n_neg)
        v01.append(1.0 - (all_ranks[n_pos:] - neg_ranks) / n_pos)
        auc.append((all_ranks[:n_pos].sum() - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))
    s10, s01 = np.cov(np.vstack(v10)), np.cov(np.vstack(v01))
    covariance = s10 / n_pos + s01 / n_neg
    diff = auc[0] - auc[1]
    z = diff / np.sqrt(covariance[0, 0] + covariance[1, 1] - 2.0 * covariance[0, 1])
    return diff, z, 2.0 * special.ndtr(-abs(z))


def run_delong(n_rows: int, n_loop_pairs: int, rounds: int) -> None:
    frame = make_scores(n_rows, N_DELONG_MODELS)
    y = frame["y"].to_numpy()
    names = list(frame.columns[1:])
    pairs = [(k, m) for k in range(len(names)) for m in range(k + 1, len(names))]
    chosen = pairs[:: len(pairs) // n_loop_pairs][:n_loop_pairs]
    columns = {name: frame[name].to_numpy() for name in names}

    def loop():
        return [pair_delong(y, columns[names[k]], columns[names[m]]) for k, m in chosen]

    cases = {
        f"delong(), {len(pairs):,} pairs": lambda: frame.cmp.pairwise(test="delong"),
        "floor: 50 x roc_auc_score": lambda: sklearn_aucs(frame),
        f"peer: pair loop, {len(chosen)} pairs": loop,
    }
    mine, floor, loop_name = cases
    out = cases[mine]()
    assert len(out) == len(pairs)
    found = {(row.model_1, row.model_2): row for row in out.itertuples()}
    aucs = sklearn_aucs(frame)
    assert np.allclose(out["auc_1"], aucs[[names.index(m) for m in out["model_1"]]], rtol=1e-12)
    for (k, m), (diff, z, p) in zip(chosen, loop(), strict=True):
        row = found.get((names[k], names[m]))
        if row is None:  # pdcompare puts the higher AUC first
            row, diff, z = found[names[m], names[k]], -diff, -z
        assert np.isclose(row.auc_diff, diff, rtol=1e-9, atol=1e-15)
        assert np.isclose(row.statistic, z, rtol=1e-7)
        assert np.isclose(row.pvalue, p, rtol=1e-6, atol=1e-300)
    best = interleaved(cases, rounds)
    scaled = f"peer: pair loop, scaled to {len(pairs):,} pairs"
    best[scaled] = best[loop_name] * len(pairs) / len(chosen)
    report(
        f"delong: {n_rows:,} rows x {N_DELONG_MODELS} models, every pair "
        f"({rounds} interleaved rounds, minimum)",
        best,
        {},
        [(mine, floor), (scaled, mine)],
    )
    print("  targets: delong / 50 AUCs <= 3x; loop / delong >= 100x")


# --- permutation test -------------------------------------------------------


def mean_difference(x, z, axis):
    return np.mean(x, axis=axis) - np.mean(z, axis=axis)


def scipy_pair(correct_1, correct_2, n_resamples):
    return stats.permutation_test(
        (correct_1, correct_2),
        mean_difference,
        permutation_type="samples",
        vectorized=True,
        n_resamples=n_resamples,
        random_state=0,
    )


def _slope(function, low: int, high: int, rounds: int) -> float:
    """Seconds per resample: the time at ``high`` resamples minus at ``low``, over the gap."""
    best = interleaved({"low": lambda: function(low), "high": lambda: function(high)}, rounds)
    return max(best["high"] - best["low"], 0.0) / (high - low)


def run_permutation(n_rows: int, n_resamples: int, scipy_resamples: int, rounds: int) -> None:
    scores = make_scores(n_rows, N_LABEL_MODELS, seed=1)
    labels = make_labels(scores)
    y = labels["y"].to_numpy()
    predictions = labels.drop(columns="y").to_numpy()
    from pdcompare.stats.bootstrap import label_patterns

    n_patterns = label_patterns(y, predictions)[1].size
    accuracy = (predictions == y[:, None]).mean(axis=0)
    order = np.argsort(-accuracy, kind="stable")
    correct_1 = (predictions[:, order[0]] == y).astype(float)
    correct_2 = (predictions[:, order[1]] == y).astype(float)
    n_pairs = N_LABEL_MODELS - 1

    def mine():
        return labels.cmp.permutation_test(
            score="accuracy", n_resamples=n_resamples, random_state=0
        )

    cases = {
        f"permutation_test(accuracy), {n_pairs} pairs": mine,
        f"scipy, 1 pair, {scipy_resamples} resamples": lambda: scipy_pair(
            correct_1, correct_2, scipy_resamples
        ),
    }
    out = mine()
    assert out["model_1"].iloc[0] == labels.columns[1 + order[0]]
    assert np.allclose(out["score_1"], accuracy[order[0]], rtol=1e-12)
    reference = scipy_pair(correct_1, correct_2, scipy_resamples)
    assert np.isclose(reference.statistic, out["mean_diff"].iloc[0], rtol=1e-12)
    assert not any(out.attrs["pdcompare"]["exact"])
    best = interleaved(cases, rounds)
    names = list(cases)
    scaled = f"scipy, scaled: {n_resamples:,} x {n_pairs} pairs"
    best[scaled] = best[names[1]] * n_resamples / scipy_resamples * n_pairs
    report(
        f"permutation_test: {n_rows:,} rows x {N_LABEL_MODELS} models (binary labels, "
        f"{n_patterns:,} distinct patterns), best against the rest, {n_resamples:,} resamples",
        best,
        {},
        [(scaled, names[0])],
    )
    print("  target: scipy (scaled) / pdcompare >= 100x")

    # Scores of the whole sample: the cost of one resample of one pair.
    first, second = labels.columns[1 + order[0]], labels.columns[1 + order[1]]
    proba = scores.assign(**{n: special.expit(scores[n]) for n in scores.columns[1:]})
    y_pred = labels[first].to_numpy()
    y_score = proba[first].to_numpy()
    sk = interleaved(
        {
            "f1": lambda: metrics.f1_score(y, y_pred, average="macro"),
            "auc": lambda: metrics.roc_auc_score(y, y_score),
        },
        rounds + 2,
    )
    f1_call = interleaved(
        {
            "f1": lambda: labels.cmp.permutation_test(
                score="f1_macro", n_resamples=n_resamples, random_state=0
            )
        },
        rounds,
    )["f1"]
    f1_all = f1_call / n_resamples  # fixed costs included: an upper bound
    two = proba[["y", first, second]]  # the pair alone: no other model's AUC in the fixed cost
    auc_pair = _slope(
        lambda r: two.cmp.permutation_test(
            first, second, score="roc_auc", n_resamples=r, random_state=0
        ),
        4,
        104,
        rounds + 1,
    )
    print(f"\n  per resample of one pair, {n_rows:,} rows:")
    print(
        f"  f1_macro: the whole call ({f1_call:.2f} s, {n_resamples:,} resamples x {n_pairs} "
        f"pairs) / (resamples x pairs) = {f1_all / n_pairs * 1e3:.4f} ms vs sklearn "
        f"f1_score(average='macro') {sk['f1'] * 1e3:.2f} ms: {f1_all / n_pairs / sk['f1']:.5f}x"
    )
    print(
        f"  roc_auc (rows swapped, one pair): {auc_pair * 1e3:.1f} ms vs "
        f"sklearn roc_auc_score {sk['auc'] * 1e3:.1f} ms: {auc_pair / sk['auc']:.2f}x "
        "(a resample scores both swapped columns)"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="N = 1e5")
    parser.add_argument("--rows", type=float, default=None)
    args = parser.parse_args()
    start = time.perf_counter()
    if args.quick:
        n_rows = int(args.rows or 100_000)
        run_delong(n_rows, n_loop_pairs=5, rounds=2)
        run_permutation(n_rows, n_resamples=9999, scipy_resamples=9, rounds=1)
    else:
        n_rows = int(args.rows or 1_000_000)
        run_delong(n_rows, n_loop_pairs=5, rounds=2)
        run_permutation(n_rows, n_resamples=9999, scipy_resamples=19, rounds=1)
    print(f"\n  (whole run {time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()

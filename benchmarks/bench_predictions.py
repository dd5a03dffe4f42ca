"""Tests on a predictions frame: ``mcnemar``, ``cochrans_q`` and ``proportions_ztest``.

N test samples x 20 models, integer labels (3 classes), the best model against
the rest (19 pairs). The floor is the shortest numpy code for the same
numbers: predictions compared with the truth as integers once, the 19 pair
counts of the best model from one pass over the correctness matrix, the
p-values, Holm and the frame. The peer, for McNemar, is a loop of mlxtend's
``mcnemar_table`` and ``mcnemar`` over the 19 pairs (when mlxtend is installed).

Target (issue 16): each test within 2.5x of its numpy floor at N = 1e6.

Run: python benchmarks/bench_predictions.py [--quick] [--rows 1000000]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from _bench import holm, interleaved, peak_mib, report
from scipy import special, stats

import pdcompare  # noqa: F401  (registers DataFrame.cmp)

N_MODELS = 20


def make_predictions(n_rows: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n_rows)
    columns = {"y": y}
    for k, accuracy in enumerate(np.linspace(0.9, 0.7, N_MODELS)):
        wrong = rng.integers(0, 3, n_rows)
        columns[f"m{k:02d}"] = np.where(rng.random(n_rows) < accuracy, y, wrong)
    return pd.DataFrame(columns)


def _correct(frame: pd.DataFrame):
    y = frame["y"].to_numpy()
    predictions = frame.drop(columns="y").to_numpy()
    return predictions == y[:, None]


def _best_vs_rest(frame: pd.DataFrame):
    correct = _correct(frame)
    right = np.count_nonzero(correct, axis=0)
    order = np.argsort(-right, kind="stable")
    best, others = order[0], order[1:]
    both = np.count_nonzero(correct[:, [best]] & correct[:, others], axis=0)
    names = frame.columns[1:]
    frame_names = {
        "model_1": pd.Categorical.from_codes(np.full(others.size, best), categories=names),
        "model_2": pd.Categorical.from_codes(others, categories=names),
    }
    return right, best, others, both, len(correct), frame_names


def mcnemar_floor(frame: pd.DataFrame) -> pd.DataFrame:
    right, best, others, both, _, names = _best_vs_rest(frame)
    b = right[best] - both
    c = right[others] - both
    total = b + c
    exact = total < 25
    smaller = np.minimum(b, c)
    chi_square = (np.abs(b - c) - 1.0) ** 2 / np.maximum(total, 1)
    pvalue = np.where(
        exact,
        np.minimum(2.0 * special.bdtr(smaller, total, 0.5), 1.0),
        special.chdtrc(1.0, chi_square),
    )
    adjusted = holm(pvalue)
    return pd.DataFrame(
        {
            **names,
            "only_1_correct": b,
            "only_2_correct": c,
            "statistic": np.where(exact, smaller, chi_square),
            "pvalue": pvalue,
            "pvalue_adj": adjusted,
            "reject": adjusted <= 0.05,
        }
    )


def ztest_floor(frame: pd.DataFrame) -> pd.DataFrame:
    right, best, others, _, n, names = _best_vs_rest(frame)
    accuracy_1, accuracy_2 = right[best] / n, right[others] / n
    pooled = (accuracy_1 + accuracy_2) / 2.0
    statistic = (accuracy_1 - accuracy_2) / np.sqrt(pooled * (1.0 - pooled) * 2.0 / n)
    pvalue = np.minimum(2.0 * special.ndtr(-np.abs(statistic)), 1.0)
    adjusted = holm(pvalue)
    return pd.DataFrame(
        {
            **names,
            "accuracy_1": np.full(others.size, accuracy_1),
            "accuracy_2": accuracy_2,
            "statistic": statistic,
            "pvalue": pvalue,
            "pvalue_adj": adjusted,
            "reject": adjusted <= 0.05,
        }
    )


def cochran_floor(frame: pd.DataFrame) -> pd.DataFrame:
    correct = _correct(frame)
    k = correct.shape[1]
    per_model = np.count_nonzero(correct, axis=0).astype(float)
    per_sample = np.count_nonzero(correct, axis=1).astype(float)
    total = per_model.sum()
    numerator = (k - 1) * (k * np.sum(per_model**2) - total**2)
    statistic = numerator / (k * total - per_sample @ per_sample)
    return pd.DataFrame(
        {
            "n_models": [k],
            "statistic": [statistic],
            "df": [k - 1],
            "pvalue": [special.chdtrc(k - 1, statistic)],
        }
    )


def mlxtend_loop(frame: pd.DataFrame):
    from mlxtend.evaluate import mcnemar, mcnemar_table

    y = frame["y"].to_numpy()
    names = list(frame.columns[1:])
    accuracy = [(frame[name].to_numpy() == y).mean() for name in names]
    best = names[int(np.argmax(accuracy))]
    return [
        mcnemar(mcnemar_table(y, frame[best].to_numpy(), frame[other].to_numpy()))
        for other in names
        if other != best
    ]


def run(n_rows: int) -> None:
    frame = make_predictions(n_rows)
    cases = {
        "mcnemar()": lambda: frame.cmp.mcnemar(),
        "floor: mcnemar": lambda: mcnemar_floor(frame),
        "cochrans_q()": lambda: frame.cmp.cochrans_q(),
        "floor: cochrans_q": lambda: cochran_floor(frame),
        "proportions_ztest()": lambda: frame.cmp.proportions_ztest(),
        "floor: proportions_ztest": lambda: ztest_floor(frame),
    }
    try:
        import mlxtend  # noqa: F401

        cases["peer: mlxtend mcnemar_table loop"] = lambda: mlxtend_loop(frame)
    except ImportError:
        pass
    for function in cases.values():
        function()
    mine, floor = frame.cmp.mcnemar(), mcnemar_floor(frame)
    assert (mine["only_1_correct"].to_numpy() == floor["only_1_correct"].to_numpy()).all()
    assert np.allclose(mine["pvalue"], floor["pvalue"], rtol=1e-9, atol=1e-300)
    mine, floor = frame.cmp.cochrans_q(), cochran_floor(frame)
    assert np.isclose(mine["statistic"].iloc[0], floor["statistic"].iloc[0], rtol=1e-12)
    mine, floor = frame.cmp.proportions_ztest(), ztest_floor(frame)
    assert np.allclose(mine["statistic"], floor["statistic"], rtol=1e-9)
    assert stats  # scipy.stats loaded up front: its import is not timed
    best = interleaved(cases, 5 if n_rows <= 200_000 else 3)
    peaks = {name: peak_mib(function) for name, function in cases.items()}
    names = list(cases)
    pairs = [(names[k], names[k + 1]) for k in range(0, 6, 2)]
    if len(names) > 6:
        pairs.append((names[0], names[6]))
    data = frame.memory_usage(index=False).sum() / 2**20
    report(
        f"predictions, {n_rows:,} rows x {N_MODELS} models (int labels, "
        f"{data:.0f} MiB), best against the rest",
        best,
        peaks,
        pairs,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="N = 2e5")
    parser.add_argument("--rows", type=float, nargs="*")
    args = parser.parse_args()
    sizes = [int(n) for n in args.rows] if args.rows else [200_000 if args.quick else 1_000_000]
    for n_rows in sizes:
        run(n_rows)


if __name__ == "__main__":
    main()

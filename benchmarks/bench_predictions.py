"""Tests on a predictions frame: ``mcnemar``, ``cochrans_q`` and ``proportions_ztest``.

N test samples x 20 models, integer labels (3 classes), the best model against
the rest (19 pairs). The floor is the shortest numpy code for the same
numbers: predictions compared with the truth as integers once, the 19 pair
counts of the best model from one pass over the correctness matrix, the
p-values, Holm and the frame. The peer, for McNemar, is a loop of mlxtend's
``mcnemar_table`` and ``mcnemar`` over the 19 pairs (when mlxtend is installed).

Target (issue 16): each test within 2.5x of its numpy floor at N = 1e6.

First call (issue 32): ``mcnemar()`` on a fresh frame each time (a copy of the
columns made before the call, untimed), so nothing a previous call touched
helps, against the floor on its own fresh frame, in turn; at 1e7 rows x 20
models (2e6 with ``--quick``). Target: within 2x of the floor. Peak memory of
each, in a fresh child process: its peak RSS (``VmHWM``, reset just before
the call) above the RSS before it, the frame being in memory already.

Measured at 1e7 x 20 (1602 MiB frame, one label column 76 MiB; 2 cores shared
with other jobs). Before (issue 32), with two n x m boolean matrices: 0.835 s,
2.73x the floor, peak 506 MiB (floor 553 MiB). Now the correctness is packed
into bits one label column at a time and the column is not copied: 0.31-0.33 s,
0.82x and 1.01x the floor in two runs, peak 72 MiB (floor 553 MiB): below one
column. (Packing alone, the column still copied per block: 1.36x, 148 MiB.)

Run: python benchmarks/bench_predictions.py [--quick] [--rows 1000000] [--first-call 10000000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

import numpy as np
import pandas as pd
from _bench import holm, interleaved, peak_mib, peak_rss_mib, report
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
    """Each model's column compared with the truth, straight into one boolean matrix.

    Column by column: stacking the label columns first (``to_numpy()`` of the
    frame) would copy all of them, 1.6 GB at 1e7 rows x 20 models.
    """
    y = frame["y"].to_numpy()
    models = frame.columns.drop("y")
    correct = np.empty((len(frame), len(models)), dtype=bool, order="F")
    for k, name in enumerate(models):
        np.equal(frame[name].to_numpy(), y, out=correct[:, k])
    return correct


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


def fresh(frame: pd.DataFrame) -> pd.DataFrame:
    """A new frame of new copies of the columns (nothing shared with an earlier call)."""
    return pd.DataFrame({name: frame[name].to_numpy().copy() for name in frame.columns})


def first_call(n_rows: int, rounds: int = 3) -> None:
    frame = make_predictions(n_rows)
    mine, floor = frame.cmp.mcnemar(), mcnemar_floor(frame)
    assert (mine["only_1_correct"].to_numpy() == floor["only_1_correct"].to_numpy()).all()
    assert np.allclose(mine["pvalue"], floor["pvalue"], rtol=1e-9, atol=1e-300)
    del mine, floor
    calls = {"mcnemar()": lambda f: f.cmp.mcnemar(), "floor: mcnemar": mcnemar_floor}
    best = dict.fromkeys(calls, np.inf)
    for _ in range(rounds):
        for name, call in calls.items():
            copy = fresh(frame)
            start = time.perf_counter()
            call(copy)
            best[name] = min(best[name], time.perf_counter() - start)
            del copy
    data = frame.memory_usage(index=False).sum() / 2**20
    column = frame["m00"].memory_usage(index=False) / 2**20
    del frame
    print(
        f"\nfirst call: mcnemar, {n_rows:,} rows x {N_MODELS} models ({data:.0f} MiB of int64 "
        f"labels, {column:.0f} MiB a column), a fresh frame each call; peak RSS above the "
        f"frame (fresh process)"
    )
    print(f"  {'':28}{'time s':>10}{'peak MiB':>10}")
    for which, name in (("pdcompare", "mcnemar()"), ("floor", "floor: mcnemar")):
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(n_rows), which],
            check=True,
            capture_output=True,
            text=True,
        )
        peak = json.loads(out.stdout.strip().splitlines()[-1])["peak"]
        print(f"  {name:28}{best[name]:10.3f}{peak:10.0f}")
    ratio = best["mcnemar()"] / best["floor: mcnemar"]
    print(f"  mcnemar() / floor, first call: {ratio:.2f}x (min over {rounds} interleaved rounds)")


def memory_child(n_rows: int, which: str) -> None:
    """In a fresh process: peak RSS of one first call above the RSS before it (MiB)."""
    import resource

    warm = make_predictions(1000, seed=1)  # imports and first-use costs outside the figure
    warm.cmp.mcnemar()
    mcnemar_floor(warm)
    frame = make_predictions(n_rows)
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")  # reset VmHWM: the frame's construction is not the call's peak
    with open("/proc/self/statm") as statm:
        rss_before = int(statm.read().split()[1]) * resource.getpagesize() / 2**20
    if which == "pdcompare":
        frame.cmp.mcnemar()
    else:
        mcnemar_floor(frame)
    print(json.dumps({"peak": peak_rss_mib() - rss_before}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="N = 2e5; first call at 2e6")
    parser.add_argument("--rows", type=float, nargs="*")
    parser.add_argument("--first-call", type=float, nargs="*")
    parser.add_argument("--child", nargs=2)
    args = parser.parse_args()
    if args.child:
        memory_child(int(args.child[0]), args.child[1])
        return
    sizes = [int(n) for n in args.rows] if args.rows else [200_000 if args.quick else 1_000_000]
    for n_rows in sizes:
        run(n_rows)
    first = args.first_call or [2_000_000 if args.quick else 10_000_000]
    for n_rows in first:
        first_call(int(n_rows))


if __name__ == "__main__":
    main()

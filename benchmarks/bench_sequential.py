"""Watching an evaluation: ``sequential`` on all pairs with a look after every item; Monitor.

Two measurements, each against a floor in the same process (interleaved minima,
``_bench.py``):

1. ``sequential`` on all pairs of 100 models x 10,000 binary items (4,950 pairs,
   a look after every item, the normal mixture), against a numpy floor of the
   arithmetic no reading can skip: for every pair the running sums of the
   differences and of their squares, in the same chunks of pairs. Target
   (DESIGN section 30): under 2 s.
2. ``Monitor.update`` of 1,000 long rows (100 items) for 10 models (45 pairs),
   the monitor having read 5,000 items before. Target: within 5 ms.

Measured on the shared two-core machine (loaded): ``sequential`` 1.80 s
against a floor of 1.30 s (1.38x: the decisions cost little beyond the sums,
by the test ``s1² > g(t) s2`` with no interval at every look; the path kept
for ``trajectory`` is about 20,000 points); ``Monitor.update`` 3.6 ms (median
of 20 updates).

Run: python benchmarks/bench_sequential.py [--quick]
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from _bench import interleaved, report

import pdcompare


def items_frame(n_models: int, n_items: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    ability = rng.uniform(0.5, 0.8, (n_models, 1))
    values = (rng.random((n_models, n_items)) < ability).astype(float)
    return pd.DataFrame(values, index=[f"m{k}" for k in range(n_models)]).cmp.set_design(
        items=True
    )


def floor(values: np.ndarray, chunk: int = 1 << 19) -> None:
    """The running sums of every pair's differences and squared differences, by chunks."""
    i, j = np.triu_indices(len(values), k=1)
    step = max(1, chunk // values.shape[1])
    for start in range(0, len(i), step):
        d = values[i[start : start + step]] - values[j[start : start + step]]
        np.cumsum(d, axis=1)
        np.cumsum(d * d, axis=1)


def long_rows(n_models: int, n_items: int, seed: int = 1) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "model": np.tile([f"m{k}" for k in range(n_models)], n_items),
            "item": np.repeat(np.arange(n_items), n_models),
            "score": (rng.random(n_models * n_items) < 0.7).astype(float),
        }
    )


def monitor_update(rounds: int) -> dict[str, float]:
    """The median time of an update of 1,000 rows after 5,000 items read.

    Each update is a frame of its own, as a harness sends it (a slice of one
    large Arrow-backed frame would convert the whole column on every read).
    """
    monitor = pdcompare.Monitor(planned_n=10_000)
    monitor.update(long_rows(10, 5000))
    times = []
    for k in range(rounds):
        chunk = long_rows(10, 100, seed=k + 2)
        chunk["item"] += 5000 + 100 * k
        times.append(
            interleaved({"update": lambda chunk=chunk: monitor.update(chunk)}, 1)["update"]
        )
    return {"Monitor.update, 1,000 rows, 10 models": float(np.median(times))}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20 models x 2,000 items")
    args = parser.parse_args(argv)
    m, n = (20, 2000) if args.quick else (100, 10_000)
    frame = items_frame(m, n)
    values = frame.to_numpy()
    best = interleaved(
        {
            f"sequential, {m} models x {n} items": lambda: pdcompare.sequential(frame),
            "numpy floor (running sums of all pairs)": lambda: floor(values),
        },
        rounds=1 if args.quick else 3,
    )
    names = list(best)
    report("sequential: all pairs, a look after every item", best, {}, [(names[0], names[1])])
    report("Monitor", monitor_update(5 if args.quick else 20), {}, [])


if __name__ == "__main__":
    main()

"""Print rliable's values on the seeded frames of tests/stats/test_aggregates.py.

Run with a Python where rliable imports (it pins arch < 8 and pandas < 3):
``python3 -m venv /tmp/rl && /tmp/rl/bin/pip install rliable "pandas<3" "arch<8"``,
then ``/tmp/rl/bin/python scripts/rliable_references.py``. The tests paste these
numbers, so they run where rliable does not.
"""

import numpy as np
from rliable import library, metrics


def score_dict():
    """Three algorithms with 3, 4 and 5 runs on 6 tasks (runs x tasks), from random()."""
    rng = np.random.default_rng(20211201)
    return {name: rng.random((runs, 6)) * 1.4 for name, runs in (("a", 3), ("b", 4), ("c", 5))}


def main():
    np.set_printoptions(precision=17)
    scores = score_dict()
    for name, x in scores.items():
        values = [
            metrics.aggregate_mean(x),
            metrics.aggregate_median(x),
            metrics.aggregate_iqm(x),
            metrics.aggregate_optimality_gap(x, 1.0),
        ]
        print(name, [float(v) for v in values])
    for first, second in (("a", "b"), ("a", "c"), ("b", "c")):
        value = metrics.probability_of_improvement(scores[first], scores[second])
        print(first, second, repr(float(value)))
    taus = np.linspace(0.0, 1.4, 8)
    profiles, _ = library.create_performance_profile(scores, taus, reps=10)
    for name, profile in profiles.items():
        print(name, profile.tolist())

    def func(x):
        return np.array(
            [
                metrics.aggregate_mean(x),
                metrics.aggregate_median(x),
                metrics.aggregate_iqm(x),
                metrics.aggregate_optimality_gap(x, 1.0),
            ]
        )

    _, intervals = library.get_interval_estimates(scores, func, reps=50000)
    for name, interval in intervals.items():
        print(name, interval.tolist())
    pairs = {"a,b": (scores["a"], scores["b"]), "a,c": (scores["a"], scores["c"])}
    _, intervals = library.get_interval_estimates(
        pairs, metrics.probability_of_improvement, reps=20000
    )
    for name, interval in intervals.items():
        print(name, interval.tolist())


if __name__ == "__main__":
    main()

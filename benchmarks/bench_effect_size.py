"""Effect sizes and equivalence on all pairs: pdcompare against numpy floors and autorank loops.

Two sizes (DESIGN section 13, issue "How large, and whether equal"):

* all pairs of 300 models across 200 data sets (44,850 pairs), every measure:
  ``pdcompare.effect_size`` on the benchmark frame (result frame included)
  against a vectorised numpy floor written here, and against a loop of
  autorank's ``_cohen_d``, ``_akinshin_gamma`` and ``_cliffs_delta`` over the
  pairs (timed on a random sample of pairs and scaled to all, marked "*");
  targets: the core within 2x of the floor, the frame call at least 100x
  faster than the loop;
* all pairs of 1,000 models over 100 splits (499,500 pairs): ``equivalence``
  against ``corrected_ttest`` on the same frame; target within 1.25x.

The floors are the shortest numpy that computes the same numbers (the mean
difference, the effect size and its magnitude code) without the result
frame, and are compared with pdcompare's core
(``stats.effect_size.effect_sizes``; the frame call adds the validation, the
benchmark's mean ranks that order the pairs best first, and the result
frame): the paired differences' mean over their standard deviation for d_z,
per-model moments or medians gathered per pair for d and gamma, for Cliff's
delta the rank sum of each pair's two rows sorted together (the Mann–Whitney
route; values are continuous, so without ties), and the share of positive
differences for the probability of superiority.

Measured (2 cores shared with other jobs, so +-30%): the core against its
floor d_z 0.1x, d 2.6x (1.3 ms against 0.5 ms), gamma 1.4x, delta 0.7x,
A 1.1x, PS 1.4x; the frame call against autorank's loop 181x (d), 2,058x
(gamma), 360x (delta); equivalence at 1,000 models 0.62x corrected_ttest.

Run: python benchmarks/bench_effect_size.py [--quick]
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
from _bench import interleaved, make_scores, report
from autorank._util import _akinshin_gamma, _cliffs_delta, _cohen_d

import pdcompare  # noqa: F401 - registers DataFrame.cmp
from pdcompare.stats._moments import chunks
from pdcompare.stats.effect_size import MEASURES, THRESHOLDS
from pdcompare.stats.effect_size import effect_sizes as core

QUICK = "--quick" in sys.argv


def _benchmark_frame(n_models: int, n_datasets: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    level = rng.normal(0.85, 0.02, size=(n_models, 1))
    values = level + rng.normal(0.0, 0.05, size=(1, n_datasets))
    values = values + rng.normal(0.0, 0.02, size=(n_models, n_datasets))
    columns = pd.Index([f"d{k:03d}" for k in range(n_datasets)], name="dataset")
    return pd.DataFrame(values, index=[f"m{k:03d}" for k in range(n_models)], columns=columns)


def _floor(values: np.ndarray, i: np.ndarray, j: np.ndarray, measure: str) -> np.ndarray:
    """The least numpy that computes what the core returns: mean_diff, effect, magnitude."""
    means = values.mean(axis=1)
    mean_diff = means[i] - means[j]
    effect = _floor_effect(values, i, j, measure)
    centre = 0.5 if measure in ("vargha_delaney", "prob_superiority") else 0.0
    magnitude = np.searchsorted(THRESHOLDS[measure], np.abs(effect - centre), side="right")
    return mean_diff, effect, magnitude


def _floor_effect(values: np.ndarray, i: np.ndarray, j: np.ndarray, measure: str) -> np.ndarray:
    """The least numpy that computes one measure for every pair."""
    n = values.shape[1]
    if measure == "cohen_d":
        mean, var = values.mean(axis=1), values.var(axis=1, ddof=1)
        return (mean[i] - mean[j]) / np.sqrt((var[i] + var[j]) / 2)
    if measure == "akinshin_gamma":
        median = np.median(values, axis=1)
        mad = 1.4826 * np.median(np.abs(values - median[:, None]), axis=1)
        return (median[i] - median[j]) / np.sqrt((mad[i] ** 2 + mad[j] ** 2) / 2)
    out = np.empty(i.size)
    for part in chunks(i.size, 2 * n):
        if measure in ("cohen_dz", "prob_superiority"):
            d = values[i[part]] - values[j[part]]
            if measure == "cohen_dz":
                out[part] = d.mean(axis=1) / d.std(axis=1, ddof=1)
            else:
                out[part] = (d > 0).mean(axis=1)
        else:  # cliff_delta: rank sum of x in x and y sorted together (no ties)
            both = np.concatenate([values[i[part]], values[j[part]]], axis=1)
            order = np.argsort(both, axis=1)
            ranks = np.empty_like(order)
            np.put_along_axis(ranks, order, np.arange(1, 2 * n + 1)[None, :], axis=1)
            u = ranks[:, :n].sum(axis=1) - n * (n + 1) / 2
            out[part] = 2 * u / (n * n) - 1
    if measure == "vargha_delaney":
        return (out + 1) / 2
    return out


def effect_sizes(n_models: int, n_datasets: int, rounds: int) -> None:
    frame = _benchmark_frame(n_models, n_datasets)
    values = frame.to_numpy()
    pairs = frame.cmp.pairwise(test="effect_size")  # best first by mean rank, as pdcompare
    i = frame.index.get_indexer(pairs["model_1"].astype(str))
    j = frame.index.get_indexer(pairs["model_2"].astype(str))
    rng = np.random.default_rng(1)
    sample = rng.choice(i.size, size=min(i.size, 300), replace=False)
    loops = {"cohen_d": _cohen_d, "akinshin_gamma": _akinshin_gamma, "cliff_delta": _cliffs_delta}
    for measure in MEASURES:
        got = frame.cmp.pairwise(test="effect_size", measure=measure)
        floor = _floor(values, i, j, measure)[1]
        assert np.allclose(got["effect_size"].to_numpy(), floor, rtol=1e-9, atol=1e-12), measure
        cases = {
            f"pdcompare core {measure}": lambda m=measure: core(values, i, j, measure=m),
            f"floor {measure}": lambda m=measure: _floor(values, i, j, m),
            f"pdcompare {measure}": lambda m=measure: frame.cmp.pairwise(
                test="effect_size", measure=m
            ),
        }
        if measure in loops:
            reference = loops[measure]
            expected = [
                reference(values[a], values[b]) for a, b in zip(i[sample], j[sample], strict=True)
            ]
            assert np.allclose(got["effect_size"].to_numpy()[sample], expected), measure

            def loop(reference=reference):
                for a, b in zip(i[sample], j[sample], strict=True):
                    reference(values[a], values[b])

            cases[f"autorank loop {measure} *"] = loop
        best = interleaved(cases, rounds)
        name = f"autorank loop {measure} *"
        if name in best:
            best[name] *= i.size / sample.size
        pairs = [(f"pdcompare core {measure}", f"floor {measure}")]
        if name in best:
            pairs.append((name, f"pdcompare {measure}"))
        report(
            f"{measure}: {n_models} models x {n_datasets} data sets, all pairs", best, {}, pairs
        )


def equivalence(n_models: int, n_splits: int, rounds: int) -> None:
    scores = make_scores(n_models, n_splits)
    cases = {
        "equivalence": lambda: scores.cmp.pairwise(test="equivalence", rope=0.01),
        "corrected_ttest": lambda: scores.cmp.pairwise(test="corrected_ttest"),
    }
    best = interleaved(cases, rounds)
    report(
        f"equivalence: {n_models} models x {n_splits} splits, all pairs",
        best,
        {},
        [("equivalence", "corrected_ttest")],
    )


if __name__ == "__main__":
    if QUICK:
        effect_sizes(60, 50, rounds=3)
        equivalence(200, 100, rounds=3)
    else:
        effect_sizes(300, 200, rounds=5)
        equivalence(1000, 100, rounds=3)

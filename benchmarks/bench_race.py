"""`RaceSearchCV` against `GridSearchCV` on a real grid: fits, wall time, the best found.

A decision-tree grid on scikit-learn's bundled digits (1,797 images, 10
classes): ``max_depth`` in 1, 2, 3, 4, 6, 8, 12, None times
``min_samples_leaf`` in 1, 5, 20 (24 candidates, the shallow trees clear
losers), over stratified 10-fold CV (shuffled, seeded). ``GridSearchCV`` fits
every candidate on every split; the race (``alpha=0.05, min_splits=5``)
drops a candidate once the corrected t-test, counted for the choice of the
best and spent over the looks, finds it worse. Both in the same process,
taking turns, one job each; the refit on the whole data is not counted.

Reported: the fits of each (the race's as a share of the grid's: target
at most 60 %), the wall time of each (minimum over the repeats), and
whether the race ends with the grid's best candidate or, if not, with one the
corrected t-test on the grid's scores cannot tell from it (two-sided, 5 %).
``--quick`` uses a random half of the images (seeded) and one repeat.

Two CV designs: stratified 10-fold, and the same repeated twice (20 splits).
The first look comes after five splits, so a candidate dropped at once
costs half of its fits with 10 splits and a quarter with 20.

Measured (a loaded machine, full size):

* 10 splits: the race fits 181 of the grid's 240 (75 %, above the 60 %
  target), in 2.18 s against 2.57 s, and ends with the grid's best
  (``max_depth=None, min_samples_leaf=1``). The 15 dropped are the trees of
  depth 1 to 6; the nine left are within 6 points of the best, which ten
  splits of 180 images cannot tell apart at the race's level.
* 20 splits: 266 of 480 fits (55 %), 3.68 s against 5.05 s, the same best;
  18 candidates dropped (12 at splits 5–6, the last at split 17).

Replayed on the grid's scores, the rule without the factor for the choice of
the best (which does not hold its level: ``validity_race.py``) would fit 171
of 240 (71 %) at 10 splits: the close candidates, not the factor, keep that
race above 60 %.

With spending (``--quick``: half the images, one repeat): Pocock-type (the
default) fits 179 of 240 at 10 splits (75 %) and 279 of 480 at 20 splits
(58 %, within the 60 % target); Bonferroni's equal shares 183 of 240 (76 %)
and 303 of 480 (63 %); both end with the grid's best.

Run: python benchmarks/bench_race.py [--quick] [--once] [--spending=pocock|obf|bonferroni]
(the race's default spending is Pocock-type; the numbers above were measured with
Bonferroni's equal shares, the rule before spending functions).
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold, StratifiedKFold
from sklearn.tree import DecisionTreeClassifier

import pdcompare

GRID = {"max_depth": [1, 2, 3, 4, 6, 8, 12, None], "min_samples_leaf": [1, 5, 20]}


def data(quick: bool) -> tuple[np.ndarray, np.ndarray]:
    X, y = load_digits(return_X_y=True)
    if quick:
        keep = np.random.default_rng(0).permutation(len(y))[: len(y) // 2]
        X, y = X[keep], y[keep]
    return X, y


def searches(cv, spending: str = "pocock") -> dict:
    tree = DecisionTreeClassifier(random_state=0)
    return {
        "grid": GridSearchCV(tree, GRID, cv=cv, refit=False),
        "race": pdcompare.RaceSearchCV(tree, GRID, cv=cv, refit=False, spending=spending),
    }


def fits(search) -> int:
    results = search.cv_results_
    n_splits = search.n_splits_
    return int(sum(np.isfinite(results[f"split{s}_test_score"]).sum() for s in range(n_splits)))


def main(argv: list[str]) -> list[dict]:
    quick = "--quick" in argv
    repeats = 1 if quick or "--once" in argv else 3
    spending = next((a.split("=", 1)[1] for a in argv if a.startswith("--spending=")), "pocock")
    X, y = data(quick)
    designs = {
        "stratified 10-fold": StratifiedKFold(10, shuffle=True, random_state=0),
        "stratified 10-fold repeated twice": RepeatedStratifiedKFold(
            n_splits=10, n_repeats=2, random_state=0
        ),
    }
    return [race_against_grid(X, y, cv, name, repeats, spending) for name, cv in designs.items()]


def race_against_grid(X, y, cv, design: str, repeats: int, spending: str = "pocock") -> dict:
    best_time = {"grid": np.inf, "race": np.inf}
    fitted = {}
    for _ in range(repeats):
        for name, search in searches(cv, spending).items():
            start = time.perf_counter()
            fitted[name] = search.fit(X, y)
            best_time[name] = min(best_time[name], time.perf_counter() - start)
    grid, race = fitted["grid"], fitted["race"]
    n_grid, n_race = fits(grid), fits(race)
    grid_best = int(np.argmin(grid.cv_results_["rank_test_score"]))
    race_best = int(np.argmin(race.cv_results_["rank_test_score"]))
    scores = pdcompare.from_search(grid)
    names = list(scores.index)
    if race_best == grid_best:
        verdict = "the same best candidate"
        pvalue = float("nan")
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pdcompare.PdcompareWarning)
            test = pdcompare.corrected_ttest(
                scores, names[grid_best], names[race_best], correction=None
            )
        pvalue = float(test["pvalue"].iloc[0])
        verdict = (
            "a best the corrected t-test cannot tell from the grid's"
            if pvalue > 0.05
            else "a best significantly worse than the grid's"
        )
    dropped = np.isfinite(race.cv_results_["dropped_at"])
    print(
        f"\ndigits ({len(y)} images), {len(grid.cv_results_['params'])} candidates x "
        f"{grid.n_splits_} splits ({design}); spending {spending}; a loaded machine"
    )
    print(
        f"fits: race {n_race} / grid {n_grid} = {n_race / n_grid:.0%} (target <= 60%); "
        f"{dropped.sum()} candidates dropped"
    )
    print(
        f"wall time: race {best_time['race']:.2f} s, grid {best_time['grid']:.2f} s "
        f"({best_time['race'] / best_time['grid']:.0%})"
    )
    print(
        f"best: grid {names[grid_best]} ({grid.cv_results_['mean_test_score'][grid_best]:.4f}), "
        f"race {names[race_best]} ({race.cv_results_['mean_test_score'][race_best]:.4f}): "
        f"{verdict}" + ("" if np.isnan(pvalue) else f" (p = {pvalue:.3f})")
    )
    return {
        "fits_race": n_race,
        "fits_grid": n_grid,
        "time_race": best_time["race"],
        "time_grid": best_time["grid"],
        "verdict": verdict,
    }


if __name__ == "__main__":
    main(sys.argv[1:])

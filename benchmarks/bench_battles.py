"""Bradley–Terry on battles: the fit and its resampled fits against the logistic-regression recipe.

* ``from_battles`` on the long table of battles (one row per battle).
* The fit (Newton on the m × m win matrix; pdcompare.stats.bradley_terry.newton)
  of 200 models from 10⁶ battles. Target (DESIGN 24): under 0.1 s.
* 1,000 resampled fits (multinomial draws of every pair's battles, all rounds
  fitted at once). Target (DESIGN 35): under 5 s on a quiet machine, with 10 %
  ties and model names as strings (10.0 s before the fourth pass of real inputs:
  one binomial per pair for the ties, dense m × m gradients, steps to 1e-9).
* ``pdcompare.bradley_terry(frame, n_resamples=1000)``: the public call, rank
  sets and result frame included.
* The Chatbot Arena recipe in the same process: scikit-learn's unpenalised
  logistic regression on ±ln 10 features of the battles, one row per pair and
  outcome with its count as weight (the cheapest form of that recipe; the
  notebook's one row per battle is slower still).

Run: python benchmarks/bench_battles.py [--quick]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from _bench import interleaved, report

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from frames import simulated_battles

import pdcompare
from pdcompare.inputs.battles import battles_data
from pdcompare.stats import bradley_terry as bt


def logistic_recipe(wins: np.ndarray, ties: np.ndarray) -> np.ndarray:
    """Ratings by scikit-learn's logistic regression, ties as one win each, wins twice."""
    from scipy import sparse
    from sklearn.linear_model import LogisticRegression

    m = wins.shape[0]
    i, j = np.nonzero(wins + ties)
    weight = np.concatenate([2 * wins[i, j], ties[i, j]])
    a = np.concatenate([i, i])
    b = np.concatenate([j, j])
    # every row says "a beat b"; half of them are written as "b lost to a" (two classes)
    flip = np.arange(a.size) % 2 == 1
    a, b = np.where(flip, b, a), np.where(flip, a, b)
    y = (~flip).astype(float)
    keep = weight > 0
    rows = np.arange(a.size)
    x = sparse.csr_matrix(
        (
            np.concatenate([np.full(rows.size, np.log(10)), np.full(rows.size, -np.log(10))]),
            (np.concatenate([rows, rows]), np.concatenate([a, b])),
        ),
        shape=(rows.size, m),
    )
    fit = LogisticRegression(C=np.inf, fit_intercept=False, tol=1e-8, max_iter=1000)
    fit.fit(x[keep], y[keep], sample_weight=weight[keep])
    return 1000 + 400 * (fit.coef_[0] - fit.coef_[0].mean())


def bench(m: int, n_battles: int, n_rounds: int, rounds: int) -> None:
    table = simulated_battles(np.random.default_rng(1).normal(0, 1, m), n_battles, seed=2)
    frame = pdcompare.from_battles(table)
    data = battles_data(frame)
    wins, ties = data.wins, data.ties
    params, info, _ = bt.newton(wins[None], ties[None])
    rng = np.random.default_rng(0)
    cases = {
        f"from_battles ({n_battles:,} rows)": lambda: pdcompare.from_battles(table),
        f"fit, {m} models": lambda: bt.newton(wins[None], ties[None]),
        f"{n_rounds:,} resampled fits": lambda: bt.resampled_fits(
            wins, ties, params[0], info[0], n_rounds=n_rounds, rng=rng
        ),
        f"bradley_terry(frame, n_resamples={n_rounds:,})": lambda: pdcompare.bradley_terry(
            frame, n_resamples=n_rounds, random_state=0
        ),
        "logistic regression recipe (one fit)": lambda: logistic_recipe(wins, ties),
    }
    best = interleaved(cases, rounds)
    names = list(cases)
    report(
        f"Bradley–Terry, {m} models, {n_battles:,} battles (loaded machine)",
        best,
        {},
        [(names[1], names[4])],
    )
    ours = 1000 + 400 * params[0] / np.log(10)
    print(
        f"  max |rating - recipe's rating|: {np.abs(ours - logistic_recipe(wins, ties)).max():.2e}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller problems, one round")
    args = parser.parse_args()
    if args.quick:
        bench(50, 100_000, 200, rounds=1)
        return
    bench(200, 1_000_000, 1000, rounds=2)


if __name__ == "__main__":
    main()

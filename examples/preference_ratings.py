"""Ratings from preferences: Bradley–Terry ratings of models from battles
======================================================================

A preference arena records battles: two models answer the same prompt and a
judge picks the better answer, or calls a tie. The bundled battles are 6,000
such battles between 12 models drawn from known strengths, so the ratings
the data give can be set beside the truth.

1. ``from_battles``: the long table of battles -> a square frame of wins
   (row beats column), the ties kept with it;
2. ``bradley_terry``: maximum-likelihood ratings on the Elo scale with
   bootstrap intervals (1,000 rounds of resampled battles) and rank
   confidence sets, ties counted as half a win each (the Chatbot Arena
   convention) and, since these battles have many ties, with Davidson's
   tie parameter;
3. ``win_probability``: the chance that one model beats another;
4. ``pairwise``: a z test for every pair of ratings, Holm-corrected.

Run: ``python examples/preference_ratings.py`` (a few seconds).
"""

from __future__ import annotations

import pandas as pd

import pdcompare
from pdcompare.datasets import load_battles


def main() -> dict:
    table, truth = load_battles(return_truth=True)
    battles = pdcompare.from_battles(table)
    print(f"{len(table):,} battles between {len(battles)} models")

    half = battles.cmp.bradley_terry(random_state=0)
    davidson = battles.cmp.bradley_terry(ties="davidson", random_state=0)
    nu = davidson.attrs["pdcompare"]["nu"]
    side = pd.DataFrame(
        {
            "true": truth,
            "half": half["rating"],
            "davidson": davidson["rating"],
            "davidson_low": davidson["ci_low"],
            "davidson_high": davidson["ci_high"],
        }
    ).loc[davidson.index]
    print("\nRatings (ties as halves, and Davidson's model) beside the true ratings:")
    print(side.round(1).to_string())
    print(f"\nDavidson's tie parameter: nu = {nu:.3f} (simulated with 0.5)")
    covered = (side["davidson_low"] <= side["true"]) & (side["true"] <= side["davidson_high"])
    print(f"95 % intervals that hold the true rating: {int(covered.sum())} of {len(side)}")
    print("\nRank confidence sets (95 %, simultaneous):")
    print(davidson[["rank", "rank_low", "rank_high"]].to_string())

    prob = battles.cmp.win_probability(ties="davidson", random_state=0)
    square = prob.cmp.matrix("prob")
    first, second = davidson.index[0], davidson.index[-1]
    print(f"\nP({first} beats {second}) = {square.loc[first, second]:.3f}")

    pairs = battles.cmp.pairwise()
    print(f"\nPairs told apart (Holm, alpha 0.05): {int(pairs['reject'].sum())} of {len(pairs)}")
    return {
        "battles": battles,
        "half": half,
        "davidson": davidson,
        "side": side,
        "prob": prob,
        "pairs": pairs,
    }


if __name__ == "__main__":
    main()

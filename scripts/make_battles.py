"""Make the bundled battles data set: pdcompare/datasets/data/battles.csv and battles_truth.csv.

12 models with known strengths, 6,000 battles between uniformly random pairs,
drawn from Davidson's model with ties (ν = 0.5: P(i wins) = π_i / (π_i + π_j +
ν √(π_i π_j)), P(tie) = ν √(π_i π_j) / (...)), so that both the ratings and the
rate of ties are known. Ties are written "tie" (two in three) or "tie (bothbad)",
as in the Chatbot Arena exports; a tenth of the decided battles name the winning
model instead of "model_a"/"model_b". Seeded: rerunning gives the same files.

Run: python scripts/make_battles.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

NAMES = [
    "atlas",
    "borealis",
    "cirrus",
    "delta",
    "ember",
    "fjord",
    "glacier",
    "harbor",
    "iris",
    "juniper",
    "kestrel",
    "lumen",
]
NU = 0.5
N_BATTLES = 6000


def main() -> None:
    rng = np.random.default_rng(44)
    m = len(NAMES)
    theta = np.linspace(1.2, -1.2, m) + rng.normal(0, 0.15, m)
    theta[3] = theta[2]  # two models of exactly equal strength
    theta -= theta.mean()
    a = rng.integers(0, m, N_BATTLES)
    b = (a + rng.integers(1, m, N_BATTLES)) % m
    pa, pb = np.exp(theta[a]), np.exp(theta[b])
    tie = NU * np.sqrt(pa * pb)
    u = rng.random(N_BATTLES) * (pa + pb + tie)
    names = np.array(NAMES, dtype=object)
    winner = np.where(u < pa, "model_a", np.where(u < pa + pb, "model_b", "tie")).astype(object)
    bothbad = (winner == "tie") & (rng.random(N_BATTLES) < 1 / 3)
    winner[bothbad] = "tie (bothbad)"
    by_name = (winner != "tie") & (winner != "tie (bothbad)") & (rng.random(N_BATTLES) < 0.1)
    winner[by_name & (winner == "model_a")] = names[a][by_name & (winner == "model_a")]
    winner[by_name & (winner == "model_b")] = names[b][by_name & (winner == "model_b")]
    table = pd.DataFrame({"model_a": names[a], "model_b": names[b], "winner": winner})
    truth = pd.DataFrame(
        {"model": NAMES, "theta": theta, "rating": 1000 + 400 * theta / np.log(10)}
    )
    out = Path(__file__).resolve().parents[1] / "pdcompare" / "datasets" / "data"
    table.to_csv(out / "battles.csv", index=False)
    truth.to_csv(out / "battles_truth.csv", index=False, float_format="%.10g")
    print(table["winner"].value_counts().head(5))
    print(truth.round(2))


if __name__ == "__main__":
    main()

"""Regenerate pdcompare/datasets/data/judged_items.csv.gz: models graded by a judge and by people.

Five language models answer the same 2,000 questions, ten on each of 200
topics. A judge (a language model) grades every answer pass (1) or fail (0);
people grade the answers to 300 questions drawn at random (every model's
answer to a drawn question), the others are NaN in ``human``.

The answers and grades are simulated (numpy, seeded):

- a question's difficulty is a topic part (the cluster) plus its own part,
  shared by the models; each model has an ability, and its answer is right
  (the people's grade) with probability ``expit(ability − difficulty)``;
- the judge is right most of the time but lenient, and more lenient with
  long answers: it passes 97 % of right answers and 20 % of wrong ones, but
  40 % of the wrong answers of ``verbose``, whose answers are long. So the
  judge's pass rates are too high for every model and ranks ``verbose``
  above where the people put it: the bias that prediction-powered inference
  corrects with the labels (DESIGN section 31).

The output is a long table, one row per model and question (10,000 rows):
``model, topic, question, judge, human``, gzip-compressed without a time
stamp so that it is reproduced byte for byte. Run:
python scripts/make_judged_dataset.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import expit

OUT = Path(__file__).resolve().parents[1] / "pdcompare" / "datasets" / "data"

SEED = 20260531
N_TOPICS = 200
PER_TOPIC = 10
N_LABELLED = 300
ABILITY = {"large": 1.1, "verbose": 0.75, "medium": 0.8, "small_tuned": 0.45, "small": 0.3}
JUDGE_PASSES_RIGHT = 0.97
JUDGE_PASSES_WRONG = {"verbose": 0.40}  # the others: 0.20
DEFAULT_PASSES_WRONG = 0.20


def simulate() -> pd.DataFrame:
    rng = np.random.default_rng(SEED)
    n = N_TOPICS * PER_TOPIC
    topic = np.repeat(np.arange(N_TOPICS), PER_TOPIC)
    difficulty = rng.normal(0, 0.8, N_TOPICS)[topic] + rng.normal(0, 0.8, n)
    labelled = np.zeros(n, dtype=bool)
    labelled[rng.choice(n, N_LABELLED, replace=False)] = True
    frames = []
    for model, ability in ABILITY.items():
        right = rng.random(n) < expit(ability - difficulty)
        wrong_pass = JUDGE_PASSES_WRONG.get(model, DEFAULT_PASSES_WRONG)
        judge = np.where(right, rng.random(n) < JUDGE_PASSES_RIGHT, rng.random(n) < wrong_pass)
        frames.append(
            pd.DataFrame(
                {
                    "model": model,
                    "topic": [f"t{k:03d}" for k in topic],
                    "question": [f"q{k:04d}" for k in range(n)],
                    "judge": judge.astype(int),
                    "human": np.where(labelled, right.astype(float), np.nan),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def main() -> None:
    table = simulate()
    table.to_csv(
        OUT / "judged_items.csv.gz", index=False, compression={"method": "gzip", "mtime": 0}
    )
    print(table.groupby("model", sort=False)[["judge", "human"]].mean().round(3))


if __name__ == "__main__":
    main()

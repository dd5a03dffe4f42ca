"""Regenerate pdcompare/datasets/data/eval_items.csv.gz: an evaluation-shaped data set.

Five language models answer the same 300 reading-comprehension questions, five
questions on each of 60 passages, five times each (five samples per question,
as an evaluation run with ``epochs=5`` or five sampled answers at a temperature
above zero). Each answer is right (1) or wrong (0).

The answers are simulated (numpy, seeded), with the structure of real
evaluations (Miller 2024, "Adding error bars to evals", arXiv 2411.00640):

- a question's difficulty is shared by every model: a passage part (questions
  on a hard passage are hard together: the cluster) plus a question part; so
  the models' question scores are correlated (about 0.4 to 0.6 here), which is
  what pairing uses;
- each model has an ability, its own strength on each passage's topic (so
  the differences between two models are clustered by passage too) and its
  own taste for each question, so the models do not rank the questions
  identically;
- a sample is right with probability ``expit(ability - difficulty + taste)``,
  drawn afresh for each of the five samples: the within-question variance.

Two models are close (``large`` and ``large_tuned``), the others further apart.
The output is a long table, one row per model, passage, question and sample
(7,500 rows), gzip-compressed without a time stamp so that it is reproduced
byte for byte. Run: python scripts/make_eval_items.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import expit

OUT = Path(__file__).resolve().parents[1] / "pdcompare" / "datasets" / "data"

SEED = 20241101
N_PASSAGES = 60
QUESTIONS_PER_PASSAGE = 5
N_SAMPLES = 5
# ability on the logit scale (a question of difficulty 0 is answered right with expit(ability))
ABILITY = {
    "large_tuned": 1.45,
    "large": 1.30,
    "medium": 0.75,
    "small_distilled": 0.25,
    "small": 0.0,
}
SD_PASSAGE = 1.1  # passage part of the difficulty: the clusters
SD_QUESTION = 0.9  # question part of the difficulty
SD_TOPIC = 0.5  # model x passage interaction: a model's strength on a passage's topic
SD_TASTE = 0.6  # model x question interaction


def simulate(seed: int = SEED) -> pd.DataFrame:
    """The long table: model, passage, question, sample, correct."""
    rng = np.random.default_rng(seed)
    n_questions = N_PASSAGES * QUESTIONS_PER_PASSAGE
    passage_of = np.repeat(np.arange(N_PASSAGES), QUESTIONS_PER_PASSAGE)
    difficulty = rng.normal(0.0, SD_PASSAGE, N_PASSAGES)[passage_of] + rng.normal(
        0.0, SD_QUESTION, n_questions
    )
    ability = np.array(list(ABILITY.values()))
    topic = rng.normal(0.0, SD_TOPIC, (len(ability), N_PASSAGES))[:, passage_of]
    taste = topic + rng.normal(0.0, SD_TASTE, (len(ability), n_questions))
    p = expit(ability[:, None] - difficulty[None, :] + taste)
    correct = rng.random((len(ability), n_questions, N_SAMPLES)) < p[:, :, None]
    models, questions, samples = np.meshgrid(
        np.arange(len(ability)), np.arange(n_questions), np.arange(N_SAMPLES), indexing="ij"
    )
    names = np.array(list(ABILITY))
    return pd.DataFrame(
        {
            "model": names[models.ravel()],
            "passage": [f"p{k:02d}" for k in passage_of[questions.ravel()]],
            "question": [f"q{k:03d}" for k in questions.ravel()],
            "sample": samples.ravel() + 1,
            "correct": correct.ravel().astype(int),
        }
    )


def main() -> None:
    table = simulate()
    OUT.mkdir(parents=True, exist_ok=True)
    table.to_csv(
        OUT / "eval_items.csv.gz", index=False, compression={"method": "gzip", "mtime": 0}
    )
    means = table.pivot_table(index="model", columns="question", values="correct")
    print(table.groupby("model", sort=False)["correct"].mean().round(3))
    print("correlation of question means between models:")
    print(means.T.corr().round(2))


if __name__ == "__main__":
    main()

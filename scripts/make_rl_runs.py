"""Regenerate pdcompare/datasets/data/rl_runs.csv: simulated runs of 5 agents on 26 tasks.

A small, seeded stand-in for an Atari-style benchmark (DESIGN.md section 23):
five reinforcement-learning agents (named after well-known families, but the
numbers are simulated, not published results), 26 tasks, 5 seeds each, the
score of every run human-normalised (0 = random play, 1 = human). Each task
has a difficulty (log-normal, so a few tasks reach far above 1); each agent a
skill, a task-by-agent interaction and a run-to-run spread that grows with the
score, so the runs are noisy, skewed and rank differently on different tasks.
Run: python scripts/make_rl_runs.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parents[1] / "pdcompare" / "datasets" / "data"

AGENTS = {"dqn": 0.0, "c51": 0.25, "qr_dqn": 0.35, "rainbow": 0.55, "iqn": 0.45}
TASKS = [
    "alien", "amidar", "assault", "asterix", "bank_heist", "battle_zone", "boxing",
    "breakout", "chopper_command", "crazy_climber", "demon_attack", "freeway",
    "frostbite", "gopher", "hero", "jamesbond", "kangaroo", "krull", "kung_fu_master",
    "ms_pacman", "pong", "private_eye", "qbert", "road_runner", "seaquest", "up_n_down",
]  # fmt: skip
SEEDS = 5


def main() -> None:
    rng = np.random.default_rng(23)
    difficulty = rng.normal(-0.6, 0.9, size=len(TASKS))  # log of a typical agent's score
    rows = []
    for agent, skill in AGENTS.items():
        interaction = rng.normal(0.0, 0.35, size=len(TASKS))
        for t, task in enumerate(TASKS):
            centre = difficulty[t] + skill + interaction[t]
            runs = np.exp(centre + rng.normal(0.0, 0.3, size=SEEDS)) - 0.05
            rows += [(agent, task, seed, score) for seed, score in enumerate(runs)]
    table = pd.DataFrame(rows, columns=["agent", "task", "seed", "score"])
    OUT.mkdir(parents=True, exist_ok=True)
    table.to_csv(OUT / "rl_runs.csv", index=False, float_format="%.17g")
    print(f"wrote {len(table)} rows to {OUT / 'rl_runs.csv'}")


if __name__ == "__main__":
    main()

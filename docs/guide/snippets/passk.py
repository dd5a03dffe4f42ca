import numpy as np
import pandas as pd

import pdcompare

# Three agents, 200 tasks from 40 repositories, 16 attempts of every task.
rng = np.random.default_rng(0)
n_tasks, n_repos, n_attempts = 200, 40, 16
repo = np.arange(n_tasks) % n_repos
difficulty = rng.normal(0, 1, n_repos)[repo] + rng.normal(0, 1, n_tasks)
# (level, slope): how likely the agent is to succeed, how much the task's difficulty matters
agents = {"steady": (0.2, 0.5), "careful": (0.0, 1.2), "bold": (-0.2, 3.0)}
tables = []
for agent, (level, slope) in agents.items():
    p = 1 / (1 + np.exp(-(level - slope * difficulty)))  # each task its own success rate
    solved = rng.random((n_tasks, n_attempts)) < p[:, None]
    tables.append(
        pd.DataFrame(
            {
                "agent": agent,
                "task": np.repeat(np.arange(n_tasks), n_attempts),
                "attempt": np.tile(np.arange(n_attempts), n_tasks),
                "solved": solved.ravel().astype(int),
                "repo": np.repeat(repo, n_attempts),
            }
        )
    )
runs = pd.concat(tables, ignore_index=True)  # one row per agent, task and attempt

keys = {"model": "agent", "item": "task", "score": "solved", "sample": "attempt"}
at5 = pdcompare.from_items(runs, **keys, cluster="repo", estimand="pass@k", k=5)
hat5 = pdcompare.from_items(runs, **keys, cluster="repo", estimand="pass^k", k=5)
shown = ["model_1", "model_2", "mean_diff", "ci_low", "ci_high", "pvalue_adj"]
print(at5.cmp.summary()[["mean", "ci_low", "ci_high", "rank"]].round(3))
print(at5.cmp.ttest()[shown].round(4))
print(hat5.cmp.summary()[["mean", "ci_low", "ci_high", "rank"]].round(3))
print(hat5.cmp.ttest()[shown].round(4))

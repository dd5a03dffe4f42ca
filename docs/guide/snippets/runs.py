import numpy as np
import pandas as pd

import pdcompare

# Test accuracy of three networks trained with different seeds: one row per run.
rng = np.random.default_rng(0)
long = pd.DataFrame(
    [
        {"model": model, "seed": seed, "accuracy": rng.normal(mean, sd)}
        for model, mean, sd, n_seeds in [
            ("wide", 0.912, 0.004, 8),
            ("deep", 0.905, 0.010, 8),
            ("small", 0.897, 0.004, 5),  # fewer runs: allowed
        ]
        for seed in range(n_seeds)
    ]
)
runs = pdcompare.from_long(long, split="seed", score="accuracy", paired=False)
print(runs.cmp.summary().round(4), end="\n\n")

# The paired tests refuse a runs frame ...
try:
    runs.cmp.ttest()
except ValueError as error:
    print("ValueError:", error, end="\n\n")

# ... the unpaired ones compare it.
welch = runs.cmp.pairwise(test="welch_ttest")
print(
    welch[["model_1", "model_2", "mean_diff", "statistic", "df", "pvalue_adj"]].round(4),
    end="\n\n",
)
print(
    runs.cmp.pairwise(test="mannwhitney")[["model_1", "model_2", "statistic", "pvalue_adj"]].round(
        4
    ),
    end="\n\n",
)
print(runs.cmp.pairwise(test="aso", random_state=0).round(4))

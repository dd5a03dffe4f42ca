import numpy as np
import pandas as pd

from pdcompare.datasets import load_grid_search_scores

scores = load_grid_search_scores()  # 4 SVC kernels x 10x10 repeated CV, design attached

# How large: Cohen's d_z of the paired fold differences, with its corrected interval.
effects = scores.cmp.effect_size(ci=0.95)
print(effects.round(3), end="\n\n")

# Whether equal: two one-sided tests against a region of practical equivalence.
equal = scores.cmp.equivalence("rbf", "linear", rope=0.01)
print(equal[["mean_diff", "pvalue_low", "pvalue_high", "pvalue", "reject"]].round(3), end="\n\n")
wider = scores.cmp.pairwise(test="equivalence", rope=0.05)
print(wider[["model_1", "model_2", "mean_diff", "ci_low", "ci_high", "reject"]].round(3))
print()

# Across data sets the data set is the unit: every measure has an interval.
rng = np.random.default_rng(0)
levels = {"boosting": 0.85, "forest": 0.84, "svm": 0.82, "tree": 0.77}
bench = pd.DataFrame(
    [level + rng.normal(0, 0.03, 20) for level in levels.values()],
    index=list(levels),
    columns=pd.Index([f"d{k:02d}" for k in range(20)], name="dataset"),
)
print(bench.cmp.summary().round(3), end="\n\n")
delta = bench.cmp.effect_size(measure="cliff_delta", ci=0.95, random_state=0)
print(delta.round(3), end="\n\n")
print(bench.cmp.equivalence("boosting", "forest", rope=0.02).round(3).T)

import numpy as np
import pandas as pd

import pdcompare

# A long table, as benchmark harnesses write it: one row per model x data set.
rng = np.random.default_rng(0)
models = {"forest": 0.84, "boosting": 0.85, "svm": 0.82, "knn": 0.79, "tree": 0.77}
rows = [
    {"model": model, "dataset": f"d{d:02d}", "score": level + rng.normal(0, 0.03) + bump}
    for d, bump in enumerate(rng.normal(0, 0.05, 20))
    for model, level in models.items()
]
table = pd.DataFrame(rows)

bench = pdcompare.from_long(table, model="model", dataset="dataset", score="score")
print(bench.iloc[:, :6].round(3), end="\n\n")
print(bench.cmp.summary().round(3), end="\n\n")
print(bench.cmp.friedman().round(4).T, end="\n\n")
nemenyi = bench.cmp.pairwise(test="nemenyi")
print(nemenyi[["model_1", "model_2", "rank_diff", "pvalue", "reject"]].round(3))

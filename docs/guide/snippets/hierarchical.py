import pandas as pd

import pdcompare
from pdcompare.datasets import load_benchmark

# 7 models x 22 data sets x 10 folds of 10-fold CV (the design is attached).
bench = load_benchmark()
res = pdcompare.hierarchical(bench, "svc_rbf", "knn", rope=0.01, random_state=0)
print(res.round(3).T, end="\n\n")

# Each data set's mean fold difference, and the same difference shrunk by the model.
raw = (bench.loc["svc_rbf"] - bench.loc["knn"]).groupby(level="dataset", sort=False).mean()
shrunk = res.attrs["pdcompare"]["shrunk"].iloc[0]
print(
    pd.DataFrame({"mean of the folds": raw, "shrunk": shrunk})
    .sort_values("mean of the folds")
    .round(3)
    .iloc[[0, 1, 2, -3, -2, -1]]
)

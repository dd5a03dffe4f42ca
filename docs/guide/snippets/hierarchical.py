import pdcompare
from pdcompare.datasets import load_benchmark

# 7 models x 22 data sets x 10 folds of 10-fold CV (the design is attached).
bench = load_benchmark()
res = pdcompare.hierarchical(bench, "svc_rbf", "knn", rope=0.01, random_state=0)
print(res.round(3).T, end="\n\n")

# Each data set's mean fold difference (before), and the same difference shrunk by the model.
shrunk = pdcompare.shrinkage(res).set_index("dataset")[["before", "after"]]
print(shrunk.sort_values("before").round(3).iloc[[0, 1, 2, -3, -2, -1]])

import pdcompare

bench = pdcompare.datasets.load_benchmark()  # 7 classifiers x 22 data sets x 10 folds
print(bench.cmp.ranks(random_state=0).round(4), end="\n\n")
print("may be the best:", bench.cmp.top_set(random_state=0))
print("may be among the best 3:", bench.cmp.top_set(3, random_state=0))

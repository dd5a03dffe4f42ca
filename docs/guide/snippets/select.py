import pdcompare

scores = pdcompare.datasets.load_grid_search_scores()
# Simplest first: the linear kernel, then the polynomials, then rbf.
simplest_first = ["linear", "2_poly", "3_poly", "rbf"]
for rule in ("best", "one_se", "not_worse"):
    choice = scores.cmp.select(rule, by=simplest_first)
    print(f"rule={rule!r}")
    print(choice.round(4), end="\n\n")
print(scores.cmp.select("equivalent", by=simplest_first, rope=0.03).round(4))

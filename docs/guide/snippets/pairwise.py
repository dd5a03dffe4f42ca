import pdcompare

scores = pdcompare.datasets.load_grid_search_scores()
table = scores.cmp.pairwise(alternative="better", correction="bonferroni")
print(table[["model_1", "model_2", "mean_diff", "statistic", "pvalue_adj", "reject"]].round(3))
print()
print(table.cmp.matrix("pvalue_adj").round(3))

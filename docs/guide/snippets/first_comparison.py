import pdcompare

# 4 SVC kernels x 100 splits of 10x10 repeated CV (ROC AUC), design attached.
scores = pdcompare.datasets.load_grid_search_scores()
print(scores.iloc[:, :5].round(3), end="\n\n")

print(scores.cmp.summary().round(4), end="\n\n")

# The best model against every other, Nadeau-Bengio corrected, Holm-adjusted.
result = scores.cmp.corrected_ttest(alternative="better")
print(result[["model_1", "model_2", "mean_diff", "statistic", "pvalue_adj", "reject"]].round(3))
print()

# The Bayesian correlated t-test with a region of practical equivalence of 0.01.
bayes = scores.cmp.bayes(rope=0.01)
print(bayes[["model_2", "prob_better", "prob_rope", "prob_worse", "decision"]].round(3))
print()

print(scores.cmp.report(rope=0.01))

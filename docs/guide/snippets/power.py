import pdcompare
from pdcompare.datasets import load_grid_search_scores

# A pilot: the gallery's 10 x 10-fold scores (n_train 90, n_test 10).
scores = load_grid_search_scores()

# Could these splits find a difference of 0.02 ROC AUC between the best model and
# each other one? How small a difference do they find with probability 0.8? How many
# repeats of the 10-fold would find 0.02, and below what can no number of repeats go?
plan = scores.cmp.power(delta=0.02)
print(plan.round(4), end="\n\n")

# The same for a difference of 0.05, and at the Bonferroni level of the 3 comparisons.
print(scores.cmp.power(delta=0.05, alpha=0.05 / 3).round(4), end="\n\n")

# Across data sets: the paired t on the per-data-set means stands in for the Wilcoxon.
bench = pdcompare.datasets.load_benchmark().cmp.means()
print(bench.cmp.power(delta=0.01).round(4).head(3))

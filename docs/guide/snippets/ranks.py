import pdcompare

scores = pdcompare.datasets.load_grid_search_scores()  # 4 SVC kernels x 100 splits
print(scores.cmp.ranks(random_state=0).round(4), end="\n\n")
print("may be the best:", scores.cmp.top_set(random_state=0))

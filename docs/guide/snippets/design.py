import pandas as pd

import pdcompare  # noqa: F401  (registers DataFrame.cmp)

# A hand-made frame of 5-fold scores: the design is not known yet.
scores = pd.DataFrame(
    [[0.91, 0.88, 0.93, 0.90, 0.89], [0.85, 0.86, 0.88, 0.84, 0.86]],
    index=["forest", "tree"],
)
try:
    scores.cmp.corrected_ttest()
except ValueError as error:
    print("ValueError:", error, end="\n\n")

# Give it once per call ...
result = scores.cmp.corrected_ttest(cv=5)
print(result[["model_1", "model_2", "mean_diff", "statistic", "pvalue"]].round(4), end="\n\n")
# ... or store it with the frame.
scores = scores.cmp.set_design(cv=5)
print(scores.attrs["pdcompare"]["design"])

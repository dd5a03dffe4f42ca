import pandas as pd

import pdcompare

answers = pdcompare.datasets.load_eval_items()
items = pdcompare.from_items(
    answers, model="model", item="question", score="correct", sample="sample", cluster="passage"
)
# Dollars per thousand questions (made up for the example): bigger models cost more.
price = pd.Series(
    {"large_tuned": 9.0, "large": 8.0, "medium": 2.0, "small": 0.5, "small_distilled": 0.6}
)
print(items.cmp.pareto(price)[["score", "cost", "status", "dominated_by", "pvalue"]].round(4))

import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold

import pdcompare  # noqa: F401  (registers DataFrame.cmp)

X, y = load_breast_cancer(return_X_y=True)
cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0)
search = GridSearchCV(
    RandomForestClassifier(random_state=0),
    {"n_estimators": [5, 20, 80], "max_depth": [2, 8]},
    cv=cv,
    scoring="accuracy",
).fit(X, y)
results = pd.DataFrame(search.cv_results_)
front = results.cmp.pareto("mean_fit_time", cv=cv)
print(front[["score", "cost", "status", "dominated_by"]].round(4).to_string())

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import TimeSeriesSplit
from sklearn.pipeline import make_pipeline
from sklearn.tree import DecisionTreeRegressor

import pdcompare

# A monthly series built here: trend, a yearly season and autocorrelated noise.
rng = np.random.default_rng(0)
n = 480
noise = np.zeros(n)
for t in range(1, n):
    noise[t] = 0.6 * noise[t - 1] + rng.normal()
series = 10 + 0.01 * np.arange(n) + 3 * np.sin(2 * np.pi * np.arange(n) / 12) + noise

# Forecast the next month from the last 12 (one-step-ahead, h = 1).
lags = pd.DataFrame({f"lag_{k}": np.roll(series, k) for k in range(1, 13)}).iloc[12:]
X, y = lags.reset_index(drop=True), series[12:]
last_3 = ColumnTransformer([("recent", "passthrough", ["lag_1", "lag_2", "lag_3"])])
models = {
    "ridge_12": Ridge(alpha=1.0),
    "ridge_3": make_pipeline(last_3, Ridge(alpha=1.0)),
    "tree": DecisionTreeRegressor(max_depth=4, random_state=0),
    "mean": DummyRegressor(),
}
cv = TimeSeriesSplit(n_splits=5, test_size=60)

# Fold scores of expanding windows have no Nadeau-Bengio correction:
scores = pdcompare.cv_scores(models, X, y, cv=cv, scoring="neg_mean_absolute_error")
try:
    scores.cmp.corrected_ttest()
except ValueError as error:
    print("ValueError:", error, end="\n\n")

# Compare the forecasts instead: the out-of-sample predictions of the test windows.
preds = pdcompare.cv_predictions(models, X, y, cv=cv)
print(preds.shape, "rows", preds.index[0], "to", preds.index[-1], end="\n\n")
dm = preds.cmp.pairwise(test="diebold_mariano")
print(dm[["model_1", "model_2", "mean_loss_diff", "statistic", "pvalue_adj", "reject"]].round(4))
print()

# Which forecasters cannot be told from the best? Blocks of 12 months keep the
# autocorrelation of the losses in every resample.
print(preds.cmp.confidence_set(block_size=12, random_state=0).round(4))

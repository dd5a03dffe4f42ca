"""Forecasts: the Diebold–Mariano test and the model confidence set on TimeSeriesSplit windows
=============================================================================================

A daily series made here (a weekly season, a slow trend and autocorrelated
noise), five forecasters of the next day from the last fourteen days, and a
``TimeSeriesSplit`` with six test windows. The fold scores of expanding
windows have no Nadeau–Bengio correction, so pdcompare compares the forecasts
themselves: the out-of-sample predictions of the test windows, in time
order. ``diebold_mariano`` tests every pair (as R's ``forecast::dm.test``),
``confidence_set`` keeps the forecasters that cannot be told from the best
(Hansen, Lunde & Nason 2011), with a stationary bootstrap of one-week blocks.
The figures (the last window's forecasts, and each forecaster's cumulative
loss against the best) are saved to the folder given on the command line (a
new temporary folder by default). Runs headless.

Run: ``python examples/forecast_comparison.py [FOLDER]``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.dummy import DummyRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import TimeSeriesSplit
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline

import pdcompare

N_LAGS = 14


def make_series(n_days: int = 900, seed: int = 0) -> np.ndarray:
    """A weekly season, a slow trend and AR(1) noise."""
    rng = np.random.default_rng(seed)
    noise = np.zeros(n_days)
    for t in range(1, n_days):
        noise[t] = 0.5 * noise[t - 1] + rng.normal()
    days = np.arange(n_days)
    return 20 + 0.005 * days + 2.5 * np.sin(2 * np.pi * days / 7) + noise


def lag_features(series: np.ndarray) -> tuple[pd.DataFrame, np.ndarray]:
    """The last N_LAGS days as features of the next day."""
    lags = pd.DataFrame({f"lag_{k}": np.roll(series, k) for k in range(1, N_LAGS + 1)})
    return lags.iloc[N_LAGS:].reset_index(drop=True), series[N_LAGS:]


def forecasters() -> dict:
    def only(*columns):
        return ColumnTransformer([("keep", "passthrough", list(columns))])

    return {
        "ridge_14": Ridge(alpha=1.0),
        "ridge_7": make_pipeline(only(*(f"lag_{k}" for k in range(1, 8))), Ridge(alpha=1.0)),
        "seasonal_naive": make_pipeline(only("lag_7"), Ridge(alpha=1e-9)),
        "knn": KNeighborsRegressor(n_neighbors=10),
        "mean": DummyRegressor(),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description="Compare forecasters on TimeSeriesSplit windows.")
    parser.add_argument("folder", nargs="?", help="where to save the figures (default: temp)")
    args = parser.parse_args(argv)
    folder = Path(args.folder) if args.folder else Path(tempfile.mkdtemp(prefix="pdcompare-"))
    folder.mkdir(parents=True, exist_ok=True)

    X, y = lag_features(make_series())
    cv = TimeSeriesSplit(n_splits=6, test_size=50)
    preds = pdcompare.cv_predictions(forecasters(), X, y, cv=cv)
    print(f"{len(preds)} out-of-sample forecasts (rows {preds.index[0]} to {preds.index[-1]})")

    dm = preds.cmp.pairwise(test="diebold_mariano")
    shown = ["model_1", "model_2", "mean_loss_diff", "statistic", "pvalue_adj", "reject"]
    print("\nDiebold-Mariano, squared error, h = 1, every pair (Holm):")
    print(dm[shown].round(4).to_string(index=False))

    mcs = preds.cmp.confidence_set(block_size=7, random_state=0)
    print("\nModel confidence set at alpha 0.10 (stationary bootstrap, blocks of 7 days):")
    print(mcs.round(4).to_string())
    kept = mcs.index[mcs["in_set"]].tolist()
    print(f"\nStill in the running: {', '.join(kept)}.")

    figures = {}
    window = preds.iloc[-50:]
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.plot(window.index, window["y"], color="black", lw=1.5, label="observed")
    for name in ("ridge_14", "seasonal_naive", "mean"):
        ax.plot(window.index, window[name], lw=1, label=name)
    ax.set(xlabel="day", ylabel="value", title="Last test window: one-day-ahead forecasts")
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    figures["window"] = folder / "forecasts_window.png"
    fig.savefig(figures["window"], dpi=100)
    plt.close(fig)

    best = mcs.index[-1]
    errors = (preds.drop(columns="y").rsub(preds["y"], axis=0)) ** 2
    fig, ax = plt.subplots(figsize=(7, 3))
    for name in errors.columns.drop([best, "mean"]):  # the mean forecast is off the scale
        ax.plot(preds.index, (errors[name] - errors[best]).cumsum(), lw=1, label=name)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set(
        xlabel="day",
        ylabel=f"cumulative loss minus {best}'s",
        title="Loss differentials of Diebold-Mariano, accumulated over time",
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    figures["differentials"] = folder / "forecasts_differentials.png"
    fig.savefig(figures["differentials"], dpi=100)
    plt.close(fig)
    print(f"Figures saved in {folder}")
    return {"predictions": preds, "diebold_mariano": dm, "confidence_set": mcs, "figures": figures}


if __name__ == "__main__":
    main()

"""Optuna studies that race: :class:`CorrectedPruner` (``pdcompare[optuna]``).

``import pdcompare.optuna`` imports Optuna; ``import pdcompare`` does not.
"""

from pdcompare.optuna.pruner import CorrectedPruner

__all__ = ["CorrectedPruner"]

"""Comparisons inside a search: racing scikit-learn searches (``pdcompare[sklearn]``).

``pdcompare.RaceSearchCV`` and ``pdcompare.RaceRandomizedSearchCV`` come from
here; ``import pdcompare`` does not import scikit-learn, this package does.
"""

from pdcompare.scale.race import RaceRandomizedSearchCV, RaceSearchCV

__all__ = ["RaceRandomizedSearchCV", "RaceSearchCV"]

"""Doctest collection: modules of optional extras are skipped when the extra is absent."""

import importlib.util

collect_ignore = []
if importlib.util.find_spec("dask") is None:
    collect_ignore.append("pdcompare/dask.py")

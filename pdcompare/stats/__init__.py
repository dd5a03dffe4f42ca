"""The numerical core of pdcompare: pure functions on numpy arrays, no pandas.

Pairwise work is vectorised across all pairs of models at once; the modules
here never loop over pairs in Python.
"""

"""The version of pdcompare, in one place (the package root and the command line read it)."""

__version__ = "0.1.0"

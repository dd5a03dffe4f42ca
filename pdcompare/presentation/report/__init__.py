"""The conclusion of a comparison in plain words, and the documents built around it.

``report()`` (``entry``) sets the order of the paragraphs; each paragraph has a
module of its own: ``summary`` (the ranking), ``significance`` (the family's
tests), ``bayes``, ``equivalence``, ``pooled`` (random effects across data sets)
and ``forecasts``; ``pairs`` chooses which pairs get lines, ``rows`` reads the
result frames' columns once, and ``document`` assembles the Markdown and HTML
documents.
"""

from pdcompare.presentation.report.entry import DEFAULT_TOP, report, report_text

__all__ = ["DEFAULT_TOP", "report", "report_text"]

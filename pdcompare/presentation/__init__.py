"""Presentation: tables, pictures, words and documents made from result frames.

Nothing here runs a test through the accessor. The layers, bottom first:
``labels`` (the words and number formats every output shares), ``shown`` (which
models and pairs an output shows), ``styling`` and ``plotting`` (never each
other), and ``report`` (the conclusion in words, and the Markdown and HTML
documents that assemble the tables and pictures).
"""

"""Sphinx configuration of the pdcompare documentation (``make docs``).

The site builds offline with warnings as errors and nitpicky references
(``-W --keep-going -n``). Build-time pieces live in ``_ext/pdcompare_docs.py``:
the API page written from one list of names, the command-line output, and the
sphinx-gallery hooks that show the figures the examples save.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))

import pdcompare_docs  # noqa: E402

import pdcompare  # noqa: E402

pdcompare_docs.write_api_page()
pdcompare_docs.write_cli_output()
pdcompare_docs.write_snippet_outputs()
pdcompare_docs.write_registry_table()

project = "pdcompare"
author = "the pdcompare authors"
copyright = "the pdcompare authors"
release = version = pdcompare.__version__

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx_gallery.gen_gallery",
    "matplotlib.sphinxext.plot_directive",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = [
    "_build",
    "_generated",
    "_ext",
    "validity_table.md",  # included by guide/validity.md
    "validity_table_datasets.md",  # included by guide/validity.md
    "validity_table_aggregates.md",  # included by guide/validity.md
    "validity_table_binary_intervals.md",  # included by guide/thin_data.md
    "gallery/*.ipynb",
    "gallery/*.py",
    "gallery/*.zip",
    "gallery/*.md5",
    "gallery/*.json",
]

# --- HTML ---------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"pdcompare {release}"
html_theme_options = {
    "navbar_align": "left",
    "show_toc_level": 2,
    "navigation_with_keys": False,
    # API pages hold one object each: no "on this page" column there.
    "secondary_sidebar_items": {"generated/*": []},
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_sidebars = {"index": []}
html_static_path = ["_static"]
html_css_files = ["pdcompare.css"]
html_copy_source = False
html_show_sourcelink = False

# --- MyST -----------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3

# --- API reference: autosummary and numpydoc -------------------------------------------------
autosummary_generate = True
autodoc_typehints = "none"  # numpydoc's Parameters sections say the types
autodoc_default_options = {"members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# Nitpicky mode: every reference inside the documented package must resolve. Objects
# of the libraries pdcompare builds on are named in docstrings but not documented
# here (no intersphinx: the build is offline), so their references are ignored.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(pandas|numpy|np|scipy|matplotlib|statsmodels|sklearn|joblib|dask)(\..*)?"),
    (r"py:.*", r"(Any|Callable|Hashable|Sequence|Path)"),
    # Internal modules that docstrings point to for details; not part of the API pages.
    (r"py:.*", r"pdcompare\.(stats|report|styling|plotting)(\..*)?"),
]

# --- gallery ----------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "../examples",
    "gallery_dirs": "gallery",
    "filename_pattern": r"\.py$",  # execute every example, not only plot_*.py
    "image_scrapers": ("pdcompare_docs.png_scraper",),
    "reset_argv": "pdcompare_docs.reset_argv",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "abort_on_example_error": True,
    "show_memory": False,
    "min_reported_time": 1,
}

# --- pictures of the guide: matplotlib's plot directive ---------------------------------------
plot_include_source = True
plot_html_show_source_link = False
plot_html_show_formats = False
plot_formats = [("png", 110)]
plot_rcparams = {"figure.dpi": 110, "savefig.bbox": "tight"}
plot_pre_code = "import matplotlib.pyplot as plt\nimport pdcompare\n"

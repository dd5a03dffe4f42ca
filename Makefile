# Quick start: `make demo` and `make test` work on a machine with only python3 and pip.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.pdcompare-installed
DOCS_STAMP := $(VENV)/.pdcompare-docs-installed

.PHONY: demo test lint bench docs clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# The docs extra on top of the same environment (Sphinx and its extensions).
$(DOCS_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e ".[dev,docs]"
	touch $(DOCS_STAMP)

demo: $(STAMP)
	$(BIN)/pdcompare demo

lint: $(STAMP)
	$(BIN)/ruff check .

test: lint
	$(BIN)/python -m pytest

# Every benchmark at a quick size (a few minutes): pdcompare against its floor, interleaved.
# Full sizes: run a script without --quick (see its docstring).
BENCH_QUICK := bench_first_call bench_typical bench_allpairs bench_predictions \
	bench_bootstrap_loss bench_wilcoxon bench_report bench_datasets bench_document bench_auc \
	bench_hierarchical bench_gate bench_ranks bench_items bench_battles bench_readers \
	bench_aggregates bench_pareto bench_result_pictures bench_race bench_power_runs bench_sequential \
	bench_agreement bench_thin bench_judges

bench: $(STAMP)
	for script in $(BENCH_QUICK); do $(BIN)/python benchmarks/$$script.py --quick || exit 1; done
	$(BIN)/python benchmarks/bench_pairwise.py 10 100 300

# The site, offline, warnings as errors, every internal reference checked (-n).
docs: $(DOCS_STAMP)
	rm -rf docs/_build/html docs/generated docs/gallery
	$(BIN)/python -m sphinx -b html -q -W --keep-going -n docs docs/_build/html
	@echo "Open docs/_build/html/index.html"

clean:
	rm -rf $(VENV) .venv-pandas2 .pytest_cache .hypothesis build dist
	rm -rf docs/_build docs/_generated docs/generated docs/gallery docs/api.rst docs/sg_execution_times.rst

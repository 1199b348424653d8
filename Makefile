# The README's two commands: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit clean docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml examples/plugin/pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,docs,pettingzoo,gymnasium,openspiel]'
	$(BIN)/python -m pip install --quiet -e examples/plugin  # the tests use its entry point
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tajmahal match greedy greedy random random --seed 7

lint: $(STAMP)
	$(BIN)/ruff check src tests

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

# Debian's Chromium, for the replay viewer's browser test (Playwright drives it; it never
# downloads browsers of its own). Root on CI, as on the developers' machines.
CHROMIUM := /usr/bin/chromium

$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

unit: $(STAMP) $(CHROMIUM)
	$(BIN)/pytest

test: lint typecheck unit

docs: $(STAMP)
	$(BIN)/sphinx-build -W -b html docs docs/_build/html

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis

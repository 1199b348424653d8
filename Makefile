# The README's two commands: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEMO_STAMP := $(VENV)/.installed-core

.PHONY: demo test test-install lint typecheck unit clean docs node bwrap axe postgresql fast fast-tree test-fast compiler test-versions wheel dist

# A .venv that no longer fits — its python does not run, or another Python made it — is
# made again (instead of failing until `make clean`).
WANTED_PYTHON := $(shell $(PYTHON) -c 'import sys; print(sys.version)' 2>/dev/null)
VENV_PYTHON := $(shell $(BIN)/python -c 'import sys; print(sys.version)' 2>/dev/null)
ifneq ($(wildcard $(VENV)),)
ifneq ($(WANTED_PYTHON),)
ifneq ($(VENV_PYTHON),$(WANTED_PYTHON))
$(info $(VENV) does not fit $(PYTHON) (broken, or made by another Python): making it again)
$(shell rm -rf $(VENV))
endif
endif
endif

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# everything the tests need: every extra, and the example plugin
$(STAMP): $(BIN)/python pyproject.toml examples/plugin/pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,docs,pettingzoo,gymnasium,openspiel,ray,web,postgres]'
	$(BIN)/python -m pip install --quiet -e examples/plugin  # the tests use its entry point
	touch $(DEMO_STAMP) $(STAMP)

# what the demo needs: the package and its five dependencies, no extra
$(DEMO_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $(DEMO_STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/tajmahal match greedy greedy random random --seed 7
	@echo; echo "Play a game yourself against bots in this terminal: $(BIN)/tajmahal play"; echo "Or at a table in your browser, with friends and bots: $(BIN)/tajmahal serve (needs tajmahal[web])"

lint: $(STAMP)
	$(BIN)/ruff check src tests

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

# Debian's Chromium, for the replay viewer's browser test (Playwright drives it; it never
# downloads browsers of its own). Root on CI, as on the developers' machines.
CHROMIUM := /usr/bin/chromium

$(CHROMIUM):
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium


# the bot-protocol tests run src/tajmahal/examples/random_bot.js: install Node.js where it is missing
node:
	@command -v node >/dev/null 2>&1 || { \
	  echo "Node.js is missing: installing the Debian package nodejs (for tests/test_protocol_programs.py)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs >/dev/null) \
	  || echo "could not install Node.js: the Node.js bot tests will be skipped"; }


# --sandbox runs bot programs under bubblewrap (tests/test_isolation.py): install it where missing
bwrap:
	@command -v bwrap >/dev/null 2>&1 || { \
	  echo "bubblewrap is missing: installing the Debian package bubblewrap (for --sandbox)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null) \
	  || echo "could not install bubblewrap: the sandbox tests will be skipped"; }


# axe-core (npm), the accessibility checker tests/test_web_accessibility.py injects into the
# web pages (Playwright reads the file: nothing is fetched while the tests run): installed into
# build/axe where missing, with Debian's npm where npm is missing
AXE := build/axe/node_modules/axe-core/axe.min.js

axe:
	@test -f $(AXE) || { \
	  command -v npm >/dev/null 2>&1 || { echo "npm is missing: installing the Debian package npm"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null); }; \
	  echo "axe-core is missing: npm install --prefix build/axe axe-core@4"; \
	  npm install --prefix build/axe --no-save --no-audit --no-fund axe-core@4 >/dev/null \
	  || echo "could not install axe-core: tests/test_web_accessibility.py will fail"; }


# the PostgreSQL store's tests start a cluster of their own (tests/postgres_cluster.py) from
# Debian's postgresql: install it where missing (no cluster of the package's is used)
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || { \
	  echo "PostgreSQL is missing: installing the Debian package postgresql (for tests/test_web_stores.py)"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) \
	  || echo "could not install PostgreSQL: the PostgreSQL store tests will be skipped"; }


# The suite runs on pytest-xdist's workers, one per CPU up to 2 (what CI has): each worker has
# its own browser, PostgreSQL cluster and temporary folders; --dist loadfile gives each test
# file to one worker, so a file's servers and builds (module fixtures) are made once.
# PYTEST_XDIST='-n 0' (or '-p no:xdist') runs the suite in one process, '-n 4' on four.
PYTEST_XDIST ?= -n auto --maxprocesses 2 --dist loadfile

# the tests that install into fresh venvs from the package index (minutes each) are left to
# `make test-install`, which CI runs after `make test`
unit: $(STAMP) $(CHROMIUM) node bwrap axe postgresql
	$(BIN)/pytest $(PYTEST_XDIST) -m 'not fresh_venv'

# What outsiders do: the docs built from .readthedocs.yaml's install alone, the compiled build
# installed with build isolation, the public-server tutorial run as written (tests marked
# fresh_venv; they download packages, so pip's cache makes a second run quick)
test-install: $(STAMP) postgresql
	TAJMAHAL_FRESH_VENVS=1 $(BIN)/pytest -p no:cacheprovider -m fresh_venv

# The optional compiled build (hatch_build.py: TAJMAHAL_COMPILE=1 compiles the hot modules of
# tajmahal.rules and tajmahal.bots with mypyc). It needs a C compiler and the Python headers:
# Debian's build-essential, python3-dev.
compiler:
	@{ command -v gcc >/dev/null 2>&1 && $(BIN)/python -c 'import sysconfig, pathlib, sys; \
	  sys.exit(not (pathlib.Path(sysconfig.get_paths()["include"]) / "Python.h").exists())'; } || { \
	  echo "a C compiler or the Python headers are missing: installing build-essential python3-dev"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    build-essential python3-dev >/dev/null; }

# the compiled build of the same sources as a package tree (for `make test-fast` and
# `benchmarks/run.py --ratios`), built in the venv (no isolated build environment to fetch).
# The extension modules are rebuilt only when what they are compiled from changes (rules/,
# bots/, the build hook, mypy's version); the pure-Python files are copied from src/ every time.
COMPILED := build/compiled
COMPILED_KEY = $(shell cat src/tajmahal/rules/*.py src/tajmahal/bots/*.py hatch_build.py \
  $(wildcard $(VENV)/lib/python*/site-packages/mypy-*.dist-info/METADATA) | sha256sum | cut -c1-16)

fast-tree: $(STAMP)
	@if [ -f $(COMPILED)/.built-$(COMPILED_KEY) ]; then \
	  echo "$(COMPILED): extension modules up to date"; else \
	  $(MAKE) --no-print-directory compiler && \
	  { $(BIN)/python -c 'import mypyc, setuptools' 2>/dev/null || \
	    $(BIN)/python -m pip install --quiet mypy setuptools; } && \
	  rm -rf $(COMPILED) && \
	  echo "TAJMAHAL_COMPILE=1 pip install --target $(COMPILED) . (mypyc, then the C compiler)" && \
	  TAJMAHAL_COMPILE=1 $(BIN)/python -m pip install --quiet --no-deps --no-build-isolation \
	    --target $(COMPILED) . && \
	  rm -rf $(COMPILED)/bin $(COMPILED)/*.dist-info && \
	  touch $(COMPILED)/.built-$(COMPILED_KEY); fi
	find $(COMPILED)/tajmahal -type f ! -name '*.so' -delete
	find $(COMPILED)/tajmahal -type d -empty -delete
	tar -C src --exclude=__pycache__ -cf - tajmahal | tar -C $(COMPILED) -xf -

# the whole suite again, against the compiled build (.ci/run runs it after `make test`; see
# docs/installation.md); the fresh-venv tests build and install packages of their own
# (`make test-install`)
test-fast: fast-tree $(CHROMIUM) node bwrap axe postgresql
	TAJMAHAL_EXPECT_COMPILED=1 PYTHONPATH=$(COMPILED) $(BIN)/pytest -p no:cacheprovider \
	  $(PYTEST_XDIST) -m 'not fresh_venv'

# the compiled build installed in .venv, in place of the editable pure one (which any target
# that needs $(STAMP), such as `make test`, puts back)
fast: $(STAMP) compiler
	TAJMAHAL_COMPILE=1 $(BIN)/python -m pip install --quiet --no-deps --force-reinstall .
	rm -f $(STAMP)

test: lint typecheck unit

# A subset of the suite (the rules, serialization, bots, referee and protocol) on the other
# Pythons the machine has (3.12 and 3.13; PYTHON_VERSIONS=... to change, TESTS=... for other
# tests), each in its own .venv-X.Y; a missing version is reported and skipped, an extra
# with no wheel for a version is left out and its tests skip (.ci/test-python-versions).
test-versions: $(CHROMIUM) node bwrap postgresql
	.ci/test-python-versions

# The two wheels a release publishes, into dist/: the pure one (any platform) and the
# compiled one (this platform and Python), each built as pip builds them, in an isolated
# build environment that fetches what the build needs (hatchling; with TAJMAHAL_COMPILE=1,
# the build hook adds mypy, setuptools and the package's dependencies). Needs a C compiler.
wheel: $(BIN)/python compiler
	$(BIN)/python -m pip install --quiet build
	rm -f dist/tajmahal-*.whl
	env -u TAJMAHAL_COMPILE $(BIN)/python -m build --wheel --outdir dist .
	TAJMAHAL_COMPILE=1 $(BIN)/python -m build --wheel --outdir dist .
	@ls -l dist/tajmahal-*.whl

# Exactly what a release uploads, into dist/ (.ci/release --build): the sdist, the pure wheel
# built from it, and a compiled wheel for each CPython 3.11-3.13 the machine has, repaired
# by auditwheel to a manylinux tag; twine check --strict passes for each. Its tools (the
# `release` extra) live in a venv of their own, so the test venv stays as it is.
RELEASE_VENV := .venv-release
RELEASE_TOOLS = $(shell $(PYTHON) -c 'import tomllib; print(" ".join(repr(r) for r in \
  tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["release"]))')

$(RELEASE_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(RELEASE_VENV)
	$(RELEASE_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(RELEASE_VENV)/bin/python -m pip install --quiet $(RELEASE_TOOLS)
	touch $@

dist: $(RELEASE_VENV)/.installed
	@command -v gcc >/dev/null 2>&1 || { \
	  echo "a C compiler is missing: installing build-essential"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    build-essential >/dev/null; }
	$(RELEASE_VENV)/bin/python .ci/release --build

docs: $(STAMP)
	$(BIN)/sphinx-build -W -b html docs docs/_build/html

clean:
	rm -rf $(VENV) .venv-3.* $(RELEASE_VENV) build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis

# Two commands for a newcomer: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/pip --disable-pip-version-check -q
SMALL_MODEL   := qwen2.5-coder-0.5b
DEFAULT_MODEL := qwen2.5-coder-1.5b
DEMO_REQUEST  ?= Write a Python function slugify(text) that lowercases text, replaces runs of non-alphanumeric characters with a single hyphen and strips leading and trailing hyphens.

.PHONY: demo test test-fast install install-dev models-small models-default sandbox browser lint clean

# The web page tests drive Debian's chromium (scripts/ensure-browser.sh); Playwright never
# downloads a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install -U pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(PIP) install -e '.[anthropic,eval]'
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed
	$(PIP) install -e '.[dev]'
	touch $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

models-small: install
	$(BIN)/codeproof models pull $(SMALL_MODEL)

models-default: install
	$(BIN)/codeproof models pull $(DEFAULT_MODEL)

sandbox: install
	bash scripts/ensure-sandbox.sh
	$(BIN)/codeproof sandbox build

browser:
	bash scripts/ensure-browser.sh

demo: models-default sandbox
	$(BIN)/codeproof new "$(DEMO_REQUEST)" --yes --out out/demo

lint: install-dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

test: install-dev models-small sandbox browser lint
	$(BIN)/pytest

# Lint, then every test that needs neither Docker nor a real model (no sandbox set-up).
# The fast lane's tests share no port, file or daemon, so they run on FAST_WORKERS processes.
FAST_WORKERS ?= 2
test-fast: install-dev lint
	$(BIN)/pytest -n $(FAST_WORKERS) -m "not docker and not real_model and not slow" -q

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

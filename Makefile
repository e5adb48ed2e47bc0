# The two commands of the README. Both do all the set-up on a fresh machine.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck unit clean

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/ecliptic play

test: $(STAMP)
	$(VENV)/bin/ruff check
	$(VENV)/bin/mypy
	$(VENV)/bin/python -m pytest

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

# The two commands of the README. Both do all the set-up on a fresh machine.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck unit clean

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[dev,server]'
	touch $(STAMP)

# A short game (8 rounds, tiles laid out at random) against bots of level normal; any other
# game: .venv/bin/ecliptic play --help.
play: $(STAMP)
	$(VENV)/bin/ecliptic play --game-length short --layout random --level normal

test: $(STAMP)
	$(VENV)/bin/ruff check
	$(VENV)/bin/mypy
	$(VENV)/bin/python -m pytest

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

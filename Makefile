# The two commands of the README. Both do all the set-up on a fresh machine.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck unit clean

$(PY):
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install --quiet -e '.[dev,server,rl,balance,ray]'
	touch $(STAMP)

# The game server with the browser client: the lobby opens in the default browser (where there
# is one) and the address is printed. The terminal game: .venv/bin/ecliptic play --help.
play: $(STAMP)
	$(VENV)/bin/ecliptic serve --open

# The storage tests run on SQLite and on a throw-away PostgreSQL cluster of their own
# (tests/postgres_cluster.py): PostgreSQL is installed first when missing (with apt-get, as root;
# ECLIPTIC_TEST_POSTGRES=skip skips those tests instead). The browser tests drive Debian's
# Chromium with Playwright: it is installed first when /usr/bin/chromium is missing
# (ECLIPTIC_TEST_BROWSER=skip skips those tests instead).
test: $(STAMP)
	bash scripts/ensure-postgres.sh
	bash scripts/ensure-chromium.sh
	$(VENV)/bin/ruff check
	$(VENV)/bin/mypy
	$(VENV)/bin/python -m pytest

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache

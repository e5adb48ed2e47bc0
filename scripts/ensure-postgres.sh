#!/usr/bin/env bash
# Makes sure PostgreSQL's server programs (initdb, pg_ctl) are on this machine, so that the test
# session can run its own throw-away cluster (tests/postgres_cluster.py). `make test` calls it.
#
# Fast and silent when they are there already; otherwise installs Debian's `postgresql` package
# (CI runs as root on a clean machine). Nothing is started here: the tests start their own cluster
# in a temporary folder. ECLIPTIC_TEST_POSTGRES=skip (the tests then skip PostgreSQL) or a
# postgresql:// URL of a server of your own (the tests then use it) makes this a no-op.
set -euo pipefail

case "${ECLIPTIC_TEST_POSTGRES:-}" in
    skip | postgresql://* | postgres://*) exit 0 ;;
esac

# Debian keeps each major version's server programs in /usr/lib/postgresql/<version>/bin, off the PATH.
# (ECLIPTIC_PG_LIB points elsewhere only for tests/test_ensure_postgres.py.)
PG_LIB="${ECLIPTIC_PG_LIB:-/usr/lib/postgresql}"

have_server_programs() {
    local bin
    for bin in "$PG_LIB"/*/bin; do
        [[ -x "$bin/initdb" && -x "$bin/pg_ctl" ]] && return 0
    done
    command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1
}

have_server_programs && exit 0

fail() {
    echo "ensure-postgres: $1" >&2
    echo "ensure-postgres: the storage tests need PostgreSQL's initdb and pg_ctl; install PostgreSQL" \
        "(Debian/Ubuntu: apt-get install postgresql), or run with ECLIPTIC_TEST_POSTGRES=skip" \
        "to skip the PostgreSQL tests." >&2
    exit 1
}

[[ "$(id -u)" == 0 ]] || fail "PostgreSQL is not installed and installing it needs root."
command -v apt-get >/dev/null 2>&1 || fail "PostgreSQL is not installed and this machine has no apt-get."

echo "ensure-postgres: installing PostgreSQL from Debian's packages (once per machine)..."
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends postgresql >/dev/null
have_server_programs || fail "the postgresql package is installed, yet initdb or pg_ctl is not found."
echo "ensure-postgres: PostgreSQL installed."

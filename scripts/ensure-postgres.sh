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
# (ECLIPTIC_PG_LIB points elsewhere only for tests/test_ensure_packages.py.)
PG_LIB="${ECLIPTIC_PG_LIB:-/usr/lib/postgresql}"

have_server_programs() {
    local bin
    for bin in "$PG_LIB"/*/bin; do
        [[ -x "$bin/initdb" && -x "$bin/pg_ctl" ]] && return 0
    done
    command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1
}

have_server_programs && exit 0

source "${BASH_SOURCE[0]%/*}/debian-package.sh"
ensure_debian_package ensure-postgres postgresql have_server_programs \
    "the storage tests need PostgreSQL's initdb and pg_ctl; install PostgreSQL (Debian/Ubuntu: apt-get install postgresql), or run with ECLIPTIC_TEST_POSTGRES=skip to skip the PostgreSQL tests."

#!/usr/bin/env bash
# Makes sure a Chromium is on this machine for the browser tests (tests/test_browser_*.py drive it
# with Playwright). `make test` calls it.
#
# Fast and silent when /usr/bin/chromium is there; otherwise installs Debian's `chromium` package
# (Playwright's own browser download does not work on machines that reach only the package
# registries). ECLIPTIC_TEST_BROWSER=skip makes this a no-op (the browser tests then skip);
# ECLIPTIC_CHROMIUM=/path names another Chromium binary to use instead.
set -euo pipefail

[[ "${ECLIPTIC_TEST_BROWSER:-}" == skip ]] && exit 0

CHROMIUM="${ECLIPTIC_CHROMIUM:-/usr/bin/chromium}"
[[ -x "$CHROMIUM" ]] && exit 0

have_chromium() { [[ -x "$CHROMIUM" ]]; }

source "${BASH_SOURCE[0]%/*}/debian-package.sh"
ensure_debian_package ensure-chromium chromium have_chromium \
    "the browser tests need Chromium at $CHROMIUM; install it (Debian/Ubuntu: apt-get install chromium), point ECLIPTIC_CHROMIUM at one, or run with ECLIPTIC_TEST_BROWSER=skip to skip the browser tests."

# Sourced by scripts/ensure-*.sh: installs one Debian package for the tests, the same way for each
# (as root, non-interactively, once per machine), or fails saying what to do instead. Uses no
# program but id and apt-get, so the scripts' tests can fake both on an otherwise empty PATH.

# ensure_debian_package NAME PACKAGE CHECK HINT
#   NAME: the script's name in messages; PACKAGE: the Debian package; CHECK: a command that
#   succeeds once the package's programs are there; HINT: what to do instead, said on failure.
ensure_debian_package() {
    local name="$1" package="$2" check="$3" hint="$4"
    fail() {
        echo "$name: $1" >&2
        echo "$name: $hint" >&2
        exit 1
    }
    [[ "$(id -u)" == 0 ]] || fail "$package is not installed and installing it needs root."
    command -v apt-get >/dev/null 2>&1 || fail "$package is not installed and this machine has no apt-get."

    echo "$name: installing $package from Debian's packages (once per machine)..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "$package" >/dev/null
    $check || fail "the $package package is installed, yet its programs are not found."
    echo "$name: $package installed."
}

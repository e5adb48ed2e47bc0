"""scripts/ensure-postgres.sh and scripts/ensure-chromium.sh, which `make test` runs first: each installs
one Debian package (PostgreSQL's initdb and pg_ctl; Chromium) only when its programs are missing, as
root, non-interactively; otherwise it does nothing, or fails saying what to do. Both share
scripts/debian-package.sh. Run against a fake apt-get and id, so no test installs anything."""

from __future__ import annotations

import os
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parent.parent / "scripts"
BASH = "/bin/bash"


def _executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


@dataclass(frozen=True)
class Package:
    """What one script installs: where its programs live on the fake machine (``env`` points the
    script there) and which variable makes it skip."""

    script: str
    package: str
    programs: tuple[str, ...]
    """The programs' paths below the fake machine's root once installed."""
    env: tuple[str, str]
    """The variable naming where the script looks, and the path below the root it names."""
    skip: str


POSTGRES = Package("ensure-postgres.sh", "postgresql", ("lib/16/bin/initdb", "lib/16/bin/pg_ctl"),
                   ("ECLIPTIC_PG_LIB", "lib"), "ECLIPTIC_TEST_POSTGRES")
CHROMIUM = Package("ensure-chromium.sh", "chromium", ("usr-bin/chromium",),
                   ("ECLIPTIC_CHROMIUM", "usr-bin/chromium"), "ECLIPTIC_TEST_BROWSER")


class Machine:
    """A fake machine below ``root``: ``bin`` is the whole PATH, with an apt-get that logs its calls
    (and installs the package's programs) and an ``id`` that says whether we are root."""

    def __init__(self, root: Path, package: Package, *, uid: int, installed: bool) -> None:
        self.root, self.package = root, package
        self.bin, self.calls = root / "bin", root / "apt-get.log"
        (root / "lib").mkdir()
        if installed:
            for program in package.programs:
                _executable(root / program, f"#!{BASH}\n")
        _executable(self.bin / "id", f"#!{BASH}\necho {uid}\n")
        installs = "; ".join(f"/bin/mkdir -p {(root / p).parent}; echo > {root / p}; /bin/chmod +x {root / p}"
                             for p in package.programs)
        _executable(self.bin / "apt-get", f'#!{BASH}\necho "DEBIAN_FRONTEND=$DEBIAN_FRONTEND $*" >> {self.calls}\n'
                                          f'if [[ "$1" == install ]]; then {installs}; fi\n')

    def run(self, **env: str) -> subprocess.CompletedProcess[str]:
        variable, path = self.package.env
        environment = {"PATH": str(self.bin), variable: str(self.root / path), **env}
        return subprocess.run([BASH, str(SCRIPTS / self.package.script)], env=environment,
                              capture_output=True, text=True, check=False, timeout=60)

    def apt_calls(self) -> list[str]:
        return self.calls.read_text().splitlines() if self.calls.exists() else []


@pytest.fixture(autouse=True)
def _posix_shell() -> None:
    if not os.access(BASH, os.X_OK):
        pytest.skip("needs /bin/bash")


PACKAGES = pytest.mark.parametrize("package", [POSTGRES, CHROMIUM], ids=lambda p: p.package)


@PACKAGES
def test_with_the_package_installed_it_does_nothing(tmp_path: Path, package: Package) -> None:
    machine = Machine(tmp_path, package, uid=0, installed=True)
    done = machine.run()
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert machine.apt_calls() == []


@PACKAGES
def test_as_root_without_the_package_it_installs_debians_package_non_interactively(
        tmp_path: Path, package: Package) -> None:
    machine = Machine(tmp_path, package, uid=0, installed=False)
    done = machine.run()
    assert done.returncode == 0, done.stderr
    assert machine.apt_calls() == [
        "DEBIAN_FRONTEND=noninteractive update -qq",
        f"DEBIAN_FRONTEND=noninteractive install -y -qq --no-install-recommends {package.package}",
    ]
    assert f"{package.package} installed" in done.stdout
    assert machine.run().returncode == 0  # a second run finds it installed and installs nothing more
    assert len(machine.apt_calls()) == 2


@PACKAGES
def test_without_root_it_fails_and_says_what_to_do(tmp_path: Path, package: Package) -> None:
    machine = Machine(tmp_path, package, uid=1000, installed=False)
    done = machine.run()
    assert done.returncode == 1
    assert "installing it needs root" in done.stderr and f"{package.skip}=skip" in done.stderr
    assert machine.apt_calls() == []


@PACKAGES
def test_when_asked_to_skip_it_installs_nothing(tmp_path: Path, package: Package) -> None:
    machine = Machine(tmp_path, package, uid=0, installed=False)
    assert machine.run(**{package.skip: "skip"}).returncode == 0
    assert machine.apt_calls() == []


@PACKAGES
def test_when_apt_get_installs_but_the_programs_are_still_missing_it_fails(tmp_path: Path, package: Package) -> None:
    machine = Machine(tmp_path, package, uid=0, installed=False)
    _executable(machine.bin / "apt-get", f"#!{BASH}\nexit 0\n")  # an apt-get that installs nothing
    done = machine.run()
    assert done.returncode == 1 and "its programs are not found" in done.stderr


def test_postgresql_given_by_url_installs_nothing(tmp_path: Path) -> None:
    machine = Machine(tmp_path, POSTGRES, uid=0, installed=False)
    assert machine.run(ECLIPTIC_TEST_POSTGRES="postgresql://localhost/x").returncode == 0
    assert machine.apt_calls() == []

"""scripts/ensure-chromium.sh, which `make test` runs before the browser tests: it installs Debian's
chromium only when the browser is missing, as root, non-interactively; otherwise it does nothing, or
fails saying what to do. Run against a fake apt-get and id, so no test installs anything."""

from __future__ import annotations

import os
import stat
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent.parent / "scripts" / "ensure-chromium.sh"
BASH = "/bin/bash"


def _executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


class Machine:
    """A fake machine: ``browser`` stands for /usr/bin/chromium; ``bin`` is the whole PATH, with an
    apt-get that logs its calls (and installs the browser) and an ``id`` that says whether we are root."""

    def __init__(self, root: Path, *, uid: int, installed: bool) -> None:
        self.browser, self.bin, self.calls = root / "usr-bin" / "chromium", root / "bin", root / "apt-get.log"
        if installed:
            _executable(self.browser, f"#!{BASH}\n")
        _executable(self.bin / "id", f"#!{BASH}\necho {uid}\n")
        _executable(
            self.bin / "apt-get",
            f'#!{BASH}\necho "DEBIAN_FRONTEND=$DEBIAN_FRONTEND $*" >> {self.calls}\n'
            f'if [[ "$1" == install ]]; then /bin/mkdir -p {self.browser.parent}; echo > {self.browser}; '
            f"/bin/chmod +x {self.browser}; fi\n",
        )

    def run(self, **env: str) -> subprocess.CompletedProcess[str]:
        environment = {"PATH": str(self.bin), "ECLIPTIC_CHROMIUM": str(self.browser), **env}
        return subprocess.run(
            [BASH, str(SCRIPT)], env=environment, capture_output=True, text=True, check=False, timeout=60
        )

    def apt_calls(self) -> list[str]:
        return self.calls.read_text().splitlines() if self.calls.exists() else []


@pytest.fixture(autouse=True)
def _posix_shell() -> None:
    if not os.access(BASH, os.X_OK):
        pytest.skip("needs /bin/bash")


def test_with_chromium_installed_it_does_nothing(tmp_path: Path) -> None:
    machine = Machine(tmp_path, uid=0, installed=True)
    done = machine.run()
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert machine.apt_calls() == []


def test_as_root_without_chromium_it_installs_debians_package_non_interactively(tmp_path: Path) -> None:
    machine = Machine(tmp_path, uid=0, installed=False)
    done = machine.run()
    assert done.returncode == 0, done.stderr
    assert machine.apt_calls() == [
        "DEBIAN_FRONTEND=noninteractive update -qq",
        "DEBIAN_FRONTEND=noninteractive install -y -qq --no-install-recommends chromium",
    ]
    assert machine.run().returncode == 0  # a second run finds it installed and installs nothing more
    assert len(machine.apt_calls()) == 2


def test_without_root_it_fails_and_says_what_to_do(tmp_path: Path) -> None:
    machine = Machine(tmp_path, uid=1000, installed=False)
    done = machine.run()
    assert done.returncode == 1
    assert "installing it needs root" in done.stderr and "ECLIPTIC_TEST_BROWSER=skip" in done.stderr
    assert machine.apt_calls() == []


def test_when_asked_to_skip_the_browser_it_installs_nothing(tmp_path: Path) -> None:
    machine = Machine(tmp_path, uid=0, installed=False)
    assert machine.run(ECLIPTIC_TEST_BROWSER="skip").returncode == 0
    assert machine.apt_calls() == []

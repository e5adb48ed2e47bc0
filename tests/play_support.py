"""What the tests of ``ecliptic play`` share beside conftest's ``folders``: the command run
through Typer's runner, never with a traceback in its output."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from ecliptic.cli import app

RUNNER = CliRunner(env={"COLUMNS": "1000"})  # no line is wrapped, however long the temporary path


def run(*args: str, input: str | None = None) -> Result:
    result = RUNNER.invoke(app, list(args), input=input)
    assert "Traceback" not in result.output
    return result

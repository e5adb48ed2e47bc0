"""The ``ecliptic`` console script: :func:`main` answers Ctrl-C at any moment of start-up.

Start-up is mostly Python importing the command line (Typer, Rich, the engine, the bots: most
of a second), and a ``KeyboardInterrupt`` raised there would reach the console script's
wrapper as a traceback. This module imports nothing but :mod:`sys` before it is inside the
``try``, so from the moment the script runs it, Ctrl-C ends the command with exit code 130 and
no traceback, as the commands themselves do once they have started."""

import sys

INTERRUPTED = 130
"""Ctrl-C's exit code, as a shell reports SIGINT (128 + 2), and as ``simulate`` or
``tournament`` exit when it stops them."""


def main() -> None:
    """Import the command line and run it (:func:`ecliptic.cli.main`); Ctrl-C is exit 130."""
    try:
        from ecliptic.cli import main as run

        run()
    except KeyboardInterrupt:
        sys.exit(INTERRUPTED)

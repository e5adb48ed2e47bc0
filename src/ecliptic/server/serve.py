"""``ecliptic serve``: the server on uvicorn, with its database found or named.

The database is ``--database``, else ``$ECLIPTIC_DATABASE_URL``, else a SQLite file in the
user's data folder (:func:`ecliptic.ui.session.data_dir`, ``$ECLIPTIC_DATA_DIR`` overrides
it). Ctrl-C and SIGTERM stop uvicorn gracefully: it stops accepting, lets the requests in
flight finish (an action is committed whole or refused, never half: each is one database
transaction), then the app closes its bots, clocks and connections.

``$ECLIPTIC_IDLE_SECONDS`` (default 600) is how long a game nobody uses stays in memory;
``$ECLIPTIC_WAKE_SECONDS`` (default 30) how often the database is asked for the games that
need the server without a visitor (a bot to play, a turn clock running out).

"Your turn" emails (:mod:`ecliptic.server.mail`) need ``--smtp`` (``$ECLIPTIC_SMTP_URL``), a sender
``--mail-from`` (``$ECLIPTIC_MAIL_FROM``) and the address people reach the pages at, for the
link, ``--public-url`` (``$ECLIPTIC_PUBLIC_URL``); ``$ECLIPTIC_MAIL_DELAY`` (default 60) is how
long a seat waits before it is emailed, ``$ECLIPTIC_MAIL_PER_HOUR`` (default 20) how many emails
one address may get in an hour, all games together. A malformed SMTP URL or sender stops the
start with the reason; a missing sender or public address only turns email off, which the
start-up line says.
"""

from __future__ import annotations

import copy
import os
import socket
import threading
import time
import webbrowser
from collections.abc import Callable
from typing import Any

import uvicorn

from ecliptic.server.games import IDLE_SECONDS, WAKE_SECONDS, GameService
from ecliptic.server.mail import MAIL_DELAY, MAIL_PER_HOUR, MailIncomplete, MailSettings
from ecliptic.server.storage import describe, sqlite_url

DATABASE_ENV = "ECLIPTIC_DATABASE_URL"
IDLE_ENV = "ECLIPTIC_IDLE_SECONDS"
WAKE_ENV = "ECLIPTIC_WAKE_SECONDS"
SMTP_ENV = "ECLIPTIC_SMTP_URL"
MAIL_FROM_ENV = "ECLIPTIC_MAIL_FROM"
PUBLIC_URL_ENV = "ECLIPTIC_PUBLIC_URL"
MAIL_DELAY_ENV = "ECLIPTIC_MAIL_DELAY"
MAIL_PER_HOUR_ENV = "ECLIPTIC_MAIL_PER_HOUR"
WS_MAX_SIZE = 64 * 1024
"""The largest WebSocket frame uvicorn accepts (the app allows far less per message)."""
WS_PER_MESSAGE_DEFLATE = False
"""No permessage-deflate, though browsers offer it: each connection would compress its own
copy of every message (its compressor keeps context between messages, so one compressed
frame cannot serve two connections), which at 1,000 viewers was the larger part of an
action's cost (docs/server-benchmark.md). The messages are small (a patch, a few hundred
bytes) and a browser on localhost or behind a reverse proxy gains nothing from it."""


def database_url(option: str | None) -> str:
    if option:
        return option
    env = os.environ.get(DATABASE_ENV)
    if env:
        return env
    from ecliptic.ui.session import data_dir

    return sqlite_url(data_dir() / "server.db")


def seconds(name: str, default: float) -> float:
    """A positive number of seconds from the environment variable ``name``."""
    text = os.environ.get(name)
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise ValueError(f"${name} must be a positive number of seconds, not {text!r}")
    return value


def count(name: str, default: int) -> int:
    """A positive whole number from the environment variable ``name``."""
    text = os.environ.get(name)
    if not text:
        return default
    if not text.strip().isdigit() or int(text) < 1:
        raise ValueError(f"${name} must be a whole number from 1 on, not {text!r}")
    return int(text)


def mail_settings(smtp: str | None, mail_from: str | None,
                  public_url: str | None) -> tuple[MailSettings | None, str]:
    """The email settings from the options (else the environment) and the start-up line that
    says what they are, without the password. :class:`ecliptic.server.mail.MailConfigError` for
    settings that are wrong (a typo the host must hear of); ``None`` when email is off (no SMTP
    server, or no sender or public address), and the line says why."""
    smtp = smtp or os.environ.get(SMTP_ENV) or None
    mail_from = mail_from or os.environ.get(MAIL_FROM_ENV) or None
    public_url = public_url or os.environ.get(PUBLIC_URL_ENV) or None
    if smtp is None:
        return None, "Email: off (no --smtp)"
    try:
        settings = MailSettings.parse(smtp, mail_from, public_url, delay=seconds(MAIL_DELAY_ENV, MAIL_DELAY),
                                      per_hour=count(MAIL_PER_HOUR_ENV, MAIL_PER_HOUR))
    except MailIncomplete as exc:
        return None, f"Email: off ({exc})"
    return settings, f"Email: through {settings.describe()} from {settings.sender}, links to {settings.public_url}"


def address(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


class _Server(uvicorn.Server):
    """Uvicorn, telling the game service once it listens: the games that need the server (a bot
    to move, a deadline due) are resumed only then, so they never delay the first answer."""

    def __init__(self, config: uvicorn.Config, service: GameService) -> None:
        super().__init__(config)
        self.service = service

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self.service.listening()


def log_config() -> dict[str, Any]:
    """Uvicorn's own logging set-up, with the server's logger (``ecliptic``) beside uvicorn's at
    INFO on the same handler: without it Python shows only warnings, and a host never reads the
    lines meant for them (the schema migrated, a turn clock run out, idle games unloaded, a
    WebSocket refused for its origin)."""
    config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    config["loggers"]["ecliptic"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    return config


def run(host: str, port: int, database: str | None, open_browser: bool,
        say: Callable[[str], None] = print, *, smtp: str | None = None, mail_from: str | None = None,
        public_url: str | None = None, levels: dict[str, str] | None = None) -> None:
    """Serve until Ctrl-C or SIGTERM. ``levels``: the host's own bot levels (``--level``,
    :func:`ecliptic.server.levels.parse`), offered beside the built-in ones."""
    from ecliptic.server.app import create_app

    url = database_url(database)
    mail, mail_line = mail_settings(smtp, mail_from, public_url)
    base = address(host, port)
    # Bots get every core but one (the event loop's), at least one.
    # No base_url: join links are relative (/play/...), right behind a proxy or on 0.0.0.0 too.
    app = create_app(url, bot_workers=max(1, (os.cpu_count() or 2) - 1),
                     idle_seconds=seconds(IDLE_ENV, IDLE_SECONDS), wake_seconds=seconds(WAKE_ENV, WAKE_SECONDS),
                     resume_when_listening=True, mail=mail, levels=levels)
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=WS_MAX_SIZE,
                            ws_per_message_deflate=WS_PER_MESSAGE_DEFLATE, timeout_graceful_shutdown=10,
                            log_level="info", log_config=log_config(), server_header=False)
    server = _Server(config, app.state.service)
    say(f"Ecliptic server at {base} (API docs: {base}/docs)")
    say(f"Database: {describe(url)}")
    say(mail_line)
    if levels:
        say("Bot levels: random, easy, normal, hard; the host's: "
            + ", ".join(f"{name} ({spec})" for name, spec in levels.items()))
    if open_browser:
        def open_when_started() -> None:
            for _ in range(200):
                if server.started:
                    webbrowser.open(base)
                    return
                time.sleep(0.05)

        threading.Thread(target=open_when_started, daemon=True).start()
    server.run()

"""The bot levels a server offers: the built-in ones (random, easy, normal, hard) and the host's
own, ``ecliptic serve --level "NAME=BOTSPEC"`` (a plug-in's bot, a stronger search...).

A request names a *level*, never a bot text: which bots run on the host's machine, and how long
each may think, is the host's decision (a free ``ismcts:60s`` would let one request occupy the
bot pool). So every ``level`` of the API (a bot seat, a seat handed to a bot, a game played on
from a finished one) is checked against :func:`offered`, and one not offered is refused (422)
with the list of those that are; the lobby lists the same levels (``GET /api/options/{game}``).

One server process serves one app, so the offer is the process's: :func:`offer` sets it when the
app is made (:func:`ecliptic.server.app.create_app`), the request models read it."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Annotated

from pydantic import AfterValidator, Field

from ecliptic.bots.base import BUILT_IN_LEVELS

BUILT_IN: dict[str, str] = BUILT_IN_LEVELS
"""The levels every server offers, and the bot each stands for (the same as ``play --level``'s)."""
MAX_NAME = 24
_NAME = re.compile(rf"[a-z][a-z0-9_-]{{0,{MAX_NAME - 1}}}")

_offered: dict[str, str] = dict(BUILT_IN)


class LevelError(ValueError):
    """A ``--level`` the host gave that cannot be offered (the message is one line)."""


def parse(texts: Iterable[str]) -> dict[str, str]:
    """The host's ``NAME=BOTSPEC`` texts as levels: each name short, lower case, given once; each
    bot text one :func:`~ecliptic.bots.make_bot` builds (a plug-in's bot must be loaded first).
    A built-in level's name gives that level another bot (``hard=ismcts:3s``)."""
    from ecliptic.bots.base import BotSpecError, make_bot

    levels: dict[str, str] = {}
    for text in texts:
        name, eq, spec = text.partition("=")
        name, spec = name.strip().lower(), spec.strip()
        if not eq or not name or not spec:
            raise LevelError(f"--level {text!r}: give NAME=BOTSPEC, e.g. --level \"mine=myplugin:v3\"")
        if not _NAME.fullmatch(name):
            raise LevelError(f"--level {text!r}: a level's name is 1 to {MAX_NAME} lower case letters, digits, "
                             "'_' or '-', beginning with a letter")
        if name in levels:
            raise LevelError(f"--level {name} is given twice")
        if "," in spec:
            raise LevelError(f"--level {text!r}: a level is one bot, not a list")
        try:
            make_bot(spec, 0)
        except BotSpecError as exc:
            raise LevelError(f"--level {text!r}: {exc}") from None
        levels[name] = spec
    return levels


def offer(extra: Mapping[str, str] | None = None) -> None:
    """Offer the built-in levels and ``extra`` (from :func:`parse`) from now on."""
    _offered.clear()
    _offered.update(BUILT_IN)
    _offered.update(extra or {})


def offered() -> dict[str, str]:
    """Each level offered now, in the order the lobby lists them, and its bot text."""
    return dict(_offered)


def spec_of(level: str) -> str:
    """The bot text a level stands for. A level no longer offered (a game stored by a server
    started with other ``--level``\\ s) is given to :func:`~ecliptic.bots.make_bot` as it is:
    a built-in bot's name still plays, another is the bot's failure the server logs."""
    return _offered.get(level, level)


def check(level: str) -> str:
    """``level`` if it is offered; otherwise a ``ValueError`` naming the ones that are (the
    request's 422)."""
    if level not in _offered:
        raise ValueError(f"the level {level[:MAX_NAME + 16]!r} is not offered here; this server offers: "
                         f"{', '.join(_offered)}")
    return level


Level = Annotated[str, Field(max_length=64, description=(
    "a bot level this server offers (GET /api/options/{game}'s bot_levels: random, easy, normal, hard and the "
    "host's own)")), AfterValidator(check)]
"""A request's ``level``: a string checked against the levels offered."""

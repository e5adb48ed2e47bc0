"""What a bot is, and how to make one from a short text (``random``, ``heuristic``,
``ismcts:200ms``, ``ismcts:500it/c=0.5``, or a level: ``easy``, ``normal``, ``hard``), and how a
bot from outside Ecliptic joins them (:func:`register_bot`, called by a plug-in:
:mod:`ecliptic.bots.plugins`).

Bots are *fair*: a bot sees the game only as a player at the table would. It may call
``game.legal_actions(state)``, ``game.observe(state, seat)`` and
``game.determinize(state, seat, rng)`` (a copy with everything it cannot see re-dealt),
and nothing else; it never reads the state's fields, hands or deck orders directly.
It owns its randomness (an :class:`~ecliptic.engine.rng.Rng` of its own, never Python's
global ``random``), so a game played by seeded bots is reproducible and the bots' choices
never disturb the game's own dice.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ecliptic.engine.actions import Action
from ecliptic.engine.errors import EclipticError
from ecliptic.engine.rng import Rng

# Mixed into a game's seed so the bots' generators never replay the game's own dice.
_BOT_SALT = 0xB07_5EED_C0FF_EE11


class BotSpecError(EclipticError, ValueError):
    """A bot name the command line or the simulator does not know, or bad bot options."""


class Bot(Protocol):
    """A player that chooses actions.

    ``choose`` is called only when ``seat`` has the pending decision, and must return one
    of ``game.legal_actions(state)``. It may consult only ``game.legal_actions``,
    ``game.observe(state, seat)`` and ``game.determinize(state, seat, rng)``: bots play
    fair, seeing what their seat sees.
    """

    name: str

    def choose(self, game: Any, state: Any, seat: int) -> Action: ...


BotFactory = Callable[[str | None, int], Bot]
"""Builds a bot from the option text after the colon (``"200ms"`` in ``ismcts:200ms``,
``None`` when there is none) and a seed."""

_FACTORIES: dict[str, BotFactory] = {}
_PLANNED: dict[str, str] = {}
_OWNERS: dict[str, str] = {}
"""The module each bot's factory comes from (what a clash names)."""

LEVELS = {
    "easy": "heuristic:epsilon=0.35",
    "normal": "heuristic",
    "hard": "ismcts:1s",
}
"""Levels a player chooses from, and the bot (with its budget) each one stands for."""
BUILT_IN_LEVELS: dict[str, str] = {"random": "random", **LEVELS}
"""Every level offered everywhere a player picks one (``play --level``, the server's lobby),
and the bot text each stands for."""


def check_level(level: str) -> str:
    """The level a player names, as :func:`make_bot` takes it: a built-in level
    (:data:`BUILT_IN_LEVELS`), or a bot by its bare name (a plug-in's: a friend's bot, once
    installed, is picked as a level is). A bot with options (``ismcts:200ms``) or a list is not
    a level: :class:`BotSpecError` saying so, or naming the levels and bots there are."""
    name = level.strip().lower()
    if name in BUILT_IN_LEVELS:
        return name
    known = [n for n in bot_names() if n not in BUILT_IN_LEVELS]
    choices = f"{', '.join(BUILT_IN_LEVELS)}, or a bot's name ({', '.join(known)})"
    if ":" in name or "," in name:
        raise BotSpecError(f"a level is one name: {choices}; a bot with options, or one per seat, is --bots "
                           f"{level.strip()}")
    if name not in known:
        raise BotSpecError(f"unknown level {level.strip()!r}; the levels are {choices}")
    return name


class BotNameError(BotSpecError, RuntimeError):
    """A bot registered under a name that is taken, or that no bot text could reach."""


_NAME = re.compile(r"[a-z][a-z0-9_.-]*")


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a bot available to :func:`make_bot` (and so to ``--bot``/``--bots``, and to a plug-in's
    users: :mod:`ecliptic.bots.plugins`). The name is what a bot text starts with: lower case
    letters, digits, ``_ . -``, beginning with a letter, not a level's (a level is looked up
    first, so a bot of that name could never be made), and not taken."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise BotNameError(f"a bot's name is lower case letters, digits, '_', '.' or '-', beginning with a "
                           f"letter (it starts a bot text like NAME:OPTIONS), not {name!r}")
    if name in LEVELS:
        raise BotNameError(f"{name!r} is a level ({', '.join(LEVELS)}): give the bot another name")
    if name in _FACTORIES:
        owner = _OWNERS.get(name, "?")
        raise BotNameError(f"a bot named {name!r} is already registered (by {owner}): give the bot another name")
    _FACTORIES[name] = factory
    _OWNERS[name] = str(getattr(factory, "__module__", None) or "?")


def bot_names() -> list[str]:
    """The bots :func:`make_bot` can build now (the installed plug-ins' and ``$ECLIPTIC_PLUGINS``'
    included: they are loaded on the first call)."""
    _load_bots()
    return sorted(_FACTORIES)


def make_bot(spec: str, seed: int) -> Bot:
    """Build a bot from its text, e.g. ``"random"`` or (once written) ``"ismcts:200ms"``.

    Unknown names are refused with a :class:`BotSpecError` that lists the known ones; a plug-in
    that cannot be loaded, with its :class:`~ecliptic.bots.plugins.PluginError`."""
    _load_bots()
    spec = LEVELS.get(spec.strip().lower(), spec)
    name, _, option = spec.strip().partition(":")
    name = name.lower()
    factory = _FACTORIES.get(name)
    if factory is not None:
        return factory(option or None, seed)
    known = ", ".join(bot_names())
    if name in _PLANNED:
        raise BotSpecError(f"the {name!r} bot ({_PLANNED[name]}) is not available yet; "
                           f"available bots: {known}")
    raise BotSpecError(f"unknown bot {spec.strip()!r}; available bots: {known} "
                       f"(levels: {', '.join(LEVELS)})")


def parse_options(spec_name: str, option: str | None, known: set[str]) -> tuple[list[str], dict[str, str]]:
    """Split a bot's option text at ``/`` into plain words and ``key=value`` pairs
    (``"200ms/c=0.5"`` -> ``["200ms"], {"c": "0.5"}``). Keys must be in ``known`` or start
    with ``w.`` (an evaluation weight, checked by the evaluator)."""
    words: list[str] = []
    named: dict[str, str] = {}
    for part in (option or "").split("/"):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq:
            words.append(part)
            continue
        key = key.strip().lower()
        if key not in known and not key.startswith("w."):
            raise BotSpecError(f"the {spec_name} bot has no option {key!r}; options: "
                               f"{', '.join(sorted(known))}, w.<weight>")
        named[key] = value.strip()
    return words, named


def number_option(spec_name: str, named: dict[str, str], key: str, default: float,
                  low: float, high: float) -> float:
    """A numeric option within [low, high], or a :class:`BotSpecError` saying what is wrong."""
    if key not in named:
        return default
    try:
        value = float(named[key])
    except ValueError:
        raise BotSpecError(f"{spec_name} option {key} must be a number, not {named[key]!r}") from None
    if not low <= value <= high:
        raise BotSpecError(f"{spec_name} option {key} must be between {low:g} and {high:g} (got {value:g})")
    return value


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot playing ``seat`` in the game with ``game_seed``: fixed by the two,
    and unrelated to the game's own generator (which starts from ``game_seed`` itself)."""
    return Rng.from_seed(game_seed ^ _BOT_SALT ^ (seat * 0x9E37_79B9)).next_u64()


def decision_seed(game_seed: int, seat: int, index: int) -> int:
    """The seed of ``seat``'s bot for the decision at action ``index`` (the length of the record
    so far) of the game with ``game_seed``. Seeding each decision from the position, not
    letting one generator run on from the game's start, makes a bot's choice the same however
    the game came to that position: resumed from a save, on a restarted server, or played
    straight through."""
    return bot_seed(game_seed, seat) ^ index


def reseed(bot: Bot, seed: int) -> None:
    """Start ``bot``'s own generator (its ``rng``) afresh from ``seed``, as a bot built with
    ``make_bot(spec, seed)`` starts it, keeping whatever else the bot holds (the heuristic
    bot's kept copy during a Move's steps, which a new bot would lose). A bot with no
    generator of that kind is left alone."""
    if isinstance(getattr(bot, "rng", None), Rng):
        setattr(bot, "rng", Rng.from_seed(seed))  # noqa: B010  (the Bot protocol names no rng)


def decide(bot: Bot, game: Any, state: Any, seat: int, game_seed: int, index: int) -> Action:
    """``bot``'s choice for ``seat`` at action ``index`` of the game with ``game_seed``, its
    generator started afresh from :func:`decision_seed`: the one way the terminal and the
    server's bot workers ask a bot, so both choose alike."""
    reseed(bot, decision_seed(game_seed, seat, index))
    return bot.choose(game, state, seat)


def replay_for(bot: Bot, game: Any, config: Any, game_seed: int, actions: Sequence[str], seat: int) -> Any:
    """The state after ``actions``, with ``bot`` (about to decide for ``seat``) holding what it
    would hold had it played ``seat`` all along.

    A bot may keep something from one of its decisions to the next (the heuristic bot keeps
    the copy it chose a Move on, to choose the Move's steps on it: a fresh copy rolls other
    dice and stops the Move before its first sector, docs/bots.md "Habits"). A bot built anew
    for a decision (the server builds one per decision, in whichever worker is free; a game
    resumed from a save) holds nothing, so it is walked through ``seat``'s own decisions
    that lead up to this one, from where that run began: what a bot keeps never outlives
    another seat's action (what the seat sees then no longer matches the copy), so nothing
    before the run matters. A bot that keeps nothing (``remembers`` false: random, ISMCTS)
    is not walked. At each of those decisions the bot is told the action actually taken
    (its ``taken``, if it has one): the seat's own bot took its own choice, which changes
    nothing, but a person asking for a suggestion took their own, and the bot keeps what it
    would have kept had it taken that (docs/bots.md "Suggestions mid-Move")."""
    state = game.new_game(config, game_seed)
    remembers = bool(getattr(bot, "remembers", False))
    begun, start = 0, state.clone() if remembers else None
    parsed = [Action.parse(text) for text in actions]
    for index, action in enumerate(parsed):
        if remembers and state.current_player != seat:
            begun, start = index + 1, None
        game.apply(state, action)
        if remembers and start is None and state.current_player == seat:
            start = state.clone()
    if start is None or begun >= len(parsed) or state.current_player != seat:
        return state
    for index in range(begun, len(parsed)):
        decide(bot, game, start, seat, game_seed, index)
        taken = getattr(bot, "taken", None)
        if taken is not None:
            taken(game, seat, parsed[index])
        game.apply(start, parsed[index])
    return state


def load_builtin_bots() -> None:
    """Import the bot modules that register themselves (only once; imports are cached)."""
    from ecliptic.bots import heuristic, ismcts, random_bot  # noqa: F401


def _load_bots() -> None:
    """The built-in bots, then the installed plug-ins and ``$ECLIPTIC_PLUGINS``' (each loaded
    once per process: a worker process finds them as the command's process did)."""
    load_builtin_bots()
    from ecliptic.bots import plugins

    plugins.load_installed()
    plugins.load_env()

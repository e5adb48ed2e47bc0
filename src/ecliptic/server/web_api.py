"""The browser client's routes: its pages, its static files and the lobby's options.

* ``/`` the lobby, ``/play/{id}`` a seat's game page (a join link adds ``#seat=N&token=`` with its
  one-use token, which the page takes the seat with: a fragment, which browsers never send to a
  server), ``/watch/{id}`` a spectator's.
* ``/static/...`` the modules and style sheets (package data, :data:`ecliptic.web.STATIC`).
* ``GET /api/options/{game}``: every option the engine has for a new game, read from the
  engine itself (the game's ``Config`` dataclass, its content, the bot levels), so the
  lobby builds its form from this answer and no option is written twice.
"""

from __future__ import annotations

import dataclasses
import importlib
import mimetypes
from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin, get_type_hints

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.types import Scope

from ecliptic.games import GAME_NAMES, get_game
from ecliptic.server.games import NotFound
from ecliptic.server.levels import offered
from ecliptic.server.models import CreateGame
from ecliptic.web import STATIC

# Python's table predates ES modules on some systems; a module must come as JavaScript.
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("text/css", ".css")
mimetypes.add_type("image/svg+xml", ".svg")

router = APIRouter()


class NoCacheStatic(StaticFiles):
    """The static files, revalidated on every load (``no-cache`` still lets the browser use
    its copy when the file has not changed): an upgraded server never runs old modules."""

    async def get_response(self, path: str, scope: Scope) -> Any:
        response = await super().get_response(path, scope)
        response.headers["Cache-Control"] = "no-cache"
        return response


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html; charset=utf-8", headers={"Cache-Control": "no-cache"})


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)  # HEAD: uptime monitors
async def lobby() -> FileResponse:
    return _page("lobby.html")


@router.get("/play/{game_id}", include_in_schema=False)
async def play(game_id: str) -> FileResponse:
    return _page("game.html")


@router.get("/watch/{game_id}", include_in_schema=False)
async def watch(game_id: str) -> FileResponse:
    return _page("game.html")


class Modules(BaseModel):
    files: list[str]


@router.get("/api/web/modules", include_in_schema=False)
async def modules() -> Modules:
    """The static files this build has: the pages import the optional modules (the table,
    the extras) only when present, instead of letting a missing one fail in the console."""
    return Modules(files=sorted(p.name for p in STATIC.iterdir() if p.is_file()))


# -- the lobby's options --------------------------------------------------------------------


class Choice(BaseModel):
    value: str | int
    label: str
    text: str = Field("", description="what the choice means (a tooltip, or the text under a checkbox)")
    rule: str = ""
    """The rule id of the rulebook's text for it (the lobby links it to /rules)."""


class ConfigOption(BaseModel):
    """One field of the game's config table as a form control."""

    name: str = Field(description="the config key")
    label: str
    kind: Literal["choice", "multi", "bool", "seat", "per_seat"] = Field(description=(
        "choice: one of `choices`; multi: any subset of `choices` (a list); bool: a checkbox; "
        "seat: a seat number (0 to players-1); per_seat: one of `choices` per seat, all different, or none"))
    choices: list[Choice] = Field(default_factory=list)
    default: Any = None
    help: str = ""


class PlayerCount(BaseModel):
    min: int
    max: int
    default: int


class GameOptions(BaseModel):
    game: str
    title: str
    players: PlayerCount
    options: list[ConfigOption]
    bot_levels: list[Choice]
    suggestions: bool = Field(description="this server offers move suggestions (CreateGame's `suggestions`)")


TITLES = {"tauceti": "Tau Ceti: Planetary Crisis", "ceres": "Ceres (with its Comets expansion)"}
LABELS = {
    "factions": "Faction", "game": "Game length", "layout": "Layout", "advanced": "Advanced Rules",
    "first_player": "First player", "advanced_specialists": "Advanced Specialists", "tie_break": "Ties",
    "expansions": "Expansions",
}
HELP = {
    "factions": "each player's Alien race; left at random, the factions are dealt at random",
    "layout": "who lays out the hex tiles",
    "advanced_specialists": "shuffle the Advanced Specialists into the Specialist deck",
    "tie_break": "what decides between tied players (the rulebook names no tie-break)",
    "first_player": "the seat that begins the first round",
}
VALUE_LABELS = {
    ("game", "short"): "Short", ("game", "full"): "Full",
    ("layout", "players"): "The players place the tiles", ("layout", "random"): "Tiles laid out at random",
    ("layout", "preset"): "The preset layout",
    ("tie_break", "shared"): "Tied players share the win", ("tie_break", "tau"): "Most TAU, then most GP tokens",
}
LOBBY_DEFAULTS: dict[tuple[str, str], Any] = {("tauceti", "game"): "short", ("tauceti", "layout"): "random",
                                              ("ceres", "expansions"): ["comets"]}
"""What the lobby starts with where the engine's default is the rulebook's full game: a first
game is a short one with the tiles laid out at random (what `make play` used to start), and
Ceres, offered as "Ceres (with its Comets expansion)", starts with Comets ticked, so the game
created as offered is the game the list names."""
BOT_TEXTS = {"random": "plays a random legal action", "heuristic": "a heuristic bot",
             "heuristic:epsilon=0.35": "a heuristic bot that errs now and then",
             "ismcts:1s": "a search bot (ISMCTS), about 1 s a move"}


def _valid(game: Any, **config: Any) -> bool:
    """The engine accepts this config (its ``Config.__post_init__`` decides)."""
    try:
        game.config_type(**config)
    except (ValueError, TypeError):
        return False
    return True


def _rule_text(game: str, rule_id: str) -> str:
    """The rulebook's sentence for a rule, from the rules reference when this build has it
    (``ecliptic.present.rules``); ``""`` otherwise."""
    try:
        rules = importlib.import_module("ecliptic.present.rules")
        found = rules.rule(game, rule_id)
    except Exception:  # no rules reference in this build, or a rule it does not know
        return ""
    if found is None:
        return ""
    for attribute in ("text", "sentence", "sentences"):
        text = getattr(found, attribute, None)
        if isinstance(text, str) and text:
            return text
        if isinstance(text, list | tuple) and text:
            return " ".join(str(t) for t in text)
    return ""


def _factions(name: str, game: Any) -> list[Choice]:
    from ecliptic.tauceti.content import default_content

    return [Choice(value=f.name, label=f.name,
                   text=f"{f.character}, home planet {f.home_planet.title()}, specialization {f.specialization}")
            for f in default_content().factions]


def _advanced_rules(name: str, game: Any) -> list[Choice]:
    numbers = [n for n in range(1, 21) if _valid(game, advanced=(n,))]
    out = []
    for n in numbers:
        label, rule = f"Advanced Rule {n}", f"TC-ADV{n}-1"
        text = _rule_text("tauceti", rule).removeprefix(f"{label}:").strip()
        out.append(Choice(value=n, label=label, text=text, rule=rule))
    return out


def _expansions(name: str, game: Any) -> list[Choice]:
    from ecliptic.ceres.state import EXPANSIONS

    return [Choice(value=e, label=e.title(), text=f"the {e.title()} expansion") for e in EXPANSIONS]


SOURCES: dict[tuple[str, str], Callable[[str, Any], list[Choice]]] = {
    ("tauceti", "factions"): _factions,
    ("tauceti", "advanced"): _advanced_rules,
    ("ceres", "expansions"): _expansions,
}
"""Where the choices of a list field come from: the game's content or its rules."""


def _length_text(value: str) -> str:
    from ecliptic.tauceti.content import default_content

    rounds = getattr(default_content().numbers, f"{value}_game_rounds", None)
    return f"{rounds} rounds" if rounds else ""


def config_options(name: str) -> GameOptions:
    """The form for a new game of ``name``, read off its ``Config`` dataclass: a Literal is a
    choice, a bool a checkbox, a list a set of choices from the content, ``first_player`` a seat."""
    game = get_game(name)
    config_type = game.config_type
    hints = get_type_hints(config_type)
    counts = [n for n in range(1, 9) if _valid(game, players=n)]
    defaults = config_type()
    options: list[ConfigOption] = []
    for f in dataclasses.fields(config_type):
        hint, default = hints[f.name], LOBBY_DEFAULTS.get((name, f.name), getattr(defaults, f.name))
        label, help_text = LABELS.get(f.name, f.name.replace("_", " ").capitalize()), HELP.get(f.name, "")
        if f.name == "players":
            continue
        if f.name == "first_player":
            options.append(ConfigOption(name=f.name, label=label, kind="seat", default=default, help=help_text))
        elif hint is bool:
            options.append(ConfigOption(name=f.name, label=label, kind="bool", default=default, help=help_text))
        elif get_origin(hint) is Literal:
            choices = [Choice(value=v, label=VALUE_LABELS.get((f.name, v), str(v)),
                              text=_length_text(v) if f.name == "game" and name == "tauceti" else "")
                       for v in get_args(hint)]
            options.append(ConfigOption(name=f.name, label=label, kind="choice", choices=choices, default=default,
                                        help=help_text))
        elif get_origin(hint) is tuple and (name, f.name) in SOURCES:
            choices = SOURCES[name, f.name](f.name, game)
            kind: Literal["multi", "per_seat"] = "per_seat" if f.name == "factions" else "multi"
            options.append(ConfigOption(name=f.name, label=label, kind=kind, choices=choices, default=list(default),
                                        help=help_text))
    levels = [Choice(value=level, label=level.title(), text=BOT_TEXTS.get(spec, f"the host's bot {spec}"))
              for level, spec in offered().items()]  # the built-in levels and the host's (server/levels.py)
    return GameOptions(game=name, title=TITLES.get(name, name),
                       players=PlayerCount(min=min(counts), max=max(counts), default=defaults.players),
                       options=options, bot_levels=levels, suggestions="suggestions" in CreateGame.model_fields)


class GameName(BaseModel):
    game: str
    title: str


@router.get("/api/options", response_model=list[GameName])
async def games() -> list[GameName]:
    """The games a new game may be of."""
    return [GameName(game=name, title=TITLES.get(name, name)) for name in GAME_NAMES]


@router.get("/api/options/{game}", response_model=GameOptions)
async def options(game: str) -> GameOptions:
    """Every option of a new game of ``game`` (``tauceti`` or ``ceres``), for the lobby's form."""
    if game not in GAME_NAMES:
        raise NotFound(f"there is no game {game[:40]!r}; the games are {', '.join(GAME_NAMES)}")
    return config_options(game)


def mount(app: Any) -> None:
    """The pages' router and the static files on ``app``."""
    app.include_router(router)
    app.mount("/static", NoCacheStatic(directory=STATIC), name="static")

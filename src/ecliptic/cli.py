"""The ``ecliptic`` command: play Tau Ceti against bots, simulate bot games, replay a save.

The command line talks to a game only through the engine contract (``new_game``,
``legal_actions``, ``apply``, ``observe``, events) and to bots through
:func:`ecliptic.bots.make_bot`, so new rules and new bots appear here without changes.
User mistakes (a bad option, an illegal action, a corrupt save file) are answered with a
message and an exit code, never a traceback.
"""

from __future__ import annotations

import functools
import json
import math
import secrets
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import typer
from rich import box
from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from ecliptic.bots.base import Bot, BotSpecError, check_level, make_bot
from ecliptic.cli_options import (
    GAME_SEED_CHECK,
    AdvancedOption,
    AdvancedSpecialistsOption,
    BackendName,
    ExpansionsOption,
    GameLengthOption,
    GameSeedOption,
    LayoutOption,
    PluginOption,
    RayAddress,
    RunSeedOption,
    Workers,
    check_game_seed,
)
from ecliptic.engine.actions import Action
from ecliptic.engine.errors import ContentError, SaveFileError
from ecliptic.engine.events import Event
from ecliptic.engine.record import GameRecord, replay, state_digest
from ecliptic.engine.rng import Rng
from ecliptic.engine.wording import plural
from ecliptic.games import GAME_NAMES, ContentPack, get_game, points_name, seat_name
from ecliptic.present.view import actions as present_actions
from ecliptic.present.view import closed_reasons
from ecliptic.sim.backends import Backend, BackendError, get_backend
from ecliptic.sim.simulate import (
    RunInterrupted,
    SimulationError,
    SimulationSummary,
    check_run,
    played_as,
    range_text,
)
from ecliptic.sim.simulate import simulate as run_simulation
from ecliptic.tauceti.battle import canonical_shields
from ecliptic.tauceti.content import default_content
from ecliptic.ui import terminal
from ecliptic.ui.session import (
    GameConsole,
    Session,
    against,
    autosave_notice,
    in_play,
    is_autosave,
    make_bots,
    read_meta,
    resolve_save,
    stdin_is_tty,
)

if TYPE_CHECKING:
    from ecliptic.sim.tournament import TournamentResult

app = typer.Typer(
    name="ecliptic",
    help="Tau Ceti: Planetary Crisis and Ceres (with its Comets expansion): play in the browser "
         "with friends and bots (serve) or in the terminal (play); simulate, run tournaments and "
         "balance studies; replay saved games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
    # (the docstrings are wrapped at 100 columns: in Markdown mode a single line break is a
    # space and Rich wraps the text to the terminal; "rich" mode kept each docstring line's break)
    rich_markup_mode="markdown",
)

GameLength = Literal["short", "full"]
Layout = Literal["players", "random", "preset"]
EXIT_USAGE = 2  # bad options or an unreadable/foreign save file
_FACTION_SALT = 0xFAC7_1045


def _console(stderr: bool = False) -> Console:
    return Console(highlight=False, stderr=stderr)


def _fail(console: Console, message: str, code: int = EXIT_USAGE) -> typer.Exit:
    """The error as one line (``soft_wrap``: Rich does not break it at the terminal's width, so
    a message naming a long path reads, and is searched, as it was written)."""
    console.print(Text(f"Error: {message}", style="bold red"), soft_wrap=True)
    return typer.Exit(code)


EXIT_INTERRUPTED = 130  # Ctrl-C, as a shell reports SIGINT (128 + 2)
F = TypeVar("F", bound=Callable[..., Any])


def stops_on_ctrl_c(what: str) -> Callable[[F], F]:
    """A command that has nothing partial to show ends on Ctrl-C with one line saying what was
    stopped and exit 130, as ``play``, ``simulate`` and ``tournament`` do (Click's own answer is
    "Aborted!" and exit 1)."""
    def wrap(command: F) -> F:
        @functools.wraps(command)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return command(*args, **kwargs)
            except KeyboardInterrupt:
                raise _fail(_console(stderr=True), f"interrupted: {what}", EXIT_INTERRUPTED) from None
        return run  # type: ignore[return-value]
    return wrap


# -- play ----------------------------------------------------------------------------


class PlaySession(Session):
    """One human seat against bots, at Tau Ceti (the loop, the commands and saving are
    :class:`ecliptic.ui.session.Session`'s).

    The screen is drawn only from ``game.observe(state, human)`` and the events the
    human may see. Bots move by themselves; the human types a menu number, a notation
    or a command. Every applied action is appended to ``record`` so ``save`` can write
    the game as a replayable record."""

    help_text = terminal.HELP
    not_now_rule = "TC-ACT-3"
    loop_error = SimulationError

    def __init__(
        self,
        game: Any,
        state: Any,
        record: GameRecord,
        human: int,
        bots: Mapping[int, Bot],
        bot_specs: list[str],
        console: Console,
        read: Callable[[str], str] | None = None,
    ) -> None:
        super().__init__(game, state, record, human, bots, bot_specs, console, read, echo=not stdin_is_tty())

    def render_board(self, obs: dict[str, Any], actions: list[Action]) -> RenderableType:
        return terminal.render_board(obs, self.human, actions)

    def render_status(self, obs: dict[str, Any]) -> Text:
        me = obs["players"][self.human]
        return Text.assemble(
            terminal.faction_text(me["faction"]), f" · round {obs['round']} · TAU {me['tau']} · "
            f"Energy {me['energy']} · Materials {me['materials']} · at {terminal.tile_name(me['position'])}"
            f" · markers left {terminal.markers_left(me)}", ("  ('board' for the whole table)", "dim"))

    def render_decision(self, obs: dict[str, Any], actions: Sequence[Action] = ()) -> RenderableType:
        if not actions:
            return terminal.describe_decision(obs, self.human)
        return terminal.describe_decision(obs, self.human, {a.verb for a in actions},
                                          closed_reasons(self.game, self.state, self.human, obs))

    def render_menu(self, obs: dict[str, Any], actions: list[Action]) -> RenderableType:
        return terminal.action_menu(present_actions(self.game, self.state, self.human, obs, actions))

    def render_final(self, obs: dict[str, Any]) -> RenderableType:
        return terminal.render_final(obs)

    def notation(self, line: str) -> str:
        """``SHIELD 4,1,3`` read as the canonical ``SHIELD 1,3,4`` (the engine's own reading)."""
        return str(canonical_shields(Action.parse(line)))


def load_record(path: Path) -> GameRecord:
    """``GameRecord.load``: any file that is not a record (binary, too large, not a regular file,
    nested too deeply, ...) is a :class:`SaveFileError` saying why."""
    return GameRecord.load(path)


def load_game(path: Path) -> tuple[GameRecord, Any]:
    """Load a save file and replay it; any problem is a :class:`SaveFileError` with a message."""
    record = load_record(path)
    _known_game(path, record)
    return record, _replayed(path, record)


def _known_game(path: Path, record: GameRecord) -> str:
    if record.game not in GAME_NAMES:
        raise SaveFileError(f"{path} is a record of the game {record.game!r}, which Ecliptic does not know")
    return record.game


def _replayed(path: Path, record: GameRecord, **options: Any) -> Any:
    """``replay(record, **options)``; whatever stops it is a :class:`SaveFileError` naming the file."""
    try:
        return replay(record, **options)
    except SaveFileError as exc:
        raise SaveFileError(f"{path}: {exc}") from None
    except Exception as exc:  # the record names actions the engine cannot replay
        raise SaveFileError(f"{path} cannot be replayed: {type(exc).__name__}: {exc}") from None


def _faction_names() -> list[str]:
    return [f.name for f in default_content().factions]


def _pick_faction(name: str) -> str:
    for known in _faction_names():
        if known.lower() == name.strip().lower():
            return known
    raise typer.BadParameter(f"unknown faction {name!r}; choose from {', '.join(_faction_names())}",
                             param_hint="--faction")


def _factions_for(faction: str, seat: int, players: int, seed: int) -> list[str]:
    """The human's faction at their seat; the others dealt at random (fixed by the seed)."""
    others = [n for n in _faction_names() if n != faction]
    Rng.from_seed(seed ^ _FACTION_SALT).shuffle(others)
    chosen = others[: players - 1]
    chosen.insert(seat, faction)
    return chosen


def parse_advanced(text: str | None) -> list[int]:
    """``--advanced 1,3,6`` or ``--advanced all`` → the Advanced Rule numbers (1-9)."""
    if not text:
        return []
    if text.strip().lower() == "all":
        return list(range(1, 10))
    try:
        rules = sorted({int(part) for part in text.split(",") if part.strip()})
    except ValueError:
        raise typer.BadParameter("give Advanced Rule numbers separated by commas (e.g. 1,3,6) or 'all'",
                                 param_hint="--advanced") from None
    bad = [r for r in rules if not 1 <= r <= 9]
    if bad:
        raise typer.BadParameter(f"there is no Advanced Rule {bad[0]} (1-9)", param_hint="--advanced")
    return rules


def parse_expansions(text: str | None) -> list[str]:
    """``--expansions comets`` → the expansion names (Ceres)."""
    return [part.strip().lower() for part in (text or "").split(",") if part.strip()]


def game_config(game: str, *, game_length: str = "full", layout: str = "players", advanced: str | None = None,
                advanced_specialists: bool = False, expansions: str | None = None) -> dict[str, Any]:
    """The config table of one game from the command-line options that apply to it."""
    if game == "ceres":
        if advanced or advanced_specialists:
            raise typer.BadParameter("Advanced Rules are Tau Ceti's; Ceres takes --expansions")
        return {"expansions": parse_expansions(expansions)}
    if expansions:
        raise typer.BadParameter("Tau Ceti has no expansions here; --expansions is for Ceres")
    config: dict[str, Any] = {"game": game_length, "layout": layout, "advanced": parse_advanced(advanced)}
    if advanced_specialists:
        config["advanced_specialists"] = True
    return config


def _new_record(faction: str | None, players: int, seed: int, game: str, layout: str, seat: int,
                extra: dict[str, Any] | None = None) -> GameRecord:
    config: dict[str, Any] = {"players": players, "game": game, "layout": layout, **(extra or {})}
    if faction is not None:
        config["factions"] = _factions_for(_pick_faction(faction), seat, players, seed)
    return GameRecord("tauceti", config, seed)


CERES_REFUSES = ("--faction", "--layout", "--game-length", "--advanced", "--advanced-specialists")
"""The options of ``play`` that are Tau Ceti's only."""
NEW_GAME_OPTIONS = ("game", "players", "faction", "seed", "game_length", "layout", "advanced",
                    "advanced_specialists", "expansions")
"""The options of ``play`` that set up a new game; with ``--resume`` the save has set it up, so
each is refused unless it agrees with the save. ``--bots``, ``--level`` and ``--seat`` choose who
plays it, for a resumed game too."""


@app.command()
def play(
    ctx: typer.Context,
    faction: Annotated[str | None, typer.Option(help="Your faction (Zorhkonian, Xunon, Triolor, Azars); "
                                                     "dealt at random if not given.")] = None,
    players: Annotated[int, typer.Option(min=1, max=4, help="Players, you included (1-4).")] = 2,
    bots: Annotated[str | None, typer.Option(help="Bot for the other seats (random, heuristic, ismcts:200ms, "
                                                  "or a level), or one per seat separated by commas "
                                                  "(default: random, or the bots of --resume's save).")] = None,
    level: Annotated[str | None, typer.Option(
        help="How strong the bots are: random, easy, normal or hard, or a bot's name (a plug-in's: "
             "load it with --plugin, or install it) (instead of --bots).")] = None,
    seed: GameSeedOption = None,
    game: Annotated[str, typer.Option(help="The game: tauceti or ceres.")] = "tauceti",
    game_length: Annotated[GameLength | None, typer.Option(
        help="Tau Ceti: short (8 rounds) or full game (default: full).")] = None,
    layout: Annotated[Layout | None, typer.Option(help="Tau Ceti tile layout: placed by the players (the "
                                                       "rulebook's setup, the default), at random, or the "
                                                       "preset map.")] = None,
    advanced: AdvancedOption = None,
    advanced_specialists: Annotated[bool, typer.Option(
        "--advanced-specialists", help="Tau Ceti: shuffle the Advanced Specialists into the Specialist deck.")] = False,
    expansions: ExpansionsOption = None,
    seat: Annotated[int | None, typer.Option(help="Your seat, counting from 1 as the rulebooks do: seat 1 is "
                                                  "the first player of round 1 (default: 1, or the seat "
                                                  "saved in --resume).")] = None,
    resume: Annotated[Path | None, typer.Option(help="Continue a game saved with 'save FILE', or 'autosave': "
                                                     "the game left last (quit, Ctrl-C, closed terminal). "
                                                     "The options that set up a new game (--players, --seed...) "
                                                     "are refused unless the save agrees.")] = None,
    plugin: PluginOption = None,
) -> None:
    """Play in the terminal, one human seat against bots (Tau Ceti, or Ceres with --game ceres).
    The game is autosaved in the user's data folder after every move, so leaving it, or a killed
    process, loses nothing; --resume autosave goes on. A finished game is kept there too, for
    ecliptic replay."""
    console = GameConsole(highlight=False)  # a closed output pipe saves the game (not Rich's exit 1)
    if game not in GAME_NAMES:
        raise _fail(console, f"unknown game {game!r}; known games: {', '.join(GAME_NAMES)}")
    if bots is not None and level is not None:
        raise _fail(console, f"--bots and --level both choose the bots: give one (--level {level} is "
                             f"--bots {level})")
    index = None if seat is None else _seat_index(seat)
    try:
        spec = bots or (None if level is None else check_level(level))  # a level names a bot and its budget
        if resume is not None:
            given = {name: ctx.params[name] for name in NEW_GAME_OPTIONS if _given(ctx, name)}
            session = _resumed_play(console, resume, spec, index, given)
        else:
            session = _new_play(console, faction, players, spec, seed, game, game_length, layout, advanced,
                                advanced_specialists, expansions, index)
            _greet_autosave(console)  # after every option was checked: an error comes alone
    except (BotSpecError, ValueError) as exc:
        raise _fail(console, str(exc)) from None
    raise typer.Exit(session.run())


def _seat_index(seat: int) -> int:
    """The engine's index of ``--seat``'s seat. A person counts seats from 1, as the rulebooks,
    the web page ("seat 2") and the events ("Player 2") do, and so do ``--seat`` and every text
    of the terminal; the engine and the save files count from 0. ``--seat 0`` (the old counting)
    is refused, never taken for another seat."""
    if seat < 1:
        raise typer.BadParameter(f"seats count from 1, as in the rulebooks: --seat 1 is the first player of "
                                 f"round 1 ({seat} is no seat)", param_hint="--seat")
    return seat - 1


def seat_range(players: int) -> str:
    """The seats of a game as a person counts them: ``1-4``, or ``1`` alone."""
    return "1" if players == 1 else f"1-{players}"


def _given(ctx: typer.Context, name: str) -> bool:
    """Whether the option ``name`` was typed (not left at its default). The source is read by
    its name: Typer may bring a click of its own, whose enum is not ``click``'s."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name not in ("DEFAULT", "DEFAULT_MAP")


def _new_play(console: Console, faction: str | None, players: int, bots: str | None, seed: int | None, game: str,
              game_length: str | None, layout: str | None, advanced: str | None, advanced_specialists: bool,
              expansions: str | None, seat: int | None) -> Session:
    """A new game's session, every option checked; nothing printed yet (:meth:`Session.greet`)."""
    if game == "ceres":
        given = (faction, layout, game_length, advanced, advanced_specialists or None)
        wrong = [name for name, value in zip(CERES_REFUSES, given, strict=True) if value is not None]
        if wrong:
            raise typer.BadParameter(f"{', '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} Tau Ceti's; "
                                     "Ceres takes --players, --bots or --level, --seed, --seat and "
                                     "--expansions", param_hint=wrong[0])
        from ecliptic.ui.ceres_terminal import ceres_session

        human = 0 if seat is None else seat
        if not 0 <= human < players:
            raise typer.BadParameter(f"seat {human + 1} is not a seat of a {players}-player game "
                                     f"({seat_range(players)})", param_hint="--seat")
        return ceres_session(console, seat=human, bots=bots or "random", seed=seed,
                             expansions=parse_expansions(expansions), players=players)
    extra = game_config("tauceti", game_length=game_length or "full", layout=layout or "players",
                        advanced=advanced, advanced_specialists=advanced_specialists, expansions=expansions)
    return _new_session(console, faction, players, bots, seed, game_length or "full", layout or "players", seat,
                        extra)


def _greet_autosave(console: Console) -> None:
    notice = autosave_notice()
    if notice is not None:
        console.print(notice)


def _new_session(console: Console, faction: str | None, players: int, bots: str | None, seed: int | None,
                 game: str, layout: str, seat: int | None, extra: dict[str, Any] | None = None) -> PlaySession:
    seed = secrets.randbits(32) if seed is None else seed
    human = 0 if seat is None else seat
    if not 0 <= human < players:
        raise typer.BadParameter(f"seat {human + 1} is not a seat of a {players}-player game "
                                 f"({seat_range(players)})", param_hint="--seat")
    record = _new_record(faction, players, seed, game, layout, human, extra)
    rules = get_game(record.game)
    state, events = rules.new_game_events(record.config, seed)
    bot_map, specs = make_bots(bots or "random", human, players, seed)
    me = rules.observe(state, human)["players"][human]
    session = PlaySession(rules, state, record, human, bot_map, specs, console)
    session.events = events  # the setup's ("Round 1 begins" with the preset map), shown by greet
    session.opening = [Text.assemble(
        ("Tau Ceti: Planetary Crisis", "bold"), f" · {plural(players, 'player')} · {game} game · seed {seed}\n",
        "You are ", terminal.faction_text(me["faction"]), f", {me['character']}, at seat {human + 1}, "
        f"{against(specs)}. Type 'help' for the commands.")]
    return session


def _resumed_play(console: Console, path: Path, bots: str | None, seat: int | None,
                  given: dict[str, Any]) -> Session:
    """The session of a saved game, of either game: the file read as ``replay --check`` reads
    it (:func:`load_game`, the same message for the same fault); the options that set up a new
    game (``given``) refused unless they agree with the save; the human at ``seat`` or the saved
    seat, against ``bots`` or the saved bots."""
    past: list[Event] = []  # the replayed actions' events: the last ones are recalled (Session.greet)
    try:
        path = resolve_save(path)
        record = load_record(path)
        _known_game(path, record)  # then replayed as load_game does: the same message for the same fault
        state = _replayed(path, record, on_event=lambda _index, _action, events: past.extend(events))
    except SaveFileError as exc:
        raise _fail(console, str(exc)) from None
    if is_autosave(path) and in_play(path):
        raise _fail(console, f"{path} is the game being played now in another ecliptic play (its autosave is "
                             "kept current as it goes); leave it there first")
    rules = get_game(record.game)
    players = len(rules.observe(state, None)["players"])
    meta = read_meta(path)  # its human_seat and bots are of the right types, or absent
    human = seat if seat is not None else meta.get("human_seat", 0)
    conflicts = _disagreements(given, record, state, human if 0 <= human < players else None)
    if conflicts:
        flags = [f"--{name.replace('_', '-')}" for name in conflicts]
        one = len(flags) == 1
        raise _fail(console, f"--resume goes on with the saved game ({path}: {rules.title}, "
                             f"{plural(players, 'player')}, seed {record.seed}); {', '.join(flags)} "
                             f"{'sets' if one else 'set'} up a new one: drop {'it' if one else 'them'}")
    if not 0 <= human < players:
        whose = "--seat" if seat is not None else "the save's seat"
        raise _fail(console, f"{whose} {human + 1} is not a seat of this {players}-player game "
                             f"({seat_range(players)})")
    spec = bots or ",".join(meta.get("bots") or ["random"])
    session: Session
    if record.game == "ceres":
        from ecliptic.ui.ceres_terminal import ceres_session

        session = ceres_session(console, seat=human, bots=spec, resume_record=record)
    else:
        bot_map, specs = make_bots(spec, human, players, record.seed)  # each decision reseeds them (Session.bot_choice)
        session = PlaySession(rules, state, GameRecord(record.game, record.config, record.seed,
                                                       list(record.actions)), human, bot_map, specs, console)
        if record.digest is not None and state_digest(rules, state) != record.digest:
            session.opening.append(Text("Warning: the game replays to a different state than the one saved "
                                        "(the rules have changed since); continuing from the replayed state.",
                                        style="yellow"))
        session.events, session.resumed = past, True
        recalled = " The last events ('log' for more):" if any(e.visible(human) for e in past) else ""
        session.opening.append(Text(f"Resumed {path}: {len(record.actions)} actions replayed, seed "
                                    f"{record.seed}, {against(specs)}.{recalled}", style="green"))
    if is_autosave(path):
        session.autosave = path  # saved over itself when left again, removed when finished
    session.same_seat = human == meta.get("human_seat", 0)  # undo takes back only the seat's own action
    return session


def _disagreements(given: dict[str, Any], record: GameRecord, state: Any, human: int | None) -> list[str]:
    """The options of ``given`` (name: value typed) that set up another game than the saved
    one: a value the save does not have (a Tau Ceti option for a Ceres save, say), or another
    value than the save's. The save's values are its whole config, defaults included."""
    config = state.config
    players = state.players
    saved: dict[str, Any] = {
        "game": record.game, "players": config.players, "seed": record.seed,
        "faction": players[human].faction if human is not None and hasattr(players[human], "faction") else None,
        "game_length": getattr(config, "game", None), "layout": getattr(config, "layout", None),
        "advanced": tuple(sorted(getattr(config, "advanced", ()))),
        "advanced_specialists": getattr(config, "advanced_specialists", False),
        "expansions": tuple(sorted(getattr(config, "expansions", ()))),
    }
    return [name for name, value in given.items() if _option_value(name, value) != saved[name]]


def _option_value(name: str, value: Any) -> Any:
    """A typed option as the save would hold it (``xunon`` is ``Xunon``, ``--advanced 3,1`` is
    ``(1, 3)``); a value no save can hold is ``...`` (so it agrees with none)."""
    try:
        if name == "faction":
            return _pick_faction(value)
        if name == "advanced":
            return tuple(parse_advanced(value))
        if name == "expansions":
            return tuple(sorted(parse_expansions(value)))
    except typer.BadParameter:
        return ...
    return value


# -- simulate ------------------------------------------------------------------------

CONTENT_HELP = ("A folder of the game's content files with an owner's printed values (see content-stand-ins.md "
                "in docs/, 'Playing your printed values'); a file it lacks is the packaged stand-in.")


def _content_pack(err: Console, game: str, folder: Path | None) -> ContentPack | None:
    """The checked pack of ``--content FOLDER`` (``None`` without one); a bad folder stops the
    command with the message naming the file or value."""
    if folder is None:
        return None
    try:
        return ContentPack.read(game, folder)
    except ContentError as exc:
        raise _fail(err, str(exc)) from None


def _open_backend(err: Console, name: str, workers: int | None, address: str | None) -> Backend:
    """The backend of --backend, --workers and --address; a bad value, a missing Ray or a cluster
    that does not answer is one message (exit 2), before any game is played."""
    try:
        return get_backend(name, workers=workers, address=address)
    except (BackendError, ValueError) as exc:
        raise _fail(err, str(exc)) from None


def _check_run(err: Console, seed: int, games: int, first_game: int) -> None:
    """Games past the seed's last (or a bad seed, when the run's seed did not come through
    :data:`~ecliptic.cli_options.RunSeedOption`) is one message (exit 2), before a backend is started."""
    try:
        check_run(seed, games, first_game)
    except ValueError as exc:
        raise _fail(err, str(exc)) from None


def _interrupted(err: Console, games: int, asked: int, seed: int, first_game: int, *, merge: bool) -> typer.Exit:
    """Ctrl-C's one line (exit 130, as a shell reports SIGINT), once what the finished games show is
    printed: which games those are, and how to play the ones left (and, for a tournament, merge)."""
    if not games:
        return _fail(err, "interrupted before any game finished: nothing to show", 130)
    span = range_text(first_game, games)
    then = " and merge the two --json files with tournament-merge" if merge else ""
    return _fail(err, f"interrupted after {games} of {asked} games: the results are those of the {games} finished "
                      f"({span} of seed {seed}); play the rest with --first-game {first_game + games} "
                      f"--games {asked - games}{then}", 130)


R = TypeVar("R")


def _played(err: Console, runner: Backend, progress: Progress, games: int, seed: int, first_game: int, *,
            merge: bool, play: Callable[[Callable[[int, int], None]], R], show: Callable[[Any], None]) -> R:
    """``play(advance)`` on ``runner`` under the progress bar: the one way a run of games
    (``simulate``, ``tournament``) ends. Ctrl-C (:class:`RunInterrupted`) shows the finished games
    (``show``) and exits 130 with :func:`_interrupted`'s line; a Ctrl-C before the first game, or
    after the last (a Ray slow to shut down), is all or nothing; a failed game or backend is
    exit 1, a bad bot or config exit 2."""
    result: R | None = None
    try:
        with runner, progress:
            task = progress.add_task("games", total=games)
            result = play(lambda done, _total: progress.update(task, completed=done))
    except RunInterrupted as stop:
        if stop.partial.games:
            show(stop.partial)
        raise _interrupted(err, stop.partial.games, games, seed, first_game, merge=merge) from None
    except KeyboardInterrupt:
        if result is None:
            raise _interrupted(err, 0, games, seed, first_game, merge=merge) from None
    except (SimulationError, BackendError) as exc:
        raise _fail(err, str(exc), 1) from None
    except (BotSpecError, ValueError) as exc:
        raise _fail(err, str(exc)) from None
    assert result is not None  # (every way out without one raised)
    return result


FirstGameOption = Annotated[int, typer.Option(
    help="Start at this game of the seed's sequence, counting from 0: --first-game 16 --games 16 plays "
         "games 16-31, the second half of --games 32, so a run can be split into parts.")]


@app.command()
def simulate(
    game: Annotated[str, typer.Option(help="The game to simulate.")] = "tauceti",
    players: Annotated[int, typer.Option(min=1, max=4, help="Players per game.")] = 4,
    games: Annotated[int, typer.Option(min=1, help="How many games.")] = 100,
    seed: RunSeedOption = 0,
    first_game: FirstGameOption = 0,
    bot: Annotated[str, typer.Option(
        "--bots", "--bot", help="The bot in every seat (random, heuristic, ismcts:200ms, or a level); "
                                "--bot also works.")] = "random",
    game_length: GameLengthOption = "full",
    layout: LayoutOption = "players",
    advanced: AdvancedOption = None,
    advanced_specialists: AdvancedSpecialistsOption = False,
    expansions: ExpansionsOption = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    workers: Workers = None,
    backend: BackendName = "local",
    address: RayAddress = None,
    content: Annotated[Path | None, typer.Option(help=CONTENT_HELP)] = None,
    plugin: PluginOption = None,
) -> None:
    """Play many bot games and summarize win rates and points by source."""
    out, err = _console(), _console(stderr=True)
    if game not in GAME_NAMES:
        raise _fail(err, f"unknown game {game!r}; known games: {', '.join(GAME_NAMES)}")
    _check_run(err, seed, games, first_game)
    if "," in bot:
        raise _fail(err, f"simulate plays one bot in every seat, not a list ({bot!r}); to seat different bots, "
                         f"use ecliptic tournament --bots {bot}")
    pack = _content_pack(err, game, content)
    config = game_config(game, game_length=game_length, layout=layout, advanced=advanced,
                         advanced_specialists=advanced_specialists, expansions=expansions)
    progress = Progress(TextColumn("Simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=err, disable=json_output, transient=True)
    runner = _open_backend(err, backend, workers, address)
    summary = _played(err, runner, progress, games, seed, first_game, merge=False,
                      play=lambda advance: run_simulation(game, players, games, seed, bot, config, advance,
                                                          keep_results=False, backend=runner, content=pack,
                                                          first_game=first_game),
                      show=lambda partial: _print_summary(out, partial, json_output))
    _print_summary(out, summary, json_output)


def _print_summary(out: Console, summary: SimulationSummary, json_output: bool) -> None:
    if json_output:
        typer.echo(json.dumps(summary.to_json()))
        return
    _print_results(out, Group(simulation_table(summary), simulation_footer(summary)))


UNBOUNDED = 100_000
"""Wider than any table of results: the width they are measured at when nothing bounds them."""


def _print_results(console: Console, results: RenderableType) -> None:
    """Print a table of results. On a terminal it fits the terminal's width (a long bot text folds
    onto more lines, the figures never do). Piped or redirected there is no width to fit, and Rich's
    stand-in of 80 columns (or $COLUMNS) split names as short as ismcts:200ms into ismcts:200m / s:
    there the console is made as wide as the table needs, so every name and line is whole, whatever
    the width of the terminal the command was started from."""
    if not console.is_terminal:
        from rich.measure import Measurement

        needed = Measurement.get(console, console.options.update_width(UNBOUNDED), results).maximum
        console.size = (max(needed, 1), console.height)
    console.print(results)


def simulation_table(summary: SimulationSummary) -> Group:
    """Win rates by faction, then mean points (GP, or VP in Ceres) by source (one row per source,
    one column per faction, so new scoring sources only add rows), each with its 95% interval:
    the balance report's statistics, words and source names (the score sheet's: "GP tokens", not
    ``gp_tokens``), so a designer reads the two alike. A line under the heading says when the
    numbers played are the packaged stand-ins (invented, not the printed game's)."""
    from ecliptic.balance.report import FOLDER_GAPS, pct, source_label, stand_ins_line

    names = sorted(summary.factions)
    points = points_name(summary.game)
    played = "" if summary.content is None else f", content {summary.content.folder} ({summary.content.digest[:12]})"
    span = f" ({range_text(summary.first_game, summary.games)})" if summary.first_game else ""
    count = f"Partial: {summary.games} of {summary.games_asked}" if summary.partial else str(summary.games)
    heading = Text(f"{count} games of {summary.game}, {plural(summary.players, 'player')} each, "
                   f"bot {summary.bot}, seed {summary.seed}{span}{played}", style="bold")
    parts: list[RenderableType] = [heading]
    if summary.stand_ins:
        parts.append(Text(stand_ins_line(summary.game, "these games play"), style="yellow"))
    elif summary.content is not None:
        parts.append(Text(f"These games play the files of {summary.content.folder}; {FOLDER_GAPS}", style="dim"))
    parts.append(Text(played_as(summary.game, summary.config), style="dim"))
    wins = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    first = seat_name(summary.game)
    for col in (first, "Games", "Wins", "Win rate", "95% interval", f"Mean total {points} [95% interval]"):
        wins.add_column(col, justify="left" if col == first else "right")
    for name in names:
        stats = summary.factions[name]
        low, high = stats.interval
        wins.add_row(terminal.faction_text(name), str(stats.games), f"{stats.wins:.4g}", pct(stats.win_rate),
                     f"[{pct(low)}, {pct(high)}]",
                     _mean_with_interval(stats.mean_gp().get("total", 0.0), stats.gp_interval(summary.game, "total")))
    gp = Table(title=f"Mean {points} by source [95% interval]", title_justify="left", box=box.SIMPLE_HEAD,
               pad_edge=False, collapse_padding=True)
    gp.add_column("Source", overflow="fold")
    for name in names:
        gp.add_column(terminal.faction_text(name), justify="right")
    gp.add_column("All", justify="right")
    sources = list(summary.mean_gp)
    for source in sources:
        style = "bold" if source == "total" else ""
        cells = [(s.mean_gp().get(source, 0.0), s.gp_interval(summary.game, source))
                 for s in (summary.factions[n] for n in names)]
        cells.append((summary.mean_gp[source], summary.gp_interval(source)))
        gp.add_row(Text(source_label(source), style=style),  # the interval under its mean: the table stays narrow
                   *(Text(_mean_with_interval(mean, interval, "\n"), style=style) for mean, interval in cells),
                   end_section=len(sources) > 1 and source == sources[-2])
    parts += [wins, gp, Text(
        "95% intervals, as in ecliptic balance: Wilson's for a win rate (a win shared by k players counts 1/k; "
        "at the effective number of games, as a shared win varies less), "
        "Student's t for a mean, cut at 0 where a source cannot cross it. All: the mean over every seat, its "
        "interval over the games' means of their seats.", style="dim")]
    return Group(*parts)


def _mean_with_interval(mean: float, interval: tuple[float, float], gap: str = " ") -> str:
    return f"{mean:.2f}{gap}[{interval[0]:.2f}, {interval[1]:.2f}]"


def simulation_footer(summary: SimulationSummary) -> Text:
    t = summary.timing
    return Text(f"Mean rounds {_mean_with_interval(summary.mean_rounds, summary.rounds_interval)} · decisions per "
                f"game {summary.mean_decisions:.1f} · {t['games_per_second']:.1f} games/s · "
                f"{t['decisions_per_second']:.0f} decisions/s")


# -- tournament ----------------------------------------------------------------------


@app.command()
def tournament(
    bots: Annotated[str, typer.Option(help="Bots at the table, separated by commas (e.g. heuristic,random "
                                           "or heuristic,ismcts:1s), repeated in turn when fewer than the "
                                           "players.")],
    game: Annotated[str, typer.Option(help="The game to play.")] = "tauceti",
    players: Annotated[int, typer.Option(min=1, max=4, help="Players per game.")] = 4,
    games: Annotated[int, typer.Option(min=1, help="How many games.")] = 100,
    seed: RunSeedOption = 0,
    first_game: FirstGameOption = 0,
    workers: Workers = None,
    game_length: GameLengthOption = "full",
    layout: LayoutOption = "random",
    advanced: AdvancedOption = None,
    expansions: ExpansionsOption = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    content: Annotated[Path | None, typer.Option(help=CONTENT_HELP)] = None,
    backend: BackendName = "local",
    address: RayAddress = None,
    plugin: PluginOption = None,
) -> None:
    """Play bots against each other, rotating seats and factions: win rates with 95% confidence
    intervals, mean GP, mean rank and a rating per bot."""
    from ecliptic.sim.tournament import run_tournament

    out, err = _console(), _console(stderr=True)
    if game not in GAME_NAMES:
        raise _fail(err, f"unknown game {game!r}; known games: {', '.join(GAME_NAMES)}")
    _check_run(err, seed, games, first_game)
    pack = _content_pack(err, game, content)
    specs = [b.strip() for b in bots.split(",") if b.strip()]
    config = game_config(game, game_length=game_length, layout=layout, advanced=advanced, expansions=expansions)
    progress = Progress(TextColumn("Tournament"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=err, disable=json_output, transient=True)
    runner = _open_backend(err, backend, workers, address)
    result = _played(err, runner, progress, games, seed, first_game, merge=True,
                     play=lambda advance: run_tournament(game, players, specs, games, seed, config, backend=runner,
                                                         content=pack, progress=advance, first_game=first_game),
                     show=lambda partial: _print_tournament(out, partial, json_output))
    _print_tournament(out, result, json_output)


def _print_tournament(out: Console, result: TournamentResult, json_output: bool) -> None:
    from ecliptic.sim.tournament import tournament_table

    if json_output:
        typer.echo(json.dumps(result.to_json()))
        return
    _print_results(out, tournament_table(result))


@app.command("tournament-merge")
def tournament_merge(
    files: Annotated[list[Path], typer.Argument(help="JSON files written by `ecliptic tournament --json`.")],
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
) -> None:
    """Merge tournaments of the same bots, game and configuration played in parts (several
    commands, machines, seeds or --first-game ranges) into one table: every game counts once (parts
    that hold the same games are refused), ratings are computed again."""
    from ecliptic.sim.tournament import load_tournament, merge

    out, err = _console(), _console(stderr=True)
    try:
        result = merge([load_tournament(path) for path in files], [str(path) for path in files])
    except ValueError as exc:
        raise _fail(err, str(exc)) from None
    _print_tournament(out, result, json_output)


@app.command()
@stops_on_ctrl_c("the calibration was stopped before its ratings")
def calibrate(
    games: Annotated[int, typer.Option(min=1, help="Games to learn from.")] = 150,
    seed: Annotated[int, typer.Option(callback=GAME_SEED_CHECK, help="Seed of the first game, 0 to 2**63 - 1 "
                                                                     "(game i has seed + i).")] = 1000,
    every: Annotated[int, typer.Option(min=1, help="Keep a position every this many decisions.")] = 4,
    players: Annotated[int, typer.Option(min=2, max=4, help="Players per game.")] = 4,
    tune: Annotated[bool, typer.Option("--tune", help="Also tune the evaluation weights to predict the "
                                                       "winners (every 5th game kept apart to test on).")] = False,
    bots: Annotated[str | None, typer.Option(help="Bots that play the games, one per seat, separated by commas "
                                                   "(turned one seat further each game); heuristic bots by "
                                                   "default.")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    plugin: PluginOption = None,
) -> None:
    """Fit the temperature of ISMCTS's win chances (Tau Ceti) to played games (of heuristic
    bots unless --bots names others): the best temperature by share of the game still to come,
    and the curve the weights file uses; with --tune, the evaluation weights too."""
    from ecliptic.bots import calibrate as cal
    from ecliptic.bots.eval_tauceti import TUNED, TauCetiEvaluator, load_weights

    out, err = _console(), _console(stderr=True)
    try:
        check_game_seed(seed, games=games)  # game i has seed + i: the last game's seed is a game seed too
    except ValueError as exc:
        raise _fail(err, str(exc)) from None
    game_obj = get_game("tauceti")
    config = game_config("tauceti", layout="random")
    config["players"] = players
    progress = Progress(TextColumn("Calibrating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=err, disable=json_output, transient=True)
    lineup = [b.strip() for b in bots.split(",") if b.strip()] if bots else ["heuristic"] * players
    if len(lineup) != players:
        raise _fail(err, f"--bots names {plural(len(lineup), 'bot')} for {players} players: name one per seat")
    try:
        for spec in set(lineup):
            make_bot(spec, 0)  # a misspelt bot is refused before any game is played
        with progress:
            task = progress.add_task("games", total=games)
            positions = cal.collect(game_obj, config, games, seed, every, progress=lambda: progress.advance(task),
                                    bots=lineup)
    except BotSpecError as exc:
        raise _fail(err, str(exc)) from None
    default, _factions = load_weights()
    ev = TauCetiEvaluator(default, {})
    samples = cal.samples(positions, ev)
    in_use = ev.temperature_at
    rows = []
    for low, high, inside in cal.buckets(samples):
        best = cal.best_temperature(inside)
        rows.append({"future_from": low, "future_to": min(high, 1.0), "positions": len(inside), "best": best,
                     "loss_best": cal.log_loss(inside, cal.curve(best, best, 1.0)),
                     "loss_in_use": cal.log_loss(inside, in_use)})
    fit = cal.fit_curve(samples)
    constant = cal.best_temperature(samples)
    constant_loss = cal.log_loss(samples, cal.curve(constant, constant, 1))
    summary: dict[str, Any] = {
        "games": games, "seed": seed, "bots": lineup, "positions": len(samples), "buckets": rows,
        "fit": {"temperature": fit.end, "temperature_start": fit.start, "temperature_shape": fit.shape,
                "loss": fit.loss},
        "constant": {"temperature": constant, "loss": constant_loss},
        "loss_in_use": cal.log_loss(samples, in_use), "loss_uniform": math.log(players)}
    tuned = None
    if tune:
        with _console(stderr=True).status("Tuning the weights", spinner="dots") as status:
            tuned = cal.tune(positions, default, lambda w: TauCetiEvaluator(w, {}), TUNED,
                             progress=None if json_output else lambda line: status.update(f"Tuning: {line}"))
        summary["tuned"] = {"weights": tuned.changes, "train_before": tuned.train_before,
                            "train_after": tuned.train_after, "test_before": tuned.test_before,
                            "test_after": tuned.test_after}
    if json_output:
        typer.echo(json.dumps(summary))
        return
    who = "heuristic bots" if not bots else ", ".join(lineup)
    table = Table(box=box.SIMPLE_HEAD, title=Text(f"{len(samples)} positions from {games} games of {who}"))
    for name in ("Future", "Positions", "Best T", "Loss at best", "Loss in use"):
        table.add_column(name, justify="right")
    for r in rows:
        table.add_row(f"{r['future_from']:.1f}–{r['future_to']:.1f}", str(r["positions"]), f"{r['best']:.2f}",
                      f"{r['loss_best']:.3f}", f"{r['loss_in_use']:.3f}")
    out.print(table)
    out.print(f"Fitted: temperature = {fit.end:g}, temperature_start = {fit.start:g}, "
              f"temperature_shape = {fit.shape:g} (log loss {fit.loss:.4f}; the weights in use "
              f"{summary['loss_in_use']:.4f}; the best single temperature, {constant:.2f} GP for the whole game, "
              f"{constant_loss:.4f}; knowing nothing {math.log(players):.4f}).", markup=False)
    if tuned is not None:
        out.print(f"Tuned weights (log loss on the games learned from {tuned.train_before:.4f} -> "
                  f"{tuned.train_after:.4f}, on the games kept apart {tuned.test_before:.4f} -> "
                  f"{tuned.test_after:.4f}); for the [default] table of weights/tauceti.toml:", markup=False)
        for name, value in tuned.changes.items():
            out.print(f"{name} = {value:.4g}", markup=False, highlight=False)


# -- scenario ------------------------------------------------------------------------

scenario_app = typer.Typer(help="Scenario files: an exact situation and its expected outcome (docs/scenarios.md).",
                           no_args_is_help=True, rich_markup_mode="markdown")
app.add_typer(scenario_app, name="scenario")


@scenario_app.command("run")
@stops_on_ctrl_c("the scenarios were stopped before their report")
def scenario_run(
    paths: Annotated[list[Path], typer.Argument(help="Scenario files, or folders to search for *.yaml.")],
    verbose: Annotated[bool, typer.Option("--verbose", help="Under a scenario that crashed (the engine failing, or "
                                                          "a file that cannot be loaded), also print the Python "
                                                          "traceback.")] = False,
) -> None:
    """Run scenario files; exit 1 when any fails, naming the step and the field at fault."""
    from ecliptic.scenario import all_passed, format_report, run_paths

    results = run_paths(paths)
    typer.echo(format_report(results, verbose=verbose))
    raise typer.Exit(0 if all_passed(results) else 1)


# -- bench ---------------------------------------------------------------------------


@app.command()
@stops_on_ctrl_c("the benchmark was stopped before its figures")
def bench(
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object instead of tables.")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="A few seconds of measuring instead of a minute.")] = False,
    memory: Annotated[bool, typer.Option("--memory", help="Also measure resident memory over --games simulated "
                                                          "games (default 10,000: several minutes).")] = False,
    parallel: Annotated[bool, typer.Option("--parallel",
                                           help="Also time simulate with 1 and with --workers processes.")] = False,
    games: Annotated[int | None, typer.Option(min=1, help="Games for --memory and --parallel.")] = None,
    workers: Annotated[int | None, typer.Option(min=2, help="Workers for --parallel (default: all cores, "
                                                            "at least 2).")] = None,
    aec: Annotated[bool, typer.Option("--aec", help="Also measure PettingZoo AEC steps/s (tensor + mask + step) "
                                                    "beside chess_v6 and OpenSpiel (needs the rl extra).")] = False,
) -> None:
    """Measure the engine on one core beside python-chess and OpenSpiel: playouts, clones,
    sizes (docs/performance.md). The benchmarks live in the source checkout's benchmarks/."""
    import importlib

    root = Path(__file__).resolve().parents[2]  # src/ecliptic/cli.py -> the checkout
    if (root / "benchmarks" / "__init__.py").is_file() and str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        suite = importlib.import_module("benchmarks.suite")
    except ImportError as exc:
        raise _fail(_console(stderr=True), f"the benchmarks need a source checkout of Ecliptic ({exc})") from None
    report = suite.run_all(quick=quick, memory=memory, parallel=parallel, games=games, workers=workers, aec=aec)
    if json_output:
        typer.echo(json.dumps(report))
        return
    for table in suite.render(report):
        _console().print(table)


# -- replay --------------------------------------------------------------------------


@app.command("replay")
@stops_on_ctrl_c("the replay was stopped")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A save file or game record (a finished game is kept in the "
                                               "data folder's finished/), or 'autosave': the game left last.")],
    check: Annotated[bool, typer.Option("--check", help="Replay and compare with the saved final state.")] = False,
) -> None:
    """Print a saved game's public log, round by round; --check verifies the save."""
    console = _console()
    try:
        file = resolve_save(file)  # the word autosave means what it means to play --resume
        record = load_record(file)
        if check:
            _, state = load_game(file)
        else:
            state = _print_log(console, file, record)
    except SaveFileError as exc:
        raise _fail(console, str(exc)) from None
    rules = get_game(record.game)
    if check:
        if record.digest is None:
            raise _fail(console, f"{file} replays, but holds no digest of its final state to check against", 1)
        if state_digest(rules, state) != record.digest:
            raise _fail(console, f"{file} does not replay to the state it was saved with "
                        "(the file was edited, or the rules have changed since)", 1)
        console.print("ok")
        return
    if state.is_over:
        if record.game == "ceres":
            from ecliptic.ui import ceres_terminal

            console.print(ceres_terminal.render_final(rules.observe(state, None)))
        else:
            console.print(terminal.render_final(rules.observe(state, None)))


def _print_log(console: Console, path: Path, record: GameRecord) -> Any:
    """Replay the record, then print its public events: what a spectator would have seen. A
    record that does not replay to its end prints only the error."""
    rules = get_game(_known_game(path, record))
    public: list[Event] = []

    def keep(_i: int, _action: Action, events: list[Event]) -> None:
        public.extend(event for event in events if event.visible(None))

    first_round = rules.observe(_replayed(path, record, upto=0), None).get("round", 0)
    state = _replayed(path, record, on_event=keep)
    console.print(Text(f"{path}: {record.game}, config {json.dumps(record.config)}, seed {record.seed}, "
                       f"{len(record.actions)} actions", style="bold"))
    if first_round:
        console.print(Text(f"── Round {first_round} begins. ──", style="bold cyan"))
    for event in public:
        console.print(terminal.render_event(event, record.game))
    return state


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="the address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="the port to listen on")] = 8000,
    database: Annotated[str | None, typer.Option(
        help="sqlite:///FILE or postgresql://... (default: $ECLIPTIC_DATABASE_URL, else a SQLite file "
             "in the user's data folder)")] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="open the address in a browser")] = False,
    smtp: Annotated[str | None, typer.Option(
        help="email 'your turn' through this SMTP server: smtp://user:password@host:587 (STARTTLS), "
             "smtps://...:465 (default: $ECLIPTIC_SMTP_URL; docs/deploy.md)")] = None,
    mail_from: Annotated[str | None, typer.Option(help="the emails' sender (default: $ECLIPTIC_MAIL_FROM)")] = None,
    public_url: Annotated[str | None, typer.Option(
        help="the address people reach the pages at, for the emails' link (default: $ECLIPTIC_PUBLIC_URL)")] = None,
    level: Annotated[list[str] | None, typer.Option(
        "--level", metavar="NAME=BOTSPEC",
        help="offer your own bot level beside random, easy, normal and hard, e.g. --level \"mine=myplugin:v3\" "
             "(a plug-in's bot: load it with --plugin); may be repeated. Players pick levels, never bot "
             "texts.")] = None,
    plugin: PluginOption = None,
) -> None:
    """Run the game server: online play with friends and bots (docs/server.md)."""
    console = _console()
    try:
        from ecliptic.server.levels import LevelError, parse
        from ecliptic.server.serve import run
    except ImportError as exc:
        raise _fail(console, f"the server needs its extra packages ({exc.name} is missing): "
                             "pip install 'ecliptic[server]'") from None
    try:
        levels = parse(level or [])
    except LevelError as exc:
        raise _fail(console, str(exc)) from None
    try:
        run(host, port, database, open_browser, say=lambda line: console.print(Text(line), soft_wrap=True),
            smtp=smtp, mail_from=mail_from, public_url=public_url, levels=levels)
    except Exception as exc:  # a database that cannot be opened, a port in use: a message, not a traceback
        raise _fail(console, f"the server could not start: {type(exc).__name__}: {exc}", 1) from None


# -- balance -------------------------------------------------------------------------

from ecliptic.balance.command import balance_app  # noqa: E402 (its commands import this module's helpers)

app.add_typer(balance_app, name="balance")

from ecliptic.content_command import content_app  # noqa: E402 (its commands import this module's helpers)

app.add_typer(content_app, name="content")


def main() -> None:
    """The ``ecliptic`` command (the console script reaches it through :mod:`ecliptic.entry`, which
    answers a Ctrl-C that comes while this module is still being imported)."""
    app()

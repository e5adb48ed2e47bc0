"""The terminal session every game shares: one human seat against bots.

:class:`Session` is the game loop of ``ecliptic play`` (Tau Ceti's ``cli.PlaySession``, Ceres'
``ceres_terminal.CeresSession``): bots move by themselves; the human types a menu number, a
notation or a command (``quit``, ``help``, ``board``, ``log``, ``save FILE``); an illegal input
is answered and asked again; every applied action is appended to ``record`` so ``save`` can
write the game as a replayable record. A game fills in the hooks that draw it (the board, the
status line, the decision, the menu, the final scores, an event) and its help text.

Also here: the save file format (:func:`write_save`, :func:`read_meta`: a game record plus the
``cli`` table naming the human's seat and the bots) and :func:`make_bots`, one bot per seat.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Console, RenderableType
from rich.text import Text

from ecliptic.bots.base import Bot, BotSpecError, bot_seed, make_bot
from ecliptic.engine.actions import Action
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.files import UnreadableFile, read_json
from ecliptic.engine.record import GameRecord, state_digest
from ecliptic.ui import terminal

Obs = dict[str, Any]
InputFn = Callable[[str], str]

CLI_META = "cli"
"""The extra table of a save file naming the human's seat and the bots (other readers of the
record ignore it; ``ecliptic play --resume`` reads it back)."""
MAX_BOT_STREAK = 100_000
"""Bot decisions in a row beyond which the engine must be looping (a bug, not a game)."""
LOG_LINES = 40


def write_save(path: Path, record: GameRecord, meta: dict[str, Any]) -> None:
    """A game record plus the command line's own table (who is human, which bots), written
    atomically. Other readers ignore the extra table."""
    data = record.to_json()
    data[CLI_META] = meta
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(path)


def read_meta(path: Path) -> dict[str, Any]:
    """The ``cli`` table of a save file, without a ``human_seat`` that is not a seat number or
    ``bots`` that are not a list of bot texts (a hand-edited table: ignored, never a crash).
    Empty when there is none or the file cannot be read."""
    try:
        data = read_json(path)
    except UnreadableFile:
        return {}
    meta = data.get(CLI_META) if isinstance(data, dict) else None
    if not isinstance(meta, dict):
        return {}
    seat, bots = meta.get("human_seat"), meta.get("bots")
    if not isinstance(seat, int) or isinstance(seat, bool):
        meta.pop("human_seat", None)
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
        meta.pop("bots", None)
    return meta


def make_bots(spec: str | Sequence[str], human: int, players: int,
              seed: int) -> tuple[dict[int, Bot], list[str]]:
    """One bot name for every other seat, or one per other seat (``"random,random"`` or a
    list); each bot seeded from the game's seed and its seat."""
    names = spec.split(",") if isinstance(spec, str) else list(spec)
    specs = [s.strip() for s in names if s.strip()] or ["random"]
    seats = [s for s in range(players) if s != human]
    if len(specs) == 1:
        specs = specs * len(seats)
    if len(specs) != len(seats):
        raise BotSpecError(f"name one bot for all {len(seats)} other seats, or one per seat (got {len(specs)})")
    return {s: make_bot(b, bot_seed(seed, s)) for s, b in zip(seats, specs, strict=True)}, specs


class Session:
    """One human seat against bots, at the terminal.

    The screen is drawn only from ``game.observe(state, human)`` and the events the human may
    see. Every applied action is appended to ``record`` (so it can be saved, and kept if the
    engine fails); ``log`` holds the events the human has seen. Subclasses set the class
    attributes and fill in the drawing hooks."""

    help_text: ClassVar[str] = ""
    not_now_rule: ClassVar[str] = "NOTATION"
    """The rule id quoted when a malformed action cannot even be judged by the rules."""
    loop_error: ClassVar[type[Exception]] = RuntimeError
    """Raised when the bots make more than :data:`MAX_BOT_STREAK` decisions in a row."""

    def __init__(self, game: Any, state: Any, record: GameRecord, human: int, bots: Mapping[int, Bot],
                 bot_specs: list[str], console: Console, read: InputFn | None, *, echo: bool) -> None:
        self.game, self.state, self.record = game, state, record
        self.human, self.bots, self.bot_specs = human, dict(bots), bot_specs
        self.console, self.echo = console, echo
        self.read = read or self._read_line
        self.log: list[Event] = []

    # The hooks a game fills in -------------------------------------------------------

    def render_board(self, obs: Obs, actions: list[Action]) -> RenderableType:
        """The whole table as the human sees it."""
        raise NotImplementedError

    def render_status(self, obs: Obs) -> RenderableType:
        """One line about the human, between two of their own decisions."""
        raise NotImplementedError

    def render_decision(self, obs: Obs) -> RenderableType:
        """What the pending decision asks."""
        raise NotImplementedError

    def render_menu(self, obs: Obs, actions: list[Action]) -> RenderableType:
        """The legal actions, numbered."""
        raise NotImplementedError

    def render_final(self, obs: Obs) -> RenderableType:
        """The final scores and the winners."""
        raise NotImplementedError

    def render_event(self, event: Event) -> RenderableType:
        return terminal.render_event(event)

    def notation(self, line: str) -> str:
        """A typed line as the notation :meth:`Action.parse` reads."""
        return line

    def show_turn(self, actions: list[Action], *, fresh: bool) -> None:
        """Before the human's decision: the whole table when ``fresh`` (the bots moved since)."""
        self._show_decision(actions, full=fresh)

    # The whole game ------------------------------------------------------------------

    def observation(self) -> Obs:
        return self.game.observe(self.state, self.human)  # type: ignore[no-any-return]

    def run(self) -> int:
        """Play until the game ends (final scores shown) or the human leaves; the exit code (0)."""
        fresh, streak = True, 0
        while not self.state.is_over:
            seat = self.state.current_player
            if seat != self.human:
                streak += 1
                if streak > MAX_BOT_STREAK:
                    raise self.loop_error(f"the bots made {MAX_BOT_STREAK} decisions in a row: the rules "
                                          "engine is looping, which is a bug")
                self._bot_move(seat)
                fresh = True
                continue
            streak = 0
            actions = self.game.legal_actions(self.state)
            self.show_turn(actions, fresh=fresh)
            fresh = False
            if not self._human_move(actions):
                return 0
        self.console.print()
        self.console.print(self.render_final(self.observation()))
        return 0

    def _bot_move(self, seat: int) -> None:
        action = self.bots[seat].choose(self.game, self.state, seat)
        events = self.game.apply(self.state, action)
        self.record.actions.append(str(action))
        self.show_events(events)

    def _human_move(self, actions: list[Action]) -> bool:
        """Read lines until an action is applied (True) or the human leaves (False)."""
        while True:
            try:
                line = self.read("> ").strip()
            except EOFError:
                self.console.print()
                self.console.print("End of input: leaving the game.")
                return False
            if self.echo:
                self.console.print(Text(line))
            if not line:
                continue
            outcome = self._command(line, actions)
            if outcome is not None:
                return outcome

    def _command(self, line: str, actions: list[Action]) -> bool | None:
        """One input line: True = an action was applied, False = leave, None = ask again."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("quit", "exit"):
            self.console.print("Leaving the game (use 'save FILE' first to keep it).")
            return False
        if word in ("help", "?"):
            self.console.print(self.help_text)
            return None
        if word in ("board", "show"):
            self._show_decision(actions, full=True)
            return None
        if word == "log":
            for event in self.log[-LOG_LINES:]:
                self.console.print(self.render_event(event))
            return None
        if word == "save":
            self.save(rest.strip())
            return None
        action = self._parse(line, actions)
        return None if action is None else self._apply(action, actions)

    def _parse(self, line: str, actions: list[Action]) -> Action | None:
        if line.isdigit():
            n = int(line)
            if 1 <= n <= len(actions):
                return actions[n - 1]
            self.console.print(Text(f"Choose a number from 1 to {len(actions)}, or type an action.", style="yellow"))
            return None
        try:
            typed = Action.parse(self.notation(line))
        except IllegalAction as exc:
            self._refuse(exc)
            return None
        for a in actions:  # arguments are matched without regard to case, too
            if str(a).lower() == str(typed).lower():
                return a
        return typed

    def _apply(self, action: Action, actions: list[Action]) -> bool | None:
        try:
            events = self.game.apply(self.state, action)
        except IllegalAction as exc:
            self._refuse(exc)
            return None
        except Exception:
            if action in actions:
                raise  # a legal action failed: an engine bug, for the caller to report
            # A malformed action the rules could not even judge: refuse it all the same.
            self._refuse(IllegalAction(self.not_now_rule, f"{action} is not an action you can take now"))
            return None
        self.record.actions.append(str(action))
        self.show_events(events)
        return True

    def _refuse(self, exc: IllegalAction) -> None:
        self.console.print(Text.assemble(("Illegal: ", "bold red"), (f"[{exc.rule}] ", "red"), exc.reason))
        self.console.print(Text("Nothing changed. Choose again ('help' for the commands).", style="dim"))

    # Showing the game ----------------------------------------------------------------

    def show_events(self, events: Iterable[Event]) -> None:
        """Print (and log) the events the human's seat may see, and only those."""
        for event in events:
            if event.visible(self.human):
                self.log.append(event)
                self.console.print(self.render_event(event))

    def _show_decision(self, actions: list[Action], *, full: bool, obs: Obs | None = None) -> None:
        obs = self.observation() if obs is None else obs
        self.console.print()
        self.console.print(self.render_board(obs, actions) if full else self.render_status(obs))
        self.console.print(self.render_decision(obs))
        self.console.print(self.render_menu(obs, actions))

    # Saving --------------------------------------------------------------------------

    def current_record(self) -> GameRecord:
        """The game so far, with the digest of its state (checked by ``ecliptic replay --check``)."""
        r = self.record
        return GameRecord(r.game, dict(r.config), r.seed, list(r.actions), digest=state_digest(self.game, self.state))

    def save_meta(self) -> dict[str, Any]:
        """The ``cli`` table of this session's save files."""
        return {"human_seat": self.human, "bots": self.bot_specs}

    def save(self, name: str) -> None:
        if not name:
            self.console.print(Text("Say where: save FILE", style="yellow"))
            return
        path = Path(name).expanduser()
        try:
            write_save(path, self.current_record(), self.save_meta())
        except OSError as exc:
            self.console.print(Text(f"Cannot save to {path}: {exc.strerror or exc}", style="bold red"))
            return
        self.console.print(Text(f"Saved {len(self.record.actions)} actions to {path}. "
                                f"Resume with: ecliptic play --resume {path}", style="green"))

    def _read_line(self, prompt: str) -> str:
        return self.console.input(Text(prompt, style="bold cyan"))

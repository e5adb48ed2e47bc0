"""Playing Ceres (with or without the Comets expansion) in the terminal, with Rich.

The table manners are those of Tau Ceti's ``ecliptic play`` (:mod:`ecliptic.ui.terminal`):
one human seat against bots, the legal actions as a numbered menu (type the number or the
notation), ``board``, ``log``, ``save FILE``, ``help``, ``quit``, resuming from a record,
and the final scores. :func:`play_ceres` is the whole game; the command line calls it.

Everything drawn comes from ``game.observe(state, seat)`` (a JSON-ready dict) and from the
events that seat may see, plus the printed components (what each Asteroid, Tail token and
Nucleus card depicts), which every player can read on the table. The session never reads
the state's fields, so the Nucleus cards returned to the box and the order of the face-down
Explosion Check cards cannot reach the screen: the observation holds only their number.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ecliptic.ceres.content import TAIL_TYPES, Content, default_content
from ecliptic.ceres.game import Ceres
from ecliptic.engine.actions import Action
from ecliptic.engine.errors import EclipticError, SaveFileError
from ecliptic.engine.events import Event
from ecliptic.engine.record import GameRecord, state_digest
from ecliptic.engine.wording import plural
from ecliptic.present.ceres_components import (
    TAIL_LABELS,
    asteroid_label,
    launch_cost,
    nucleus_table_label,
    tail_token_label,
)
from ecliptic.present.decision import Why, ceres_prompt
from ecliptic.present.view import Presented, closed_reasons
from ecliptic.present.view import actions as present_actions
from ecliptic.ui.session import InputFn, Obs, Session, against, make_bots, stdin_is_tty, terminal_reader
from ecliptic.ui.terminal import grouped_menu

GAME_NAME = "ceres"

SEAT_STYLES = ("bold cyan", "bold magenta", "bold green", "bold yellow")
COMET_STYLES = {"Sungrazer": "bold red", "Near-sun": "bold yellow"}
PHASE_LABELS = {
    "setup": "Setup",
    "belt": "Asteroid Belt phase",
    "production": "Production phase",
    "comets": "Production phase (the Comets' probes)",
    "activation": "Activation phase",
    "over": "Game over",
}

HELP = """[bold]At the prompt[/bold]
  [cyan]3[/cyan]              choose action number 3 of the menu
  [cyan]LAUNCH A07[/cyan]     type an action's notation (case does not matter): LAUNCH A07,
                 LAUNCH C1 (a Comet), PASS, STAY, JUMP A13, TAIL 2
  [cyan]board[/cyan]          show the whole table again (the Asteroid Belt, the Comets,
                 the players)
  [cyan]log[/cyan]            show the recent events again
  [cyan]undo[/cyan]           take back your last action, if nobody has moved since and it
                 rolled no die and showed you nothing hidden
  [cyan]save FILE[/cyan]      save the game (resume with: ecliptic play --resume FILE);
                 asks before replacing a file, [cyan]save! FILE[/cyan] does not
  [cyan]help[/cyan]           this help
  [cyan]quit[/cyan]           leave the game; it is kept (as when Ctrl-D, Ctrl-C or closing
                 the terminal ends it): ecliptic play --resume autosave goes on"""
"""The commands, in lines that fit an 80-column terminal (as Tau Ceti's)."""


def content() -> Content:
    return default_content()


# -- small pieces ----------------------------------------------------------------------


def seat_style(seat: int) -> str:
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


def seat_text(seat: int, label: str | None = None) -> Text:
    """A player's name in their colour (events and the observation say "Player 1" for seat 0)."""
    return Text(label or f"Player {seat + 1}", style=seat_style(seat))


def _comet_place(c: Obs) -> str:
    """Where a Comet token is: outside the belt next to a Zone, on a ring, or gone."""
    if c["removed"]:
        return "exploded: its token was removed from the Asteroid Belt (its probes stay on the Surface card)"
    if c["ring"] is None:
        return f"outside the Asteroid Belt, next to Zone {c['zone']}"
    return f"{c['ring']} Ring, Zone {c['zone']}"


# -- the Asteroid Belt --------------------------------------------------------------------


def _asteroid_cell(asteroid: str, probe: int | None) -> Text:
    out = Text(asteroid, style="dim" if probe is not None else "bold")
    if probe is not None:
        out.append(" ◆", style=seat_style(probe))
        out.append(f"P{probe + 1}", style=seat_style(probe))
    out.append("\n" + asteroid_label(asteroid).replace(" · ", "\n"), style="dim" if probe is not None else "")
    return out


def _comet_mark(c: Obs, *, kind: bool = True) -> Text:
    label = f"☄ {c['id']} {c['kind']}" if kind else f"☄ {c['id']}"
    return Text(label, style=COMET_STYLES.get(c["kind"], "bold"))


def render_belt(obs: Obs) -> RenderableType:
    """The three rings (rows) across the numbered Zones (columns): each Asteroid with what a
    claim gives (Resources, VP), its income and the probe on it (◆P2); the Comet
    tokens on their ring and Zone, or in the row above the belt while still outside it."""
    numbers = content().numbers
    comets = [c for c in obs["comets"] if not c["removed"]]
    # One space between the columns (not two): at 80 columns each Zone keeps "income" and
    # its header whole instead of folding them ("incom/e").
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1, 0, 0), show_edge=False)
    table.add_column("Ring", no_wrap=True, style="bold")
    comet_zones = {c["zone"] for c in comets}
    for zone in range(1, numbers.zones + 1):
        table.add_column(Text(f"Zone {zone}", style="bold yellow" if zone in comet_zones else "bold"),
                         overflow="fold")
    outside = [c for c in comets if c["ring"] is None]
    if outside:
        row: list[RenderableType] = [Text("(outside)", style="dim")]
        for zone in range(1, numbers.zones + 1):
            marks = [_comet_mark(c, kind=False) for c in outside if c["zone"] == zone]
            row.append(Text("\n").join(marks) if marks else Text(""))
        table.add_row(*row, end_section=True)
    for ring in numbers.rings:
        cells: dict[int, Text] = {}
        for asteroid, where in sorted(obs["belt"].items()):
            if where["ring"] == ring:
                cells[where["zone"]] = _asteroid_cell(asteroid, where["probe"])
        for c in comets:
            if c["ring"] == ring and c["zone"] in cells:
                cells[c["zone"]].append("\n").append_text(_comet_mark(c, kind=False))
        table.add_row(Text(f"{ring}\n{launch_cost(ring)} Ice", style="bold"),
                      *(cells.get(z, Text("")) for z in range(1, numbers.zones + 1)), end_section=True)
    steps = ", ".join(f"{r} {plural(numbers.rotation[r], 'Zone')}" for r in numbers.rings)
    comet_key = " · ☄: a Comet token (see Comets)." if obs["comets"] else "."
    caption = Text(f"Under each ring: the Ice a Launch there costs. The rings turn clockwise each round "
                   f"({steps}); the Zones stay. ◆Pn: Player n's Mining Probe · income: what the "
                   f"Asteroid's probe gives each Production phase{comet_key}", style="dim")
    return Panel(Group(table, caption), title="Asteroid Belt", title_align="left", box=box.ROUNDED)


# -- the Comets ----------------------------------------------------------------------------


def _slots_text(c: Obs) -> Text:
    out = Text("Surface card slots: ")
    for i, seat in enumerate(c["slots"]):
        if i:
            out.append(" · ")
        out.append(f"{i + 1} ")
        if seat is None:
            # (an exploded Comet takes no more Mining Probes: its empty slots are not free)
            out.append("–" if c.get("removed") else "free", style="dim")
        else:
            out.append_text(seat_text(seat, f"◆P{seat + 1}"))
    return out


def render_comet(c: Obs) -> RenderableType:
    """One Comet: its Surface card slots, its Nucleus card's three resource tables and the Tail
    tokens still under each (Coma nearest the Nucleus card, Dust Tail lowest; – where a token
    was taken or removed)."""
    side = "left" if c["id"] == "C1" else "right"
    title = Text.assemble(_comet_mark(c), f" ({side} Surface card) · Nucleus card {c['nucleus']} · ",
                          (_comet_place(c), "bold" if c["in_belt"] else "dim"))
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 2, 0, 0), show_edge=False)
    table.add_column("", style="dim", no_wrap=True)
    for i in range(len(c["tails"])):
        table.add_column(f"Table / tail {i + 1}", no_wrap=True)
    table.add_row("Nucleus table", *(Text(nucleus_table_label(c["nucleus"], i), style="bold")
                                     for i in range(len(c["tails"]))))
    for row, kind in enumerate(TAIL_TYPES):
        table.add_row(TAIL_LABELS[kind], *(Text(tail_token_label(t[row])) if t[row] else Text("–", style="dim")
                                           for t in c["tails"]))
    return Group(title, _slots_text(c), table)


def render_comets(obs: Obs) -> RenderableType | None:
    """Both Comets, then what is face down: the Explosion Check cards (their number and
    mix are public, their order is not) and the Nucleus cards back in the box (their number
    only). ``None`` in a game without the expansion."""
    if not obs["comets"]:
        return None
    parts: list[RenderableType] = []
    for c in obs["comets"]:
        parts.extend([render_comet(c), Text("")])
    deck = obs["explosion_deck"]
    info = Text(f"Explosion Check cards: {deck['cards']} face down ({deck['Safe']} Safe, "
                f"{deck['Explosion']} Explosion; order unknown) · Nucleus cards in the box: "
                f"{obs['nucleus_box']}, face down", style="dim")
    parts.append(info)
    if obs["removed_tails"]:
        parts.append(Text(f"Tail tokens removed from the game: {', '.join(obs['removed_tails'])}", style="dim"))
    return Panel(Group(*parts), title="Comets", title_align="left", box=box.ROUNDED)


# -- the players ----------------------------------------------------------------------------


def render_players(obs: Obs, seat: int | None) -> RenderableType:
    """Every player's Resources, Victory Points, Mining Probes left, claimed Asteroids and (with
    the Comets) Tail tokens and VP by source: all of it is public in Ceres."""
    resources = content().numbers.resources
    comets = bool(obs["comets"])
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1, 0, 0))
    table.add_column("#", no_wrap=True)
    table.add_column("Player", no_wrap=True)
    for r in resources:
        table.add_column(r, justify="right", no_wrap=True)
    for col in ("VP", "by source", "Probes") if comets else ("VP", "Probes"):
        table.add_column(col, justify="right", no_wrap=True)
    table.add_column("Asteroids · Tail tokens" if comets else "Asteroids", min_width=12)
    for p in obs["players"]:
        s = p["seat"]
        marks = ("▶" if s == seat else "") + ("★" if s == obs["first_player"] else "")
        state = "P" if p["passed"] else "…" if s == obs["current_player"] else ""
        name = seat_text(s, p["name"])
        if s == seat:
            name.stylize("underline")
        vp = p["vp"]
        by_source = [f"{vp['asteroids']}/{vp['tail_tokens']}/{vp['nucleus_tables']}"] if comets else []
        held = " · ".join(x for x in (", ".join(p["asteroids"]), ", ".join(p["tail_tokens"])) if x)
        table.add_row(f"{marks}{state}", name, *(str(p["resources"].get(r, 0)) for r in resources),
                      Text(str(vp["total"]), style="bold"), *by_source, str(p["probes"]), held)
    sources = " · VP by source: Asteroids / Tail tokens / Nucleus tables" if comets else ""
    legend = Text(f"▶ you · ★ first player · … to play · P passed{sources} · Probes: Mining Probes left in "
                  "the supply", style="dim")
    return Panel(Group(table, legend), title="Players", title_align="left", box=box.ROUNDED)


# -- the whole table, the decision, the menu ---------------------------------------------------


def header(obs: Obs) -> Text:
    rounds = content().numbers.rounds
    expansion = " with the Comets expansion" if obs["comets"] else ""
    return Text.assemble((f"Ceres{expansion} · Round {obs['round']} of {rounds}", "bold"),
                         f" · {PHASE_LABELS.get(obs['phase'], obs['phase'])} · first player ",
                         seat_text(obs["first_player"]))


def render_board(obs: Obs, seat: int) -> RenderableType:
    """The whole table as ``seat`` sees it."""
    parts: list[RenderableType] = [header(obs), render_belt(obs)]
    comets = render_comets(obs)
    if comets is not None:
        parts.append(comets)
    parts.append(render_players(obs, seat))
    return Group(*parts)


def status_line(obs: Obs, seat: int) -> Text:
    """One line about the seat, between two of its own decisions."""
    me = obs["players"][seat]
    res = " · ".join(f"{r} {n}" for r, n in me["resources"].items())
    return Text.assemble(seat_text(seat, me["name"]), f" · round {obs['round']} · {res} · VP {me['vp']['total']}"
                         f" · probes {me['probes']}", ("  ('board' for the whole table)", "dim"))


def describe_decision(obs: Obs, seat: int, verbs: Collection[str] | None = None, why: Why | None = None) -> Text:
    """What the pending decision asks, in the rulebook's words
    (:func:`ecliptic.present.decision.ceres_prompt`, the server's text too; ``verbs``: those of
    the legal actions, when known, and ``why`` they leave a verb out)."""
    d = obs["decision"]
    if d is None:
        return Text("The game is over.")
    if d["player"] != seat:
        return Text.assemble("Waiting for ", seat_text(d["player"]), ".")
    return Text(ceres_prompt(obs, verbs, why), style="bold")


def action_menu(presented: Sequence[Presented]) -> RenderableType:
    """The legal actions by group, with what each costs and gives
    (:func:`ecliptic.ui.terminal.grouped_menu`)."""
    return grouped_menu(GAME_NAME, presented)


def render_final(obs: Obs) -> RenderableType:
    """Victory Points by source (one row per source, one column per player) and the winners;
    ties share the win (CR-END-1)."""
    scores: list[dict[str, int]] = obs["final_scores"]
    winners = set(obs["winners"])
    table = Table(box=box.SIMPLE_HEAD, title="Final scores (VP)", title_justify="left", show_edge=False)
    table.add_column("Source")
    for seat in range(len(scores)):
        table.add_column(seat_text(seat, ("★ " if seat in winners else "") + f"Player {seat + 1}"), justify="right")
    for source in list(scores[0]) if scores else []:
        style = "bold" if source == "total" else ""
        if source == "total":
            table.add_section()
        table.add_row(Text(source.replace("_", " "), style=style),
                      *(Text(str(row.get(source, 0)), style=style) for row in scores))
    names = " and ".join(f"Player {s + 1}" for s in sorted(winners))
    verb = "wins" if len(winners) == 1 else "share the win"
    verdict = Text(f"{names} {verb}." if winners else "No winner.", style="bold green")
    return Group(table, verdict)


# -- records, bots, input ----------------------------------------------------------------------


def new_record(players: int, expansions: Sequence[str], seed: int) -> GameRecord:
    return GameRecord(GAME_NAME, {"players": players, "expansions": list(expansions)}, seed)


def scripted(lines: Iterable[str]) -> InputFn:
    """An input function answering with ``lines`` in turn, then end of input (EOFError)."""
    it: Iterator[str] = iter(lines)

    def read(_prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


# -- the session -------------------------------------------------------------------------------


class CeresSession(Session):
    """One human seat against bots (the loop, the commands and saving are
    :class:`ecliptic.ui.session.Session`'s). Every applied action is appended to ``record`` (so
    it can be saved, and kept if the engine fails); ``log`` holds the events the human has seen."""

    help_text = HELP
    not_now_rule = "CR-ACT-1"
    game: Ceres
    _shown: tuple[int, str] | None = None

    def observation(self) -> Obs:
        return self.game.observe(self.state, self.human)

    def show_turn(self, actions: list[Action], *, fresh: bool) -> None:
        obs = self.observation()
        # The whole table again after the bots moved or a new phase began (the rings turned).
        now = (obs["round"], obs["phase"])
        self._show_decision(actions, full=fresh or now != self._shown, obs=obs)
        self._shown = now

    def render_board(self, obs: Obs, actions: list[Action]) -> RenderableType:
        return render_board(obs, self.human)

    def render_status(self, obs: Obs) -> RenderableType:
        d = obs["decision"]
        comets = render_comets(obs) if d and d["kind"] in ("comet_probe", "tail") else None
        return comets if comets is not None else status_line(obs, self.human)

    def render_decision(self, obs: Obs, actions: Sequence[Action] = ()) -> RenderableType:
        if not actions:
            return describe_decision(obs, self.human)
        return describe_decision(obs, self.human, {a.verb for a in actions},
                                 closed_reasons(self.game, self.state, self.human, obs))

    def render_menu(self, obs: Obs, actions: list[Action]) -> RenderableType:
        return action_menu(present_actions(self.game, self.state, self.human, obs, actions))

    def render_final(self, obs: Obs) -> RenderableType:
        return render_final(obs)

    def notation(self, line: str) -> str:
        return line.upper()  # every Ceres argument is upper case (A07, C1) or a digit


def _reader(console: Console, input_fn: InputFn | Iterable[str] | None) -> tuple[InputFn, bool]:
    """The input function, and whether the lines read should be echoed (scripted input or a
    pipe, so the transcript shows what was answered after its prompt)."""
    if input_fn is None:
        return terminal_reader(console), not stdin_is_tty()
    if callable(input_fn):
        return input_fn, not stdin_is_tty()
    lines = scripted(input_fn)

    def read_scripted(prompt: str) -> str:
        line = lines(prompt)  # EOFError at the end, before any prompt is shown
        console.print(Text(prompt, style="bold cyan"), end="")
        return line

    return read_scripted, True


def _replay(game: Ceres, record: GameRecord) -> tuple[Any, list[Event]]:
    """The record's game and every event of it (setup included); SaveFileError if it is not a
    Ceres record or an action in it is not legal where it stands."""
    if record.game != GAME_NAME:
        raise SaveFileError(f"this is a record of {record.game!r}, not of Ceres")
    try:
        state, events = game.new_game_events(record.config, record.seed)
    except (ValueError, TypeError) as exc:
        raise SaveFileError(f"the record's config is not valid: {exc}") from None
    for i, text in enumerate(record.actions):
        try:
            events.extend(game.apply(state, Action.parse(text)))
        except EclipticError as exc:
            raise SaveFileError(f"action {i + 1} ({text!r}) cannot be replayed: {exc}") from None
    return state, events


def ceres_session(
    console: Console,
    input_fn: InputFn | Iterable[str] | None = None,
    *,
    seat: int = 0,
    bots: str | Sequence[str] = "random",
    seed: int | None = None,
    expansions: Sequence[str] = (),
    players: int = 2,
    resume_record: GameRecord | None = None,
    echo: bool | None = None,
) -> CeresSession:
    """Set up the session :func:`play_ceres` runs (same arguments); nothing is printed until it
    runs (its :meth:`~CeresSession.greet`)."""
    game = Ceres()
    read, default_echo = _reader(console, input_fn)
    if resume_record is not None:
        state, events = _replay(game, resume_record)
        record = GameRecord(GAME_NAME, dict(resume_record.config), resume_record.seed, list(resume_record.actions))
    else:
        seed = secrets.randbits(32) if seed is None else seed
        record = new_record(players, expansions, seed)
        state, events = game.new_game_events(record.config, seed)
    players = len(game.observe(state, None)["players"])
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat} is not a seat of a {players}-player game (0-{players - 1})")
    bot_map, specs = make_bots(bots, seat, players, record.seed)
    session = CeresSession(game, state, record, seat, bot_map, specs, console, read,
                           echo=default_echo if echo is None else echo)
    session.events, session.resumed = events, resume_record is not None
    session.opening = _opening(session, resume_record)
    return session


def _opening(session: CeresSession, resume_record: GameRecord | None) -> list[RenderableType]:
    """The lines :meth:`CeresSession.greet` begins with: the game, the seat, the bots; for a
    resumed game how much was replayed (and a warning if it replays to another state)."""
    record = session.record
    obs = session.observation()
    expansion = " with the Comets expansion" if obs["comets"] else ""
    lines: list[RenderableType] = [Text.assemble(
        (f"Ceres{expansion}", "bold"), f" · {plural(len(obs['players']), 'player')} · seed {record.seed}\nYou are ",
        seat_text(session.human), f", {against(session.bot_specs)}. "
        "Type 'help' for the commands.")]
    if resume_record is None:
        return lines
    if resume_record.digest is not None and state_digest(session.game, session.state) != resume_record.digest:
        lines.append(Text("Warning: the game replays to a different state than the one saved (the rules "
                          "have changed since); continuing from the replayed state.", style="yellow"))
    lines.append(Text(f"Resumed: {len(record.actions)} actions replayed. The last events ('log' for more):",
                      style="green"))
    return lines


def play_ceres(
    console: Console,
    input_fn: InputFn | Iterable[str] | None = None,
    *,
    seat: int = 0,
    bots: str | Sequence[str] = "random",
    seed: int | None = None,
    expansions: Sequence[str] = (),
    players: int = 2,
    resume_record: GameRecord | None = None,
    echo: bool | None = None,
) -> int:
    """Play Ceres at the terminal, the human at ``seat`` against bots; returns the exit code
    (:meth:`Session.run`: 0 at the end or on quit).

    * ``console`` — where everything is drawn (a recording ``Console`` in tests).
    * ``input_fn`` — ``prompt -> line`` that shows the prompt itself, like ``input`` (raise
      ``EOFError`` at the end of input); or a list of scripted lines (shown after the prompt);
      or ``None`` to read from ``console``.
    * ``seat`` — the human's seat as the engine counts it (0 is the first player of round 1;
      a person, and ``ecliptic play --seat``, count from 1: Player 1 is seat 0 here).
    * ``bots`` — one bot name for every other seat (``"random"``, ``"heuristic"``, a level...),
      or one per other seat (``"random,heuristic"`` or a list).
    * ``seed`` — the game's seed (random if ``None``); each decision of a bot is seeded from
      it, the bot's seat and the number of actions so far, so a resumed game's bots choose as
      they would have had the game gone on (:meth:`~ecliptic.ui.session.Session.bot_choice`).
    * ``expansions`` — ``()`` for the host game, ``("comets",)`` for the Comets expansion.
    * ``players`` — 1-4, the human included.
    * ``resume_record`` — continue this record instead (its config and seed are used, so
      ``seed``, ``expansions`` and ``players`` are ignored).
    * ``echo`` — print each line read (default: for scripted input or when stdin is not a tty).

    ``save FILE`` writes the record with its digest and a ``cli`` table
    (``{"human_seat": ..., "bots": [...]}``), as ``ecliptic play`` does for Tau Ceti.

    Raises ``ValueError`` for bad options (a seat, player count or expansion the game does not
    have; :class:`~ecliptic.bots.base.BotSpecError` for an unknown bot) and
    :class:`~ecliptic.engine.errors.SaveFileError` for a record that is not a Ceres game or
    does not replay. Once the game runs, nothing ends it but the end or the human leaving:
    leaving an unfinished game autosaves it, and an exception from the engine itself (a bug)
    is reported with a crash file holding the game so far (exit code 1; see
    :meth:`ecliptic.ui.session.Session.run`).
    """
    return ceres_session(console, input_fn, seat=seat, bots=bots, seed=seed, expansions=expansions,
                         players=players, resume_record=resume_record, echo=echo).run()

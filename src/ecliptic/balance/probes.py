"""What one game tells a designer: a flat record (a JSON object) per finished game.

A probe watches one game through the engine's own outputs only: the events ``apply`` returns
and the spectator's ``observe``. It never reads the state's private fields nor decides a
rule, so a record says what happened as the engine reported it. The record's keys are the
study file's (docs/balance.md, "The study file"):

- every game: ``bots``, ``factions``, ``first_player`` (the first player of round 1),
  ``points`` (each seat's final score by source), ``returns``, ``winners``, ``rounds``,
  ``decisions``;
- Tau Ceti: ``crises`` (round, crisis type, planet of each crisis that became active),
  ``prevented`` (crises a Specialist prevented), ``no_crisis_rounds``, ``market`` (the Market
  levels of the TCX at the start of each round);
- Ceres with Comets: ``comets`` (Mining Probes launched onto a Comet, probes that stayed,
  probes that jumped, Comets that exploded).

:func:`play_recorded` is pure: the same task gives the same record in any process, which is
what lets a study run on any backend and resume without replaying finished games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ecliptic.bots.base import bot_seed, make_bot
from ecliptic.engine.events import Event
from ecliptic.games import ContentPack, get_game, using_content
from ecliptic.sim.simulate import MAX_DECISIONS, SimulationError


@dataclass(frozen=True)
class GameTask:
    """One game of a study: its arm, its place in the arm, and everything that fixes it
    (picklable, so a worker process or a Ray node can play it)."""

    arm: str
    index: int
    seed: int
    game: str
    config: Mapping[str, Any]
    bots: tuple[str, ...]
    """The bot of each seat."""
    content: ContentPack | None = None
    """An ``ecliptic.games.ContentPack`` to play instead of the packaged stand-ins, or ``None``."""
    max_decisions: int = MAX_DECISIONS


class Probe:
    """The figures every game gives; a game's probe adds its own (:data:`PROBES`)."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        """``view``: the spectator's observation of the new game."""
        self.first_player = int(view.get("first_player", 0))

    def see(self, events: Iterable[Event], observe: Any) -> None:
        """Called with the events of each applied action; ``observe()`` gives the spectator's
        view of the state after it, for a probe that needs it (it costs a few tens of µs)."""

    def record(self) -> dict[str, Any]:
        return {}


class TauCetiProbe(Probe):
    """Crises, prevented crises and the Market levels over the rounds."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        super().__init__(view)
        self.crises: list[list[Any]] = []
        self.prevented = 0
        self.no_crisis_rounds = 0
        self.round = int(view.get("round", 1))
        self.market: list[dict[str, int]] = [dict(view["market"])]
        self.planets: dict[str, str] = {}

    def see(self, events: Iterable[Event], observe: Any) -> None:
        for e in events:
            kind = e.kind
            if kind == "crisis":
                self.crises.append([self.round, e.data["crisis_type"], self._planet(e.data["planet"])])
            elif kind == "prevented":
                self.prevented += 1
            elif kind == "no_crisis":
                self.no_crisis_rounds += 1
            elif kind == "round":
                self.round = int(e.data["round"])
                if len(self.market) < self.round:
                    self.market.append(dict(observe()["market"]))

    def _planet(self, tile: str) -> str:
        """The planet's name, as the rulebook and the board print it (not the tile id)."""
        if tile not in self.planets:
            from ecliptic.tauceti.state import State

            self.planets[tile] = State.content.tile(tile).name
        return self.planets[tile]

    def record(self) -> dict[str, Any]:
        return {"crises": self.crises, "prevented": self.prevented, "no_crisis_rounds": self.no_crisis_rounds,
                "market": self.market}


class CeresProbe(Probe):
    """The Comets' outcomes (only in a game with the Comets expansion)."""

    OUTCOMES: ClassVar[dict[str, str]] = {
        "launch_comet": "launches", "stay": "stays", "jump": "jumps", "comet_removed": "explosions"}

    def __init__(self, view: Mapping[str, Any]) -> None:
        super().__init__(view)
        self.comets = "comets" in (view.get("config", {}).get("expansions") or ())
        self.counts = dict.fromkeys(self.OUTCOMES.values(), 0)

    def see(self, events: Iterable[Event], observe: Any) -> None:
        if self.comets:
            for e in events:
                name = self.OUTCOMES.get(e.kind)
                if name is not None:
                    self.counts[name] += 1

    def record(self) -> dict[str, Any]:
        return {"comets": self.counts} if self.comets else {}


PROBES: dict[str, type[Probe]] = {"tauceti": TauCetiProbe, "ceres": CeresProbe}


def play_recorded(task: GameTask) -> dict[str, Any]:
    """Play the task's game, every seat by its bot, and return its record. A task without a
    content pack plays the stand-ins whatever the process played before (a worker may have
    played another arm's pack)."""
    with using_content(task.content):
        return _play(task)


def _play(task: GameTask) -> dict[str, Any]:
    game = get_game(task.game)
    state = game.new_game(dict(task.config), task.seed)
    probe = PROBES.get(task.game, Probe)(game.observe(state, None))
    bots = [make_bot(spec, bot_seed(task.seed, s)) for s, spec in enumerate(task.bots)]

    def observe() -> dict[str, Any]:
        view: dict[str, Any] = game.observe(state, None)
        return view

    decisions = 0
    while not state.is_over:
        if decisions >= task.max_decisions:
            raise SimulationError(f"{_which(task)} did not end within {task.max_decisions} decisions: "
                                  "the rules engine is looping, which is a bug")
        seat = state.current_player
        try:
            events = game.apply(state, bots[seat].choose(game, state, seat))
        except Exception as exc:  # a bot or engine bug: say which game, so it can be replayed
            raise SimulationError(f"{_which(task)} failed at decision {decisions + 1} ({task.bots[seat]} at "
                                  f"seat {seat}): {type(exc).__name__}: {exc}") from None
        probe.see(events, observe)
        decisions += 1
    view = game.observe(state, None)
    record: dict[str, Any] = {
        "arm": task.arm,
        "index": task.index,
        "seed": task.seed,
        "bots": list(task.bots),
        "factions": [p["faction"] for p in view["players"]],
        "first_player": probe.first_player,
        "points": [dict(s) for s in view["final_scores"]],
        "returns": [float(r) for r in game.returns(state)],
        "winners": list(view["winners"]),
        "rounds": int(view["round"]),
        "decisions": decisions,
    }
    record.update(probe.record())
    return record


def _which(task: GameTask) -> str:
    return f"game {task.index + 1} of arm {task.arm!r} (seed {task.seed}, config {dict(task.config)})"

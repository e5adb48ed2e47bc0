"""The heuristic bot's visible habits, counted over many 4-player games of four heuristics.

``python -m benchmarks.bot_habits --games 200 --seed 1`` plays full Tau Ceti games with a
random layout, the factions rotated as in a tournament (:func:`ecliptic.sim.tournament.seating`,
game seeds from :func:`ecliptic.sim.simulate.game_seeds`), and prints what a player notices:

* zero-sector Moves: Move actions (``MOV``) that end having travelled no sector (``MOV``
  then ``STOP``), a Major action and its energy spent for nothing;
* Battle tokens placed per game, and how each battle ended: the Defender retreating, the
  Initiator retreating, fought to a destroyed system, or undecided;
* steals taken when available: at each ``battle_steal`` decision where something could
  be stolen, how often the winner took a card, a Knowledge token, a cube or nothing;
* 1GP tokens exhausted: the share of games in which the battle tokens' supply (the 1GP
  Galactic Point tokens) ran out, and the mean round it first did.

With ``--suggest`` it measures the server's suggestions in the middle of a person's Move
instead (:func:`probe`): the same games, every action the bot's own (chosen as the terminal
and the server choose it), and wherever a seat could start a Move (``MOV``) but its bot chose
something else, a person at that seat is taken to have started the Move anyway and asks for a
suggestion at its first step. It counts how often the suggestion is to stop there (``STOP``,
zero sectors entered), from the bot walked through the seat's decisions and told the person's
actions (:func:`ecliptic.server.analysis.suggest`, the server's path) and from a fresh bot that
was not (``suggest_from`` without a bot: what the server suggested before), beside how often
the bot stops its own Moves at their first step.

The counting is in :class:`Habits`, fed one applied action at a time by :meth:`Habits.step`
(the state before, the action, its events, the state after), so tests can drive it over a
scripted game. docs/bots.md quotes the figures. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ecliptic.bots.base import bot_seed, decide, make_bot
from ecliptic.bots.battle_odds import battle_tokens_left
from ecliptic.engine.actions import Action, act
from ecliptic.engine.events import Event
from ecliptic.server.analysis import SuggestJob, suggest, suggest_from
from ecliptic.server.bots import BotTurn, choose
from ecliptic.sim.simulate import game_seeds
from ecliptic.sim.tournament import faction_names, seating
from ecliptic.tauceti.game import TauCeti
from ecliptic.tauceti.state import State

GAME = TauCeti()
CONFIG: dict[str, Any] = {"players": 4, "game": "full", "layout": "random", "advanced": []}
"""The tournaments' configuration (``ecliptic tournament`` defaults to a random layout)."""
STEAL_NONE = act("STEAL", "none")
MOV = act("MOV")
STOP = act("STOP")
CAREFUL = 8
"""Copies the careful bot of ``--suggest`` averages each judgement over (``heuristic:samples=8``)."""


def steal_available(legal: list[Action]) -> bool:
    """At a ``battle_steal`` decision: is there anything to steal besides ``STEAL none``?"""
    return any(a != STEAL_NONE for a in legal)


@dataclass
class Habits:
    """Counters of the habits above, over any number of games."""

    games: int = 0
    moves: int = 0
    zero_moves: int = 0
    battle_tokens: int = 0
    battles: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    """How battles ended: ``defender_retreat``, ``initiator_retreat``, ``fought``, ``undecided``."""
    steal_chances: int = 0
    steals: Counter[str] = field(default_factory=Counter)
    """What the winner took where a steal was possible: ``card``, ``knowledge``, ``cube``, ``none``."""
    exhausted_rounds: list[int] = field(default_factory=list)
    """Per game whose 1GP tokens ran out, the round they first did."""
    _moving: dict[int, int] = field(default_factory=dict)
    _defender: int | None = None
    _exhausted: bool = False

    def new_game(self) -> None:
        self.games += 1
        self._moving.clear()
        self._defender = None
        self._exhausted = False

    def step(self, before: State, action: Action, events: list[Event], after: State) -> None:
        """Count one applied action: ``before`` is the state it was applied to (a copy taken
        before applying it), ``after`` the state it left."""
        if before.stack and before.stack[-1].kind == "battle_steal":
            self.count_steal(GAME.legal_actions(before), action)
        for e in events:
            self.count_event(e)
        if not self._exhausted and battle_tokens_left(after) == 0:
            self._exhausted = True
            self.exhausted_rounds.append(after.round)

    def count_steal(self, legal: list[Action], action: Action) -> None:
        """A ``battle_steal`` decision: counted when something could be stolen."""
        if steal_available(legal):
            self.steal_chances += 1
            self.steals[str(action.args[0]) if action.args else "none"] += 1

    def count_event(self, e: Event) -> None:
        seat = e.data.get("seat")
        if e.kind == "move_start":
            self.moves += 1
            self._moving[int(seat)] = 0
        elif e.kind == "move" and seat in self._moving:
            self._moving[int(seat)] += 1  # a GO; a wormhole hop only follows one
        elif e.kind == "move_stop" and seat in self._moving:
            if self._moving.pop(int(seat)) == 0:
                self.zero_moves += 1
        elif e.kind == "battle_token":
            self.battle_tokens += 1
        elif e.kind == "battle":
            self.battles += 1
            self._defender = int(e.data["defender"])
        elif e.kind == "battle_won":
            if not e.data.get("retreated"):
                self.endings["fought"] += 1
            elif e.data.get("loser") == self._defender:  # the loser is the one who retreated
                self.endings["defender_retreat"] += 1
            else:
                self.endings["initiator_retreat"] += 1
        elif e.kind == "battle_undecided":
            self.endings["undecided"] += 1

    def report(self) -> dict[str, Any]:
        n = max(self.games, 1)
        battles = max(self.battles, 1)
        chances = max(self.steal_chances, 1)
        return {
            "games": self.games,
            "moves": self.moves,
            "zero_sector_moves": self.zero_moves,
            "zero_sector_moves_per_game": self.zero_moves / n,
            "battle_tokens_per_game": self.battle_tokens / n,
            "battles": self.battles,
            "defender_retreats": self.endings["defender_retreat"],
            "defender_retreat_share": self.endings["defender_retreat"] / battles,
            "endings": dict(self.endings),
            "steal_chances": self.steal_chances,
            "steals": dict(self.steals),
            "steal_taken_share": (self.steal_chances - self.steals["none"]) / chances,
            "gp_exhausted_games": len(self.exhausted_rounds),
            "gp_exhausted_share": len(self.exhausted_rounds) / n,
            "gp_exhausted_mean_round": (statistics.fmean(self.exhausted_rounds)
                                        if self.exhausted_rounds else None),
        }


def play(habits: Habits, seed: int, index: int, bot: str = "heuristic", server: bool = False) -> None:
    """One game of four ``bot`` bots, seated and dealt like tournament game ``index``; with
    ``server``, every action chosen the way the game server's bot workers choose it (a bot
    built anew for each decision from the game's record: :func:`ecliptic.server.bots.choose`)."""
    seat = seating(index, [bot] * 4, 4, faction_names("tauceti"))
    config = {**CONFIG, "factions": list(seat.factions)} if seat.factions else dict(CONFIG)
    state = GAME.new_game(config, seed)
    bots = [make_bot(spec, bot_seed(seed, s)) for s, spec in enumerate(seat.bots)]
    actions: list[str] = []
    habits.new_game()
    while not state.is_over:
        who = state.current_player
        assert who is not None
        if server:
            turn = BotTurn("tauceti", config, seed, tuple(actions), who, seat.bots[who])
            action = Action.parse(choose(turn))
        else:
            action = bots[who].choose(GAME, state, who)
        actions.append(str(action))
        before = state.clone()
        events = GAME.apply(state, action)
        habits.step(before, action, events, state)


def run(games: int, seed: int, bot: str = "heuristic", server: bool = False) -> dict[str, Any]:
    habits = Habits()
    for i, s in enumerate(game_seeds(seed, games)):
        play(habits, s, i, bot, server)
    return habits.report()


@dataclass
class Probe:
    """Counters of ``--suggest``: suggestions at the first step of a Move a person started
    where the bot would not have, and the bot's own first steps."""

    games: int = 0
    asked: int = 0
    walked_stop: int = 0
    """Suggestions to stop from the bot walked through the seat's decisions (the server's now)."""
    fresh_stop: int = 0
    """Suggestions to stop from a fresh bot (the server's before)."""
    careful_stop: int = 0
    """A fresh bot judging on :data:`CAREFUL` copies, whose advice no single copy's dice decide."""
    differ: int = 0
    """Suggestions in which the walked and the fresh bot differ."""
    instead: Counter[str] = field(default_factory=Counter)
    """What the bot chose instead of the person's MOV (its verb), over all suggestions ..."""
    stop_instead: Counter[str] = field(default_factory=Counter)
    """... and over those in which the walked bot says to stop."""
    own_moves: int = 0
    own_stop: int = 0

    def report(self) -> dict[str, Any]:
        asked, own = max(self.asked, 1), max(self.own_moves, 1)
        return {"games": self.games, "asked": self.asked,
                "walked_stop": self.walked_stop, "walked_stop_share": self.walked_stop / asked,
                "fresh_stop": self.fresh_stop, "fresh_stop_share": self.fresh_stop / asked,
                "careful_stop": self.careful_stop, "careful_stop_share": self.careful_stop / asked,
                "differ": self.differ, "differ_share": self.differ / asked,
                "instead": dict(self.instead), "stop_instead": dict(self.stop_instead),
                "own_moves": self.own_moves, "own_stop": self.own_stop, "own_stop_share": self.own_stop / own}


def probe(counts: Probe, seed: int, index: int, bot: str = "heuristic", every: int = 1) -> None:
    """One game as in :func:`play` (each action chosen by :func:`decide`, as the terminal and the
    server's workers choose), asking for a suggestion after a person's ``MOV`` at every
    ``every``-th position where the bot chose something else."""
    seat = seating(index, [bot] * 4, 4, faction_names("tauceti"))
    config = {**CONFIG, "factions": list(seat.factions)} if seat.factions else dict(CONFIG)
    state = GAME.new_game(config, seed)
    bots = [make_bot(spec, bot_seed(seed, s)) for s, spec in enumerate(seat.bots)]
    actions: list[str] = []
    counts.games += 1
    chances = 0
    while not state.is_over:
        who = state.current_player
        assert who is not None
        action = decide(bots[who], GAME, state, who, seed, len(actions))
        if MOV in GAME.legal_actions(state) and action != MOV:
            chances += 1
            if chances % every == 0:
                moving = state.clone()
                GAME.apply(moving, MOV)
                record = (*actions, str(MOV))
                counts.asked += 1
                walked, _ = suggest(SuggestJob("tauceti", config, seed, record, who))
                fresh, _ = suggest_from(GAME, moving, who, bot_seed(seed, who) ^ len(record))
                counts.walked_stop += walked == str(STOP)
                counts.fresh_stop += fresh == str(STOP)
                counts.differ += walked != fresh
                counts.instead[action.verb] += 1
                if walked == str(STOP):
                    counts.stop_instead[action.verb] += 1
                careful = make_bot(f"heuristic:samples={CAREFUL}", bot_seed(seed, who) ^ len(record))
                counts.careful_stop += careful.choose(GAME, moving, who) == STOP
        own_move = action == MOV
        actions.append(str(action))
        GAME.apply(state, action)
        if own_move and not state.is_over and state.current_player == who:
            step = decide(bots[who], GAME, state, who, seed, len(actions))
            counts.own_moves += 1
            counts.own_stop += step == STOP
            actions.append(str(step))
            GAME.apply(state, step)


def probe_lines(r: dict[str, Any]) -> list[str]:
    return [
        f"games                                   {r['games']}",
        f"suggestions after a person's MOV        {r['asked']} (the bot had chosen something else)",
        f"  to STOP, the bot walked and told      {r['walked_stop']} ({100 * r['walked_stop_share']:.1f}%)",
        f"  to STOP, a fresh bot                  {r['fresh_stop']} ({100 * r['fresh_stop_share']:.1f}%)",
        f"  to STOP, a fresh bot on {CAREFUL} copies       {r['careful_stop']} ({100 * r['careful_stop_share']:.1f}%)",
        f"  the walked and the fresh bot differ   {r['differ']} ({100 * r['differ_share']:.1f}%)",
        "  the bot's choice instead, STOP / all  "
        + ", ".join(f"{k} {r['stop_instead'].get(k, 0)}/{v}" for k, v in sorted(r["instead"].items())),
        f"the bot's own Moves stopped at once     {r['own_stop']} of {r['own_moves']} "
        f"({100 * r['own_stop_share']:.1f}%)",
    ]


def lines(r: dict[str, Any]) -> list[str]:
    steals = ", ".join(f"{k} {v}" for k, v in sorted(r["steals"].items()))
    ends = ", ".join(f"{k} {v}" for k, v in sorted(r["endings"].items()))
    mean_round = r["gp_exhausted_mean_round"]
    return [
        f"games                          {r['games']}",
        f"zero-sector Moves              {r['zero_sector_moves']} of {r['moves']} Moves "
        f"({r['zero_sector_moves_per_game']:.2f} a game)",
        f"Battle tokens placed per game  {r['battle_tokens_per_game']:.2f} ({r['battles']} battles)",
        f"defender retreats              {r['defender_retreats']} of {r['battles']} battles "
        f"({100 * r['defender_retreat_share']:.1f}%); endings: {ends}",
        f"steals taken when available    {100 * r['steal_taken_share']:.1f}% of {r['steal_chances']} "
        f"({steals})",
        f"1GP tokens exhausted           {100 * r['gp_exhausted_share']:.1f}% of games"
        + (f", mean round {mean_round:.2f}" if mean_round is not None else ""),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games to play (200)")
    parser.add_argument("--seed", type=int, default=1, help="run seed (1)")
    parser.add_argument("--bot", default="heuristic", help="the bot in every seat (heuristic)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of lines")
    parser.add_argument("--server", action="store_true",
                        help="choose each action as the game server's bot workers do (a bot built anew per decision)")
    parser.add_argument("--suggest", action="store_true",
                        help="measure suggestions at the first step of a Move a person started (see above)")
    parser.add_argument("--every", type=int, default=1,
                        help="with --suggest, ask at every N-th position where the bot did not start a Move (1)")
    args = parser.parse_args()
    if args.suggest:
        counts = Probe()
        for i, s in enumerate(game_seeds(args.seed, args.games)):
            probe(counts, s, i, args.bot, max(1, args.every))
        report = counts.report()
        print(json.dumps(report) if args.json else "\n".join(probe_lines(report)))
        return
    report = run(args.games, args.seed, args.bot, args.server)
    print(json.dumps(report) if args.json else "\n".join(lines(report)))


if __name__ == "__main__":
    main()

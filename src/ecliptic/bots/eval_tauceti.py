"""How good a Tau Ceti position is for each seat, in Galactic Points.

A seat's value is its GP now (:func:`ecliptic.tauceti.scoring.score`) plus what its
resources are worth in GP: TAU, energy, Action markers left, Knowledge tokens, cards,
Resource cubes waiting for an orbital, system power, IMs on the Interface (by their
chance of success and the distance to their next stop), Commodity tokens, and so on.
Resource values shrink as the game nears its end ("future"), and TAU moves from a smooth
value to the Interface's brackets, which are all that counts in the final scoring.

The weights live in ``weights/tauceti.toml`` (one table for all factions, one per faction
to override), so they can be tuned without touching code.

This module is handed only states a fair bot may look into (a determinized copy), so it
reads the state's fields directly.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from ecliptic.bots import battle_odds
from ecliptic.bots.evaluator import (
    checked_weights,
    parse_weight_overrides,
    register_evaluator,
    weights_tables,
    win_chances,
)
from ecliptic.engine.actions import Action
from ecliptic.tauceti import board, scoring, ship, tracks
from ecliptic.tauceti.actions.missions import delivery_reward
from ecliptic.tauceti.state import State

WEIGHTS_FILE = Path(__file__).with_name("weights") / "tauceti.toml"
UNREACHABLE = 8
"""Distance used for a sector the starship cannot reach by ordinary moves."""

# Follow-up decisions of an action under way: the heuristic plays them out before judging.
_UNSETTLED_KINDS = frozenset({
    "move", "sell", "keep_mission", "keep_specialist", "claim", "reroll", "damage",
    "repair", "virus", "trade_offer", "battle_steal", "battle_takeover",
})


_QUICK = {
    "turn": (Action("PASS"), Action("END")),
    "enlighten": (Action("DONE"),),
}


@dataclass(frozen=True)
class Weights:
    """One faction's evaluation weights (see ``weights/tauceti.toml`` for each meaning)."""

    rivals: float = 1.0
    temperature: float = 1.0
    temperature_start: float = 6.0
    temperature_shape: float = 1.5
    expected_rounds: float = 10.7
    tau: float = 0.22
    tau_income: float = 1.5
    energy: float = 0.09
    energy_cap: float = 10
    marker: float = 1.0
    card: float = 0.12
    knowledge: float = 1.0
    crisis_pair: float = 1.2
    cube: float = 0.6
    system: float = 0.12
    mission: float = 0.8
    mission_distance: float = 0.15
    holding: float = 0.75
    engineered: float = 0.8
    recruit_cost: float = 0.04
    claim: float = 0.4
    diplomacy: float = 0.4
    free_upgrade: float = 0.8
    explore_distance: float = 0.05
    damage: float = 0.1

    def updated(self, changes: Mapping[str, float]) -> Weights:
        return dataclasses.replace(self, **changes)


WEIGHT_NAMES = frozenset(f.name for f in dataclasses.fields(Weights))
TUNED = tuple(f.name for f in dataclasses.fields(Weights) if f.name not in ("rivals", "energy_cap"))
"""The weights ``ecliptic calibrate --tune`` tunes: all but the heuristic's objective
(``rivals``, which the win chances do not use) and the energy cap (a count, not a rate)."""


def _checked(table: Mapping[str, Any], where: str) -> dict[str, float]:
    return checked_weights(table, WEIGHT_NAMES, where)


@cache
def load_weights(path: Path = WEIGHTS_FILE) -> tuple[Weights, dict[str, Weights]]:
    """The default weights and each faction's (the default with the faction's overrides)."""
    data = weights_tables(tomllib.loads(path.read_text()), {"default", "factions"}, str(path))
    default = Weights().updated(_checked(data.get("default", {}), f"{path} [default]"))
    factions = {
        name: default.updated(_checked(table, f"{path} [factions.{name}]"))
        for name, table in data.get("factions", {}).items()
    }
    return default, factions


def parse_overrides(options: Mapping[str, str]) -> dict[str, float]:
    """``{"w.energy": "0.3"}`` -> ``{"energy": 0.3}`` (bot options that are weights)."""
    return parse_weight_overrides(options, WEIGHT_NAMES)


@cache
def check_chance(dice: int, target: int, successes: int) -> float:
    """Chance that at least ``successes`` of ``dice`` dice show ``target`` or more."""
    p = max(0.0, min(1.0, (7 - target) / 6))
    return sum(math.comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(successes, dice + 1))


def _adjacency(layout: tuple[tuple[str, tuple[int, int]], ...]) -> dict[str, tuple[str, ...]]:
    """Which tiles touch which, for passable tiles (TAU CETI cannot be moved through)."""
    where = {cell: tile for tile, cell in layout}
    out: dict[str, tuple[str, ...]] = {}
    for tile, (q, r) in layout:
        near = (where.get((q + dq, r + dr)) for dq, dr in board.DIRECTIONS)
        out[tile] = tuple(sorted(t for t in near if t is not None and t != "TC"))
    return out


def distances(state: State, start: str) -> dict[str, int]:
    """Sectors travelled from ``start`` to every reachable tile (ordinary moves)."""
    return _distances(tuple(state.layout.items()), start)


@lru_cache(maxsize=4096)
def _distances(layout: tuple[tuple[str, tuple[int, int]], ...], start: str) -> dict[str, int]:
    """The breadth-first search behind :func:`distances`, remembered per layout and start:
    the evaluator asks it for every position it judges, and a game has few layouts (tiles
    are only ever added) and few starts. The answer is shared: callers only read it."""
    adj = _adjacency(layout)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        tile = queue.popleft()
        for nxt in adj.get(tile, ()):
            if nxt not in dist:
                dist[nxt] = dist[tile] + 1
                queue.append(nxt)
    return dist


class TauCetiEvaluator:
    """Tau Ceti positions judged in GP, per faction weights (see the module text)."""

    def __init__(self, default: Weights, factions: Mapping[str, Weights]) -> None:
        self.default = default
        self.factions = dict(factions)
        self.rivals = default.rivals

    def weights(self, faction: str) -> Weights:
        return self.factions.get(faction, self.default)

    # The evaluator contract -------------------------------------------------------------

    def values(self, state: State, clock: float | None = None) -> list[float]:
        future = self.future(state) if clock is None else clock
        return [self.seat_value(state, seat, future) for seat in range(len(state.players))]

    def value(self, state: State, seat: int, clock: float | None = None) -> float:
        return self.seat_value(state, seat, self.future(state) if clock is None else clock)

    def clock(self, state: State) -> float:
        """The share of the game still to come (:meth:`future`)."""
        return self.future(state)

    def chances(self, state: State) -> list[float]:
        future = self.future(state)
        values = [self.seat_value(state, seat, future) for seat in range(len(state.players))]
        return win_chances(values, self.temperature_at(future))

    def temperature_at(self, future: float) -> float:
        """The GP lead that makes a seat e times likelier to win, ``future`` of the game still
        to come: ``temperature`` at the end, ``temperature_start`` at the start, in between
        along ``future ** temperature_shape`` (fitted to heuristic games: docs/bots.md)."""
        w = self.default
        shape: float = future ** w.temperature_shape
        return w.temperature + (w.temperature_start - w.temperature) * shape

    def quiet(self, state: State, seat: int) -> bool:
        if state.is_over or state.current_player != seat:
            return True
        return state.stack[-1].kind not in _UNSETTLED_KINDS

    def stage(self, state: State) -> int:
        """The round, up to the last round the game surely plays (the short game's last, or
        the full game's tenth): a playout from there plays to the end of the game rather than
        stopping at a round's end, since the end is near (and in the full game a die roll
        after each round decides it)."""
        n = state.content.numbers
        return min(state.round, n.short_game_rounds if state.config.game == "short" else n.full_game_rounds)

    def quick_move(self, state: State, legal: list[Action]) -> Action | None:
        """The other players, as ISMCTS models them: they pass their turns (earning the
        TAU of their markers) and play no card in the Enlightenment phase; every other
        decision of theirs (battles, damage, ...) is searched like the bot's own."""
        if state.is_over or not state.stack:
            return None
        kind = state.stack[-1].kind
        for wanted in (_QUICK.get(kind) or ()):
            if wanted in legal:
                return wanted
        return None

    # The judgement ---------------------------------------------------------------------

    def future(self, state: State) -> float:
        """The share of the game still to come: 1 at the start, 0 after the expected end."""
        if state.is_over:
            return 0.0
        rounds = (state.content.numbers.short_game_rounds if state.config.game == "short"
                  else self.default.expected_rounds)
        played = max(0, state.round - 1) + (0.5 if state.phase in ("action", "battle") else 0.0)
        return max(0.0, min(1.0, (rounds - played) / rounds))

    def seat_value(self, state: State, seat: int, future: float) -> float:
        p = state.players[seat]
        w = self.weights(p.faction)
        scores = scoring.score(state, seat)
        if state.is_over:
            return float(scores["total"])
        value = scores["total"] - scores["tau"] + self._tau_value(state, seat, p.tau, future)
        markers, chance = self.markers_ahead(state, seat)
        if markers > 0 and chance > 0:
            # Each Action marker left pays 1T if the player passes: using one costs that.
            pay = markers * state.content.numbers.pass_tau
            after = min(p.tau + pay, state.content.numbers.track_cap)
            value += chance * w.marker * (self._tau_value(state, seat, after, future)
                                          - self._tau_value(state, seat, p.tau, future))
        price = self.damage_price(state, seat, w, future)
        value -= price * sum(p.damage.values())
        value += self._battles(state, seat, price)
        return value + future * self._resources(state, seat, w)

    def _battles(self, state: State, seat: int, damage_price: float) -> float:
        """The battles of this round ``seat`` is in and that are not over, by their expected
        result: the chance of winning times the 1GP token (while one is left in the supply),
        minus the Damage markers it expects to take, priced like damage already taken.
        Without it a Battle token placed was worth nothing until its battle was fought, so
        placing one was as good as doing nothing, which a marker not yet passed beat by a
        little; and a battle under way was worth nothing, so a retreat cost only the 1GP."""
        prize = float(state.content.numbers.battle_gp) if battle_odds.battle_tokens_left(state) else 0.0
        value = 0.0
        for attacker, defender in battle_odds.battles_ahead(state):
            if seat in (attacker, defender):
                other = defender if seat == attacker else attacker
                chance, damage = battle_odds.prospects(state, seat, other)
                value += chance * prize - damage_price * damage
        return value

    def markers_ahead(self, state: State, seat: int) -> tuple[int, float]:
        """The Action markers ``seat`` still has to use before its next pass, and the chance
        that it gets to use them: those left this round in the Enlightenment and Action
        phases (none once it has passed); in the Battle phase, the next round's, which come
        back whatever the battles do, with the chance that there is a next round. Without
        them in the Battle phase, every seat's value leapt up by a different amount when the
        round ended, so ending the last battle (a retreat, above all) looked like a gain by
        itself (docs/bots.md, "Habits")."""
        p = state.players[seat]
        if state.phase in ("enlightenment", "action"):
            return (0, 0.0) if p.passed else (tracks.markers_left(state, seat), 1.0)
        if state.phase == "battle":
            return state.content.numbers.action_markers - p.markers_lost, next_round_chance(state)
        return 0, 0.0

    def _tau_value(self, state: State, seat: int, tau: int, future: float) -> float:
        """TAU in GP: the Interface's brackets at the end of the game. While it goes on, the
        brackets joined by straight lines (10T steps), read where this TAU would end up with
        the income still to come (``tau_income`` per round left): the brackets grow
        steeper at the top, so a TAU kept now is worth the slope near the final amount,
        not the slope near today's."""
        table = state.faction(seat).tau_gp
        w = self.weights(state.players[seat].faction)
        cap = state.content.numbers.track_cap
        rounds_left = future * self.default.expected_rounds
        income = w.tau_income * rounds_left
        at_end = tau + income
        now = _smooth(table, min(at_end, cap)) - _smooth(table, min(income, cap))
        return (1 - future) * table[min(tau // 10, len(table) - 1)] + future * now

    def _resources(self, state: State, seat: int, w: Weights) -> float:
        p = state.players[seat]
        value = w.energy * min(p.energy, w.energy_cap) + w.card * len(p.hand)
        value += self._knowledge(state, seat, w)
        value += self._cubes(state, seat, w)
        value += self._ship(state, seat, w)
        where = distances(state, p.position)
        value += self._missions(state, seat, w, where)
        value += self._holdings(state, seat, w)
        value += self._exploring(state, seat, w, where)
        value -= w.recruit_cost * state.faction(seat).materials_track[p.materials]
        value += w.claim * (p.claim is not None) + w.diplomacy * p.diplomacy
        value += w.free_upgrade * p.free_upgrades
        return value

    def _knowledge(self, state: State, seat: int, w: Weights) -> float:
        content = state.content
        p = state.players[seat]
        value = sum(n * content.crisis_type(k).knowledge_tau * w.tau * w.knowledge
                    for k, n in p.knowledge.items() if n > 0)
        crises = {content.crisis_token(t).crisis_type for toks in state.planet_crises.values() for t in toks}
        if crises:
            specialists = {content.specialist(c).crisis_type for c in p.hand if c.startswith("S")}
            for kind in crises:
                value += w.crisis_pair * ((kind in specialists) + (p.knowledge.get(kind, 0) > 0))
        return value

    def _cubes(self, state: State, seat: int, w: Weights) -> float:
        """Resource cubes in sectors: each can become an orbital (and a cube at home)."""
        content = state.content
        p = state.players[seat]
        home_gp = content.tile(state.faction(seat).home_planet).cube_gp
        value = 0.0
        for tile, cubes in state.cubes.items():
            t = content.tile(tile)
            if t.is_planet:
                continue
            mine = cubes.count(p.faction)
            if mine:
                value += mine * w.cube * (t.orbital_gp + home_gp if p.orbitals_home else 0.5)
        return value

    def _ship(self, state: State, seat: int, w: Weights) -> float:
        """System power as printed (upgrades); damage is priced apart (:meth:`damage_price`)."""
        return w.system * sum(ship.power(state, seat, s) for s in state.content.systems)

    def damage_price(self, state: State, seat: int, w: Weights, future: float) -> float:
        """What one Damage marker costs ``seat``: the TAU that repairs it on a planet, and
        ``damage`` for the power it takes away until then, shrinking like every resource as
        the game nears its end (a marker nobody repairs costs no GP in the final scoring). It
        was priced like a lost upgrade (the ``system`` weight, fitted to how much system
        power predicts a win), so a damage marker, repaired for 1T, weighed nearly as much as
        the 1GP token a battle is fought for, and a battle looked lost before it began."""
        tau = state.players[seat].tau
        cost = state.content.numbers.repair_tau_planet
        repair = (self._tau_value(state, seat, tau, future)
                  - self._tau_value(state, seat, max(0, tau - cost), future))
        return future * (repair + w.damage)

    def _missions(self, state: State, seat: int, w: Weights, where: dict[str, int]) -> float:
        content = state.content
        p = state.players[seat]
        skills = state.faction(seat).skills
        value = 0.0
        for m in p.missions:
            card = content.mission(m.card)
            if card.kind == "skill_check" and card.check is not None:
                chance = check_chance(skills.get(card.check.skill, 2), card.check.target, card.check.successes)
                reward = float(card.reward_tau)
                stop = card.sector
            else:
                chance = 0.9 if m.permitted else 0.7
                reward = float(delivery_reward(state, seat, m))
                stop = card.deliver if m.picked_up else card.pickup
            far = where.get(stop, UNREACHABLE)
            value += max(0.0, w.mission * chance * reward * w.tau - w.mission_distance * far)
        return value

    def _holdings(self, state: State, seat: int, w: Weights) -> float:
        content = state.content
        value = 0.0
        for h in state.players[seat].holdings:
            if h.engineered:
                value += w.engineered
                continue
            level = state.market.get(content.commodity(content.commodity_token(h.token).commodity).resource, 1)
            value += w.holding * level * h.quantity * w.tau
        return value

    def _exploring(self, state: State, seat: int, w: Weights, where: dict[str, int]) -> float:
        """The nearest Exploration point this seat could still explore, as a small pull."""
        near = min((where.get(pt.sector, UNREACHABLE) for pt in state.points.values()
                    if pt.token is not None and pt.claimed_by in (None, seat) and pt.sector in state.layout),
                   default=UNREACHABLE)
        return -w.explore_distance * near


def next_round_chance(state: State) -> float:
    """The chance that another round follows the one being played: the short game ends
    after its last round, the full game's end is rolled for after its tenth
    (``continue_on``: the die needed to go on) and comes after the longest game's last."""
    n = state.content.numbers
    if state.config.game == "short":
        return 1.0 if state.round < n.short_game_rounds else 0.0
    if state.round >= n.longest_game_rounds:
        return 0.0
    if state.round < n.full_game_rounds:
        return 1.0
    need = n.continue_on[state.round - n.full_game_rounds]
    return max(0.0, min(1.0, (7 - need) / 6))


def _smooth(table: list[int], tau: float) -> float:
    """The TAU brackets joined by straight lines: the GP of ``tau`` with 10T per bracket."""
    k = min(int(tau) // 10, len(table) - 1)
    nxt = table[k + 1] if k + 1 < len(table) else table[k]
    return table[k] + (nxt - table[k]) * min(tau - 10 * k, 10) / 10


def make_evaluator(options: dict[str, str]) -> TauCetiEvaluator:
    """The evaluator with the weights file, plus ``w.<name>=<value>`` overrides for all."""
    default, factions = load_weights()
    changes = parse_overrides(options)
    if changes:
        default = default.updated(changes)
        factions = {name: w.updated(changes) for name, w in factions.items()}
    return TauCetiEvaluator(default, factions)


register_evaluator("tauceti", make_evaluator)

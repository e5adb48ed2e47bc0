"""What each legal action costs and does, as the engine itself says by performing it.

No rule is written here. Each action is applied to copies of ``determinize(state, seat)``
(never the true state: its generator would foretell dice and draws) and the acting seat's
public facts (TAU, energy, materials, Action markers, Knowledge, skills, systems, holdings,
cards in hand, GP tokens, orbitals, cubes, position; Ceres' Resources, probes, VP) are
compared before and after, as that seat's observation shows them. What a spent fact (TAU,
energy, a Knowledge token, an Action marker, Ice...) lost is a cost, the rest is the effect;
the spent facts are read after every event the engine emits, so a payment and a gain of the
same thing (a Launch pays Ice, the Asteroid gives Ice) show apart. Only the action's own
decision kind performs it: the automatic steps after it (the next seat, the end of the
phase) are not what it does.

* **Random outcomes.** The copies' generator is a :class:`Tripwire`: the first die, shuffle
  or random draw stops the action there. What changed before it is deterministic (the energy
  and the Action marker an Exploration pays, the TAU a purchase costs) and is shown; the
  rest is said to be random ("rolls the dice"), as the undo policy would judge it.
* **Hidden outcomes.** The copies re-deal what the seat cannot see differently; a fact
  that comes out differently in them depends on a hidden thing (the Knowledge token an
  Exploration reveals, the card a Recruit draws) and is shown only as far as the copies
  agree (``+1 card in hand``, ``+1 Knowledge token``), with a note that it is not known yet.

The determinizations use fixed seeds (a copy depends only on what the seat sees and on the
seed), so the same position always reads the same.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, NoReturn

from ecliptic.engine.actions import Action
from ecliptic.engine.rng import Rng
from ecliptic.engine.wording import plural
from ecliptic.present.tauceti_components import commodity_label, tile_name

log = logging.getLogger("ecliptic.present")

SAMPLES = 3
"""Determinized copies each action is tried on: a fact that comes out alike in all of them is
certain (three, so that a hidden outcome of few possibilities rarely agrees by chance)."""
_SEEDS = (0x5EE_D001, 0x5EE_D002, 0x5EE_D003)

Facts = dict[str, Any]


class RandomOutcome(Exception):
    """The action reached a die roll (``dice``), a shuffle (``shuffle``) or a random draw (``draw``)."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


@dataclass
class Tripwire(Rng):
    """A generator that stops the action at its first random step."""

    def _stop(self, what: str) -> NoReturn:
        raise RandomOutcome(what)

    def next_u64(self) -> int:
        self._stop("draw")

    def below(self, n: int) -> int:
        self._stop("draw")

    def d6(self) -> int:
        self._stop("dice")

    def roll(self, count: int) -> list[int]:
        self._stop("dice")

    def shuffle(self, items: list[Any]) -> None:
        self._stop("shuffle")


@dataclass(frozen=True)
class Effect:
    cost: str
    effect: str
    random: str | None
    """``dice``, ``shuffle`` or ``draw`` when the action reaches a random step, else ``None``."""
    hidden: bool


# -- a seat's facts, read off its observation -----------------------------------------------

def tauceti_facts(obs: dict[str, Any], seat: int) -> tuple[Facts, set[str]]:
    """The acting seat's countable and named facts, and which of them are spent."""
    p = obs["players"][seat]
    faction = p["faction"]
    facts: Facts = {"TAU": p["tau"], "energy": p["energy"], "materials": p["materials"],
                    "Action marker": -(p["markers_used"] + p["markers_lost"]), "card in hand": p["hand_size"],
                    "face-up card": len(p["face_up"]), "GP token": p["gp_tokens"], "GP on tokens": p["gp_token_points"],
                    "Interplanetary Mission": len(p["missions"]), "free upgrade": p["free_upgrades"],
                    "at": p["position"], "Claim token on": p["claim"], "battle in": p["battle_sector"],
                    "Exotic Tech": p["exotic_tech"], "passed": p["passed"], "cube in the cargo hold": p["cargo_cube"],
                    "Diplomacy card": p["diplomacy"], "Battle token": len(obs["battles"])}
    spent = {"TAU", "energy", "materials", "Action marker", "card in hand", "GP token", "GP on tokens"}
    for k, n in p["knowledge"].items():
        facts[f"{k} Knowledge"] = n
        spent.add(f"{k} Knowledge")
    facts["Knowledge token"] = sum(p["knowledge"].values())
    spent.add("Knowledge token")
    for skill, dice in p["skills"].items():
        facts[f"{skill} skill"] = dice
    for name, s in p["systems"].items():
        facts[f"{name} power"] = s["effective"]
        facts[f"damage on {name}"] = s["damage"]
        facts[f"virus crystal on {name}"] = s["virus"]
    held: dict[str, int] = {}
    for h in p["holdings"]:
        held[h["token"]] = h["quantity"]
    facts["commodities"] = tuple(sorted(held.items()))
    facts["engineered"] = tuple(sorted(_commodity(h["token"]) for h in p["holdings"] if h.get("engineered")))
    for tile, owners in obs["orbitals"].items():
        facts[f"orbital in {tile}"] = owners.count(seat)
    for tile, cubes in obs["cubes"].items():
        facts[f"Resource cube on {tile}"] = cubes.count(faction)
    for planet, crises in obs["planet_crises"].items():
        for c in crises:
            facts[f"crisis {c['id']}"] = planet
    for resource, level in obs["market"].items():
        facts[f"{resource} Market level"] = level
    if "shielded" in obs:
        facts["shielded"] = obs["shielded"]
    return facts, spent


def _commodity(token: str) -> str:
    from ecliptic.present.tauceti_components import content

    try:
        return content().commodity_token(token).commodity
    except KeyError:
        return token


def ceres_facts(obs: dict[str, Any], seat: int) -> tuple[Facts, set[str]]:
    p = obs["players"][seat]
    facts: Facts = {r: n for r, n in p["resources"].items()}
    spent = set(facts)
    facts["Mining Probe"] = p["probes"]
    spent.add("Mining Probe")
    facts["VP"] = p["vp"]["total"]
    facts["Tail token"] = len(p["tail_tokens"])
    for a in p["asteroids"]:
        facts[f"claims {a}"] = True
    return facts, spent


def tauceti_state_facts(game: Any, state: Any, seat: int) -> tuple[Facts, set[str]]:
    """:func:`tauceti_facts` of the seat's observation, from the parts of it they read only: the
    seat's own player view (the observation's own function) and the public board counts.
    (The whole observation of every trial was most of the cost of a view.)"""
    from ecliptic.tauceti.observation import player_view

    part: dict[str, Any] = {
        "players": {seat: player_view(state, seat, seat, frozenset({seat}))},
        "orbitals": state.orbitals,
        "cubes": state.cubes,
        "planet_crises": {planet: [{"id": t} for t in toks] for planet, toks in state.planet_crises.items()},
        "market": state.market,
        "battles": state.battles,
    }
    if state.battle is not None and str(seat) in state.battle.shields:
        part["shielded"] = tuple(state.battle.shields[str(seat)])
    return tauceti_facts(part, seat)


def tauceti_spendable(state: Any, seat: int) -> dict[str, int]:
    """The spent facts of :func:`tauceti_facts`, read cheaply: taken after every event of a trial."""
    p = state.players[seat]
    out = {"TAU": p.tau, "energy": p.energy, "materials": p.materials,
           "Action marker": -(p.markers_used + p.markers_lost), "card in hand": len(p.hand),
           "GP token": len(p.gp_tokens)}
    for k, n in p.knowledge.items():
        out[f"{k} Knowledge"] = n
    out["Knowledge token"] = sum(p.knowledge.values())
    return out


def ceres_spendable(state: Any, seat: int) -> dict[str, int]:
    p = state.players[seat]
    out = dict(p.resources)
    out["Mining Probe"] = p.probes
    return out


SPENDABLE: dict[str, Callable[[Any, int], dict[str, int]]] = {
    "tauceti": tauceti_spendable, "ceres": ceres_spendable}


class _Recorder(list[Any]):
    """The events list a trial is performed with: the spent facts are read again after every
    event, so that a payment and a gain of the same resource (a Launch pays Ice and the
    Asteroid gives Ice) are shown as what they are, not as their net change."""

    def __init__(self, read: Callable[[], dict[str, int]]) -> None:
        super().__init__()
        self.read = read
        self.points = [read()]

    def append(self, event: Any) -> None:
        super().append(event)
        self.points.append(self.read())

    def flows(self) -> dict[str, tuple[int, int]]:
        """``{fact: (spent, gained)}`` over the trial, for every fact read."""
        self.points.append(self.read())
        out: dict[str, tuple[int, int]] = {}
        for key in self.points[0]:
            values = [p.get(key, 0) for p in self.points]
            spent = sum(max(0, a - b) for a, b in pairwise(values))
            gained = sum(max(0, b - a) for a, b in pairwise(values))
            out[key] = (spent, gained)
        return out


def ceres_state_facts(game: Any, state: Any, seat: int) -> tuple[Facts, set[str]]:
    return ceres_facts(game.observe(state, seat), seat)


FACTS: dict[str, Callable[[Any, Any, int], tuple[Facts, set[str]]]] = {
    "tauceti": tauceti_state_facts, "ceres": ceres_state_facts}


def _diff(before: Facts, after: Facts) -> dict[str, tuple[Any, Any]]:
    return {k: (before.get(k), after.get(k)) for k in before.keys() | after.keys() if before.get(k) != after.get(k)}


# -- the words ---------------------------------------------------------------------------------


def _commodity_words(old: Any, new: Any) -> list[str]:
    from ecliptic.present.tauceti_components import content

    def named(held: Any) -> dict[str, int]:
        out: dict[str, int] = {}
        for token, qty in held or ():
            try:
                out[content().commodity_token(token).commodity] = qty
            except KeyError:
                out[token] = qty
        return out

    a, b = named(old), named(new)
    words = []
    for name in sorted(a.keys() | b.keys()):
        d = b.get(name, 0) - a.get(name, 0)
        if d:
            words.append(f"{'+' if d > 0 else ''}{d} {commodity_label(name)}")
    return words


_COUNTED = ("orbital in ", "Resource cube on ")
_NOUNS = {"card in hand": "cards in hand", "Action marker": "Action markers", "GP token": "GP tokens",
          "Knowledge token": "Knowledge tokens", "Battle token": "Battle tokens",
          "orbital in ": "orbitals in ", "Resource cube on ": "Resource cubes on ",
          "virus crystal on ": "virus crystals on "}
"""The facts counted in things, and their plural: ``+2 cards in hand`` (TAU, energy, GP and
the skills' dice are amounts, said as they are)."""


def counted(n: int, key: str) -> str:
    """``n`` of the fact ``key`` in its number: ``1 Action marker``, ``2 cards in hand``,
    ``3 Resource cubes on XUNO`` (the sign is the caller's)."""
    if abs(n) != 1:
        for one, many in _NOUNS.items():
            if key == one or (one.endswith(" ") and key.startswith(one)):
                return f"{n} {many}{key[len(one):]}"
    return f"{n} {key}"


def paid(n: int, key: str) -> str:
    """``n`` of the spent fact ``key`` as a cost: ``2 energy``, ``1 Action marker``; cards from
    the hand as what is given (``a card from your hand``: ``1 card in hand`` read as a count)."""
    if key == "card in hand":
        return "a card from your hand" if n == 1 else f"{n} cards from your hand"
    return counted(n, key)


def _words(key: str, old: Any, new: Any) -> str:
    """One change in words (``+1 Industry skill``, ``to Tau Ceti Prime``, ``passes``)."""
    if key == "at":
        return f"to {tile_name(new)}" if new else ""
    if key.startswith("crisis "):
        return f"removes the crisis {key.removeprefix('crisis ')}" if new is None else ""
    if key.startswith("claims "):
        return f"claims Asteroid {key.removeprefix('claims ')}"
    if key.startswith(_COUNTED) and not isinstance(new, bool) and not isinstance(old, bool):
        d = (new or 0) - (old or 0)
        return f"{'+' if d > 0 else ''}{counted(d, key)} ({tile_name(key.split()[-1])})"
    if key == "shielded":
        return f"shields {', '.join(new) or 'no system'}"
    if key == "battle in":
        return f"Battle token in {tile_name(new)}" if new else ""
    if key == "engineered":
        return ", ".join(f"reverse engineers the {commodity_label(c)}" for c in sorted(set(new) - set(old)))
    if isinstance(new, bool) or isinstance(old, bool) or new is None or old is None or isinstance(new, str):
        if key == "passed":
            return "passes" if new else ""
        if new in (None, False):
            return f"loses the {key}" if key not in ("battle in", "Claim token on") else ""
        return f"{key} {new}" if isinstance(new, str) else f"gains the {key}"
    if isinstance(new, int) and isinstance(old, int):
        d = new - old
        return f"{'+' if d > 0 else ''}{counted(d, key)}"
    return ""


@dataclass(frozen=True)
class Flow:
    """What a trial paid of a spent fact and what it gained of it."""

    spent: int
    gained: int


def describe(changes: dict[str, Any], same_in_all: set[str]) -> tuple[str, str]:
    """The cost and the effect, from the changes of the facts (``(old, new)``, or a
    :class:`Flow` for a spent fact); only the keys in ``same_in_all`` are certain, the others
    came out differently in the copies."""
    costs: list[str] = []
    gains: list[str] = []
    # The total of Knowledge tokens stands in for the types when the types are not certain.
    types_known = all(k in same_in_all for k in changes if k.endswith(" Knowledge"))
    for key in sorted(changes, key=_order):
        if key not in same_in_all:
            continue
        change = changes[key]
        if key == "Knowledge token" and types_known:
            continue
        if key.endswith(" Knowledge") and not types_known:
            continue
        if key == "GP on tokens" and "GP token" in changes:
            continue
        if key == "commodities":
            for w in _commodity_words(*change):
                if w.startswith("-"):
                    costs.append(w[1:])
                else:
                    gains.append(w)
            continue
        if isinstance(change, Flow):
            worth = ""
            if key == "GP token" and "GP on tokens" in changes and "GP on tokens" in same_in_all:
                was, now = changes["GP on tokens"]
                worth = f" ({abs(now - was)} GP)"
            if change.spent:
                costs.append(f"{paid(change.spent, key)}{worth}")
            if change.gained:
                gains.append(f"+{counted(change.gained, key)}{worth}")
            continue
        w = _words(key, *change)
        if w:
            gains.append(w)
    return ", ".join(costs), ", ".join(gains)


_FIRST = ("Action marker", "energy", "TAU")


def _order(key: str) -> tuple[int, str]:
    """The spent facts first (``_FIRST``), then the rest by name; a system's power right after
    its damage (``+1 damage on cargo, -1 cargo power``, whatever the system's name)."""
    if key.endswith(" power"):
        key = f"damage on {key.removesuffix(' power')} power"
    return (_FIRST.index(key) if key in _FIRST else len(_FIRST), key)


QUIET_SHUFFLES = frozenset({"keep_mission"})
"""Decisions whose shuffle is not said: keeping a Mission shuffles the other cards drawn back
under the deck (TC-IM-2), which neither gives nor costs the seat anything."""

_RANDOM_WORDS = {"dice": ("rolls the dice", "may roll the dice"),
                 "shuffle": ("shuffles a deck", "may shuffle a deck"),
                 "draw": ("a random draw follows", "a random draw may follow")}


def random_words(what: str, group: str, always: bool = True) -> str:
    """The random step in words; ``always`` is false when only some copies reached it (it
    hangs on something hidden, such as the Outer Limit tile a move draws)."""
    if what == "dice" and group == "Battle":
        return "rolls the battle dice" if always else "may roll the battle dice"
    certain, maybe = _RANDOM_WORDS.get(what, ("a random outcome follows", "a random outcome may follow"))
    return certain if always else maybe


# -- the mechanism -------------------------------------------------------------------------


def samples(game: Any, state: Any, seat: int) -> list[Any]:
    """The determinized copies (each action is applied to a clone of each)."""
    return [game.determinize(state, seat, Rng.from_seed(seed)) for seed in _SEEDS[:SAMPLES]]


def _try(game: Any, copy: Any, seat: int, action: Action) -> tuple[Any, str | None, dict[str, tuple[int, int]]]:
    """``action`` performed on a clone of ``copy`` by its decision kind, up to its first random
    step, and the seat's spent facts' flows. The automatic steps that follow (the next seat's
    turn, the end of the phase) are not run: they are not what the action does."""
    trial = copy.clone()
    trial.rng = Tripwire()
    d = trial.stack[-1]
    read = SPENDABLE[game.name]
    told = _Recorder(lambda: read(trial, seat))
    stopped = None
    try:
        game.kinds[d.kind].perform(trial, d, game._canonical(action), told)
    except RandomOutcome as stop:
        stopped = stop.what
    return trial, stopped, told.flows()


def effects(game: Any, name: str, copies: Sequence[Any], seat: int, actions: Sequence[Action],
            groups: Sequence[str]) -> list[Effect]:
    """The :class:`Effect` of each of ``seat``'s ``actions`` (their groups name the dice)."""
    facts_of = FACTS[name]
    base = [facts_of(game, c, seat) for c in copies]
    seen = _names_in(game.observe(copies[0], seat)) if copies else frozenset()
    out = []
    for action, group in zip(actions, groups, strict=True):
        try:
            out.append(_effect(game, copies, base, facts_of, seat, action, group, seen))
        except Exception:  # the view must not fail on a presentation problem; the log says what
            log.exception("no effect text for %s", action)
            out.append(Effect("", "", None, False))
    return out


def _effect(game: Any, copies: Sequence[Any], base: list[tuple[Facts, set[str]]],
            facts_of: Callable[[Any, Any, int], tuple[Facts, set[str]]], seat: int, action: Action,
            group: str, seen: frozenset[str] = frozenset()) -> Effect:
    random: str | None = None
    stops = 0
    first: Any = None
    kind = copies[0].stack[-1].kind
    diffs: list[dict[str, Any]] = []
    for i, copy in enumerate(copies):
        trial, stopped, flows = _try(game, copy, seat, action)
        if first is None:
            first = None if stopped else trial
        random = random or stopped
        stops += stopped is not None
        try:
            after = facts_of(game, trial, seat)[0]
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            # A half-performed action (stopped at its first random step) may not be observable.
            after = base[i][0]
        diff: dict[str, Any] = _diff(base[i][0], after)
        for key, (paid, gained) in flows.items():  # spent facts: what was paid and what was gained
            diff.pop(key, None)
            if paid or gained:
                diff[key] = Flow(paid, gained)
        diffs.append(diff)
    keys = set().union(*diffs)
    same = {k for k in keys if all(d.get(k) == diffs[0].get(k) for d in diffs) and not _new_name(diffs[0].get(k), seen)}
    hidden = same != keys
    cost, effect = describe(diffs[0], same)
    notes = [effect] if effect else []
    follow = _follow_up(first, seat, kind, action) if first is not None else ""
    if follow:
        notes.append(follow)
    if hidden:
        notes.append("reveals what you cannot see yet")
    if random and not (random == "shuffle" and kind in QUIET_SHUFFLES):
        notes.append(random_words(random, group, always=stops == len(copies)))
    return Effect(cost, "; ".join(notes), random, hidden)


def _names_in(data: Any) -> frozenset[str]:
    """Every text in an observation (its keys too): the ids the seat can see."""
    out: set[str] = set()
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            out.add(x)
        elif isinstance(x, dict):
            out.update(k for k in x if isinstance(k, str))
            stack.extend(x.values())
        elif isinstance(x, (list, tuple)):
            stack.extend(x)
    return frozenset(out)


def _new_name(change: Any, seen: frozenset[str]) -> bool:
    """A change to an id the seat could not see before (the Outer Limit tile a move into
    uncharted space draws, a card from a deck) came from a hidden place: the copies may agree
    on it by chance, so it is never certain."""
    if not isinstance(change, tuple) or len(change) != 2:
        return False
    new = change[1]
    return isinstance(new, str) and bool(new) and new not in seen


FOLLOW_UPS = {
    "keep_mission": "keep a mission", "keep_specialist": "keep a Specialist", "sell": "choose what to sell",
    "repair": "choose what to repair", "claim": "place the Claim token or not", "damage": "allocate the damage",
    "reroll": "re-roll or accept the check", "tail": "take a Tail token", "comet_probe": "stay on the Comet or jump",
}
"""The choice an action leads to, in words (the decision kind is an engine key: ``tail``); a
kind not listed is said as its key reads."""


def _follow_up(trial: Any, seat: int, kind: str, action: Action) -> str:
    """The choice the action leads the seat to (its route length for a move: what the
    engine's move decision holds after the step)."""
    if trial.is_over or not trial.stack:
        return ""
    d = trial.stack[-1]
    if d.player != seat:
        return ""
    if d.kind == "move" and isinstance(d.data.get("left"), int):
        # (said of a move's own steps only: a DAMAGE that an Asteroid Field's check asks for on
        # the way returns to the move, but its effect is the damage)
        left = d.data["left"]
        if action.verb == "MOV":
            return f"up to {plural(left, 'sector')}"
        return f"{plural(left, 'sector')} left" if kind == "move" else ""
    if d.kind not in (kind, "turn"):
        return f"then: {FOLLOW_UPS.get(d.kind, d.kind.replace('_', ' '))}"
    return ""

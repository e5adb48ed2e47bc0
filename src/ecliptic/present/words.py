"""Each action said in the rulebook's words, short enough for a button: ``Take an Interplanetary
Mission`` (IM), ``Buy 1 Xunari algae`` (BUY algae 1), ``Explore Exploration point 1 of Wormhole
I`` (EXP 15.1), ``Launch a Probe onto Asteroid A05 (Outer Ring)`` (LAUNCH A05).

The browser's action buttons show it as their main line, beside the notation; the ``label``
(:mod:`ecliptic.present.labels`) stays the notation and its notes, which the terminal prints
and its players type. One table of verb phrases (:data:`PHRASES`) says each verb; the words
of its ids (a tile's name, a card's name, a Crisis token's type and planet, the player) come
from the same component names and notes the labels use. No rule id is quoted here.
"""

from __future__ import annotations

from typing import Any

from ecliptic.engine.actions import Action
from ecliptic.present import ceres_components as cc
from ecliptic.present import tauceti_components as tc
from ecliptic.present.labels import cell_note, crisis_note, seat_name
from ecliptic.tauceti.actions.minor import DEPOT, K3

ANY = "*"
"""In a phrase's key, any one argument; ``{n}`` in the phrase is the words of the n-th."""

PHRASES: dict[str, dict[str, str]] = {
    "tauceti": {
        # Setup and the turn
        "PLACE *": "Place the tile at {0}",
        "PASS": "Pass",
        "END": "End your turn",
        # Major actions, in the rulebook's names (Action Phase)
        "MOV": "Move",
        "GO *": "Go to {0}",
        "JUMP": "Try the wormhole",
        "STOP": "Stop here",
        "EXP *": "Explore {0}",
        "CLAIM *": "Claim {0}",
        "NOCLAIM": "Keep your Claim token",
        "BUI *": "Build an orbital in {0}",
        "REC": "Recruit",
        "IM": "Take an Interplanetary Mission",
        "REP": "Repair",
        "FIX *": "Repair {0}",
        "ENG *": "Reverse engineer {0}",
        "UPG * *": "Upgrade {0} with {1}",
        "UPG * free": "Upgrade {0} (free upgrade)",
        "UPG exotic *": "Acquire the Exotic Tech {1}",
        "REF": "Refuel (+2 energy)",
        "SELL": "Sell commodities",
        "SELL *": "Sell {0}",
        "BUY * *": "Buy {1} {0}",
        # Minor actions
        "SELL-K *": "Sell a {0} Knowledge token",
        "TRADE-K * * * *": "Trade {0} and {1} Knowledge for {2} Knowledge with {3}",
        "TRADE-S * *": "Trade {0} and {1} for a new Specialist",
        "CUBE-MAT": "Trade a Resource cube for Materials",
        "GP-TOKEN *": "Trade in the {0}",
        "PLAY-S *": "Turn {0} face up",
        "RESOLVE * *": "Resolve the {0} with {1}",
        "ASSIST-LOAD": "Load a Resource cube to assist",
        "ASSIST-DROP": "Drop off the Resource cube",
        "IM-CHECK *": "Attempt the mission: {0}",
        "PICKUP *": "Pick up {0}",
        "DELIVER *": "Deliver {0}",
        # What a decision asks
        "PLAY *": "Play {0} face down (+2 energy)",
        "enlighten:DONE": "Done playing cards",
        "sell:DONE": "Done selling",
        "repair:DONE": "Done repairing",
        "DONE": "Done",
        "KEEP *": "Keep {0}",
        "keep_mission:KEEP *": "Keep the mission: {0}",
        "trade_offer:ACCEPT": "Accept the trade",
        "DECLINE": "Decline the trade",
        "reroll:ACCEPT": "Accept the result",
        "ACCEPT": "Accept",
        "REROLL": "Re-roll (2T)",
        "REROLL free": "Re-roll free (Exotic Tech)",
        "DAMAGE *": "Damage {0}",
        "VIRUS *": "Put the virus crystal on {0}",
        "DROP-VIRUS *": "Drop the virus crystal from {0}",
        "KEEP-VIRUS": "Keep the virus crystals",
        # Battle
        "BATTLE * *": "Battle {1} in {0}",
        "READY": "Ready for battle",
        "ATTACK": "Attack",
        "ATTACK exotic": "Attack with the Exotic Tech",
        "RETREAT": "Retreat",
        "SHIELD *": "Shield {0}",
        "TAKEOVER cube": "Take over a Resource cube",
        "TAKEOVER orbital": "Take over an orbital",
        "TAKEOVER none": "Take over nothing",
        "STEAL none": "Take nothing",
        "STEAL cube": "Take the Resource cube it carries",
        "STEAL card *": "Take {1}",
        "STEAL knowledge *": "Take a {1} Knowledge token",
    },
    "ceres": {
        "LAUNCH *": "Launch a Probe onto {0}",
        "JUMP *": "Jump onto {0}",
        "STAY": "Stay on the Comet",
        "TAIL *": "Take the token of {0}",
        "PASS": "Pass for this round",
    },
}


def _keys(game: str) -> dict[str, list[tuple[str | None, tuple[str, ...], str]]]:
    """The phrases of ``game`` by verb: ``(kind or None, the argument patterns, phrase)``."""
    by_verb: dict[str, list[tuple[str | None, tuple[str, ...], str]]] = {}
    for key, said in PHRASES[game].items():
        kind, _, pattern = key.rpartition(":")
        verb, *args = pattern.split(" ")
        by_verb.setdefault(verb, []).append((kind or None, tuple(args), said))
    return by_verb


_BY_VERB = {game: _keys(game) for game in PHRASES}


def phrase(game: str, kind: str, action: Action) -> str | None:
    """The phrase of :data:`PHRASES` that says ``action`` offered by a ``kind`` decision: the
    one of its kind before any other, then the one naming the most of its arguments."""
    best: tuple[int, str] | None = None
    for for_kind, args, said in _BY_VERB.get(game, {}).get(action.verb, ()):
        if len(args) != len(action.args) or for_kind not in (None, kind):
            continue
        if not all(p in (ANY, a) for p, a in zip(args, action.args, strict=True)):
            continue
        score = (100 if for_kind else 0) + sum(p != ANY for p in args)
        if best is None or score > best[0]:
            best = (score, said)
    return None if best is None else best[1]


def mission_words(card: str) -> str:
    """An Interplanetary Mission by what it asks: ``Xunari algae (Xuno → Zuron Asteroid)``,
    ``Science check at Xuno``."""
    m = tc.content().mission(card)
    if m.kind == "delivery":
        return f"{tc.commodity_label(m.commodity)} ({tc.tile_name(m.pickup)} → {tc.tile_name(m.deliver)})"
    skill = f"{m.check.skill} check" if m.check else "check"
    return f"{skill} at {tc.tile_name(m.sector)}"


def _shields(arg: str) -> str:
    systems = tc.content().systems
    numbers = [int(n) for n in arg.split(",") if n.isdigit() and 1 <= int(n) <= len(systems)]
    names = [systems[n - 1].capitalize() for n in numbers]
    if not names:
        return "no system"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def tauceti_word(obs: dict[str, Any], action: Action, i: int) -> str:
    """The words of a Tau Ceti action's ``i``-th argument, as the table and the labels name it."""
    verb, arg = action.verb, action.args[i]
    c = tc.content()
    if (verb == "BATTLE" and i == 1) or (verb == "TRADE-K" and arg[:1] == "P"):
        return seat_name(obs, arg) or f"player {arg.removeprefix('P')}"
    if verb == "SHIELD":
        return _shields(arg)
    if verb in ("GO", "PLACE") and "," in arg:
        where = cell_note(obs, arg, verb) or "an empty position"
        return f"the position {where}" if where.startswith("where ") else where  # (a tile lies there)
    if arg == K3:
        return "3 Knowledge tokens"
    if arg == DEPOT:
        return "the Galactic Depot"
    if arg in c.systems:
        return arg.capitalize()
    if any(arg == t.name for t in c.crisis_types):
        return arg  # a Knowledge type: the phrase says "Knowledge token"
    if arg[:1] == "X" and arg[1:].isdigit():
        return crisis_note(obs, arg) or _name(arg)
    if tc.POINT_ID.match(arg):
        return tc.point_name(arg)
    if tc.commodity_label(arg) != arg:
        return tc.commodity_label(arg)
    if tc.CARD_ID.match(arg) and arg[0] == "M":
        try:
            return mission_words(arg)
        except KeyError:
            return arg
    if tc.CARD_ID.match(arg) and arg[0] == "S":
        return _name(arg).split(" (")[0]  # the Specialist's name: "Virologist"
    return _name(arg)


def _name(thing: str) -> str:
    """A component's name (a card, a GP token, an Exotic Tech, a tile), else the id itself."""
    found = tc.name_of(thing)
    return thing if found is None else found[0]


def ceres_word(obs: dict[str, Any], action: Action, i: int) -> str:
    """The words of a Ceres action's ``i``-th argument: an Asteroid or Comet by its name, a
    tail by its number and the Comet whose tail it is (the notation gives the number only)."""
    arg = action.args[i]
    if action.verb == "TAIL":
        comet = ((obs.get("decision") or {}).get("data") or {}).get("comet")
        return f"Tail {arg} of Comet {comet}" if comet else f"Tail {arg}"
    found = cc.name_of(arg)
    return arg if found is None else found[0]


def text(game: str, kind: str, obs: dict[str, Any], action: Action) -> str:
    """``action`` (offered by a ``kind`` decision) in words; the notation when no phrase says it
    (``tests/test_present.py`` checks that every action either game can offer has one)."""
    said = phrase(game, kind, action)
    if said is None:
        return str(action)
    word = ceres_word if game == "ceres" else tauceti_word
    return said.format(*(word(obs, action, i) for i in range(len(action.args))))

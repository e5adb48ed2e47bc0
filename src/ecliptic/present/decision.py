"""What the pending decision asks and of whom, in the rulebook's words (the terminal prints
it above its menu; the server sends it as ``present.decision``). Read off the seat's
observation only."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from typing import Any

from ecliptic.ceres.comets import TAKEN_ON_LAUNCH
from ecliptic.present import ceres_components as cc
from ecliptic.present.help import CERES_VERBS, TAUCETI_VERBS
from ecliptic.present.tauceti_components import commodity_label, name_of, tile_name
from ecliptic.present.words import mission_words

Obs = dict[str, Any]

TAUCETI_PROMPTS = {
    "turn": "Your turn: take one Major action or PASS; Minor actions before or after it.",
    "place_tile": "Setup: place the next large hex tile next to a placed one (PLACE q,r).",
    "enlighten": "Enlightenment: PLAY Crisis/Specialist cards face down (+2 energy each), then DONE.",
    "reroll": "Your skill check failed: REROLL for 2T or ACCEPT the result.",
    "damage": "Allocate damage: choose the system that takes the next point (DAMAGE <system>).",
    "move": "Moving: GO to the next sector, or STOP here.",
    "sell": "Sell/Buy: SELL commodities at this planet, then DONE.",
    "keep_specialist": "Recruit: KEEP one of the Specialist cards drawn.",
    "keep_mission": "Interplanetary Mission: KEEP one of the cards drawn.",
    "repair": "Repair: FIX damaged systems, then DONE.",
    "claim": "Place your Claim token here (CLAIM), or keep it (NOCLAIM).",
    "battle_prepare": "Battle: play Specialists for the battle (PLAY-S), then READY.",
    "battle_shield": "Battle: choose the systems your shields protect (SHIELD), or RETREAT.",
    "battle_attack": "Battle: ATTACK (roll the battle dice), or RETREAT.",
    "battle_takeover": "Battle won: choose what to take over (TAKEOVER).",
    "battle_steal": "Battle won: choose what to steal (STEAL).",
    "trade_offer": "A Knowledge trade is offered to you: ACCEPT or DECLINE it.",
    "virus": "Virus crystals: place each one absorbed on a system (VIRUS), then drop off the ones you carry "
             "(DROP-VIRUS) or keep them (KEEP-VIRUS).",
}
"""Each decision in the rulebook's words (a kind not listed would read ``Decision: <kind>.``:
``tests/test_present.py`` checks every kind the engine registers)."""
_HIDDEN_DATA_KEYS = frozenset({"then", "ctx", "major_done"})
FLAG_WORDS = {"jump": "can JUMP (a working wormhole)"}
"""What a true flag of a decision's data says (a flag not listed: its name); a false flag says
nothing, as the table says nothing of a wormhole the starship is not in."""


def _value(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(_value(x) for x in v) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {_value(x)}" for k, x in v.items())
    return str(v)


def tauceti_prompt(obs: Obs, seat: int) -> tuple[str, str]:
    """The prompt of ``seat``'s own decision and its public details (``""`` when none)."""
    d = obs["decision"]
    kind, data = d["kind"], d["data"]
    text = TAUCETI_PROMPTS.get(kind, f"Decision: {kind.replace('_', ' ')}.")
    if kind == "turn" and data.get("major_done"):
        text = "Your turn: Minor actions, or END your turn."
    if kind == "place_tile" and obs.get("next_large_tile"):
        text += f"  Tile to place: {obs['next_large_tile']} {tile_name(obs['next_large_tile'])}."
    return text, "; ".join(_detail(k, v) for k, v in data.items() if k not in _HIDDEN_DATA_KEYS and v is not False)


def card_name(card: str) -> str:
    """A card drawn for a KEEP by what it is: a Mission by what it asks (``nano processors (Zuron
    Asteroid → Zorhkon)``, the words its KEEP action says), another card by its name."""
    if card.startswith("M"):
        try:
            return mission_words(card)
        except KeyError:
            return card
    found = name_of(card)
    return card if found is None else found[0]


NAMED_DETAILS = {"planet": tile_name, "demanded": commodity_label, "sold": commodity_label,
                 "path": tile_name, "cards": card_name}
"""Details whose values are ids, said by their names (``planet: TRIOLO`` is Triolo, ``demanded:
octo`` octo-nanofluid, a move's ``path: ZORHKON, 13`` Zorhkon, Asteroid Field I, the ``cards``
of a KEEP by what they are); the board and the actions' labels give the ids where one is typed."""


def _detail(key: str, value: Any) -> str:
    """One public detail of a decision as a person reads it: ``left: 2``, ``planet: Triolo``;
    a true flag by its words (``jump`` is ``can JUMP ...``), never Python's ``True``."""
    if value is True:
        return FLAG_WORDS.get(key, key.replace("_", " "))
    name = NAMED_DETAILS.get(key)
    if name is not None:
        value = [name(str(v)) for v in value] if isinstance(value, list) else name(str(value))
    return f"{key.replace('_', ' ')}: {_value(value)}"


_CAPITALS = re.compile(r"(?<![\w-])[A-Z][A-Z-]*[A-Z](?![\w-])")


Why = Callable[[str], str | None]
"""Why a verb of the decision is closed now, when one reason says it
(:func:`ecliptic.present.refusals.why_closed`)."""


def not_possible(game: str, text: str, verbs: Collection[str] | None, why: Why | None = None) -> str:
    """`` Not possible now: GO.`` for the verbs ``text`` names that are not among the legal
    ``verbs`` (``None``: not known, nothing said), each with its reason when ``why`` has one
    (`` Not possible now: PLAY (your hand is empty: there is no card to play).``). A prompt
    names every option its decision can have, but the rules take some away at times (no free
    Asteroid to JUMP onto, no card to PLAY, no TAU for a REROLL): the legal actions say which,
    so the prompt does not offer what will be refused, and the engine's refusal says why."""
    if verbs is None:
        return ""
    known = CERES_VERBS if game == "ceres" else TAUCETI_VERBS
    named = dict.fromkeys(w for w in _CAPITALS.findall(text) if w in known)
    missing = [w for w in named if w not in verbs]
    if not missing:
        return ""
    by_reason: dict[str | None, list[str]] = {}  # (verbs closed for one reason are named together)
    for w in missing:
        by_reason.setdefault(why(w) if why is not None else None, []).append(w)
    said = [", ".join(ws) + (f" ({reason})" if reason else "") for reason, ws in by_reason.items()]
    return f" Not possible now: {'; '.join(said)}."


def ceres_prompt(obs: Obs, verbs: Collection[str] | None = None, why: Why | None = None) -> str:
    """The prompt of the observer's own decision; ``verbs``, the verbs of its legal actions
    when the caller has them, leaves out what is not possible now (and ``why`` says why)."""
    text = _ceres_prompt(obs, verbs)
    return text + not_possible("ceres", text, verbs, why)


def _ceres_prompt(obs: Obs, verbs: Collection[str] | None) -> str:
    d = obs["decision"]
    kind, data = d["kind"], d["data"]
    if kind == "turn":
        comets = " or a Comet" if any(c["in_belt"] for c in obs["comets"]) else ""
        return (f"Your turn: LAUNCH a Mining Probe onto an available Asteroid{comets} (paying Ice by "
                "ring), or PASS (no more turns this round).")
    if kind == "comet_probe":
        c = cc.comet(obs, data["comet"])
        zone = c["zone"] if c else "?"
        text = (f"Production: your Mining Probe on Comet {data['comet']} (slot {data['slot'] + 1}) STAYs "
                f"and takes one of the lowest Tail tokens")
        if verbs is None or "JUMP" in verbs:
            text += f", or JUMPs onto an available Asteroid of Zone {zone}."
        else:  # CC-PROD-5: only an available Asteroid of the Comet's Zone can be jumped onto
            text += f": no Asteroid of Zone {zone} is available to jump onto."
        note = cc.table_note(obs, c, "stay") if c else ""
        return text + (f" Staying: the Tail token {note}." if note else "")
    if kind == "tail":
        c = cc.comet(obs, data["comet"])
        mode = data.get("mode", "launch")
        if mode == "launch":
            tail = TAKEN_ON_LAUNCH.get(obs["round"], "Dust")
            what = f"{'an' if tail == 'Ion' else 'a'} {cc.TAIL_LABELS[tail]} token"
        else:
            what = "one of the lowest Tail tokens left"
        note = cc.table_note(obs, c, mode) if c else ""
        return f"Take {what} from a tail of Comet {data['comet']} (TAIL 1-3){', ' + note if note else ''}."
    return f"Decision: {kind.replace('_', ' ')}."


WAITING_WORDS = {
    "turn": "their turn", "place_tile": "where to place a tile", "enlighten": "which cards to play face down",
    "reroll": "whether to re-roll a skill check", "damage": "where damage goes", "move": "where to move",
    "claim": "where to put their Claim token", "keep_specialist": "which Specialist to keep",
    "keep_mission": "which mission to keep", "trade_offer": "a Knowledge trade offered to them",
    "sell": "what to sell", "repair": "what to repair", "virus": "where the virus crystal goes",
    "battle_prepare": "the Specialists for the battle", "battle_shield": "their shields", "battle_attack": "the attack",
    "battle_takeover": "what to take over", "battle_steal": "what to steal",
    "comet_probe": "whether their probe stays on the Comet", "tail": "which Tail token to take",
}
"""What another seat is deciding, in words (a decision kind not listed is named as it is)."""


def seat_name(game: str, obs: Obs, seat: int) -> str:
    """A seat as people read it: Ceres' player name (``Player 3``), Tau Ceti's faction and seat
    counted from 1 as the lobby counts (``Azars (seat 3)`` is the third seat, index 2)."""
    p = obs["players"][seat]
    return str(p["name"]) if game == "ceres" else f"{p['faction']} (seat {seat + 1})"


def decision_text(game: str, obs: Obs, seat: int | None, verbs: Collection[str] | None = None,
                  why: Why | None = None) -> str:
    """What is being decided and by whom, for ``seat`` (``None``: a spectator); ``verbs``: the
    verbs of the seat's legal actions, when known, and ``why`` (:func:`not_possible`)."""
    d = obs["decision"]
    if d is None:
        return "The game is over."
    if seat is None or d["player"] != seat:
        what = WAITING_WORDS.get(d["kind"], d["kind"].replace("_", " "))
        return f"Waiting for {seat_name(game, obs, d['player'])} to decide {what}."
    if game == "ceres":
        return ceres_prompt(obs, verbs, why)
    text, details = tauceti_prompt(obs, seat)
    missing = not_possible(game, text, verbs, why)
    return f"{text} ({details}){missing}" if details else text + missing

"""The "On the table" lines of Tau Ceti's ``rgb_array`` picture: what is going on now that a
token on the map shows but does not say (the battle being fought, the Battle and Claim tokens,
the Enlightenment phase), in the rulebook's words.

The map draws each of these (:mod:`ecliptic.adapters.board_picture`); a viewer of a video
also wants to read who fights whom, which point a Claim token is on and how many cards each
seat played face down, as the browser's Interfaces and battle panel say it. Everything comes
from the seat's observation: the count of a rival's face-down cards is public, the cards
only the seat's own (``enlightenment.mine``).
"""

from __future__ import annotations

from typing import Any

Obs = dict[str, Any]


def faction(obs: Obs, seat: object) -> str:
    """A seat's faction's name, as the map's colours key it."""
    players = obs["players"]
    if isinstance(seat, int) and 0 <= seat < len(players):
        return str(players[seat]["faction"])
    return str(seat)


def battle_line(obs: Obs) -> str | None:
    """The battle being fought: where, who started it against whom, and how it stands."""
    from ecliptic.ui import terminal

    b = obs.get("battle")
    if not b:
        return None
    line = (f"Battle in {terminal.tile_name(str(b['sector']))}: {faction(obs, b['initiator'])} against "
            f"{faction(obs, b['defender'])}")
    if b.get("winner") is not None:
        line += f"; {faction(obs, b['winner'])} wins"
    elif b.get("retreated") is not None:
        line += f"; {faction(obs, b['retreated'])} retreats"
    elif isinstance(b.get("attacker"), int) and b["attacker"] >= 0:
        line += f"; {faction(obs, b['attacker'])} attacks"
    return line


def battle_token_lines(obs: Obs) -> list[str]:
    """Each Battle token on the map, its owner and the rival it is placed against."""
    from ecliptic.ui import terminal

    out = []
    for p in obs["players"]:
        if p["battle_sector"]:
            against = f" against {faction(obs, p['battle_defender'])}" if p["battle_defender"] is not None else ""
            out.append(f"Battle token of {p['faction']} in {terminal.tile_name(str(p['battle_sector']))}{against}")
    return out


def claim_lines(obs: Obs) -> list[str]:
    """Each Claim token on the map and the Exploration point it is on."""
    from ecliptic.ui import terminal

    out = []
    for p in obs["players"]:
        point = obs["points"].get(p["claim"]) if p["claim"] else None
        if point is not None:
            out.append(f"Claim token of {p['faction']} on {p['claim']} in {terminal.tile_name(str(point['sector']))}")
    return out


def in_enlightenment(obs: Obs) -> bool:
    """Whether the Enlightenment phase is on, with its planet drawn (as the terminal's TCX says)."""
    return bool(obs["enlightenment"].get("affected")) and obs["phase"] == "enlightenment"


def enlightenment_line(obs: Obs) -> str | None:
    """The Enlightenment phase: the planet at risk, the Active deck, the cards each seat has
    played face down (their number; the observing seat's own also by name: they are in its
    observation only)."""
    from ecliptic.present.tauceti_components import card_label
    from ecliptic.ui import terminal

    if not in_enlightenment(obs):
        return None
    e = obs["enlightenment"]
    played = ", ".join(f"{faction(obs, int(s))} {n}" for s, n in sorted(e["played"].items(), key=lambda x: int(x[0])))
    n = int(e["active_deck"])
    line = (f"Enlightenment: {terminal.tile_name(str(e['affected']))} at risk; Active deck {n} "
            f"card{'' if n == 1 else 's'}; played face down: {played or 'none'}")
    mine = e.get("mine") or []
    if mine:
        line += f" (yours: {', '.join(card_label(c) for c in mine)})"
    return line


def table_lines(obs: Obs) -> list[str]:
    """Every line of the panel, the battle first; empty when nothing of the kind is on."""
    lines = [battle_line(obs), *battle_token_lines(obs), *claim_lines(obs), enlightenment_line(obs)]
    return [line for line in lines if line]

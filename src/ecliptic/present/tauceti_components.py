"""Tau Ceti's printed components as a person reads them: a card's face, a tile's name, what a
token stands for.

Everything here is read off the content files (the printed components, public to every
player); nothing reads a game state. The terminal draws with these and the server's view
names every id it shows with :func:`name_of`, so a card is described the same way in both.
"""

from __future__ import annotations

import re

from ecliptic.engine.wording import plural
from ecliptic.tauceti.content import Content, default_content, describe_effect

CARD_ID = re.compile(r"^[CSMK]\d\d$")
POINT_ID = re.compile(r"^\d\d\.\d$")


def content() -> Content:
    return default_content()


def tile_name(tile: str) -> str:
    try:
        return content().tile(tile).name
    except KeyError:
        return tile


def commodity_label(name: str) -> str:
    try:
        return content().commodity(name).label
    except KeyError:
        return name


def card_label(card: str) -> str:
    """A card as the player sees its face: id, kind, GP and the dot above the GP icon."""
    c = content()
    try:
        if card.startswith("C"):
            cc = c.crisis_card(card)
            return f"{card} {cc.crisis_type} crisis #{cc.number} {cc.gp}GP{'•' if cc.dot else ''}"
        if card.startswith("S"):
            sc = c.specialist(card)
            return f"{card} {sc.name} [{''.join(sc.phases)}] {sc.gp}GP{'•' if sc.dot else ''}"
        if card.startswith("M"):
            m = c.mission(card)
            if m.kind == "delivery":
                return f"{card} deliver {commodity_label(m.commodity)} {tile_name(m.pickup)}→{tile_name(m.deliver)}"
            check = m.check
            what = f"{check.skill} {check.successes}×{check.target}+" if check else "check"
            return f"{card} {what} at {tile_name(m.sector)} +{m.reward_tau}T"
    except KeyError:
        pass
    return card


def _check_text(skill: str, successes: int, target: int) -> str:
    return f"a {skill} check: {plural(successes, 'die')} of {target} or more"


def _card_text(card: str) -> tuple[str, str] | None:
    c = content()
    if card.startswith("C"):
        cc = c.crisis_card(card)
        dot = " with a dot" if cc.dot else ""
        return (f"{cc.crisis_type} Crisis card #{cc.number}",
                f"{cc.gp} GP{dot} at the end of the game (the Alien card says whether dotted or plain cards "
                f"count). Played face down in the Enlightenment phase: +2 energy. Bottom effect (Advanced "
                f"Rule 2): {describe_effect(cc.effect)}")
    if card.startswith("S"):
        sc = c.specialist(card)
        phases = {"E": "Enlightenment", "A": "Action", "B": "Battle"}
        when = ", ".join(phases.get(p, p) for p in sc.phases)
        ability = sc.ability.text or "no ability beyond resolving crises"
        return (f"{sc.name} ({sc.crisis_type} Specialist)",
                f"Phases: {when}. {ability} Resolves {sc.crisis_type} crises with a {sc.crisis_type} Knowledge "
                f"token (TC-RES-1). {sc.gp} GP{' with a dot' if sc.dot else ''} at the end of the game.")
    if card.startswith("M"):
        m = c.mission(card)
        if m.kind == "delivery":
            return (f"Interplanetary Mission: deliver {commodity_label(m.commodity)}",
                    f"Pick up {commodity_label(m.commodity)} at {tile_name(m.pickup)} and deliver it to "
                    f"{tile_name(m.deliver)}, going directly on that route; the reward is your cargo hold "
                    f"capacity × the sectors of the route in TAU (TC-IM-4).")
        check = m.check
        what = _check_text(check.skill, check.successes, check.target) if check else "a skill check"
        return (f"Interplanetary Mission: {check.skill if check else ''} check at {tile_name(m.sector)}",
                f"At {tile_name(m.sector)}, pass {what}: +{m.reward_tau}T (TC-IM-2).")
    if card.startswith("K"):
        k = c.knowledge_card(card)
        gains = [x for x in (f"{k.reward_tau}T" if k.reward_tau else "",
                             f"{k.reward_energy} energy" if k.reward_energy else "",
                             "the Knowledge token" if k.reward_token else "") if x]
        # The components list says "Exploration cards", the rules of Explore "a Knowledge card" (TC-EXP-2).
        return (f"{k.knowledge_type} Knowledge card",
                f"Explore: pass {_check_text(k.check.skill, k.check.successes, k.check.target)} to gain "
                f"{', '.join(gains) or 'nothing'} (TC-EXP-2).")
    return None


def name_of(thing: str) -> tuple[str, str] | None:
    """``(name, text)`` of a printed component's id (a card, a token, a tile, an Exploration
    point, a faction, a character, a commodity, a Knowledge type), or ``None`` when ``thing`` is none of them."""
    c = content()
    try:
        if CARD_ID.match(thing):
            return _card_text(thing)
        if POINT_ID.match(thing):
            return _point_text(thing)
        if thing.startswith("X") and thing[1:].isdigit():
            t = c.crisis_token(thing)
            ct = c.crisis_type(t.crisis_type)
            return (f"{t.crisis_type} crisis ({t.resource})",
                    f"Crisis token {thing}: a {t.crisis_type} crisis affecting {t.resource}. Resolve it "
                    f"(RESOLVE {thing} <card>) with a {t.crisis_type} Knowledge token and a {ct.specialist}, or "
                    f"with 3 {t.crisis_type} Knowledge tokens (K3), from any sector: +1 GP token (TC-RES-1).")
        if thing.startswith("G") and thing[1:].isdigit():
            g = c.gp_token(thing)
            rewards = [x for x in (f"{g.reward_tau}T" if g.reward_tau else "",
                                   f"{g.reward_energy} energy" if g.reward_energy else "",
                                   "a free upgrade" if g.free_upgrade else "") if x]
            back = f"; its back: trade it in (GP-TOKEN {thing}) for {' and '.join(rewards)}" if rewards else ""
            return f"GP token ({g.gp} GP)", f"{g.gp} GP at the end of the game{back}."
        if thing.startswith("Q") and thing[1:].isdigit():
            q = c.commodity_token(thing)
            return f"{commodity_label(q.commodity)} token", _commodity_text(q.commodity)
        if thing.startswith("Y") and thing[1:].isdigit():
            y = c.systems_token(thing)
            return f"{y.system.capitalize()} {y.level}", f"Systems token: {y.system} power {y.level} (TC-UPG-1)."
        if c.is_exotic(thing):
            e = c.exotic(thing)
            return e.name, f"Exotic Tech (Advanced Rule 6): {e.text}"
    except KeyError:
        return None
    return _named(c, thing)


def point_name(point: str) -> str:
    """An Exploration point by its number and sector: ``01.1`` is Exploration point 1 of Sector 01."""
    sector, number = point.split(".")
    return f"Exploration point {number} of {tile_name(sector)}"


def _point_text(point: str) -> tuple[str, str]:
    return (point_name(point),
            f"{point_name(point)} ({point}): explore it (EXP {point}) while your starship is in its sector and "
            f"a Knowledge token lies on it (TC-EXP-1, TC-EXP-2).")


def _commodity_text(name: str) -> str:
    cm = content().commodity(name)
    ups = ", ".join(cm.upgrades) or "nothing"
    eng = " (reverse engineer it first, ENG)" if cm.reverse_engineerable else ""
    return (f"{cm.label}: its price is the {cm.resource} Market level × demand × quantity (TC-SB-2); "
            f"upgrades {ups}{eng}.")


def _named(c: Content, thing: str) -> tuple[str, str] | None:
    """Tiles, factions, characters, commodities and Knowledge types, which are named, not numbered."""
    try:
        t = c.tile(thing)
    except KeyError:
        pass
    else:
        parts = [t.kind.replace("_", " ")]
        if t.exploration_points:
            parts.append(plural(t.exploration_points, "Exploration point"))
        if t.orbital_gp:
            parts.append(f"{t.orbital_gp} GP per orbital at the end")
        if t.cube_gp:
            parts.append(f"{t.cube_gp} GP per Resource cube of its faction at the end")
        return t.name, f"{t.name} ({thing}): " + ", ".join(parts) + "."
    for f in c.factions:
        if thing in (f.name, f.character):
            return (f"{f.character} of the {f.name}",
                    f"Home planet {tile_name(f.home_planet)}; specialization {f.specialization}.")
    for cm in c.commodities:
        if thing == cm.name:
            return cm.label, _commodity_text(thing)
    for ct in c.crisis_types:
        if thing == ct.name:
            return (f"{ct.name} Knowledge",
                    f"A {ct.name} Knowledge token: with a {ct.specialist} it resolves a {ct.name} crisis, three "
                    f"resolve one alone (TC-RES-1); it sells for {ct.knowledge_tau}T (SELL-K); two trade for one "
                    f"with the Galactic Depot or a player (TRADE-K, TC-TRADE-2).")
    return None

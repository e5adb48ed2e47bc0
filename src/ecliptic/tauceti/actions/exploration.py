"""Explore (EXP), Claim tokens and Expanding Economic Influence.

Explore: "reveal a Knowledge token (any sector you're currently in, which has a
Knowledge token on it) by flipping it over, then draw a Knowledge card by flipping
through the deck until you see the first corresponding Knowledge card", then
"Follow through with the skill check on the back of the card".

Success collects the card's reward(s) and, in a sector with more than one
Exploration point, lets the player put the Claim token on another Knowledge
token of that sector; exploring the claimed point successfully "on your next
turn" replaces the Claim token with a Resource cube "in between the two
Exploration points". In a sector with a single Exploration point (Outer Limit
tiles, the Zuron Asteroid, sector 06, ...) a successful exploration expands the
player's Economic Influence there when the sector touches one where they already
have influence, or their home planet (the Designer's Note's tree and its roots).

Failure turns the token face down again and puts the card at the bottom of the
deck. The choices made where the rulebook is silent are listed in
docs/decisions/exploration.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from ecliptic.engine.actions import Action, act
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.wording import article, possessive
from ecliptic.tauceti import board, checks, decks
from ecliptic.tauceti.content import Content
from ecliptic.tauceti.registry import decision_kind, illegal, say, verb
from ecliptic.tauceti.state import Decision, Point, State
from ecliptic.tauceti.tracks import gain_energy, gain_tau


def _name(state: State, tile: str) -> str:
    return state.content.tile(tile).name


def _point(state: State, point: Point) -> str:
    """An Exploration point as the log and the refusals say it: ``Exploration point 2 of
    Wormhole Sector`` (a player reads the map by sector names; ``01.2`` is the notation's)."""
    return f"Exploration point {point.id.rpartition('.')[2]} of {_name(state, point.sector)}"


def _faction(state: State, seat: int) -> str:
    return state.players[seat].faction


def point_ids(c: Content) -> Iterator[str]:
    """Every Exploration point the game can ever hold: ``<tile>.<n>`` (Outer Limit tiles
    get theirs, ``<tile>.1``, when the Move action draws them)."""
    for tile in c.tiles:
        for i in range(1, tile.exploration_points + 1):
            yield f"{tile.id}.{i}"


def single_point(state: State, sector: str) -> bool:
    """A sector with exactly one Exploration point: Economic Influence spreads into it by
    connection rather than by Claim token."""
    return state.content.tile(sector).exploration_points == 1


def _update(state: State, point: Point, **changes: Any) -> Point:
    """Put a changed copy of ``point`` on the board (points are frozen: clones share them)."""
    new = replace(point, **changes)
    state.points = state.points.set(point.id, new)
    return new


# -- Resource cubes ------------------------------------------------------------------


def cubes_out(state: State, seat: int) -> int:
    """The player's Resource cubes that are out of the Enlightenment bag."""
    colour = _faction(state, seat)
    return state.content.numbers.cubes_per_faction - state.bag.count(colour)


def cube_refusal(state: State, seat: int, sector: str) -> str | None:
    """Why no Resource cube of ``seat`` can be placed in ``sector`` now, or ``None``."""
    limit = state.content.numbers.cubes_out_max
    if cubes_out(state, seat) >= limit or _faction(state, seat) not in state.bag:
        return f"it already has {limit} of its Resource cubes out of the Enlightenment bag"
    others = board.controllers(state, sector) - {seat}
    if others:
        rival = ", ".join(_faction(state, s) for s in sorted(others))
        return f"{rival} controls {_name(state, sector)} and control cannot be shared"
    return None


def place_cube(state: State, seat: int, sector: str, ev: list[Event]) -> None:
    """Take one of the player's Resource cubes out of the Enlightenment bag into ``sector``."""
    colour = _faction(state, seat)
    state.bag.remove(colour)
    state.cubes.setdefault(sector, []).append(colour)
    say(ev, "cube_placed", f"{colour} takes a Resource cube out of the Enlightenment bag and places "
        f"it in {_name(state, sector)}.", seat=seat, sector=sector)


# -- Explore (EXP) --------------------------------------------------------------------


def _exp_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if a.verb != "EXP" or len(a.args) != 1:
        return illegal("TC-EXP-2", "explore with EXP <Exploration point> (e.g. EXP 01.2)")
    point = state.points.get(a.args[0])
    if point is None:
        return illegal("TC-EXP-2", f"there is no Exploration point {a.args[0]} in the star system")
    p = state.players[seat]
    if point.sector != p.position:
        return illegal("TC-EXP-2", f"{_point(state, point)}: you may only explore the sector your starship "
                       f"is in ({_name(state, p.position)})")
    if point.token is None:
        return illegal("TC-EXP-1", f"{_point(state, point)} has already been explored; no Knowledge token "
                       "is left on it")
    if point.claimed_by is not None and point.claimed_by != seat:
        return illegal("TC-CLAIM-1", f"{possessive(_faction(state, point.claimed_by))} Claim token is on "
                       f"{_point(state, point)}; no one else may explore it")
    if point.claimed_by == seat and state.turn_count <= p.claim_turn:
        return illegal("TC-CLAIM-2", f"you placed your Claim token on {_point(state, point)} this turn; you may "
                       "explore it on your next turn")
    return None


def _exp_options(state: State, seat: int) -> list[Action]:
    here = state.players[seat].position
    return [act("EXP", pid) for pid, point in state.points.items()
            if point.sector == here and point.token is not None]


def find_card(state: State, knowledge_type: str) -> str | None:
    """Flip through the Knowledge deck to the first card of ``knowledge_type``; the cards
    flipped past stay in the deck in their order. When the deck holds none, the discard
    pile is shuffled and put under the deck first."""
    card = _take_first(state, knowledge_type)
    if card is None and state.knowledge_discard:
        state.knowledge_deck += decks.shuffled(state.rng, state.knowledge_discard)
        state.knowledge_discard = ()
        card = _take_first(state, knowledge_type)
    return card


def _take_first(state: State, knowledge_type: str) -> str | None:
    deck = state.knowledge_deck
    for i, card in enumerate(deck):
        if state.content.knowledge_card(card).knowledge_type == knowledge_type:
            state.knowledge_deck = deck[:i] + deck[i + 1:]
            return card
    return None


def _exp_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    point = state.points[a.args[0]]
    token = point.token
    assert token is not None  # why_not checked it
    point = _update(state, point, face_up=True)
    say(ev, "knowledge_revealed", f"{_faction(state, seat)} explores {_point(state, point)} "
        f"and reveals {article(token)} Knowledge token.",
        seat=seat, point=point.id, knowledge=token)
    reshuffles = not any(state.content.knowledge_card(c).knowledge_type == token
                         for c in state.knowledge_deck)
    card = find_card(state, token)
    if card is None:
        _update(state, point, face_up=False)
        say(ev, "no_knowledge_card", f"No {token} Knowledge card is left in the deck or its discard "
            f"pile: the exploration fails and the token is turned face down again.",
            seat=seat, point=point.id)
        return
    if reshuffles:
        say(ev, "knowledge_reshuffle", "No such card is left in the Knowledge deck: the discard pile "
            "is shuffled and put under it.")
    check = state.content.knowledge_card(card).check
    say(ev, "knowledge_card", f"{_faction(state, seat)} draws the {token} Knowledge card {card}: "
        f"{checks.describe(check)}.", seat=seat, card=card, knowledge=token)
    checks.start_check(state, seat, check, then="explore",
                       ctx={"point": point.id, "card": card}, ev=ev)


verb(
    "EXP",
    major="EXP",
    options=_exp_options,
    why_not=_exp_why_not,
    perform=_exp_perform,
    domain=lambda c: (act("EXP", pid) for pid in point_ids(c)),
)


# -- the skill check's outcome ---------------------------------------------------------


@checks.continuation("explore")
def _explored(state: State, seat: int, success: bool, ctx: dict[str, Any], ev: list[Event]) -> None:
    point = state.points[ctx["point"]]
    card = ctx["card"]
    if not success:
        _failed(state, seat, point, card, ev)
        return
    _collect(state, seat, point, card, ev)
    p = state.players[seat]
    if p.claim == point.id:
        _claim_fulfilled(state, seat, point, ev)
    elif single_point(state, point.sector):
        expand_influence(state, seat, point.sector, ev)
    elif p.claim is None and claimable(state, point.sector):
        state.stack.append(Decision("claim", seat, {"sector": point.sector}))


def _failed(state: State, seat: int, point: Point, card: str, ev: list[Event]) -> None:
    _update(state, point, face_up=False)
    decks.to_bottom(state, "knowledge", card)
    say(ev, "explore_failed", f"{possessive(_faction(state, seat))} exploration of {_point(state, point)} "
        f"fails: the Knowledge token is turned face down again and {card} goes to the bottom of the deck.",
        seat=seat, point=point.id, card=card)


def _collect(state: State, seat: int, point: Point, card_id: str, ev: list[Event]) -> None:
    """Collect the card's reward(s), discard it, and take the token off the point."""
    card = state.content.knowledge_card(card_id)
    token = point.token
    assert token is not None
    tau = gain_tau(state, seat, card.reward_tau)
    energy = gain_energy(state, seat, card.reward_energy)
    p = state.players[seat]
    if card.reward_token:
        p.knowledge = p.knowledge.set(token, p.knowledge.get(token, 0) + 1)
        where = "takes the Knowledge token"
    else:
        state.depot_knowledge = state.depot_knowledge.set(token, state.depot_knowledge.get(token, 0) + 1)
        where = "the Knowledge token goes face up to the Galactic Depot"
    decks.discard(state, "knowledge", card_id)
    _update(state, point, token=None, explored_by=seat, claimed_by=None)
    gains = ", ".join(x for x in (f"+{tau}T" if tau else "", f"+{energy} energy" if energy else "") if x)
    say(ev, "explore_success", f"{p.faction} explores {_point(state, point)} successfully: "
        f"{gains + '; ' if gains else ''}{where}; {card_id} is discarded.", seat=seat, point=point.id, card=card_id,
        knowledge=token, tau=tau, energy=energy, token_taken=card.reward_token)


def _claim_fulfilled(state: State, seat: int, point: Point, ev: list[Event]) -> None:
    """The claimed point is explored: the Claim token comes back and a Resource cube is placed
    in between the two explored points."""
    p = state.players[seat]
    p.claim = None
    say(ev, "claim_removed", f"{p.faction} removes the Claim token from {_point(state, point)}.",
        seat=seat, point=point.id)
    why = cube_refusal(state, seat, point.sector)
    if why is not None:
        say(ev, "no_cube", f"{p.faction} places no Resource cube in {_name(state, point.sector)}: "
            f"{why}.", seat=seat, sector=point.sector)
        return
    place_cube(state, seat, point.sector, ev)


def expand_influence(state: State, seat: int, sector: str, ev: list[Event]) -> None:
    """A successful exploration of a single-point sector places a Resource cube there when it is
    connected to the player's Economic Influence or home planet."""
    p = state.players[seat]
    if not board.connected_to_influence(state, seat, sector):
        say(ev, "no_cube", f"{p.faction} cannot expand Economic Influence to {_name(state, sector)}: it "
            "is not connected to a sector where they have Economic Influence, nor to their home planet.",
            seat=seat, sector=sector)
        return
    why = cube_refusal(state, seat, sector)
    if why is not None:
        say(ev, "no_cube", f"{p.faction} places no Resource cube in {_name(state, sector)}: {why}.",
            seat=seat, sector=sector)
        return
    place_cube(state, seat, sector, ev)


# -- placing the Claim token -----------------------------------------------------------


def claimable(state: State, sector: str) -> list[str]:
    """Points of ``sector`` still holding an unclaimed Knowledge token."""
    return sorted(pid for pid, pt in state.points.items()
                  if pt.sector == sector and pt.token is not None and pt.claimed_by is None)


def _claim_options(state: State, d: Decision) -> Iterator[Action]:
    for pid in claimable(state, d.data["sector"]):
        yield act("CLAIM", pid)
    yield act("NOCLAIM")


def _claim_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a == act("NOCLAIM"):
        return None
    if a.verb != "CLAIM" or len(a.args) != 1:
        return illegal("TC-CLAIM-1", "place your Claim token with CLAIM <Exploration point>, or NOCLAIM")
    if a.args[0] not in claimable(state, d.data["sector"]):
        return illegal("TC-CLAIM-1", f"{a.args[0]} is not another unclaimed Knowledge token in "
                       f"{_name(state, d.data['sector'])}")
    return None


def _claim_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    state.stack.pop()
    p = state.players[d.player]
    if a == act("NOCLAIM"):
        say(ev, "claim_declined", f"{p.faction} keeps the Claim token.", seat=d.player)
        return
    point = state.points[a.args[0]]
    p.claim = point.id
    p.claim_turn = state.turn_count
    _update(state, point, claimed_by=d.player)
    say(ev, "claim", f"{p.faction} places the Claim token on {_point(state, point)}, "
        f"to explore it on a later turn.", seat=d.player, point=point.id)


def _claim_domain(c: Content) -> Iterator[Action]:
    yield act("NOCLAIM")
    for pid in point_ids(c):
        yield act("CLAIM", pid)


decision_kind(
    "claim",
    options=_claim_options,
    why_not=_claim_why_not,
    perform=_claim_perform,
    domain=_claim_domain,
)

"""The Enlightenment phase, from round 2 on: crises revealed or prevented.

1. A Resource cube drawn from the bag (and put back) names the planet at risk.
2. One Crisis and one Specialist card start the Active deck.
3. Each player, in turn order, plays Crisis/Specialist cards face down (+2 energy
   each). The phase has no simultaneous moves: each play is a hidden commitment
   that others see only as a count.
4. The Active deck is shuffled and revealed; each Specialist cancels the
   lowest-numbered Crisis card of its icon. The highest-numbered Crisis card
   left becomes active; the other cards go to the bottoms of their decks.
5. The top Crisis token of that crisis's stack goes on the affected planet.
6. The resource on its back goes up one Market level.
7. If that was the planet owner's primary specialization, they lose a Resource
   cube from their planet back into the bag.
"""

from __future__ import annotations

from collections.abc import Iterator

from ecliptic.engine.actions import Action, act
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.tauceti import decks
from ecliptic.tauceti.content import Content
from ecliptic.tauceti.registry import decision_kind, illegal, say
from ecliptic.tauceti.state import Decision, Enlightenment, State
from ecliptic.tauceti.tracks import gain_energy


def begin(state: State, ev: list[Event]) -> None:
    """Steps 1 and 2."""
    say(ev, "phase", "Enlightenment phase.", phase="enlightenment")
    colour = state.bag[state.rng.below(len(state.bag))]
    planet = state.content.faction(colour).home_planet
    say(ev, "bag_draw", f"A {colour} Resource cube is drawn from the Enlightenment bag: "
        f"{state.content.tile(planet).name} is at risk this round.", colour=colour, planet=planet)
    active = [c for c in (decks.draw(state, "crisis"), decks.draw(state, "specialist")) if c]
    state.enlightenment = Enlightenment(affected=planet, active=active,
                                        played={str(s): 0 for s in range(len(state.players))})


def can_play(state: State, seat: int, card: str) -> bool:
    if card.startswith("C"):
        return True
    return "E" in state.content.specialist(card).phases


def step(state: State, ev: list[Event]) -> bool:
    """Offer step 3 to the next player; when all are done, resolve steps 4-7.

    Returns False once the phase is complete."""
    e = state.enlightenment
    for seat in state.turn_order():
        if seat not in e.done:
            state.stack.append(Decision("enlighten", seat))
            return True
    _resolve(state, ev)
    return False


def _options(state: State, d: Decision) -> Iterator[Action]:
    for card in state.players[d.player].hand:
        if can_play(state, d.player, card):
            yield act("PLAY", card)
    yield act("DONE")


def _why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a == act("DONE"):
        return None
    if a.verb != "PLAY" or len(a.args) != 1:
        return illegal("TC-ENL-3", "play a card face down with PLAY <card> or finish with DONE")
    card = a.args[0]
    if card not in state.players[d.player].hand:
        return illegal("TC-ENL-3", f"{card} is not in your hand")
    if not can_play(state, d.player, card):
        return illegal("TC-REC-PHASE", f"{card} has no Enlightenment phase icon")
    return None


def _perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    e = state.enlightenment
    p = state.players[d.player]
    if a == act("DONE"):
        state.stack.pop()
        e.done.append(d.player)
        return
    card = a.args[0]
    p.hand.remove(card)
    e.active.append(card)
    e.played[str(d.player)] += 1
    e.cards_by.setdefault(str(d.player), []).append(card)
    got = gain_energy(state, d.player, state.content.numbers.enlightenment_energy)
    say(ev, "card_played", f"{p.faction} plays a card face down (+{got} energy).", seat=d.player)
    say(ev, "card_played_private", f"You played {card} face down.", to=[d.player], card=card)


def _domain(c: Content) -> Iterator[Action]:
    yield act("DONE")
    for cc in c.crisis_cards:
        yield act("PLAY", cc.id)
    for s in c.specialists:
        yield act("PLAY", s.id)


decision_kind("enlighten", options=_options, why_not=_why_not, perform=_perform, domain=_domain)


def _resolve(state: State, ev: list[Event]) -> None:
    content = state.content
    e = state.enlightenment
    cards = list(e.active)
    state.rng.shuffle(cards)
    say(ev, "active_deck", f"The Active deck is revealed: {', '.join(cards) or 'empty'}.", cards=cards)
    crises = [c for c in cards if c.startswith("C")]
    preventers = [c for c in cards if c.startswith("S") and not content.specialist(c).advanced]
    cancelled: list[str] = []
    for spec in preventers:
        icon = content.specialist(spec).crisis_type
        matching = sorted(
            (c for c in crises if c not in cancelled and content.crisis_card(c).crisis_type == icon),
            key=lambda c: content.crisis_card(c).number,
        )
        if matching:
            cancelled += [matching[0], spec]
            say(ev, "prevented", f"{spec} ({content.specialist(spec).name}) prevents crisis "
                f"{matching[0]}.", specialist=spec, crisis=matching[0])
    remaining = [c for c in crises if c not in cancelled]
    active = max(remaining, key=lambda c: content.crisis_card(c).number) if remaining else None
    for card in cards:
        if card in cancelled:
            decks.discard(state, decks.deck_of(card), card)
        elif card != active:
            decks.to_bottom(state, decks.deck_of(card), card)
    e.active = []
    if active is None:
        say(ev, "no_crisis", "No crisis becomes active this round.")
        return
    _activate(state, active, ev)
    decks.to_bottom(state, "crisis", active)


def _activate(state: State, card: str, ev: list[Event]) -> None:
    content = state.content
    crisis = content.crisis_card(card)
    planet = state.enlightenment.affected
    stack = state.crisis_stacks[crisis.crisis_type]
    say(ev, "crisis", f"Crisis {card} ({crisis.crisis_type}) strikes "
        f"{content.tile(planet).name}.", card=card, crisis_type=crisis.crisis_type, planet=planet)
    if not stack:
        say(ev, "no_crisis_token", f"No {crisis.crisis_type} Crisis token is left; the crisis "
            "has no further effect.")
        return
    token = stack.pop(0)
    state.planet_crises.setdefault(planet, []).append(token)
    resource = content.crisis_token(token).resource
    if state.market[resource] < content.numbers.market_levels:
        state.market[resource] += 1
        state.market_raised[resource] += 1
        say(ev, "market", f"{resource} rises to Market level {state.market[resource]}.",
            resource=resource, level=state.market[resource])
    else:
        say(ev, "market", f"{resource} is already at the top Market level.", resource=resource)
    owner = next((f for f in content.factions if f.home_planet == planet), None)
    seat = state.seat_of_faction(owner.name) if owner else None
    if owner is None or seat is None or owner.specialization != resource:
        return
    cubes = state.cubes.get(planet, [])
    if owner.name in cubes:
        cubes.remove(owner.name)
        state.bag.append(owner.name)
        state.bag.sort()
        say(ev, "cube_lost", f"{owner.name} loses a Resource cube from {content.tile(planet).name} "
            "back into the Enlightenment bag.", seat=seat, planet=planet)

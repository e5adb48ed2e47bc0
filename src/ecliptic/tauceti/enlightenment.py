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

Advanced rules played here (each only when chosen in ``Config.advanced``): Rule 1,
the owner of the planet that received a Crisis token loses an Action marker (at most
one at a time; ``actions/minor.py`` gives it back); Rule 2, the active Crisis card's
bottom effect is applied before the card is recycled; Rule 3, a Biohazard crisis puts
a virus crystal on the planet. Advanced Specialists give energy but never prevent a
crisis. The choices are recorded in docs/decisions/advanced.md.
"""

from __future__ import annotations

from collections.abc import Iterator

from ecliptic.engine.actions import Action, act
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.frozendict import FrozenDict
from ecliptic.engine.wording import article
from ecliptic.tauceti import checks, decks
from ecliptic.tauceti.content import Content, describe_effect
from ecliptic.tauceti.registry import decision_kind, illegal, not_an_option, say
from ecliptic.tauceti.state import Decision, Enlightenment, State
from ecliptic.tauceti.tracks import gain_energy, gain_tau

BIOHAZARD = "Biohazard"  # Advanced Rule 3: "planets affected by a Biohazard crisis"
DONE = act("DONE")


def begin(state: State, ev: list[Event]) -> None:
    """Steps 1 and 2."""
    say(ev, "phase", "Enlightenment phase.", phase="enlightenment")
    colour = state.bag[state.rng.below(len(state.bag))]
    planet = state.content.faction(colour).home_planet
    drawn = article(colour)
    say(ev, "bag_draw", f"{drawn[0].upper()}{drawn[1:]} Resource cube is drawn from the Enlightenment bag: "
        f"{state.content.tile(planet).name} is at risk this round.", colour=colour, planet=planet)
    active = tuple(c for c in (decks.draw(state, "crisis"), decks.draw(state, "specialist")) if c)
    state.enlightenment = Enlightenment(affected=planet, active=active,
                                        played=FrozenDict({str(s): 0 for s in range(len(state.players))}))


def can_play(state: State, seat: int, card: str) -> bool:
    if card.startswith("C"):
        return True
    return "E" in state.content.specialist(card).phases


def step(state: State, ev: list[Event]) -> bool:
    """Offer step 3 to the next player; when all are done, resolve steps 4-7.

    Returns False once the phase is complete. Steps 4-7 may leave decisions (the damage
    of a Crisis card's bottom effect, Advanced Rule 2); then the phase ends only once they
    are settled, on the next call."""
    e = state.enlightenment
    if e.resolved:
        return False
    for seat in state.turn_order():
        if seat not in e.done:
            state.stack.append(Decision("enlighten", seat))
            return True
    _resolve(state, ev)
    e.resolved = True
    return bool(state.stack)


def _options(state: State, d: Decision) -> list[Action]:
    """Each card in hand that may be played now, and DONE: what ``_why_not`` checks, so every
    option is legal (registered as the kind's ``legal``)."""
    options = [DONE]
    for card in state.players[d.player].hand:
        if can_play(state, d.player, card):
            play = _PLAY.get(card)
            if play is None:
                play = _PLAY[card] = act("PLAY", card)
            options.append(play)
    return options


_PLAY: dict[str, Action] = {}
"""PLAY <card>, written once per card in a hand (an action is immutable text)."""


def _why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a == DONE:
        return None
    if a.verb != "PLAY" or len(a.args) != 1:
        return illegal("TC-ENL-4", "play a card face down with PLAY <card> or finish with DONE")
    card = a.args[0]
    hand = state.players[d.player].hand
    if card not in hand:  # (no option of the seat's; why PLAY is closed when every card says so)
        if not hand:
            return not_an_option("TC-ENL-4", "your hand is empty: there is no card to play")
        if not any(can_play(state, d.player, c) for c in hand):
            return not_an_option("TC-REC-2", "none of the cards in your hand has an Enlightenment phase icon")
        return not_an_option("TC-ENL-4", f"{card} is not in your hand")
    if not can_play(state, d.player, card):
        return illegal("TC-REC-2", f"{card} has no Enlightenment phase icon")
    return None


def _perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    e = state.enlightenment
    p = state.players[d.player]
    if a == DONE:
        state.stack.pop()
        e.done = (*e.done, d.player)
        played = e.played[str(d.player)]
        say(ev, "enlighten_done", f"{p.faction} plays {'no more cards' if played else 'no card'} face down.",
            seat=d.player, played=played)
        return
    card = a.args[0]
    p.hand.remove(card)
    e.active = (*e.active, card)
    seat = str(d.player)
    e.played = e.played.set(seat, e.played[seat] + 1)
    e.cards_by = e.cards_by.set(seat, (*e.cards_by.get(seat, ()), card))
    got = gain_energy(state, d.player, state.content.numbers.enlightenment_energy)
    say(ev, "card_played", f"{p.faction} plays a card face down (+{got} energy).", seat=d.player,
        face_down=card, private=f"You play {card} face down (+{got} energy).")


def _domain(c: Content) -> Iterator[Action]:
    yield DONE
    for cc in c.crisis_cards:
        yield act("PLAY", cc.id)
    for s in c.specialists:
        yield act("PLAY", s.id)


decision_kind("enlighten", options=_options, why_not=_why_not, perform=_perform, domain=_domain,
              legal=_options, unique=True)  # (DONE and each card of the hand once)


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
    e.active = ()
    if active is None:
        say(ev, "no_crisis", "No crisis becomes active this round.")
        return
    _activate(state, active, ev)
    if state.config.has(2):
        _bottom_effect(state, active, ev)
    decks.to_bottom(state, "crisis", active)


def _activate(state: State, card: str, ev: list[Event]) -> None:
    """Steps 5-7, and Advanced Rules 1 and 3 for the planet that receives the Crisis token."""
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
    token, state.crisis_stacks[crisis.crisis_type] = stack[0], stack[1:]
    state.planet_crises[planet] = (*state.planet_crises.get(planet, ()), token)
    resource = content.crisis_token(token).resource
    change_market(state, resource, 1, ev)
    seat = owner_seat(state, planet)
    if seat is not None:
        _lose_cube(state, seat, planet, resource, ev)
        if state.config.has(1):
            _lose_action_marker(state, seat, ev)
    if state.config.has(3) and crisis.crisis_type == BIOHAZARD:
        _place_virus(state, planet, ev)


def owner_seat(state: State, planet: str) -> int | None:
    """The seat whose home planet this is, if that civilization is played."""
    owner = next((f for f in state.content.factions if f.home_planet == planet), None)
    return state.seat_of_faction(owner.name) if owner else None


def change_market(state: State, resource: str, levels: int, ev: list[Event]) -> None:
    """Move a Market Level marker within levels 1..4. Every level actually risen is counted in
    ``state.market_raised``, a record of the rises (Advanced Rule 8 scores the level itself)."""
    top = state.content.numbers.market_levels
    before = state.market[resource]
    after = max(1, min(top, before + levels))
    if after == before:
        where = "top" if levels > 0 else "lowest"
        say(ev, "market", f"{resource} is already at the {where} Market level.", resource=resource)
        return
    state.market = state.market.set(resource, after)
    if after > before:
        state.market_raised = state.market_raised.set(resource, state.market_raised.get(resource, 0) + after - before)
    way = "rises" if after > before else "goes down"
    say(ev, "market", f"{resource} {way} to Market level {after}.", resource=resource, level=after)


def _lose_cube(state: State, seat: int, planet: str, resource: str, ev: list[Event]) -> None:
    """Step 7: only when the resource is the owner's primary specialization."""
    owner = state.faction(seat)
    if owner.specialization != resource:
        return
    cubes = state.cubes.get(planet, [])
    if owner.name in cubes:
        cubes.remove(owner.name)
        state.bag.append(owner.name)
        state.bag.sort()
        say(ev, "cube_lost", f"{owner.name} loses a Resource cube from "
            f"{state.content.tile(planet).name} back into the Enlightenment bag.",
            seat=seat, planet=planet)


def _lose_action_marker(state: State, seat: int, ev: list[Event]) -> None:
    """Advanced Rule 1: the planet's owner loses an Action marker until she resolves 2 crises
    or 1 crisis on her home planet; "You cannot lose more than 1 Action marker at a time"."""
    p = state.players[seat]
    if p.markers_lost > 0:
        say(ev, "marker_kept", f"{p.faction} has already lost an Action marker and cannot lose "
            "another.", seat=seat)
        return
    p.markers_lost = 1
    p.crises_resolved_since_loss = 0
    say(ev, "marker_lost", f"{p.faction} loses an Action marker until resolving 2 crises or 1 "
        f"crisis on {state.content.tile(state.faction(seat).home_planet).name}.", seat=seat)


def _place_virus(state: State, planet: str, ev: list[Event]) -> None:
    """Advanced Rule 3: a virus crystal goes on a planet affected by a Biohazard crisis."""
    name = state.content.tile(planet).name
    if state.virus_supply <= 0:
        say(ev, "virus_supply_empty", f"No virus crystal is left to place on {name}.", planet=planet)
        return
    state.virus_supply -= 1
    state.virus_on = state.virus_on.set(planet, state.virus_on.get(planet, 0) + 1)
    say(ev, "virus_placed", f"A virus crystal is placed on {name}.", planet=planet,
        count=state.virus_on[planet])


def _bottom_effect(state: State, card: str, ev: list[Event]) -> None:
    """Advanced Rule 2: "Apply the effects on the bottom of the Crisis card before discarding".
    Damage is allocated by every player, the first player first."""
    crisis = state.content.crisis_card(card)
    effect = crisis.effect
    say(ev, "bottom_effect", f"The bottom of {card}: {crisis.bottom_effect or describe_effect(effect)}",
        card=card, effect=effect.kind, amount=effect.amount, resource=effect.resource)
    order = state.turn_order()
    if effect.kind == "market":
        change_market(state, effect.resource, effect.amount, ev)
    elif effect.kind == "damage":
        for seat in reversed(order):  # pushed last = decided first
            checks.begin_damage(state, seat, effect.amount, f"crisis {card}", ev)
    else:
        gain = gain_energy if effect.kind == "energy" else gain_tau
        unit = "energy" if effect.kind == "energy" else "T"
        for seat in order:
            got = gain(state, seat, effect.amount)
            say(ev, effect.kind, f"{state.players[seat].faction}: {got:+d} {unit} ({card}).",
                seat=seat, amount=got)

"""Interplanetary Missions (IM): take a mission card, then complete it for TAU.

"IMs allow you to earn TAU. IMs involve skill checks or pickup/deliver."

* ``IM`` (Major): draw the top 3 IM cards and choose one (the ``keep_mission``
  decision, ``KEEP <card>``); the other two are shuffled back into the bottom of
  the deck and the kept card goes on a card space of the player's Interface.
* ``IM-CHECK <card>`` (Minor): a skill-check IM is attempted in the sector its
  card names, at most once per card per turn; success pays the card's TAU.
* ``PICKUP <card>`` / ``DELIVER <card>`` (Minor): "the card itself is considered
  the commodity"; delivering pays [cargo hold capacity] x [number of sectors] of
  the minimum route between the two sectors.

A completed card is discarded. From keeping a pickup/deliver IM until it is delivered the
player must "go directly on that route and make the delivery before pursuing any other
actions" (:func:`errand`): the turn offers only the Major actions in ``ERRAND_MAJORS``
(``flow``) and each Move only the sectors on a minimum route (``movement``).

Advanced Rule 4 (TCA permission): keeping a pickup/deliver IM starts a Logistics
skill check (any die showing 5 or 6 gives permission; the 2T re-roll applies).
Without permission the faction's one Unauthorized Transport token goes on the
card, and the delivery rolls 1 die: 5-6 the cargo is smuggled in, 1-4 that much
TAU is paid as a fine. Advanced Rule 5: a card carrying quark-gluon plasma doubles
the delivery reward (and, in :mod:`ecliptic.tauceti.ship`, all damage taken while
it is on board). Choices the rulebook leaves open are in docs/rules-decisions.md and
docs/decisions/advanced-missions.md.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from ecliptic.engine.actions import Action, act
from ecliptic.engine.content import on_content_change
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.wording import article, plural, possessive
from ecliptic.tauceti import board, checks, decks, ship
from ecliptic.tauceti.content import Content, MissionCard, SkillCheck
from ecliptic.tauceti.registry import decision_kind, illegal, say, verb, when_legal
from ecliptic.tauceti.state import ActiveMission, Decision, State
from ecliptic.tauceti.tracks import gain_tau

DRAW = 3  # "draw the top 3 cards from the IM deck and choose one"
PERMISSION_RULE = 4  # Advanced Rule 4: Pickup/Deliver IMs require permission from the TCA
PLASMA_RULE = 5  # Advanced Rule 5: quark-gluon plasma doubles the reward (and the damage)
# "perform a Logistics skill check. If 5 or 6, you have permission": roll the Logistics
# dice; one die showing 5 or 6 is enough.
PERMISSION_CHECK = SkillCheck("Logistics", 5, 1)
SMUGGLED = 5  # "5 or 6 indicates you smuggled the cargo in secretly"
IM = act("IM")


# -- helpers ---------------------------------------------------------------------


def _sector_name(state: State, tile: str) -> str:
    return state.content.tile(tile).name


def describe(state: State, card: MissionCard) -> str:
    """A card in the rulebook's words, for event texts: its id, what it asks in parentheses
    (``M30 (a delivery from Zuron Asteroid to Zorhkon)``), so that the sentence reads on after it."""
    if card.kind == "delivery":
        return (f"{card.id} (a delivery from {_sector_name(state, card.pickup)} to "
                f"{_sector_name(state, card.deliver)})")
    assert card.check is not None
    return (f"{card.id} ({article(checks.describe(card.check))} in {_sector_name(state, card.sector)} "
            f"for {card.reward_tau}T)")


def active(state: State, seat: int, card: str) -> ActiveMission | None:
    """The player's IM card on their Interface, or ``None``."""
    return next((m for m in state.players[seat].missions if m.card == card), None)


def _update(state: State, seat: int, mission: ActiveMission, **changes: Any) -> ActiveMission:
    """Put a changed copy of ``mission`` on the Interface (IM records are frozen: clones share
    them)."""
    p = state.players[seat]
    new = replace(mission, **changes)
    i = next(i for i, m in enumerate(p.missions) if m is mission)
    p.missions = (*p.missions[:i], new, *p.missions[i + 1:])
    return new


def _card_arg(state: State, seat: int, a: Action, verb_name: str, rule: str,
              kind: str) -> tuple[ActiveMission, MissionCard] | IllegalAction:
    """Check ``<VERB> <card>``: one argument naming an IM card of ``kind`` on the Interface."""
    if a.verb != verb_name or len(a.args) != 1:
        return illegal(rule, f"write {verb_name} <IM card>, e.g. {verb_name} M16")
    mission = active(state, seat, a.args[0])
    if mission is None:
        return illegal("TC-IM-2", f"{a.args[0]} is not an IM card on your Interface")
    card = state.content.mission(mission.card)
    if card.kind != kind:
        wanted = "a skill-check IM" if kind == "skill_check" else "a pickup/deliver IM"
        return illegal("TC-IM-1", f"{card.id} is not {wanted}")
    return mission, card


def _complete(state: State, seat: int, mission: ActiveMission, ev: list[Event]) -> None:
    """"Discard the card upon completion": it leaves the Interface for the IM discard pile."""
    p = state.players[seat]
    p.missions = decks.without(p.missions, mission)
    decks.discard(state, "mission", mission.card)
    say(ev, "mission_discarded", f"{mission.card} is discarded.", seat=seat, card=mission.card)


def _slots_full(state: State, seat: int) -> bool:
    return len(state.players[seat].missions) >= state.content.numbers.im_slots


# -- IM (Major): draw 3, keep 1 -----------------------------------------------------


def _im_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if a != IM:
        return illegal("TC-IM-2", "IM takes no arguments")
    if _slots_full(state, seat):
        slots = state.content.numbers.im_slots
        return illegal("TC-IM-2", f"all {slots} IM card spaces on your Interface are full; "
                       "complete an IM first")
    if not state.mission_deck and not state.mission_discard:
        return illegal("TC-IM-2", "there is no IM card left to draw")
    return None


def _im_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    cards = [c for c in (decks.draw(state, "mission") for _ in range(DRAW)) if c is not None]
    faction = state.players[seat].faction
    say(ev, "missions_drawn", f"{faction} draws {len(cards)} IM cards and chooses one.",
        seat=seat, count=len(cards), drawn=list(cards),
        private=f"You draw {', '.join(cards)}; KEEP one of them.")
    state.stack.append(Decision("keep_mission", seat, {"cards": cards}))


_im_options = when_legal(IM, _im_why_not)
verb(
    "IM",
    major="IM",
    options=_im_options,
    why_not=_im_why_not,
    perform=_im_perform,
    domain=lambda c: (act("IM"),),
    legal=_im_options,
)


def _keep_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a.verb != "KEEP" or len(a.args) != 1 or a.args[0] not in d.data["cards"]:
        return illegal("TC-IM-2", f"KEEP one of the cards you drew: {', '.join(d.data['cards'])}")
    return None


def _keep_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    keep = a.args[0]
    others = [c for c in d.data["cards"] if c != keep]
    state.stack.pop()
    # "Shuffle the other two cards back into the bottom of the deck."
    state.rng.shuffle(others)
    for card in others:
        decks.to_bottom(state, "mission", card)
    mission = ActiveMission(keep)
    p = state.players[d.player]
    p.missions = (*p.missions, mission)
    faction = state.players[d.player].faction
    content_card = state.content.mission(keep)
    say(ev, "mission_taken", f"{faction} places IM {describe(state, content_card)} on their "
        f"Interface and returns {plural(len(others), 'card')} to the bottom of the IM deck.",
        seat=d.player, card=keep, returned=len(others), returned_cards=others,
        private=f"You place IM {keep} on your Interface and return "
        f"{', '.join(others) or 'no card'} to the bottom of the IM deck.")
    _on_taken(state, d.player, mission, ev)


def _on_taken(state: State, seat: int, mission: ActiveMission, ev: list[Event]) -> None:
    """"Before taking a pickup/deliver IM, calculate the minimum distance needed to make the
    delivery": the distance is fixed now and pays the delivery. With Advanced Rule 4 the
    TCA's permission is asked now too."""
    card = state.content.mission(mission.card)
    if card.kind != "delivery":
        return
    mission = _update(state, seat, mission, route=board.route_length(state, card.pickup, card.deliver))
    if mission.route is not None:
        say(ev, "mission_route", f"The minimum route from {_sector_name(state, card.pickup)} to "
            f"{_sector_name(state, card.deliver)} is {plural(mission.route, 'sector')}.",
            seat=seat, card=card.id, route=mission.route)
    if state.config.has(PERMISSION_RULE):
        _ask_permission(state, seat, mission, ev)


# -- Advanced Rule 4: permission from the TCA ------------------------------------------


def ut_token_free(state: State, seat: int) -> bool:
    """The faction has 1 Unauthorized Transport token; it is free unless it lies on an IM card."""
    return not any(m.unauthorized for m in state.players[seat].missions)


def may_deliver(mission: ActiveMission) -> bool:
    """Permission from the TCA, or the Unauthorized Transport token on the card."""
    return mission.permitted or mission.unauthorized


def _ask_permission(state: State, seat: int, mission: ActiveMission, ev: list[Event]) -> None:
    """"perform a Logistics skill check. If 5 or 6, you have permission": the card has no
    permission until the check (and any re-roll) is settled."""
    mission = _update(state, seat, mission, permitted=False)
    say(ev, "permission_check", f"{state.players[seat].faction} asks the TCA for permission to "
        f"transport {mission.card}: {checks.describe(PERMISSION_CHECK)}.", seat=seat, card=mission.card)
    checks.start_check(state, seat, PERMISSION_CHECK, then="im_permission",
                       ctx={"card": mission.card}, ev=ev)


def _place_ut_token(state: State, seat: int, mission: ActiveMission, ev: list[Event]) -> None:
    """The Unauthorized Transport token goes on top of the IM card, if it is free; a card
    without permission and without the token waits until the token comes back."""
    faction = state.players[seat].faction
    if ut_token_free(state, seat):
        mission = _update(state, seat, mission, unauthorized=True)
        say(ev, "unauthorized_transport", f"{faction} places the Unauthorized Transport token on "
            f"{mission.card}: the delivery is made without permission.", seat=seat, card=mission.card)
        return
    say(ev, "unauthorized_transport_waits", f"{possessive(faction)} Unauthorized Transport token is on "
        f"another IM card: {mission.card} cannot be delivered until it comes back.",
        seat=seat, card=mission.card)


@checks.continuation("im_permission")
def _permission_settled(state: State, seat: int, success: bool, ctx: dict[str, Any],
                        ev: list[Event]) -> None:
    mission = active(state, seat, ctx["card"])
    if mission is None:
        return
    if success:
        mission = _update(state, seat, mission, permitted=True)
        say(ev, "permission", f"The TCA gives {state.players[seat].faction} permission to deliver "
            f"{mission.card}.", seat=seat, card=mission.card, permitted=True)
        return
    say(ev, "permission", f"The TCA refuses {state.players[seat].faction} permission to deliver "
        f"{mission.card}.", seat=seat, card=mission.card, permitted=False)
    _place_ut_token(state, seat, mission, ev)


def _unauthorized_delivery(state: State, seat: int, ev: list[Event]) -> None:
    """"Upon delivery, roll 1 die. 5 or 6 indicates you smuggled the cargo in secretly. If
    1-4, pay that amount in TAU as a fine" (never below 0 TAU)."""
    p = state.players[seat]
    die = state.rng.d6()
    if die >= SMUGGLED:
        say(ev, "smuggled", f"{p.faction} rolls {die}: the cargo is smuggled in secretly.",
            seat=seat, die=die, fine=0)
        return
    paid = -gain_tau(state, seat, -die)
    say(ev, "fine", f"{p.faction} rolls {die}: caught making an unauthorized transport, and pays "
        f"a fine of {paid}T.", seat=seat, die=die, fine=paid)


def _ut_token_back(state: State, seat: int, ev: list[Event]) -> None:
    """The Unauthorized Transport token comes back with the delivered card; a card still
    waiting without permission takes it at once."""
    waiting = next((m for m in state.players[seat].missions if not may_deliver(m)), None)
    if waiting is not None:
        _place_ut_token(state, seat, waiting, ev)


def _keep_domain(c: Content) -> Iterator[Action]:
    return (act("KEEP", m.id) for m in c.missions)


decision_kind(
    "keep_mission",
    options=lambda s, d: (act("KEEP", c) for c in d.data["cards"]),
    why_not=_keep_why_not,
    perform=_keep_perform,
    domain=_keep_domain,
)


# -- skill-check IMs (Minor) ---------------------------------------------------------


def _check_options(state: State, seat: int) -> list[Action]:
    """Each skill-check IM whose sector the starship is in and that was not attempted this
    turn: what ``_check_why_not`` checks, so every option is legal (registered as the verb's
    ``legal``)."""
    p = state.players[seat]
    if not p.missions:  # (most turns)
        return []
    options = []
    for m in p.missions:
        card = _mission(state, m.card)
        if card.kind == "skill_check" and card.sector == p.position \
                and m.last_attempt_turn != state.turn_count:
            options.append(act("IM-CHECK", m.card))
    return options


def _check_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    found = _card_arg(state, seat, a, "IM-CHECK", "TC-IM-1", "skill_check")
    if isinstance(found, IllegalAction):
        return found
    mission, card = found
    where = state.players[seat].position
    if where != card.sector:
        return illegal("TC-IM-1", f"{card.id} is attempted in {_sector_name(state, card.sector)}; "
                       f"your starship is in {_sector_name(state, where)}")
    if mission.last_attempt_turn == state.turn_count:
        return illegal("TC-IM-1", f"you already attempted {card.id} this turn; try again on a "
                       "later turn (or re-roll a failed check for 2T)")
    return None


def _check_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    mission = active(state, seat, a.args[0])
    assert mission is not None
    card = state.content.mission(mission.card)
    assert card.check is not None
    mission = _update(state, seat, mission, last_attempt_turn=state.turn_count)
    say(ev, "mission_attempt", f"{state.players[seat].faction} attempts IM "
        f"{describe(state, card)}.", seat=seat, card=card.id)
    checks.start_check(state, seat, card.check, then="mission", ctx={"card": card.id}, ev=ev)


@checks.continuation("mission")
def _check_settled(state: State, seat: int, success: bool, ctx: dict[str, Any],
                   ev: list[Event]) -> None:
    """Success pays the card's TAU and discards it; a failed IM stays on the Interface."""
    mission = active(state, seat, ctx["card"])
    if mission is None:
        return
    faction = state.players[seat].faction
    if not success:
        say(ev, "mission_failed", f"{faction} fails IM {mission.card}; it stays on the Interface.",
            seat=seat, card=mission.card)
        return
    reward = state.content.mission(mission.card).reward_tau
    got = gain_tau(state, seat, reward)
    say(ev, "mission_completed", f"{faction} completes IM {mission.card} and earns {got}T.",
        seat=seat, card=mission.card, tau=got)
    _complete(state, seat, mission, ev)


verb(
    "IM-CHECK",
    major=None,
    options=_check_options,
    why_not=_check_why_not,
    perform=_check_perform,
    domain=lambda c: (act("IM-CHECK", m.id) for m in c.missions if m.kind == "skill_check"),
    legal=_check_options,
)


# -- pickup/deliver IMs (Minor) -------------------------------------------------------


def _pickup_options(state: State, seat: int) -> list[Action]:
    """Each pickup/deliver IM not yet picked up whose pickup sector the starship is in: what
    ``_pickup_why_not`` checks, so every option is legal (registered as the verb's ``legal``)."""
    p = state.players[seat]
    if not p.missions:  # (most turns)
        return []
    options = []
    for m in p.missions:
        card = _mission(state, m.card)
        if card.kind == "delivery" and not m.picked_up and card.pickup == p.position:
            options.append(act("PICKUP", m.card))
    return options


def _deliver_options(state: State, seat: int) -> list[Action]:
    """Each picked-up IM that may be delivered (Advanced Rule 4) whose delivery sector the
    starship is in: what ``_deliver_why_not`` checks, so every option is legal (registered as
    the verb's ``legal``)."""
    p = state.players[seat]
    if not p.missions:  # (most turns)
        return []
    options = []
    for m in p.missions:
        card = _mission(state, m.card)
        if card.kind == "delivery" and m.picked_up and may_deliver(m) and card.deliver == p.position:
            options.append(act("DELIVER", m.card))
    return options


def _pickup_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    found = _card_arg(state, seat, a, "PICKUP", "TC-IM-3", "delivery")
    if isinstance(found, IllegalAction):
        return found
    mission, card = found
    if mission.picked_up:
        return illegal("TC-IM-3", f"you already picked up {card.id}")
    where = state.players[seat].position
    if where != card.pickup:
        return illegal("TC-IM-3", f"{card.id} is picked up in {_sector_name(state, card.pickup)}; "
                       f"your starship is in {_sector_name(state, where)}")
    return None


def _pickup_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    mission = active(state, seat, a.args[0])
    assert mission is not None
    mission = _update(state, seat, mission, picked_up=True)
    card = state.content.mission(mission.card)
    danger = " It is quark-gluon plasma: any damage taken until it is delivered is doubled." \
        if carries_plasma(state, mission) else ""
    say(ev, "mission_pickup", f"{state.players[seat].faction} picks up the cargo of IM "
        f"{card.id} in {_sector_name(state, card.pickup)}.{danger}", seat=seat, card=card.id)


def _deliver_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    found = _card_arg(state, seat, a, "DELIVER", "TC-IM-3", "delivery")
    if isinstance(found, IllegalAction):
        return found
    mission, card = found
    if not mission.picked_up:
        return illegal("TC-IM-3", f"pick up {card.id} in {_sector_name(state, card.pickup)} "
                       "before you deliver it")
    if not may_deliver(mission):
        return illegal("TC-ADV4-1", f"the TCA refused permission for {card.id} and your Unauthorized "
                       "Transport token is on another IM card; deliver that one first")
    where = state.players[seat].position
    if where != card.deliver:
        return illegal("TC-IM-3", f"{card.id} is delivered to {_sector_name(state, card.deliver)}; "
                       f"your starship is in {_sector_name(state, where)}")
    return None


def _mission(state: State, card_id: str) -> MissionCard:
    """``state.content.mission``, read once per card: the IM verbs and the errand look at every
    IM card on the Interface at every turn decision."""
    found = _MISSION.get(card_id)
    if found is None:  # (a card the content does not have is its KeyError, as before)
        found = _MISSION[card_id] = state.content.mission(card_id)
    return found


_MISSION: dict[str, MissionCard] = {}
on_content_change(_MISSION.clear)


ERRAND_MAJORS = frozenset({"MOV", "REF", "REP"})
"""The Major actions of a player bound to a pickup/deliver IM: Moves on the minimum route, and
Refuel and Repair, without which a starship out of energy or with its propulsion destroyed
would be stranded on the way (PASS stays open too; docs/rules-decisions.md)."""


def errand(state: State, seat: int) -> tuple[str, str] | None:
    """The pickup/deliver IM the player must "go directly on that route and make the delivery
    before pursuing any other actions" for, and the sector the starship is bound for: the
    pickup sector until the cargo is picked up, then the delivery sector. A card the player may
    not deliver (Advanced Rule 4, no permission and the Unauthorized Transport token on another
    card) binds nothing, nor one whose sector no route reaches, on the map or through the
    Outer Limit tiles still to draw (there is no route to go directly on); the first card on
    the Interface binds when there are two."""
    found = errand_route(state, seat)
    return None if found is None else (found[0], found[1])


def errand_route(state: State, seat: int) -> tuple[str, str, Mapping[str, int] | None] | None:
    """:func:`errand`, with the fewest sectors from every tile to the sector it is bound for
    when they had to be counted to know that a route reaches it (``None`` while Outer Limit
    tiles are left to draw): the move decision keeps to that route, and need not count again."""
    here = state.players[seat].position
    for m in state.players[seat].missions:
        card = _mission(state, m.card)
        if card.kind == "delivery" and may_deliver(m):
            target = card.deliver if m.picked_up else card.pickup
            if state.outer_limit_stack:
                return card.id, target, None
            dist = board.distances_to(state, target)  # (what route_length asks, kept)
            if here == target or here in dist:
                return card.id, target, dist
    return None


def route_of(state: State, mission: ActiveMission) -> int:
    """Sectors on the minimum route, as calculated when the IM was taken (or now, for a card
    that has no recorded route); 0 if the sectors are not connected by ordinary moves."""
    if mission.route is not None:
        return mission.route
    card = state.content.mission(mission.card)
    return board.route_length(state, card.pickup, card.deliver) or 0


def carries_plasma(state: State, mission: ActiveMission) -> bool:
    """Advanced Rule 5 is in play and the card's commodity is quark-gluon plasma."""
    return (state.config.has(PLASMA_RULE)
            and state.content.mission(mission.card).commodity == ship.PLASMA)


def delivery_reward(state: State, seat: int, mission: ActiveMission) -> int:
    """[your cargo hold capacity] x [number of sectors traveled]; damage to the cargo hold
    lowers what the starship can carry. "your reward for transporting plasma is also
    doubled" (Advanced Rule 5)."""
    reward = ship.effective(state, seat, "cargo") * route_of(state, mission)
    return 2 * reward if carries_plasma(state, mission) else reward


def _deliver_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    """Pay the reward; an unauthorized transport then rolls for the fine; the card is
    discarded and the Unauthorized Transport token comes back."""
    mission = active(state, seat, a.args[0])
    assert mission is not None
    cargo = ship.effective(state, seat, "cargo")
    sectors = route_of(state, mission)
    got = gain_tau(state, seat, delivery_reward(state, seat, mission))
    card = state.content.mission(mission.card)
    plasma = " x 2 for quark-gluon plasma" if carries_plasma(state, mission) else ""
    say(ev, "mission_completed", f"{state.players[seat].faction} delivers IM {card.id} to "
        f"{_sector_name(state, card.deliver)}: cargo {cargo} x {plural(sectors, 'sector')}{plasma} = {got}T.",
        seat=seat, card=card.id, tau=got, cargo=cargo, sectors=sectors, plasma=bool(plasma))
    if mission.unauthorized:
        _unauthorized_delivery(state, seat, ev)
    _complete(state, seat, mission, ev)
    if mission.unauthorized:
        _ut_token_back(state, seat, ev)


verb(
    "PICKUP",
    major=None,
    options=_pickup_options,
    why_not=_pickup_why_not,
    perform=_pickup_perform,
    domain=lambda c: (act("PICKUP", m.id) for m in c.missions if m.kind == "delivery"),
    legal=_pickup_options,
)

verb(
    "DELIVER",
    major=None,
    options=_deliver_options,
    why_not=_deliver_why_not,
    perform=_deliver_perform,
    domain=lambda c: (act("DELIVER", m.id) for m in c.missions if m.kind == "delivery"),
    legal=_deliver_options,
)

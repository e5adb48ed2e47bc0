"""The Comets expansion, rule by rule (``rules/ceres-comets.txt``; rule ids ``CC-...``).

Two Comets, each a Surface card (``C1`` on the left, ``C2`` on the right) with a Nucleus
card revealed under it, three tails of Tail tokens under the Nucleus card's three resource
tables, and a Comet token that enters the Asteroid Belt from outside and moves one ring
inward each round, keeping its Zone while the rings turn under it.

Decisions: ``comet_probe`` (a probe on a Comet in the Production phase: ``STAY`` or
``JUMP <Asteroid>``) and ``tail`` (``TAIL <1-3>``: which tail to take a Tail token from).
The Launch onto a Comet is offered by the Activation phase's ``turn`` decision
(:mod:`ecliptic.ceres.actions`) through :func:`launch_why_not` and :func:`launch`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ecliptic.ceres import belt
from ecliptic.ceres.content import TAIL_TYPES, Content, TailType
from ecliptic.ceres.registry import decision_kind, illegal, say
from ecliptic.ceres.state import Comet, Decision, State
from ecliptic.engine.actions import Action, act
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.wording import article, plural

SURFACE_CARDS = ("C1", "C2")
"""The two Surface cards, left to right (CC-COMP-3); each Comet is named after its card."""

ROW: dict[TailType, int] = {t: i for i, t in enumerate(TAIL_TYPES)}
"""A tail's rows from the Nucleus card down: Coma 0, Ion 1, Dust Tail 2 (the lowest)."""

REMOVED_IN_PRODUCTION: dict[int, TailType | None] = {1: None, 2: "Dust", 3: "Ion"}
"""CC-PROD-2..4: the Tail tokens removed in each round's Production phase."""

TAKEN_ON_LAUNCH: dict[int, TailType] = {1: "Dust", 2: "Ion", 3: "Coma"}
"""CC-ACT-5..7: the Tail token a Launch onto a Comet takes in each round."""

LAUNCH_RULE = {1: "CC-ACT-5", 2: "CC-ACT-6", 3: "CC-ACT-7"}


# -- Game Setup (CC-SETUP-1..10) -----------------------------------------------


def setup(state: State, ev: list[Event]) -> None:
    """The four setup steps, in the rulebook's order (CC-SETUP-1)."""
    pile = [n.id for n in state.content.nucleus_cards]
    state.rng.shuffle(pile)
    reveal_nuclei(state, pile, ev)
    lay_tails(state, ev)
    place_comet_tokens(state, ev)
    shuffle_explosion_checks(state, ev)


def reveal_nuclei(state: State, pile: list[str], ev: list[Event]) -> None:
    """Steps 1 and 2: the two Surface cards next to the board (CC-SETUP-2); the shuffled
    face-down ``pile`` gives one Nucleus card under each (CC-SETUP-3); each Surface card is
    flipped to its Nucleus card's colour (CC-SETUP-4); the rest go back to the box (CC-SETUP-5)."""
    content = state.content
    slots = content.surface.slots[len(state.players)]
    say(ev, "surface_cards", "The two Surface cards are placed next to the Asteroid Belt "
        f"({slots} slots each for {plural(len(state.players), 'player')}).", slots=slots, rule="CC-SETUP-2")
    pile = list(pile)
    state.comets = []
    for surface in SURFACE_CARDS:
        card = content.nucleus(pile.pop(0))
        state.comets.append(Comet(id=surface, nucleus=card.id, kind=card.kind, zone=0,
                                  slots=[None] * slots, chosen=[None] * slots))
        say(ev, "nucleus", f"Nucleus card {card.id} ({card.kind}) is revealed under Surface card {surface}; "
            f"the Surface card is flipped to its {card.kind} side.", comet=surface, nucleus=card.id,
            kind=card.kind, rule="CC-SETUP-4")
    state.nucleus_box = pile
    say(ev, "nucleus_box", f"The other {len(pile)} Nucleus cards go back to the game box.",
        count=len(pile), rule="CC-SETUP-5")


def lay_tails(state: State, ev: list[Event]) -> None:
    """Step 3: the Tail tokens, shuffled face down by type, one of each type revealed under
    each resource table of both Comets, forming three separate tails per Comet (CC-SETUP-6)."""
    piles: dict[TailType, list[str]] = {t: [] for t in TAIL_TYPES}
    for tok in state.content.tail_tokens:
        piles[tok.tail].append(tok.id)
    for pile in piles.values():
        state.rng.shuffle(pile)
    for comet in state.comets:
        comet.tails = [[piles[t].pop() for t in TAIL_TYPES] for _ in range(3)]
        say(ev, "tails", f"Comet {comet.id}'s tails: " + "; ".join(
            "/".join(x or "-" for x in tail) for tail in comet.tails) + " (Coma/Ion/Dust).",
            comet=comet.id, tails=[list(t) for t in comet.tails], rule="CC-SETUP-6")


def place_comet_tokens(state: State, ev: list[Event]) -> None:
    """Step 4: each Comet token, on the side of its Nucleus card, goes outside the Asteroid
    Belt next to a Zone (CC-SETUP-7): two Sungrazers at random next to Zones 3 and 5
    (CC-SETUP-8); a Sungrazer next to Zone 5 and a Near-sun next to Zone 4 (CC-SETUP-9);
    two Near-suns at random next to Zones 3 and 4 (CC-SETUP-10)."""
    first, second = state.comets
    kinds = {first.kind, second.kind}
    if kinds == {"Sungrazer"}:
        zones, rule = [3, 5], "CC-SETUP-8"
    elif kinds == {"Near-sun"}:
        zones, rule = [3, 4], "CC-SETUP-10"
    else:
        zones, rule = [5 if c.kind == "Sungrazer" else 4 for c in state.comets], "CC-SETUP-9"
    if rule != "CC-SETUP-9" and state.rng.below(2):
        zones.reverse()
    for comet, zone in zip(state.comets, zones, strict=True):
        comet.zone = zone
        comet.ring = None
        say(ev, "comet_token", f"Comet {comet.id}'s {comet.kind} token is placed next to Zone {zone}.",
            comet=comet.id, kind=comet.kind, zone=zone, rule=rule)


def shuffle_explosion_checks(state: State, ev: list[Event]) -> None:
    """The setup steps do not mention the Explosion Check cards; they are drawn in the 3rd
    round (CC-SUN-1), so they wait shuffled face down beside the Surface cards."""
    state.explosion_deck = [c.id for c in state.content.explosion_checks]
    state.rng.shuffle(state.explosion_deck)
    say(ev, "explosion_checks", f"The {len(state.explosion_deck)} Explosion Check cards are shuffled face down.",
        count=len(state.explosion_deck))


# -- Asteroid Belt phase (CC-BELT-1, CC-BELT-2) ---------------------------------


def move_inward(state: State, ev: list[Event]) -> None:
    """After the rings rotate, each Comet in play moves to the next ring toward the centre,
    keeping its Zone: Outer in round 1, Intermediate in round 2, Inner in round 3."""
    rings = state.content.numbers.rings
    for comet in state.comets:
        if comet.removed:
            continue
        comet.ring = rings[0] if comet.ring is None else rings[min(rings.index(comet.ring) + 1, len(rings) - 1)]
        say(ev, "comet_moves", f"Comet {comet.id} moves to the {comet.ring} Ring (Zone {comet.zone}).",
            comet=comet.id, ring=comet.ring, zone=comet.zone, rule="CC-BELT-1")


# -- Production phase (CC-PROD-1..8, CC-NEAR-1, CC-SUN-1..5) --------------------


def begin_production(state: State, ev: list[Event]) -> None:
    """Remove the round's remaining Tail tokens (CC-PROD-1..4) and start the probes'
    decisions from the leftmost slot of the left Surface card."""
    kind = REMOVED_IN_PRODUCTION.get(state.round)
    if kind is not None:
        row = ROW[kind]
        for comet in state.comets:
            for tail in comet.tails:
                token = tail[row]
                if token is not None:
                    tail[row] = None
                    state.removed_tails.append(token)
        say(ev, "tails_removed", f"The remaining {kind} Tail tokens are removed.", tail=kind,
            rule="CC-PROD-3" if kind == "Dust" else "CC-PROD-4")
    for comet in state.comets:
        comet.chosen = [None] * len(comet.slots)
    state.cursor_comet = 0
    state.cursor_slot = 0


def production_step(state: State, ev: list[Event]) -> bool:
    """Push the next probe's decision (left Surface card first, each card's slots left to
    right), running each Sungrazer's Explosion Check in round 3 once all its probes have
    decided. ``False`` when every Comet is done."""
    while state.cursor_comet < len(state.comets):
        comet = state.comets[state.cursor_comet]
        while comet.in_belt and state.cursor_slot < len(comet.slots):
            slot = state.cursor_slot
            state.cursor_slot += 1
            seat = comet.slots[slot]
            if seat is not None:
                state.stack.append(Decision("comet_probe", seat, {"comet": comet.id, "slot": slot}))
                return True
        if state.round == 3 and comet.kind == "Sungrazer" and comet.in_belt:
            explosion_check(state, comet, ev)
        state.cursor_comet += 1
        state.cursor_slot = 0
    return False


def explosion_check(state: State, comet: Comet, ev: list[Event]) -> None:
    """CC-SUN-1..5: draw an Explosion Check card; Safe pays the stayers the table above the
    Tail token each just chose; Explosion pays nothing more and removes the Comet token;
    then the Explosion Check cards are reshuffled (the drawn card with them)."""
    card_id = state.explosion_deck.pop(0)
    result = state.content.explosion_check(card_id).result
    say(ev, "explosion_check", f"Explosion Check for Comet {comet.id}: {result}.", comet=comet.id,
        card=card_id, result=result, rule="CC-SUN-1")
    if result == "Safe":
        for slot, tail in enumerate(comet.chosen):
            seat = comet.slots[slot]
            if tail is not None and seat is not None:
                _gain_table(state, seat, comet, tail, "CC-SUN-2", ev)
    else:
        comet.removed = True
        say(ev, "comet_removed", f"Comet {comet.id} explodes: its players gain nothing more and its "
            "Comet token is removed from the Asteroid Belt.", comet=comet.id, rule="CC-SUN-4")
    state.explosion_deck.append(card_id)
    state.rng.shuffle(state.explosion_deck)
    say(ev, "reshuffle", "The Explosion Check cards are reshuffled.", rule="CC-SUN-5")


def _gain_table(state: State, seat: int, comet: Comet, tail: int, rule: str, ev: list[Event]) -> None:
    table = state.content.nucleus(comet.nucleus).tables[tail]
    belt.gain(state, seat, table.resources, table.vp, "nucleus_tables",
              f"Nucleus card {comet.nucleus}, table {tail + 1}", ev, rule)


def lowest_tokens(comet: Comet) -> dict[int, int]:
    """The lowest available Tail tokens (CC-PROD-7): the tokens of the lowest row that still
    holds one, as tail index -> row. Tokens keep their places under the resource tables (a
    taken token leaves a gap), so "lowest" is a position on the card, the same for all tails."""
    for row in reversed(range(len(TAIL_TYPES))):
        found = {i: row for i, tail in enumerate(comet.tails) if tail[row] is not None}
        if found:
            return found
    return {}


def tokens_of(comet: Comet, kind: TailType) -> list[int]:
    """The tails that still hold a Tail token of ``kind``."""
    return [i for i, tail in enumerate(comet.tails) if tail[ROW[kind]] is not None]


def _probe_options(state: State, d: Decision) -> Iterable[Action]:
    comet = state.comet(d.data["comet"])
    yield act("STAY")
    if comet is not None:
        for asteroid in belt.asteroids_in_zone(state, comet.zone):
            yield act("JUMP", asteroid)


def _probe_why_not(state: State, d: Decision, action: Action) -> IllegalAction | None:
    comet = state.comet(d.data["comet"])
    assert comet is not None
    if action.verb == "STAY":
        if action.args:
            return illegal("CC-PROD-5", "STAY takes no argument (the Tail token is chosen next)")
        return None
    if action.verb != "JUMP":
        return illegal("CC-PROD-5", f"your Mining Probe on Comet {comet.id} must STAY or JUMP <Asteroid> first")
    if len(action.args) != 1 or not state.content.is_asteroid(action.args[0]):
        return illegal("CC-PROD-5", "JUMP names one Asteroid, e.g. JUMP A07")
    asteroid = action.args[0]
    zone = belt.zone_of(state, asteroid)
    if zone != comet.zone:
        return illegal("CC-PROD-5", f"Asteroid {asteroid} is in Zone {zone}; the probe can only jump onto "
                       f"an Asteroid of the Comet's Zone {comet.zone}")
    if not belt.available(state, asteroid):
        return illegal("CC-PROD-5", f"Asteroid {asteroid} is not available: a Mining Probe is already on it")
    return None


def _probe_perform(state: State, d: Decision, action: Action, ev: list[Event]) -> None:
    comet = state.comet(d.data["comet"])
    assert comet is not None
    slot: int = d.data["slot"]
    seat = d.player
    state.stack.pop()
    if action.verb == "JUMP":
        comet.slots[slot] = None
        say(ev, "jump", f"Player {seat + 1}'s Mining Probe jumps from Comet {comet.id} onto Asteroid "
            f"{action.args[0]}.", seat=seat, comet=comet.id, asteroid=action.args[0], rule="CC-PROD-6")
        belt.claim(state, seat, action.args[0], ev)
        return
    say(ev, "stay", f"Player {seat + 1}'s Mining Probe stays on Comet {comet.id}.", seat=seat,
        comet=comet.id, rule="CC-PROD-7")
    if lowest_tokens(comet):
        state.stack.append(Decision("tail", seat, {"comet": comet.id, "slot": slot, "mode": "stay"}))
    else:
        say(ev, "no_tail", f"No Tail token is left under Comet {comet.id}'s Nucleus card.", comet=comet.id)


# -- Activation phase (CC-ACT-1..7) ----------------------------------------------


def launch_why_not(state: State, seat: int, comet_id: str) -> IllegalAction | None:
    """Can ``seat`` Launch onto this Comet now? (CC-ACT-1, CC-ACT-3; CR-ACT-3.)"""
    if not state.config.comets:
        return illegal("CC-COMP-6", "this game is played without the Comets expansion")
    comet = state.comet(comet_id)
    if comet is None:
        return illegal("CR-ACT-1", f"there is no Asteroid or Comet {comet_id}")
    if not comet.in_belt:
        where = "was removed from the Asteroid Belt" if comet.removed else "is not in the Asteroid Belt yet"
        return illegal("CC-ACT-1", f"Comet {comet.id} {where}")
    p = state.players[seat]
    if p.probes <= 0:
        return illegal("CR-ACT-3", "you have no Mining Probe left in your supply")
    assert comet.ring is not None
    cost = belt.launch_cost(state, comet.ring)
    if p.resources.get("Ice", 0) < cost:
        return illegal("CC-ACT-1", f"a Launch to the {comet.ring} Ring costs {cost} Ice; you have "
                       f"{p.resources.get('Ice', 0)}")
    if None not in comet.slots:
        return illegal("CC-ACT-3", f"Comet {comet.id}'s Surface card has no available slot "
                       f"({len(comet.slots)} for {plural(len(state.players), 'player')})")
    return None


def launch(state: State, seat: int, comet_id: str, ev: list[Event]) -> None:
    """Pay Ice for the Comet's ring, put the probe on the leftmost available slot (CC-ACT-2),
    then choose a Tail token of the round's type (CC-ACT-4)."""
    comet = state.comet(comet_id)
    assert comet is not None and comet.ring is not None
    belt.pay_ice(state, seat, belt.launch_cost(state, comet.ring), ev)
    state.players[seat].probes -= 1
    slot = comet.slots.index(None)
    comet.slots[slot] = seat
    say(ev, "launch_comet", f"Player {seat + 1} launches a Mining Probe onto Comet {comet.id} "
        f"({comet.ring} Ring, Zone {comet.zone}), slot {slot + 1}.", seat=seat, comet=comet.id, slot=slot,
        rule="CC-ACT-2")
    kind = TAKEN_ON_LAUNCH[state.round]
    if tokens_of(comet, kind):
        state.stack.append(Decision("tail", seat, {"comet": comet.id, "slot": slot, "mode": "launch"}))
    else:
        say(ev, "no_tail", f"No {kind} Tail token is left under Comet {comet.id}'s Nucleus card.",
            comet=comet.id)


# -- Taking a Tail token ----------------------------------------------------------


def _tail_options(state: State, d: Decision) -> Iterable[Action]:
    return [act("TAIL", i) for i in (1, 2, 3)]


def _tail_row(state: State, d: Decision, comet: Comet, tail: int) -> int | None:
    if d.data["mode"] == "stay":
        return lowest_tokens(comet).get(tail)
    row = ROW[TAKEN_ON_LAUNCH[state.round]]
    return row if comet.tails[tail][row] is not None else None


def _tail_why_not(state: State, d: Decision, action: Action) -> IllegalAction | None:
    comet = state.comet(d.data["comet"])
    assert comet is not None
    stay = d.data["mode"] == "stay"
    rule = "CC-PROD-7" if stay else LAUNCH_RULE[state.round]
    if action.verb != "TAIL" or len(action.args) != 1 or action.args[0] not in ("1", "2", "3"):
        return illegal(rule, "choose the tail to take a Tail token from: TAIL 1, TAIL 2 or TAIL 3")
    tail = int(action.args[0]) - 1
    if _tail_row(state, d, comet, tail) is None:
        if stay:
            return illegal(rule, f"tail {tail + 1} of Comet {comet.id} has none of the lowest available "
                           "Tail tokens")
        kind = TAKEN_ON_LAUNCH[state.round]
        return illegal(rule, f"in round {state.round} a Launch takes {article(kind)} Tail token; tail {tail + 1} "
                       f"of Comet {comet.id} has none")
    return None


def _tail_perform(state: State, d: Decision, action: Action, ev: list[Event]) -> None:
    comet = state.comet(d.data["comet"])
    assert comet is not None
    tail = int(action.args[0]) - 1
    row = _tail_row(state, d, comet, tail)
    assert row is not None
    token = comet.tails[tail][row]
    assert token is not None
    seat = d.player
    state.stack.pop()
    comet.tails[tail][row] = None
    state.players[seat].tail_tokens.append(token)
    tok = state.content.tail_token(token)
    stay = d.data["mode"] == "stay"
    rule = "CC-PROD-7" if stay else "CC-ACT-4"
    say(ev, "tail_token", f"Player {seat + 1} takes the {tok.tail} Tail token {token} from tail {tail + 1} "
        f"of Comet {comet.id}.", seat=seat, comet=comet.id, tail=tail, token=token, rule=rule)
    belt.gain(state, seat, tok.resources, tok.vp, "tail_tokens", f"Tail token {token}", ev)
    if stay:
        comet.chosen[d.data["slot"]] = tail
        if state.round == 3 and comet.kind == "Near-sun":
            _gain_table(state, seat, comet, tail, "CC-NEAR-1", ev)
    elif state.round == 3:
        _gain_table(state, seat, comet, tail, "CC-ACT-7", ev)


def _probe_domain(content: Content) -> Iterable[Action]:
    yield act("STAY")
    for a in content.asteroids:
        yield act("JUMP", a.id)


decision_kind("comet_probe", options=_probe_options, why_not=_probe_why_not, perform=_probe_perform,
              domain=_probe_domain)
decision_kind("tail", options=_tail_options, why_not=_tail_why_not, perform=_tail_perform,
              domain=lambda content: [act("TAIL", i) for i in (1, 2, 3)])

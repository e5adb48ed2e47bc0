"""The Battle phase: every Battle token placed in the Action phase is fought out.

Battles are resolved one at a time, the sector with the higher number first
(``flow`` sorts ``state.battles`` when the phase begins). Each battle runs:

1. Preparation: the Initiator, then the Defender, may turn Specialist cards with
   the Battle icon face up (``PLAY-S``); they help for the whole battle.
2. Attacks, the Initiator first, then the players take turns. Before each
   attack the player about to be attacked assigns shields (``SHIELD``); the
   attacker then rolls one die per weapons power (``ATTACK``). Each die names a
   system (1 weapons ... 6 sensors); shielded systems block it, then the defender
   rolls one counter-defense die per computers power and every matching number
   is blocked; each remaining hit is 1 Damage marker.
3. The first player to destroy ONE system of the other wins. Either player may
   ``RETREAT`` instead of shielding or attacking, and loses.
4. The loser spends 1 energy (not after a retreat); the winner ALWAYS earns a
   1GP token; unless the loser retreated, the winner takes over one Resource cube
   or orbital of the loser in that sector (``TAKEOVER``) and may steal one card,
   Knowledge token or cargo-hold cube (``STEAL``).

``next_battle`` is the driver: ``flow`` calls it whenever no decision is pending
in the Battle phase, and it pushes the next decision of the battle in progress
(or starts the next battle). Silences of the rulebook settled here are listed
in docs/decisions/battle.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import combinations

from ecliptic.engine.actions import Action, act
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.wording import article, plural, possessive
from ecliptic.tauceti import gp_tokens, ship
from ecliptic.tauceti.content import Content
from ecliptic.tauceti.registry import decision_kind, illegal, not_an_option, say
from ecliptic.tauceti.state import Battle, Decision, State
from ecliptic.tauceti.tracks import gain_energy

BATTLE_ICON = "B"
NO_SHIELDS = "-"
CAUSE = "battle"
RETREAT = act("RETREAT")
EXOTIC = "exotic"  # ATTACK exotic: the one-time Exotic Tech attack dice (Advanced Rule 6)


# -- what a starship brings to the battle -------------------------------------------


def bonus(state: State, seat: int, kind: str) -> int:
    """The sum of the face-up Specialist cards' battle bonuses of one ``kind``
    (``battle_weapons``, ``battle_computers`` or ``battle_shields``)."""
    total = 0
    for card in state.players[seat].face_up:
        if card.startswith("S") and state.content.is_card(card):
            ability = state.content.specialist(card).ability
            if ability.kind == kind:
                total += ability.amount
    return total


def attack_dice(state: State, seat: int) -> int:
    """One attack die per point of weapons power left."""
    return ship.effective(state, seat, "weapons") + bonus(state, seat, "battle_weapons")


def counter_dice(state: State, seat: int) -> int:
    """One counter-defense die per point of computers power left."""
    return ship.effective(state, seat, "computers") + bonus(state, seat, "battle_computers")


def shield_limit(state: State, seat: int) -> int:
    """Shields power is the number of shields; the shields are the Action markers."""
    p = state.players[seat]
    markers = state.content.numbers.action_markers - p.markers_lost
    power = (ship.effective(state, seat, "shields") + bonus(state, seat, "battle_shields")
             + ship.exotic_bonus(state, seat, "battle_shields"))
    return max(0, min(power, markers))


def opponent(b: Battle, seat: int) -> int:
    return b.defender if seat == b.initiator else b.initiator


def battle_cards(state: State, seat: int) -> list[str]:
    """Specialist cards in hand that carry the Battle icon."""
    return [c for c in state.players[seat].hand if c.startswith("S") and state.content.is_card(c)
            and BATTLE_ICON in state.content.specialist(c).phases]


def cubes_out(state: State, seat: int) -> int:
    """Resource cubes of this player taken out of the Enlightenment bag."""
    return state.content.numbers.cubes_per_faction - state.bag.count(state.players[seat].faction)


def _name(state: State, seat: int) -> str:
    return state.players[seat].faction


def _sector_name(state: State, sector: str) -> str:
    return state.content.tile(sector).name


# -- the driver ---------------------------------------------------------------------


def next_battle(state: State, ev: list[Event]) -> bool:
    """Push the next decision of the battle in progress, or start the next battle.

    Returns False when no battle is in progress and none is left this round."""
    while not state.stack:
        b = state.battle
        if b is None:
            if not state.battles:
                return False
            sector, state.battles = state.battles[0], state.battles[1:]
            _begin(state, sector, ev)
        elif b.winner is not None:
            _close(state, ev)
        else:
            _next_attack(state, b, ev)
    return True


def _begin(state: State, sector: str, ev: list[Event]) -> None:
    """Create the battle and ask for the Specialist cards (Initiator first)."""
    initiator = next((p.seat for p in state.players if p.battle_sector == sector), None)
    defender = None if initiator is None else state.players[initiator].battle_defender
    if initiator is None or defender is None:
        say(ev, "battle_skipped", f"No Battle token is in {sector}; no battle there.", sector=sector)
        return
    systems = state.content.systems
    state.battle = Battle(
        sector=sector, initiator=initiator, defender=defender, attacker=initiator,
        destroyed_at_start={str(s): [x for x in systems if ship.destroyed(state, s, x)]
                            for s in (initiator, defender)},
    )
    say(ev, "battle", f"Battle in {_sector_name(state, sector)}: {_name(state, initiator)} (Initiator) "
        f"against {_name(state, defender)} (Defender).", sector=sector, initiator=initiator,
        defender=defender)
    for seat in (defender, initiator):  # the Initiator's decision on top: asked first
        if battle_cards(state, seat):
            state.stack.append(Decision("battle_prepare", seat))


def _next_attack(state: State, b: Battle, ev: list[Event]) -> None:
    """Ask the player about to be attacked for shields, unless the battle cannot go on."""
    if attack_dice(state, b.initiator) == 0 and attack_dice(state, b.defender) == 0:
        _undecided(state, "neither starship has any weapons power left", ev)
    elif state.damage_supply <= 0:
        _undecided(state, "no Damage marker is left in the supply", ev)
    else:
        state.stack.append(Decision("battle_shield", opponent(b, b.attacker)))


def _undecided(state: State, why: str, ev: list[Event]) -> None:
    b = state.battle
    assert b is not None
    say(ev, "battle_undecided", f"The battle in {_sector_name(state, b.sector)} ends without a winner: "
        f"{why}.", sector=b.sector)
    state.battle = None


def _close(state: State, ev: list[Event]) -> None:
    b = state.battle
    assert b is not None
    say(ev, "battle_over", f"The battle in {_sector_name(state, b.sector)} is over.", sector=b.sector)
    state.battle = None


# -- 1. preparation: Specialist cards with the Battle icon -----------------------------


def _prepare_options(state: State, d: Decision) -> Iterator[Action]:
    for card in battle_cards(state, d.player):
        yield act("PLAY-S", card)
    yield act("READY")


def _prepare_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a == act("READY"):
        return None
    if a.verb != "PLAY-S" or len(a.args) != 1:
        return illegal("TC-BAT-7", "turn a Specialist card face up with PLAY-S <card>, or READY to begin")
    card = a.args[0]
    if card not in state.players[d.player].hand:
        return not_an_option("TC-BAT-7", f"{card} is not in your hand")
    if card not in battle_cards(state, d.player):
        return illegal("TC-BAT-7", f"{card} has no Battle phase icon")
    return None


def _prepare_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    if a == act("READY"):
        state.stack.pop()
        say(ev, "battle_ready", f"{_name(state, d.player)} is ready for battle.", seat=d.player)
        return
    p = state.players[d.player]
    card = a.args[0]
    p.hand.remove(card)
    p.face_up += (card,)
    spec = state.content.specialist(card)
    say(ev, "specialist_played", f"{p.faction} turns {card} ({spec.name}) face up for the battle: "
        f"{spec.ability.text or 'no battle ability'}.", seat=d.player, card=card)


def _prepare_domain(c: Content) -> Iterator[Action]:
    yield act("READY")
    for s in c.specialists:
        if BATTLE_ICON in s.phases:
            yield act("PLAY-S", s.id)


decision_kind("battle_prepare", options=_prepare_options, why_not=_prepare_why_not,
              perform=_prepare_perform, domain=_prepare_domain)


# -- 2. shields ------------------------------------------------------------------------


def shield_text(numbers: tuple[int, ...]) -> str:
    return ",".join(str(n) for n in numbers) if numbers else NO_SHIELDS


def parse_shields(text: str) -> list[int] | None:
    """``1,2,5`` or ``5,1,2`` -> [1, 2, 5] (the systems in ascending order, the order of the
    canonical notation ``SHIELD 1,2,5``); ``-`` -> []; None unless different systems 1-6."""
    if text == NO_SHIELDS:
        return []
    numbers: list[int] = []
    for part in text.split(","):
        if len(part) != 1 or part not in "123456":
            return None
        numbers.append(int(part))
    if len(set(numbers)) != len(numbers):
        return None
    return sorted(numbers)


def canonical_shields(action: Action) -> Action:
    """``SHIELD 4,1,3`` as the canonical ``SHIELD 1,3,4``, the same choice in the notation of
    the legal actions and of the records; anything else (a malformed action too) unchanged."""
    if not (isinstance(action, Action) and action.verb == "SHIELD" and isinstance(action.args, tuple)
            and len(action.args) == 1 and isinstance(action.args[0], str)):
        return action
    numbers = parse_shields(action.args[0])
    return action if numbers is None else act("SHIELD", shield_text(tuple(numbers)))


@cache
def _shields_up_to(limit: int) -> tuple[Action, ...]:
    """RETREAT and every SHIELD of at most ``limit`` systems (immutable, built once per limit)."""
    return (RETREAT, *(act("SHIELD", shield_text(combo))
                       for k in range(limit + 1) for combo in combinations(range(1, 7), k)))


def _shield_options(state: State, d: Decision) -> tuple[Action, ...]:
    """RETREAT, or shields on at most the player's Shields limit of systems: exactly what
    ``_shield_why_not`` accepts while a battle is in progress, so the options are the legal
    actions and an action is among them when ``_shield_why_not`` accepts it."""
    if state.battle is None:
        return ()
    return _shields_up_to(shield_limit(state, d.player))


def _shield_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if state.battle is None:
        return illegal("TC-BAT-6", "there is no battle in progress")
    if a == RETREAT:
        return None
    if a.verb != "SHIELD" or len(a.args) != 1:
        return illegal("TC-BAT-6", "assign shields with SHIELD <systems> (e.g. SHIELD 1,2,5 or SHIELD -), "
                       "or RETREAT")
    numbers = parse_shields(a.args[0])
    if numbers is None:
        return illegal("TC-BAT-6", f"{a.args[0]} is not a list of different systems 1-6 (e.g. 1,2,5)")
    limit = shield_limit(state, d.player)
    if len(numbers) > limit:
        return illegal("TC-BAT-6", f"your Shields power lets you use {plural(limit, 'shield')}, not {len(numbers)}")
    return None


def _shield_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    b = state.battle
    assert b is not None
    state.stack.pop()
    if a == RETREAT:
        _retreat(state, d.player, ev)
        return
    numbers = parse_shields(a.args[0]) or []
    systems = [state.content.systems[n - 1] for n in numbers]
    b.shields[str(d.player)] = systems
    say(ev, "shields", f"{_name(state, d.player)} assigns shields to "
        f"{', '.join(f'{n} ({s})' for n, s in zip(numbers, systems, strict=True)) or 'no system'}.",
        seat=d.player, systems=systems)
    state.stack.append(Decision("battle_attack", b.attacker))


def _shield_domain(c: Content) -> Iterator[Action]:
    yield act("RETREAT")
    for k in range(len(c.systems) + 1):
        for combo in combinations(range(1, len(c.systems) + 1), k):
            yield act("SHIELD", shield_text(combo))


def _shield_offered(state: State, d: Decision, a: Action) -> bool:
    """Is ``a`` among the options? The options hold the canonical notation only
    (TauCeti.why_not reads 4,1,3 as 1,3,4), and they are the legal actions: so this is also
    the kind's quick yes (``apply`` asks ``_shield_why_not`` once instead of twice)."""
    return _shield_why_not(state, d, a) is None and a == canonical_shields(a)


decision_kind("battle_shield", options=_shield_options, why_not=_shield_why_not,
              perform=_shield_perform, domain=_shield_domain, legal=_shield_options,
              offers=_shield_offered, accepts=_shield_offered, unique=True)  # (RETREAT, each SHIELD once)


# -- 3. the attack -------------------------------------------------------------------


ATTACK, ATTACK_EXOTIC = act("ATTACK"), act("ATTACK", EXOTIC)


def _attack_options(state: State, d: Decision) -> Iterator[Action]:
    yield ATTACK
    if ship.exotic_bonus(state, d.player, "attack_dice") > 0:
        yield ATTACK_EXOTIC
    yield RETREAT


def _attack_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if state.battle is None:
        return illegal("TC-BAT-10", "there is no battle in progress")
    if a in (ATTACK, RETREAT):
        return None
    if a == ATTACK_EXOTIC:
        if ship.exotic_bonus(state, d.player, "attack_dice") <= 0:
            return illegal("TC-ADV6-2", "you hold no unused Exotic Tech that adds attack dice")
        return None
    return illegal("TC-BAT-10", "ATTACK, ATTACK exotic (with the Exotic Tech) or RETREAT")


def _spend_attack_tech(state: State, seat: int, ev: list[Event]) -> int:
    """The Exotic Tech's extra attack dice for this one attack; a one-time card is then
    discarded (it stays the player's acquired Exotic Tech: no other can be acquired)."""
    card = ship.exotic(state, seat)
    assert card is not None
    if card.one_time:
        state.players[seat].exotic_spent = True
    say(ev, "exotic_used", f"{_name(state, seat)} uses the Exotic Tech {card.name}: +{card.amount} "
        f"attack dice" + (", then discards it." if card.one_time else "."), seat=seat, card=card.id,
        dice=card.amount)
    return card.amount


def _attack_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    b = state.battle
    assert b is not None
    state.stack.pop()
    if a == RETREAT:
        _retreat(state, d.player, ev)
        return
    extra = _spend_attack_tech(state, d.player, ev) if a == ATTACK_EXOTIC else 0
    target = opponent(b, d.player)
    if _attack(state, b, d.player, target, ev, extra):
        _conclude(state, winner=d.player, loser=target, retreated=False, ev=ev)
    else:
        b.attacker = target


def _attack(state: State, b: Battle, attacker: int, target: int, ev: list[Event],
            extra: int = 0) -> bool:
    """Roll the attack (``extra`` dice from an Exotic Tech) and the counter-defense, apply
    the hits; True if a system fell."""
    systems = state.content.systems
    dice = state.rng.roll(attack_dice(state, attacker) + extra)
    shielded = b.shields.get(str(target), [])
    through = [n for n in dice if systems[n - 1] not in shielded]
    say(ev, "attack", f"{_name(state, attacker)} attacks, rolling {dice}: "
        f"{len(dice) - len(through)} blocked by shields.", seat=attacker, dice=dice, through=through)
    counter: list[int] = []
    if through:
        counter = state.rng.roll(counter_dice(state, target))
        say(ev, "counter_defense", f"{_name(state, target)} takes a counter-defense, rolling {counter}.",
            seat=target, dice=counter)
    hits = [n for n in through if n not in counter]
    for n in hits:
        ship.add_damage(state, target, systems[n - 1], ev, CAUSE)
    if not hits:
        say(ev, "no_hits", f"No hit gets through to {_name(state, target)}.", seat=target)
    fallen = [s for s in systems
              if s not in b.destroyed_at_start.get(str(target), []) and ship.destroyed(state, target, s)]
    if fallen:
        say(ev, "system_destroyed", f"{possessive(_name(state, target))} {fallen[0]} system is destroyed.",
            seat=target, systems=fallen)
    return bool(fallen)


decision_kind("battle_attack", options=_attack_options,
              why_not=_attack_why_not, perform=_attack_perform,
              domain=lambda c: (act("ATTACK"), act("ATTACK", EXOTIC), act("RETREAT")))


# -- 4. the end of the battle and its rewards -------------------------------------------


def _retreat(state: State, seat: int, ev: list[Event]) -> None:
    b = state.battle
    assert b is not None
    say(ev, "retreat", f"{_name(state, seat)} retreats.", seat=seat)
    _conclude(state, winner=opponent(b, seat), loser=seat, retreated=True, ev=ev)


def _conclude(state: State, winner: int, loser: int, retreated: bool, ev: list[Event]) -> None:
    """The loser pays 1 energy unless he retreated, the winner earns a 1GP token,
    then (no retreat) the takeover and the steal."""
    b = state.battle
    assert b is not None
    b.winner = winner
    b.retreated = loser if retreated else None
    say(ev, "battle_won", f"{_name(state, winner)} wins the battle in {_sector_name(state, b.sector)}.",
        sector=b.sector, winner=winner, loser=loser, retreated=retreated)
    if not retreated:
        paid = -gain_energy(state, loser, -1)
        say(ev, "battle_energy", f"{_name(state, loser)} expends {paid} energy for losing the battle.",
            seat=loser, energy=paid)
    gp_tokens.award(state, winner, state.content.numbers.battle_gp, ev)
    if retreated:
        return
    if _steal_options_exist(state, loser):
        state.stack.append(Decision("battle_steal", winner))
        hand = list(state.players[loser].hand)
        say(ev, "loser_hand", f"{_name(state, winner)} looks at {possessive(_name(state, loser))} hand.",
            seat=winner, loser=loser, hand=hand,
            private=f"You look at {possessive(_name(state, loser))} hand: {', '.join(hand) or 'no cards'}.")
    if _can_take_cube(state, b, winner) or _can_take_orbital(state, b, winner):
        state.stack.append(Decision("battle_takeover", winner))
    else:
        say(ev, "no_takeover", f"{_name(state, winner)} has nothing to take over in "
            f"{_sector_name(state, b.sector)}.", seat=winner)


# -- takeover ---------------------------------------------------------------------------


def _can_take_cube(state: State, b: Battle, winner: int) -> bool:
    """The loser has a cube there and the winner may still take one of his out of the bag."""
    loser = state.players[opponent(b, winner)].faction
    return (loser in state.cubes.get(b.sector, [])
            and cubes_out(state, winner) < state.content.numbers.cubes_out_max
            and state.players[winner].faction in state.bag)


def _can_take_orbital(state: State, b: Battle, winner: int) -> bool:
    """The loser has an orbital there and the winner still has one on his home planet."""
    return opponent(b, winner) in state.orbitals.get(b.sector, []) and state.players[winner].orbitals_home > 0


def _takeover_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    b = state.battle
    if b is None:
        return illegal("TC-BAT-18", "there is no battle to take anything over from")
    if a.verb != "TAKEOVER" or len(a.args) != 1 or a.args[0] not in ("cube", "orbital", "none"):
        return illegal("TC-BAT-18", "TAKEOVER cube, TAKEOVER orbital or TAKEOVER none")
    what = a.args[0]
    loser = _name(state, opponent(b, d.player))
    if what == "cube" and not _can_take_cube(state, b, d.player):
        if loser not in state.cubes.get(b.sector, []):
            return illegal("TC-BAT-18", f"{loser} has no Resource cube in {_sector_name(state, b.sector)}")
        return illegal("TC-CLAIM-3", f"you may have only {state.content.numbers.cubes_out_max} Resource cubes "
                       "out of the Enlightenment bag")
    if what == "orbital" and not _can_take_orbital(state, b, d.player):
        if opponent(b, d.player) not in state.orbitals.get(b.sector, []):
            return illegal("TC-BAT-18", f"{loser} has no orbital in {_sector_name(state, b.sector)}")
        return illegal("TC-BAT-18", "you have no orbital left on your home planet")
    return None


def _takeover_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    b = state.battle
    assert b is not None
    state.stack.pop()
    loser = opponent(b, d.player)
    where = _sector_name(state, b.sector)
    if a.args[0] == "cube":
        mine, theirs = state.players[d.player].faction, state.players[loser].faction
        cubes = state.cubes[b.sector]
        state.bag.remove(mine)
        cubes[cubes.index(theirs)] = mine
        state.bag.append(theirs)
        state.bag.sort()
        say(ev, "takeover", f"{mine} takes over a Resource cube in {where}: {possessive(theirs)} cube goes back "
            "into the Enlightenment bag.", seat=d.player, loser=loser, sector=b.sector, what="cube")
    elif a.args[0] == "orbital":
        orbitals = state.orbitals[b.sector]
        orbitals[orbitals.index(loser)] = d.player
        state.players[d.player].orbitals_home -= 1
        state.players[loser].orbitals_home += 1
        say(ev, "takeover", f"{_name(state, d.player)} takes over an orbital in {where}: "
            f"{possessive(_name(state, loser))} orbital goes back to its planet.", seat=d.player, loser=loser,
            sector=b.sector, what="orbital")
    else:
        say(ev, "takeover", f"{_name(state, d.player)} takes nothing over.", seat=d.player, what="none")


decision_kind(
    "battle_takeover",
    options=lambda s, d: (act("TAKEOVER", w) for w in ("cube", "orbital", "none")),
    why_not=_takeover_why_not,
    perform=_takeover_perform,
    domain=lambda c: (act("TAKEOVER", w) for w in ("cube", "orbital", "none")),
)


# -- steal -----------------------------------------------------------------------------


def _steal_options_exist(state: State, loser: int) -> bool:
    p = state.players[loser]
    return bool(p.hand) or any(v > 0 for v in p.knowledge.values()) or p.cargo_cube


def _steal_options(state: State, d: Decision) -> Iterator[Action]:
    yield act("STEAL", "none")
    b = state.battle
    if b is None:
        return
    p = state.players[opponent(b, d.player)]
    for card in p.hand:
        yield act("STEAL", "card", card)
    for kind, count in p.knowledge.items():
        if count > 0:
            yield act("STEAL", "knowledge", kind)
    if p.cargo_cube:
        yield act("STEAL", "cube")


def _steal_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    b = state.battle
    if b is None:
        return illegal("TC-BAT-19", "there is no battle to steal from")
    usage = "STEAL card <id>, STEAL knowledge <type>, STEAL cube or STEAL none"
    if a.verb != "STEAL" or not a.args:
        return illegal("TC-BAT-19", usage)
    what, rest = a.args[0], a.args[1:]
    p = state.players[opponent(b, d.player)]
    if what in ("none", "cube") and rest:
        return illegal("TC-BAT-19", usage)
    if what == "none":
        return None
    if what == "cube":
        return None if p.cargo_cube else illegal("TC-BAT-22", f"{p.faction} carries no Resource cube")
    if what not in ("card", "knowledge") or len(rest) != 1:
        return illegal("TC-BAT-19", usage)
    if what == "card" and rest[0] not in p.hand:
        return illegal("TC-BAT-20", f"{rest[0]} is not in {possessive(p.faction)} hand")
    if what == "knowledge" and p.knowledge.get(rest[0], 0) <= 0:
        return illegal("TC-BAT-21", f"{p.faction} has no {rest[0]} Knowledge token")
    return None


def _steal_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    b = state.battle
    assert b is not None
    state.stack.pop()
    loser = opponent(b, d.player)
    me, them = state.players[d.player], state.players[loser]
    what = a.args[0]
    if what == "card":
        card = a.args[1]
        them.hand.remove(card)
        me.hand.append(card)
        say(ev, "steal", f"{me.faction} steals a card from {them.faction}.", seat=d.player, loser=loser,
            what="card", stolen=card, private=f"{me.faction} steals {card} from {them.faction}.")
    elif what == "knowledge":
        kind = a.args[1]
        them.knowledge = them.knowledge.set(kind, them.knowledge[kind] - 1)
        me.knowledge = me.knowledge.set(kind, me.knowledge.get(kind, 0) + 1)
        say(ev, "steal", f"{me.faction} steals {article(kind)} Knowledge token from {them.faction}.",
            seat=d.player, loser=loser, what="knowledge", knowledge=kind)
    elif what == "cube":
        them.cargo_cube = False
        state.bag.append(them.faction)
        state.bag.sort()
        say(ev, "steal", f"{me.faction} steals the Resource cube in {possessive(them.faction)} cargo hold; it goes "
            "back into the Enlightenment bag.", seat=d.player, loser=loser, what="cube")
    else:
        say(ev, "steal", f"{me.faction} steals nothing.", seat=d.player, what="none")


def _steal_domain(c: Content) -> Iterator[Action]:
    yield act("STEAL", "none")
    yield act("STEAL", "cube")
    for kind in c.knowledge_types:
        yield act("STEAL", "knowledge", kind)
    for cc in c.crisis_cards:
        yield act("STEAL", "card", cc.id)
    for s in c.specialists:
        yield act("STEAL", "card", s.id)


decision_kind("battle_steal", options=_steal_options, why_not=_steal_why_not,
              perform=_steal_perform, domain=_steal_domain)

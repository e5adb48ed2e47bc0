"""The Minor actions: trading, playing a Specialist card, resolving a crisis, assisting.

"Minor actions can be taken during your turn, before or after you take a Major
action, and are unlimited." Every verb here is therefore registered with
``major=None``: it costs no Action marker and no energy. (Re-rolling a skill
check lives in :mod:`ecliptic.tauceti.checks`; battle tokens and missions have
their own modules.)

Trading:

* ``TRADE-S <card> <card>`` — Specialists 2:1: the two cards go to the bottom of
  the Specialist deck, the player looks at the top 3 and keeps one
  (``keep_specialist`` decision, ``KEEP <card>``); the other two go to the bottom.
* ``TRADE-K <type> <type> <type> <target>`` — Knowledge 2:1 with the Galactic Depot
  (``depot``) or with another player (``P<seat>``), who answers the
  ``trade_offer`` decision with ``ACCEPT`` or ``DECLINE``.
* ``SELL-K <type>`` — a Knowledge token for the TAU printed on its back.
* ``CUBE-MAT`` — a Resource cube on the home planet for one space on the Materials track.
* ``GP-TOKEN <id>`` — a GP token for the reward on its back.

``PLAY-S <card>`` turns a Specialist with the Action-phase icon face up;
``RESOLVE <crisis token> <card|K3>`` resolves a crisis from any sector;
``ASSIST-LOAD`` / ``ASSIST-DROP`` carry a Resource cube to a planet in crisis.

Choices the rulebook leaves open are recorded in docs/decisions/minor.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import combinations, combinations_with_replacement

from ecliptic.engine.actions import Action, act, number
from ecliptic.engine.content import on_content_change
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.frozendict import FrozenDict
from ecliptic.engine.wording import article, plural, possessive
from ecliptic.tauceti import decks, gp_tokens, ship
from ecliptic.tauceti.content import Content
from ecliptic.tauceti.registry import decision_kind, illegal, not_an_option, say, verb
from ecliptic.tauceti.state import Decision, State
from ecliptic.tauceti.tracks import gain_energy, gain_tau, materials_max, move_materials

DEPOT = "depot"
K3 = "K3"
RESOLVE_ANY = "resolve_any"  # the Advanced Specialists' crisis-resolving ability
MAX_SEATS = 4
CUBE_MAT = act("CUBE-MAT")
ASSIST_LOAD = act("ASSIST-LOAD")
ASSIST_DROP = act("ASSIST-DROP")


# -- small shared helpers ----------------------------------------------------------


def _name(state: State, seat: int) -> str:
    return state.players[seat].faction


def _is_specialist(state: State, card: str) -> bool:
    found = _SPECIALIST.get(card)
    if found is None:
        found = not card.startswith("C") and state.content.is_card(card)
        if state.content.is_card(card):  # (the content's own cards only: any text may be asked)
            _SPECIALIST[card] = found
    return found


_SPECIALIST: dict[str, bool] = {}
"""Whether each card is a Specialist card, read once from the (immutable) content: TRADE-S,
PLAY-S and RESOLVE look at every card in hand at every turn decision."""
on_content_change(_SPECIALIST.clear)


def _seat_arg(state: State, text: str) -> int | None:
    """``P1`` -> seat 1, if that seat plays in this game."""
    seat = number(text[1]) if len(text) == 2 and text[0] == "P" else None
    return seat if seat is not None and 0 <= seat < len(state.players) else None


def _held(state: State, seat: int, ktype: str) -> int:
    return state.players[seat].knowledge.get(ktype, 0)


def _plus(knowledge: FrozenDict[str, int], ktype: str, amount: int) -> FrozenDict[str, int]:
    """Knowledge tokens with ``amount`` more of ``ktype`` (a type at 0 stays listed)."""
    return knowledge.set(ktype, knowledge.get(ktype, 0) + amount)


# -- Trading: Specialists [2:1] -------------------------------------------------------


def _trade_s_options(state: State, seat: int) -> list[Action]:
    """Every pair of different Specialist cards in hand, named in order: what
    ``_trade_s_why_not`` checks, so every option is legal (registered as the verb's ``legal``)."""
    hand = state.players[seat].hand
    if len(hand) < 2:  # (most turns: no list is built for a hand of none or one)
        return []
    cards = [c for c in hand if _is_specialist(state, c)]
    if len(cards) < 2:
        return []
    return [act("TRADE-S", a, b) for a, b in combinations(sorted(cards), 2)]


def _trade_s_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if len(a.args) != 2:
        return illegal("TC-TRADE-1", "trade two Specialist cards: TRADE-S <card> <card>")
    first, second = a.args
    hand = state.players[seat].hand
    for card in a.args:
        if not state.content.is_card(card):
            return illegal("TC-TRADE-1", f"{card} is not a Crisis or Specialist card")
        if card.startswith("C"):
            return illegal("TC-TRADE-1", "you cannot trade Crisis cards")
        if card not in hand:
            return not_an_option("TC-TRADE-1", f"{card} is not in your hand")
    if first == second:
        return illegal("TC-TRADE-1", "trade two different Specialist cards")
    if first > second:
        return illegal("TC-TRADE-1", f"name the two cards in order: TRADE-S {second} {first}")
    return None


def _trade_s_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    p = state.players[seat]
    for card in a.args:
        p.hand.remove(card)
        decks.to_bottom(state, "specialist", card)
    drawn = [c for c in (decks.draw(state, "specialist") for _ in range(3)) if c is not None]
    say(ev, "trade_specialists", f"{p.faction} trades 2 Specialist cards to the bottom of the "
        f"Specialist deck and looks at the top {len(drawn)}.", seat=seat, traded=list(a.args),
        drawn=drawn, private=f"You trade {a.args[0]} and {a.args[1]}, draw {', '.join(drawn)} "
        "and keep one.")
    state.stack.append(Decision("keep_specialist", seat, {"cards": drawn}))


def _keep_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a.verb != "KEEP" or len(a.args) != 1 or a.args[0] not in d.data["cards"]:
        return illegal("TC-TRADE-1", f"keep one of the cards you drew: KEEP "
                       f"<{'|'.join(d.data['cards'])}>")
    return None


def _keep_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    kept = a.args[0]
    p = state.players[d.player]
    p.hand.append(kept)
    for card in d.data["cards"]:
        if card != kept:
            decks.to_bottom(state, "specialist", card)
    state.stack.pop()
    say(ev, "keep_specialist", f"{p.faction} keeps one Specialist card; the others go to the "
        "bottom of the Specialist deck.", seat=d.player, kept=kept, private=f"You keep {kept}.")


decision_kind(
    "keep_specialist",
    options=lambda s, d: (act("KEEP", c) for c in d.data["cards"]),
    why_not=_keep_why_not,
    perform=_keep_perform,
    domain=lambda c: (act("KEEP", s.id) for s in c.specialists),
)


# -- Trading: Knowledge [2:1] ---------------------------------------------------------


def _trade_k_targets(state: State, seat: int, want: str) -> Iterator[str]:
    """Who can give a ``want`` token: the Galactic Depot, and each other player holding one
    who has not had an offer from ``seat`` this round."""
    if state.depot_knowledge.get(want, 0) > 0:
        yield DEPOT
    offered = state.players[seat].offers_made
    for other in range(len(state.players)):
        if other != seat and _held(state, other, want) > 0 and other not in offered:
            yield f"P{other}"


def _trade_k_options(state: State, seat: int) -> Iterable[Action]:
    """Two tokens the player holds (two of one type need two of them) for a different type
    someone can give: what ``_trade_k_why_not`` checks, so every option is legal (registered
    as the verb's ``legal``). Most turns the player holds fewer than two tokens."""
    if sum(state.players[seat].knowledge.values()) < 2:
        return ()
    return _trades_k(state, seat)


def _trades_k(state: State, seat: int) -> Iterator[Action]:
    types = state.content.knowledge_types
    held = sorted(t for t in types if _held(state, seat, t) > 0)
    for give in combinations_with_replacement(held, 2):
        if give[0] == give[1] and _held(state, seat, give[0]) < 2:
            continue
        for want in types:
            if want not in give:
                for target in _trade_k_targets(state, seat, want):
                    yield act("TRADE-K", give[0], give[1], want, target)


def _trade_k_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if len(a.args) != 4:
        return illegal("TC-TRADE-2", "trade two Knowledge tokens for one: TRADE-K <type> <type> "
                       "<type wanted> <depot|P<seat>>")
    first, second, want, target = a.args
    types = state.content.knowledge_types
    for ktype in (first, second, want):
        if ktype not in types:
            return illegal("TC-TRADE-2", f"{ktype} is not a Knowledge type ({', '.join(types)})")
    if first > second:
        return illegal("TC-TRADE-2", f"name the two tokens you give in order: TRADE-K {second} "
                       f"{first} {want} {target}")
    need = 2 if first == second else 1
    if _held(state, seat, first) < need or _held(state, seat, second) < 1:
        return illegal("TC-TRADE-2", "you do not have the Knowledge tokens you offer")
    if want in (first, second):
        return illegal("TC-TRADE-2", f"you would get back {article(want)} token you give away; "
                       "ask for a different type")
    if target == DEPOT:
        if state.depot_knowledge.get(want, 0) <= 0:
            return illegal("TC-TRADE-2", f"the Galactic Depot has no {want} Knowledge token")
        return None
    other = _seat_arg(state, target)
    if other is None or other == seat:
        return illegal("TC-TRADE-2", f"trade with the Galactic Depot ('depot') or another player "
                       f"(P0..P{len(state.players) - 1}), not {target}")
    if _held(state, other, want) <= 0:
        return illegal("TC-TRADE-2", f"{_name(state, other)} has no {want} Knowledge token")
    if other in state.players[seat].offers_made:
        return illegal("TC-TRADE-2", f"you already made {_name(state, other)} a trade offer "
                       "this round")
    return None


def _trade_k_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    first, second, want, target = a.args
    p = state.players[seat]
    if target == DEPOT:
        for given in (first, second):
            p.knowledge = _plus(p.knowledge, given, -1)
            state.depot_knowledge = _plus(state.depot_knowledge, given, 1)
        state.depot_knowledge = _plus(state.depot_knowledge, want, -1)
        p.knowledge = _plus(p.knowledge, want, 1)
        say(ev, "trade_knowledge", f"{p.faction} trades {first} and {second} Knowledge to the "
            f"Galactic Depot for {want} Knowledge.", seat=seat, give=[first, second], want=want,
            target=DEPOT)
        return
    other = _seat_arg(state, target)
    assert other is not None
    p.offers_made += (other,)
    state.stack.append(Decision("trade_offer", other, {"from": seat, "give": [first, second],
                                                       "want": want}))
    say(ev, "trade_offer", f"{p.faction} offers {_name(state, other)} {first} and {second} "
        f"Knowledge for their {want} Knowledge.", seat=seat, to_seat=other,
        give=[first, second], want=want)


def _offer_still_possible(state: State, d: Decision) -> bool:
    """Nothing can change between the offer and the answer, but a saved game may be edited."""
    first, second = d.data["give"]
    offerer = d.data["from"]
    need = 2 if first == second else 1
    return (_held(state, offerer, first) >= need and _held(state, offerer, second) >= 1
            and _held(state, d.player, d.data["want"]) >= 1)


def _offer_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a == act("DECLINE"):
        return None
    if a != act("ACCEPT"):
        return illegal("TC-TRADE-2", "answer the trade offer: ACCEPT or DECLINE")
    if not _offer_still_possible(state, d):
        return illegal("TC-TRADE-2", "the traded Knowledge tokens are no longer there")
    return None


def _offer_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    state.stack.pop()
    offerer, answerer = state.players[d.data["from"]], state.players[d.player]
    first, second = d.data["give"]
    want = d.data["want"]
    if a == act("DECLINE"):
        say(ev, "trade_declined", f"{answerer.faction} declines {possessive(offerer.faction)} trade offer.",
            seat=d.player, from_seat=offerer.seat)
        return
    for given in (first, second):
        offerer.knowledge = _plus(offerer.knowledge, given, -1)
        answerer.knowledge = _plus(answerer.knowledge, given, 1)
    answerer.knowledge = _plus(answerer.knowledge, want, -1)
    offerer.knowledge = _plus(offerer.knowledge, want, 1)
    say(ev, "trade_accepted", f"{answerer.faction} accepts: {offerer.faction} gives {first} and "
        f"{second} Knowledge for {want} Knowledge.", seat=d.player, from_seat=offerer.seat,
        give=[first, second], want=want)


def _offer_options(state: State, d: Decision) -> Iterable[Action]:
    return (act("ACCEPT"), act("DECLINE"))


decision_kind(
    "trade_offer",
    options=_offer_options,
    why_not=_offer_why_not,
    perform=_offer_perform,
    domain=lambda c: (act("ACCEPT"), act("DECLINE")),
)


def _trade_k_domain(c: Content) -> Iterator[Action]:
    types = sorted(c.knowledge_types)
    targets = [DEPOT] + [f"P{s}" for s in range(MAX_SEATS)]
    for first, second in combinations_with_replacement(types, 2):
        for want in types:
            if want not in (first, second):
                for target in targets:
                    yield act("TRADE-K", first, second, want, target)


# -- Trading: Knowledge for TAU ---------------------------------------------------------


def _sell_k_options(state: State, seat: int) -> list[Action]:
    """Each type of Knowledge token the player holds: legal (registered as the verb's
    ``legal``)."""
    knowledge = state.players[seat].knowledge
    if not any(knowledge.values()):
        return []
    return [act("SELL-K", t) for t in state.content.knowledge_types if knowledge.get(t, 0) > 0]


def _sell_k_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if len(a.args) != 1 or a.args[0] not in state.content.knowledge_types:
        return illegal("TC-TRADE-3", "sell a Knowledge token: SELL-K <type>")
    if _held(state, seat, a.args[0]) <= 0:
        return illegal("TC-TRADE-3", f"you have no {a.args[0]} Knowledge token")
    return None


def _sell_k_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    ktype = a.args[0]
    p = state.players[seat]
    p.knowledge = _plus(p.knowledge, ktype, -1)
    state.depot_knowledge = _plus(state.depot_knowledge, ktype, 1)
    got = gain_tau(state, seat, state.content.crisis_type(ktype).knowledge_tau)
    say(ev, "sell_knowledge", f"{p.faction} trades {article(ktype)} Knowledge token to the Galactic "
        f"Depot for {got}T.", seat=seat, knowledge=ktype, tau=got)


# -- Trading: Resource units for Materials ----------------------------------------------


def _cube_mat_options(state: State, seat: int) -> tuple[Action, ...]:
    """CUBE-MAT when it is legal (registered as the verb's ``legal``). Most turns the player
    has no Resource cube on the home planet: that is looked at first, without building
    ``_cube_mat_why_not``'s refusal."""
    cubes = state.cubes
    if not cubes:  # (no Resource cube on any planet: most turns of random play)
        return ()
    home = state.faction(seat).home_planet
    if state.players[seat].faction not in cubes.get(home, ()):
        return ()
    return (CUBE_MAT,) if _cube_mat_why_not(state, seat, CUBE_MAT) is None else ()


def _cube_mat_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if a.args:
        return illegal("TC-TRADE-4", "CUBE-MAT takes no arguments")
    p = state.players[seat]
    home = state.faction(seat).home_planet
    if p.faction not in state.cubes.get(home, []):
        return illegal("TC-TRADE-4", f"you have no Resource cube on {state.content.tile(home).name}")
    if p.materials >= materials_max(state, seat):
        return illegal("TC-TRADE-4", "your Materials marker is already at the right end of its track")
    return None


def _cube_mat_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    p = state.players[seat]
    home = state.faction(seat).home_planet
    state.cubes[home].remove(p.faction)
    state.bag.append(p.faction)
    state.bag.sort()
    move_materials(state, seat, 1)
    say(ev, "cube_for_materials", f"{p.faction} puts a Resource cube from "
        f"{state.content.tile(home).name} back into the Enlightenment bag; Materials +1.",
        seat=seat, materials=p.materials)


# -- Trading: GP tokens for rewards -----------------------------------------------------


def _gp_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if len(a.args) != 1:
        return illegal("TC-TRADE-5", "trade a GP token: GP-TOKEN <id>")
    if a.args[0] not in state.players[seat].gp_tokens:
        return illegal("TC-TRADE-5", f"you do not hold GP token {a.args[0]}")
    return None


def _gp_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    token = state.content.gp_token(a.args[0])
    p = state.players[seat]
    p.gp_tokens = decks.without(p.gp_tokens, token.id)
    state.gp_supply += (token.id,)
    parts = []
    if token.reward_tau:
        parts.append(f"{gain_tau(state, seat, token.reward_tau)}T")
    if token.reward_energy:
        parts.append(f"{gain_energy(state, seat, token.reward_energy)} energy")
    if token.free_upgrade:
        p.free_upgrades += 1
        parts.append("a free system upgrade")
    say(ev, "gp_token_traded", f"{p.faction} trades {article(token.gp)}GP token for "
        f"{' and '.join(parts) or 'nothing'}.", seat=seat, gp=token.gp, gp_token=token.id,
        private=f"You trade GP token {token.id}.")


# -- Playing a Specialist card ----------------------------------------------------------


def _play_s_options(state: State, seat: int) -> list[Action]:
    """Each Specialist card in hand with the Action-phase icon: legal (registered as the
    verb's ``legal``)."""
    hand = state.players[seat].hand
    if not hand:  # (most turns)
        return []
    return [act("PLAY-S", card) for card in hand
            if _is_specialist(state, card) and "A" in state.content.specialist(card).phases]


def _play_s_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if len(a.args) != 1:
        return illegal("TC-REC-5", "play a Specialist card face up: PLAY-S <card>")
    card = a.args[0]
    if not _is_specialist(state, card):
        return illegal("TC-REC-5", f"{card} is not a Specialist card")
    if card not in state.players[seat].hand:
        return not_an_option("TC-REC-5", f"{card} is not in your hand")
    if "A" not in state.content.specialist(card).phases:
        return illegal("TC-REC-2", f"{card} has no Action phase icon")
    return None


def _play_s_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    card = a.args[0]
    p = state.players[seat]
    p.hand.remove(card)
    p.face_up += (card,)
    spec = state.content.specialist(card)
    say(ev, "specialist_played", f"{p.faction} turns {spec.name} {card} face up"
        f"{': ' + spec.ability.text if spec.ability.text else ''}.", seat=seat, card=card)


# -- Resolving a crisis -----------------------------------------------------------------


def _crisis_planet(state: State, token: str) -> str | None:
    for planet, tokens in state.planet_crises.items():
        if token in tokens:
            return planet
    return None


def _resolve_options(state: State, seat: int) -> list[Action]:
    """Each crisis whose type the player holds a Knowledge token of (every way of resolving
    spends one), with K3 when they hold 3, and each Specialist card that could resolve it:
    one of its type, or an Advanced Specialist (``_resolve_why_not`` checks its ability and
    that it is face up). Most turns the player holds no Knowledge token."""
    p = state.players[seat]
    if not state.planet_crises or not any(p.knowledge.values()):
        return []
    held = {ktype: n for ktype, n in p.knowledge.items() if n > 0}
    cards = [state.content.specialist(c) for c in (*p.hand, *p.face_up) if _is_specialist(state, c)]
    options = []
    for tokens in state.planet_crises.values():
        for token in tokens:
            ctype = state.content.crisis_token(token).crisis_type
            if ctype not in held:
                continue
            if held[ctype] >= 3:
                options.append(act("RESOLVE", token, K3))
            options.extend(act("RESOLVE", token, spec.id) for spec in cards
                           if spec.crisis_type == ctype or spec.advanced)
    return options


def _resolve_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if len(a.args) != 2:
        return illegal("TC-RES-1", "resolve a crisis: RESOLVE <Crisis token> <Specialist card|K3>")
    token, method = a.args
    if _crisis_planet(state, token) is None:
        return illegal("TC-RES-1", f"{token} is not a Crisis token on a planet")
    ctype = state.content.crisis_token(token).crisis_type
    p = state.players[seat]
    if method == K3:
        if _held(state, seat, ctype) < 3:
            return illegal("TC-RES-1", f"resolving with Knowledge alone takes 3 {ctype} Knowledge "
                           f"tokens; you have {_held(state, seat, ctype)}")
        return None
    if not _is_specialist(state, method):
        return illegal("TC-RES-1", f"{method} is not a Specialist card (or K3 for 3 Knowledge tokens)")
    if method not in p.hand and method not in p.face_up:
        return illegal("TC-RES-1", f"you do not have {method}")
    spec = state.content.specialist(method)
    if spec.advanced:
        return _advanced_resolve_why_not(state, seat, method, ctype)
    if spec.crisis_type != ctype:
        return illegal("TC-RES-1", f"{method} is {article(spec.name)} ({spec.crisis_type}); {article(ctype)} "
                       f"crisis needs {article(state.content.crisis_type(ctype).specialist)}")
    if _held(state, seat, ctype) < 1:
        return illegal("TC-RES-1", f"you also need {article(ctype)} Knowledge token")
    return None


def _advanced_resolve_why_not(state: State, seat: int, card: str, ctype: str) -> IllegalAction | None:
    """An Advanced Specialist resolves a crisis only through its ability, and "To utilize an
    Advanced Specialist's abilities, you must turn the card face up"."""
    if state.content.specialist(card).ability.kind != RESOLVE_ANY:
        return illegal("TC-SPEC-2", f"{card} is an Advanced Specialist whose ability does not "
                       "resolve crises")
    if card not in state.players[seat].face_up:
        return illegal("TC-SPEC-3", f"turn {card} face up first (PLAY-S {card}) to use its ability")
    if _held(state, seat, ctype) < 1:
        return illegal("TC-RES-1", f"you also need {article(ctype)} Knowledge token")
    return None


def _keeps_card(state: State, method: str) -> bool:
    """A face-up Advanced Specialist's ability is used without giving up the card ("As long as
    you have a Specialist, you have unlimited use of its abilities")."""
    return method == K3 or state.content.specialist(method).advanced


def _regain_action_marker(state: State, seat: int, planet: str, ev: list[Event]) -> None:
    """Advanced Rule 1: the lost Action marker comes back after 2 crises resolved, or 1 on the
    player's home planet, since it was lost."""
    p = state.players[seat]
    home = state.faction(seat).home_planet
    if p.markers_lost <= 0 or (planet != home and p.crises_resolved_since_loss < 2):
        return
    p.markers_lost -= 1
    p.crises_resolved_since_loss = 0
    say(ev, "marker_regained", f"{p.faction} earns the lost Action marker back.", seat=seat)


def _resolve_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    token, method = a.args
    content = state.content
    crisis = content.crisis_token(token)
    planet = _crisis_planet(state, token)
    assert planet is not None
    p = state.players[seat]
    used = 3 if method == K3 else 1
    p.knowledge = _plus(p.knowledge, crisis.crisis_type, -used)
    state.depot_knowledge = _plus(state.depot_knowledge, crisis.crisis_type, used)
    if not _keeps_card(state, method):
        if method in p.hand:
            p.hand.remove(method)
        else:
            p.face_up = decks.without(p.face_up, method)
        decks.to_bottom(state, "specialist", method)
    left = decks.without(state.planet_crises[planet], token)
    if left:
        state.planet_crises[planet] = left
    else:
        del state.planet_crises[planet]
    state.crisis_stacks[crisis.crisis_type] += (token,)
    how = plural(used, f"{crisis.crisis_type} Knowledge token") + (
        "" if method == K3 else f" and {content.specialist(method).name} {method}")
    say(ev, "crisis_resolved", f"{p.faction} resolves the {crisis.crisis_type} crisis on "
        f"{content.tile(planet).name} with {how}.", seat=seat, token=token, planet=planet,
        method=method)
    if state.market[crisis.resource] > 1:
        state.market = state.market.set(crisis.resource, state.market[crisis.resource] - 1)
        say(ev, "market", f"{crisis.resource} goes down to Market level "
            f"{state.market[crisis.resource]}.", resource=crisis.resource,
            level=state.market[crisis.resource])
    else:
        say(ev, "market", f"{crisis.resource} is already at the lowest Market level.",
            resource=crisis.resource)
    p.crises_resolved_since_loss += 1
    if state.config.has(1):
        _regain_action_marker(state, seat, planet, ev)
    gp_tokens.award(state, seat, state.content.numbers.resolve_gp, ev)


def _resolve_domain(c: Content) -> Iterator[Action]:
    for token in c.crisis_tokens:
        yield act("RESOLVE", token.id, K3)
        for spec in c.specialists:
            if spec.crisis_type == token.crisis_type or spec.ability.kind == RESOLVE_ANY:
                yield act("RESOLVE", token.id, spec.id)


# -- Assisting --------------------------------------------------------------------------


def _needs_assist(state: State, seat: int, planet: str) -> bool:
    """Is ``planet`` another planet with a crisis affecting this player's specialization?"""
    f = state.faction(seat)
    return planet != f.home_planet and any(
        state.content.crisis_token(t).resource == f.specialization
        for t in state.planet_crises.get(planet, []))


def _load_options(state: State, seat: int) -> tuple[Action, ...]:
    """ASSIST-LOAD when it is legal (registered as the verb's ``legal``). Most turns the
    player is elsewhere than on the home planet, has no Resource cube there or one in the
    cargo hold already: those are looked at first, without building ``_load_why_not``'s
    refusal."""
    p = state.players[seat]
    if p.cargo_cube or not state.cubes:
        return ()
    home = state.faction(seat).home_planet
    if p.position != home or p.faction not in state.cubes.get(home, ()):
        return ()
    return (ASSIST_LOAD,) if _load_why_not(state, seat, ASSIST_LOAD) is None else ()


def _load_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if a.args:
        return illegal("TC-ASSIST-1", "ASSIST-LOAD takes no arguments")
    p = state.players[seat]
    f = state.faction(seat)
    home = state.content.tile(f.home_planet).name
    if not any(_needs_assist(state, seat, planet) for planet in state.planet_crises):
        return illegal("TC-ASSIST-1", f"no other planet has a crisis affecting {f.specialization}")
    if p.position != f.home_planet:
        return illegal("TC-ASSIST-1", f"pick up the Resource cube while on {home}")
    if p.faction not in state.cubes.get(f.home_planet, []):
        return illegal("TC-ASSIST-1", f"you have no Resource cube on {home}")
    if p.cargo_cube:
        return illegal("TC-ASSIST-1", "your cargo hold already carries a Resource cube")
    if ship.effective(state, seat, "cargo") < 1:
        return illegal("TC-ASSIST-1", "your cargo hold is destroyed")
    return None


def _load_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    p = state.players[seat]
    home = state.faction(seat).home_planet
    state.cubes[home].remove(p.faction)
    p.cargo_cube = True
    say(ev, "assist_load", f"{p.faction} loads a Resource cube from "
        f"{state.content.tile(home).name} into the cargo hold.", seat=seat)


def _drop_options(state: State, seat: int) -> tuple[Action, ...]:
    """ASSIST-DROP when it is legal (registered as the verb's ``legal``). Most turns the
    cargo hold is empty: that is looked at first, without building ``_drop_why_not``'s
    refusal."""
    if not state.players[seat].cargo_cube:
        return ()
    return (ASSIST_DROP,) if _drop_why_not(state, seat, ASSIST_DROP) is None else ()


def _drop_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if a.args:
        return illegal("TC-ASSIST-1", "ASSIST-DROP takes no arguments")
    p = state.players[seat]
    if not p.cargo_cube:
        return illegal("TC-ASSIST-1", "your cargo hold carries no Resource cube")
    if not _needs_assist(state, seat, p.position):
        return illegal("TC-ASSIST-1", f"drop the cube on another planet in a crisis affecting "
                       f"{state.faction(seat).specialization}")
    return None


def _drop_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    p = state.players[seat]
    planet = p.position
    p.cargo_cube = False
    state.cubes.setdefault(planet, []).append(p.faction)
    say(ev, "assist_drop", f"{p.faction} assists {state.content.tile(planet).name}: its Resource "
        "cube stays there for the rest of the game.", seat=seat, planet=planet)
    if p.diplomacy:
        say(ev, "diplomacy", f"{p.faction} already has a Diplomacy card.", seat=seat)
    elif state.diplomacy_left <= 0:
        say(ev, "diplomacy", "No Diplomacy card is left.", seat=seat)
    else:
        state.diplomacy_left -= 1
        p.diplomacy = True
        say(ev, "diplomacy", f"{p.faction} earns a Diplomacy card.", seat=seat)


# -- registration -----------------------------------------------------------------------


def _gp_options(state: State, seat: int) -> list[Action]:
    """Each GP token the player holds: legal (registered as the verb's ``legal``)."""
    tokens = state.players[seat].gp_tokens
    return [act("GP-TOKEN", g) for g in tokens] if tokens else []


# Options registered as ``legal=`` are legal by construction (their docstrings say why);
# tests/test_clone.py checks that they agree with ``why_not``.
verb("TRADE-S", major=None, options=_trade_s_options, why_not=_trade_s_why_not,
     perform=_trade_s_perform, legal=_trade_s_options,
     domain=lambda c: (act("TRADE-S", x, y) for x, y in combinations(sorted(s.id for s in c.specialists), 2)))
verb("TRADE-K", major=None, options=_trade_k_options, why_not=_trade_k_why_not,
     perform=_trade_k_perform, domain=_trade_k_domain, legal=_trade_k_options)
verb("SELL-K", major=None, options=_sell_k_options, why_not=_sell_k_why_not, perform=_sell_k_perform,
     domain=lambda c: (act("SELL-K", t) for t in c.knowledge_types), legal=_sell_k_options)
verb("CUBE-MAT", major=None, options=_cube_mat_options, why_not=_cube_mat_why_not,
     perform=_cube_mat_perform, domain=lambda c: (CUBE_MAT,), legal=_cube_mat_options)
verb("GP-TOKEN", major=None, options=_gp_options, why_not=_gp_why_not, perform=_gp_perform,
     domain=lambda c: (act("GP-TOKEN", g.id) for g in c.gp_tokens), legal=_gp_options)
verb("PLAY-S", major=None, options=_play_s_options, why_not=_play_s_why_not, perform=_play_s_perform,
     domain=lambda c: (act("PLAY-S", s.id) for s in c.specialists if "A" in s.phases),
     legal=_play_s_options)
verb("RESOLVE", major=None, options=_resolve_options, why_not=_resolve_why_not,
     perform=_resolve_perform, domain=_resolve_domain)
verb("ASSIST-LOAD", major=None, options=_load_options, why_not=_load_why_not,
     perform=_load_perform, domain=lambda c: (ASSIST_LOAD,), legal=_load_options)
verb("ASSIST-DROP", major=None, options=_drop_options, why_not=_drop_why_not,
     perform=_drop_perform, domain=lambda c: (ASSIST_DROP,), legal=_drop_options)

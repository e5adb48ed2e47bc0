"""Rounds and phases: setup tile placement, then Enlightenment, Action and Battle phases.

:func:`advance` runs every automatic step (draws, reveals, end-of-round die
rolls) until some player has a decision to make or the game is over. The
player's turn in the Action phase is the ``turn`` decision: Minor actions
before or after one Major action, then ``END`` (or ``PASS`` instead of a Major
action, for 1T per unused Action marker).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ecliptic.engine.actions import Action, act
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.rules import advance_until_decision
from ecliptic.engine.wording import plural
from ecliptic.tauceti import battle, board, enlightenment, scoring
from ecliptic.tauceti.actions import missions
from ecliptic.tauceti.content import Content
from ecliptic.tauceti.registry import (
    MAJOR_VERBS,
    MINOR_VERBS,
    VERBS,
    Verb,
    VerbOptions,
    decision_kind,
    illegal,
    say,
    verb,
    when_legal,
)
from ecliptic.tauceti.setup import placement_cells
from ecliptic.tauceti.state import Decision, State
from ecliptic.tauceti.tracks import gain_energy, gain_tau, markers_left

MAJOR_NAMES = {"BUI": "Build", "EXP": "Explore", "REC": "Recruit", "IM": "Interplanetary Mission", "REP": "Repair",
               "MOV": "Move", "ENG": "Reverse Engineer", "UPG": "Upgrade", "REF": "Refuel", "SB": "Sell/Buy"}
"""The Major actions by the rulebook's names, for the log (its abbreviations alone read as codes)."""


def finished(state: State, seat: int) -> bool:
    return state.players[seat].passed or markers_left(state, seat) <= 0


# -- the phase machine ---------------------------------------------------------


def _setup_step(state: State, ev: list[Event]) -> None:
    if state.large_tile_stack:
        state.stack.append(Decision("place_tile", state.setup_seat))
    else:
        _start_round(state, ev)


def _enlightenment_step(state: State, ev: list[Event]) -> None:
    if not enlightenment.step(state, ev):
        _start_action_phase(state, ev)


def _battle_step(state: State, ev: list[Event]) -> None:
    if not battle.next_battle(state, ev):
        _end_round(state, ev)


def advance(state: State, ev: list[Event]) -> None:
    """Run automatic steps until a decision is pending or the game is over."""
    advance_until_decision(state, ev, _STEPS)


def _start_round(state: State, ev: list[Event]) -> None:
    state.round += 1
    for p in state.players:
        p.markers_used = 0
        p.passed = False
        p.offers_made = ()
        p.battle_sector = None
        p.battle_defender = None
    first = state.players[state.first_player]
    say(ev, "round", f"Round {state.round} begins; {first.faction} is the first player.",
        round=state.round, first_player=state.first_player)
    if state.round == 1:
        _start_action_phase(state, ev)
    else:
        state.phase = "enlightenment"
        enlightenment.begin(state, ev)


def _start_action_phase(state: State, ev: list[Event]) -> None:
    state.phase = "action"
    state.turn_seat = state.first_player
    state.stack.append(Decision("turn", state.first_player, {"major_done": False}))
    state.turn_count += 1
    say(ev, "phase", "Action phase.", phase="action")
    if finished(state, state.first_player):
        state.stack.pop()
        _next_turn(state, ev)


def _next_turn(state: State, ev: list[Event]) -> None:
    n = len(state.players)
    for i in range(1, n + 1):
        seat = (state.turn_seat + i) % n
        if not finished(state, seat):
            state.turn_seat = seat
            state.turn_count += 1
            state.stack.append(Decision("turn", seat, {"major_done": False}))
            return
    state.phase = "battle"
    say(ev, "phase", "Battle phase.", phase="battle")
    state.battles = tuple(sorted(
        (p.battle_sector for p in state.players if p.battle_sector is not None),
        key=lambda t: state.content.tile(t).number,
        reverse=True,
    ))


def _end_round(state: State, ev: list[Event]) -> None:
    n = state.content.numbers
    last = False
    if state.config.game == "short":
        last = state.round >= n.short_game_rounds
    elif state.round >= n.longest_game_rounds:
        last = True
    elif state.round >= n.full_game_rounds:
        need = n.continue_on[state.round - n.full_game_rounds]
        die = state.rng.d6()
        last = die < need
        say(ev, "round_roll", f"End of round {state.round}: the die shows {die} "
            f"({'the game ends' if last else 'one more round'}; {need}+ continues).",
            die=die, need=need)
    if last:
        scoring.finish(state, ev)
        return
    state.first_player = (state.first_player + 1) % len(state.players)
    _start_round(state, ev)


_STEPS = {
    "setup": _setup_step,
    "enlightenment": _enlightenment_step,
    "action": _next_turn,
    "battle": _battle_step,
}


# -- setup: placing the large hex tiles -----------------------------------------


def _place_domain(c: Content) -> Iterator[Action]:
    return (act("PLACE", board.cell_name(cell)) for cell in board.cells_within(board.LARGE_RADIUS))


def _place_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    cell = board.parse_cell(a.args[0]) if a.verb == "PLACE" and len(a.args) == 1 else None
    if cell is None:
        return illegal("TC-SETUP-2", "place the tile with PLACE q,r")
    taken = board.occupied(state)
    if (cell in taken or board.distance_from_centre(cell) > board.LARGE_RADIUS
            or not any(n in taken for n in board.neighbour_cells(cell))):
        return illegal("TC-SETUP-2", f"{a.args[0]} is not a free position connected to a placed tile")
    return None


def _place_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    cell = board.parse_cell(a.args[0])
    assert cell is not None
    tile, state.large_tile_stack = state.large_tile_stack[0], state.large_tile_stack[1:]
    state.layout = state.layout.set(tile, cell)
    state.stack.pop()
    state.setup_seat = (state.setup_seat + 1) % len(state.players)
    say(ev, "tile_placed", f"{state.players[d.player].faction} places "
        f"{state.content.tile(tile).name} at {a.args[0]}.", tile=tile, cell=a.args[0])


_PLACE_AT = {cell: act("PLACE", board.cell_name(cell)) for cell in board.cells_within(board.LARGE_RADIUS)}
"""The PLACE action of every position a large tile may take (written once: they never change)."""


def _place_options(state: State, d: Decision) -> list[Action]:
    return [_PLACE_AT[c] for c in placement_cells(state)]


decision_kind(
    "place_tile",
    options=_place_options,
    why_not=_place_why_not,
    perform=_place_perform,
    domain=_place_domain,
    # The options are exactly the legal placements, and why_not checks exactly that an action
    # is one of them: neither needs the other to be computed again.
    legal=_place_options,
    offers="why_not",
    unique=True,  # (each free position once)
)


# -- the turn --------------------------------------------------------------------

PASS = act("PASS")
END = act("END")


def _verb_closed(state: State, d: Decision, v: Verb) -> IllegalAction | None:
    """Why the player cannot use verb ``v`` at all now (``None`` if they can): a Major action
    needs this turn's Major action still to take, an Action marker left, no delivery under way
    (unless it is one of ``missions.ERRAND_MAJORS``) and its energy."""
    if v.major is None:
        return None
    if d.data["major_done"]:
        return illegal("TC-ACT-3", "one Major action per turn")
    if markers_left(state, d.player) <= 0:
        return illegal("TC-ACT-3", "you have no Action marker left")
    if v.verb not in missions.ERRAND_MAJORS:
        bound = missions.errand_route(state, d.player)  # (errand's card first, one call less)
        if bound is not None:
            return illegal("TC-IM-4", f"go directly on the minimum route and make the delivery of IM "
                           f"{bound[0]} before pursuing any other actions: until then your Major actions "
                           "are MOV, REF and REP (or PASS)")
    cost = state.faction(d.player).action_costs[v.major]
    energy = state.players[d.player].energy
    if energy < cost:
        return illegal("TC-ACT-5", f"{v.major} costs {cost} energy; you have {energy}")
    return None


def _open_verbs(state: State, d: Decision) -> list[Verb]:
    """The verbs ``_verb_closed`` lets through, worked out once per turn (without building a
    refusal for every closed verb). Not to be changed by the caller."""
    return _open(state, d)[1]


def _open(state: State, d: Decision) -> tuple[object, list[Verb], tuple[VerbOptions, ...]]:
    """:func:`_open_verbs`, and their ``legal`` functions (what the turn's legal actions call)."""
    if d.data["major_done"] or markers_left(state, d.player) <= 0:
        key: tuple[int, int, bool, int] = (0, -1, False, len(VERBS))
        costs: dict[str, int] | None = None
    else:
        costs = state.faction(d.player).action_costs
        key = (id(costs), state.players[d.player].energy, missions.errand_route(state, d.player) is not None,
               len(VERBS))
    found = _OPEN.get(key)
    if found is None or found[0] is not costs:
        _, energy, bound, _ = key
        verbs = MINOR_VERBS if costs is None else MINOR_VERBS + [
            v for v in MAJOR_VERBS if v.major is not None and costs[v.major] <= energy
            and not (bound and v.verb not in missions.ERRAND_MAJORS)]
        found = _OPEN[key] = (costs, verbs, tuple(v.legal for v in verbs))
    return found


_OPEN: dict[tuple[int, int, bool, int], tuple[object, list[Verb], tuple[VerbOptions, ...]]] = {}
"""The open verbs (and their ``legal``) for each faction's action costs (kept with them, so
that the id stays theirs), energy and errand, or once the Major action is out of reach: they
follow from those alone, and every turn decision asks."""


def _closing(d: Decision) -> Action:
    """END after the Major action, PASS instead of one."""
    return END if d.data["major_done"] else PASS


def _turn_options(state: State, d: Decision) -> Iterator[Action]:
    for v in _open_verbs(state, d):
        yield from v.options(state, d.player)
    yield _closing(d)


def _turn_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    major_done = d.data["major_done"]
    if a == PASS:
        return illegal("TC-ACT-3", "you already took a Major action; END your turn") if major_done else None
    if a == END:
        return None if major_done else illegal("TC-ACT-3", "take a Major action or PASS")
    v = VERBS.get(a.verb)
    if v is None:
        return illegal("TC-ACT-3", f"{a.verb} is not an action you can take on your turn")
    closed = _verb_closed(state, d, v)
    return closed if closed is not None else v.why_not(state, d.player, a)


def _turn_legal(state: State, d: Decision) -> list[Action]:
    """The options that pass ``_turn_why_not``, verb by verb: each verb is opened (marker,
    energy) once, then gives its own legal actions (its options that its ``why_not`` lets
    through, or its options alone when they are legal by construction)."""
    seat = d.player
    legal = [END if d.data["major_done"] else PASS]  # (_closing)
    for verb_legal in _open(state, d)[2]:
        found = verb_legal(state, seat)
        if found:  # (most verbs answer with an empty tuple or list most turns)
            legal.extend(found)
    return legal


def _turn_offers(state: State, d: Decision, a: Action) -> bool:
    """Is ``a`` among the turn's options? Only its own verb's options need looking at."""
    if a in (PASS, END):
        return a == _closing(d)
    v = VERBS.get(a.verb)
    return v is not None and _verb_closed(state, d, v) is None and a in v.options(state, d.player)


def _turn_accepts(state: State, d: Decision, a: Action) -> bool:
    """A quick yes for ``apply`` (see ``DecisionKind.accepts``): the closing action, or an
    action of an open verb among its options, which for a verb whose options are legal by
    construction is all there is to ask (``why_not`` and ``offers`` ask for the verb's
    Action marker, energy and options twice, and its ``why_not`` again)."""
    if a == (END if d.data["major_done"] else PASS):  # (_closing)
        return True
    v = VERBS.get(a.verb)
    if v is None or _verb_closed(state, d, v) is not None:
        return False
    seat = d.player
    if not v.offered_is_legal and v.why_not(state, seat, a) is not None:
        return False
    return a in v.options(state, seat)


def _turn_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    p = state.players[d.player]
    if a.verb in ("PASS", "END"):
        state.stack.pop()
        if a.verb == "PASS":
            unused = markers_left(state, d.player)
            gain = unused * state.content.numbers.pass_tau
            p.passed = True
            gain_tau(state, d.player, gain)
            say(ev, "pass", f"{p.faction} passes and earns {gain}T for "
                f"{plural(unused, 'unused Action marker')}.", seat=d.player, tau=gain)
        else:
            say(ev, "end_turn", f"{p.faction} ends their turn.", seat=d.player)
        return
    v = VERBS[a.verb]
    if v.major is not None:
        cost = state.faction(d.player).action_costs[v.major]
        p.energy -= cost
        p.markers_used += 1
        d.data["major_done"] = True
        say(ev, "major", f"{p.faction} takes the {MAJOR_NAMES.get(v.major, v.major)} action ({v.major}, "
            f"{cost} energy).", seat=d.player,
            action=v.major, energy=cost)
    v.perform(state, d.player, a, ev)


def _turn_domain(c: Content) -> Iterable[Action]:
    yield PASS
    yield END
    for v in VERBS.values():
        yield from v.domain(c)


decision_kind(
    "turn",
    options=_turn_options,
    why_not=_turn_why_not,
    perform=_turn_perform,
    domain=_turn_domain,
    legal=_turn_legal,
    offers=_turn_offers,
    accepts=_turn_accepts,
    unique=True,  # (the closing action, then each open verb's legal actions, each listed once)
)


# -- Refuel (REF): always free, +2 energy -------------------------------------------


def _ref_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    got = gain_energy(state, seat, state.content.numbers.refuel_energy)
    say(ev, "refuel", f"{state.players[seat].faction} refuels: +{got} energy.", seat=seat, energy=got)


def _ref_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    return None if not a.args else illegal("TC-REF-1", "REF takes no arguments")


_ref_options = when_legal(act("REF"), _ref_why_not)
verb(
    "REF",
    major="REF",
    options=_ref_options,
    why_not=_ref_why_not,
    perform=_ref_perform,
    domain=lambda c: (act("REF"),),
    legal=_ref_options,
)

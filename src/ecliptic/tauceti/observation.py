"""What a player may see, and sampling what they may not.

:func:`observe` is the only door from the engine to a client or a fair bot:
it copies the public parts of the state plus the observer's own secrets
(their hand, the cards they played face down, the cards they are choosing
from) and what they are being shown (the loser's hand to a battle's winner,
:func:`hands_seen`; the Large tile they place, :func:`shown_large_tile`).
``player=None`` is a spectator, who sees only public information.

:func:`determinize` re-deals everything the observer cannot see (other hands,
deck orders, face-down Knowledge tokens, the Crisis token stacks, the GP tokens'
backs, the tile stacks) consistently with what they have seen, and gives the copy
a fresh random generator so it cannot foretell future dice. It asks the same two
functions what is shown, so ``observe(determinize(s, p, rng), p) == observe(s, p)``.
ISMCTS-style bots search such copies.

:func:`reseed` re-draws only the future: what is dealt stays (hands, the face-down
Exploration tokens, the cards on the table), the undrawn piles are re-shuffled and the dice
generator replaced, so a search on the copy (OpenSpiel's MCTS clones) cannot foretell a
roll or a draw; every seat observes the copy as it observes the state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ecliptic.engine.codec import encode
from ecliptic.engine.frozendict import FrozenDict
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import observation_header, seat_of
from ecliptic.tauceti import ship
from ecliptic.tauceti.checks import dice_by_skill
from ecliptic.tauceti.decks import DeckName, piles, set_piles, shuffled
from ecliptic.tauceti.state import State
from ecliptic.tauceti.tracks import markers_left, recruit_cost

# Decision data that only the deciding player may see (the cards they are choosing from).
PRIVATE_DECISION_KEYS = frozenset({"cards", "drawn", "hand"})


# -- what a seat has been shown: observe shows it, determinize keeps it ---------------------


def hands_seen(state: State, observer: int | None) -> frozenset[int]:
    """The seats whose hand ``observer`` sees: their own, and the loser's while the winner of
    a battle is still to choose what to steal ("look at the loser's hand", TC-BAT-19; the
    ``loser_hand`` event showed it). The loser's hand does not change until the steal."""
    if observer is None:
        return frozenset()
    b = state.battle
    if b is not None and b.winner == observer and any(
            d.kind == "battle_steal" and d.player == observer for d in state.stack):
        return frozenset({observer, b.defender if observer == b.initiator else b.initiator})
    return frozenset({observer})


def shown_large_tile(state: State, observer: int | None) -> str | None:
    """The top tile of the Large tile stack, which the player placing it sees (``layout =
    players``); nobody else sees any tile of the stack."""
    if state.large_tile_stack and state.stack and observer is not None:
        d = state.stack[-1]
        if d.kind == "place_tile" and d.player == observer:
            return state.large_tile_stack[0]
    return None


def player_view(state: State, seat: int, observer: int | None, seen: frozenset[int]) -> dict[str, Any]:
    """What ``observer`` sees of ``seat``'s Interface (the observation's ``players[seat]``):
    its seat and character, then its three parts (:func:`player_tracks`,
    :func:`player_systems`, :func:`player_interface`), which the observation tensor reads one
    by one."""
    return {"seat": seat, "character": state.content.faction(state.players[seat].faction).character,
            **player_tracks(state, seat, seen), **player_systems(state, seat),
            **player_interface(state, seat, observer, seen)}


def player_tracks(state: State, seat: int, seen: frozenset[int]) -> dict[str, Any]:
    """The part of :func:`player_view` that changes every few steps: the tracks, Knowledge
    tokens, counts and flags (``hand`` where the view shows it)."""
    p = state.players[seat]
    gp_of = state.content.gp_token
    view: dict[str, Any] = {
        "faction": p.faction, "tau": p.tau, "energy": p.energy, "materials": p.materials, "position": p.position,
        "knowledge": dict(p.knowledge), "orbitals_home": p.orbitals_home, "gp_tokens": len(p.gp_tokens),
        "gp_token_points": sum(gp_of(g).gp for g in p.gp_tokens), "cargo_cube": p.cargo_cube,
        "diplomacy": p.diplomacy, "free_upgrades": p.free_upgrades, "markers_used": p.markers_used,
        "markers_lost": p.markers_lost,
        # Read off the engine, so no front end counts them itself.
        "markers_left": markers_left(state, seat), "recruit_cost": recruit_cost(state, seat),
        "passed": p.passed, "hand_size": len(p.hand),
        "exotic_spent": p.exotic_spent, "exotic_reroll_round": p.exotic_reroll_round,
    }
    if seat in seen:
        view["hand"] = list(p.hand)
    return view


def player_systems(state: State, seat: int) -> dict[str, Any]:
    """The part of :func:`player_view` that changes a few times a game: each system's power,
    damage, virus and upgrade, and the dice a check of each skill rolls (the skill set plus
    face-up Specialist bonuses)."""
    return {"systems": ship.systems_view(state, seat), "skills": dice_by_skill(state, seat)}


def player_interface(state: State, seat: int, observer: int | None, seen: frozenset[int]) -> dict[str, Any]:
    """The rest of :func:`player_view`: the Commodity tokens held, the missions, the Claim token,
    the battle declared, the cards face up, the Exotic Tech, and the hand and GP token ids
    where the view shows them."""
    p = state.players[seat]
    view: dict[str, Any] = {
        # Holding and ActiveMission are frozen records of plain values, so their field dict
        # is what codec.encode would build, at a tenth of the cost (observe runs every step).
        "holdings": [dict(vars(h)) for h in p.holdings],
        "missions": [dict(vars(m)) for m in p.missions],
        "claim": p.claim, "battle_sector": p.battle_sector, "battle_defender": p.battle_defender,
        "face_up": list(p.face_up), "exotic_tech": p.exotic_tech,
    }
    if seat in seen:
        view["hand"] = list(p.hand)
    if observer == seat:
        view["gp_token_ids"] = list(p.gp_tokens)
    return view


def observe(state: State, player: int | None) -> dict[str, Any]:
    """Everything ``player`` may see, as JSON-ready data (``None``: a spectator)."""
    player = seat_of(state, player, spectator=True)
    seen = hands_seen(state, player)
    view = observation_header("tauceti", state, player, PRIVATE_DECISION_KEYS)
    view.update(public_view(state, player))
    view["players"] = [player_view(state, s, player, seen) for s in range(len(state.players))]
    view.update(end_view(state))
    return view


def public_view(state: State, player: int | None) -> dict[str, Any]:
    """What ``player`` sees of the table outside the header and the players' Interfaces: the
    map, the TCX, the supplies and decks, the Enlightenment phase and the battle (the parts of
    :func:`shared_view`, :func:`points_view` and :func:`seat_view` in the observation's order)."""
    shared = shared_view(state)
    counts = counts_view(state)
    seat = seat_view(state, player)
    return {
        "layout": shared["layout"],
        "points": points_view(state),
        "cubes": shared["cubes"],
        "orbitals": seat["orbitals"],
        "planet_commodity": shared["planet_commodity"],
        "planet_crises": shared["planet_crises"],
        "market": shared["market"],
        "crisis_stacks": shared["crisis_stacks"],
        "depot_knowledge": shared["depot_knowledge"],
        "depot_systems": shared["depot_systems"],
        "supply": shared["supply"],
        "demand_pile": counts["demand_pile"],
        "bag": shared["bag"],
        "decks": counts["decks"],
        "discards": shared["discards"],
        "next_large_tile": seat["next_large_tile"],
        "diplomacy_left": counts["diplomacy_left"],
        "gp_supply": counts["gp_supply"],
        "damage_supply": counts["damage_supply"],
        "virus_on": shared["virus_on"],
        "enlightenment": seat["enlightenment"],
        "battles": shared["battles"],
        "battle": seat["battle"],
    }


def shared_view(state: State) -> dict[str, Any]:
    """The part of :func:`public_view` every seat sees alike, which changes a few times a
    round: its parts :func:`layout_view`, :func:`cubes_view`, :func:`planets_view`,
    :func:`tcx_view`, :func:`supply_view` and :func:`discards_view`."""
    return {**layout_view(state), **cubes_view(state), **planets_view(state), **tcx_view(state),
            **supply_view(state), **discards_view(state)}


def layout_view(state: State) -> dict[str, Any]:
    """The tiles on the map and where they lie."""
    return {"layout": {t: list(c) for t, c in state.layout.items()}}


def cubes_view(state: State) -> dict[str, Any]:
    """The Resource cubes on the tiles."""
    return {"cubes": {t: list(c) for t, c in state.cubes.items() if c}}


def planets_view(state: State) -> dict[str, Any]:
    """What lies on the planets: their Commodity, Crisis tokens and virus crystals, and the
    sectors with a battle to fight."""
    content = state.content
    return {
        "planet_commodity": {
            planet: content.commodity_token(tok).commodity
            for planet, tok in state.planet_commodity.items()
        },
        "planet_crises": {
            planet: [{"id": t, "crisis_type": content.crisis_token(t).crisis_type,
                      "resource": content.crisis_token(t).resource} for t in toks]
            for planet, toks in state.planet_crises.items() if toks
        },
        "virus_on": dict(state.virus_on),
        "battles": list(state.battles),
    }


def tcx_view(state: State) -> dict[str, Any]:
    """The TCX: the Market levels, the Crisis token stacks (their sizes) and the Galactic Depot."""
    return {
        "market": dict(state.market),
        "crisis_stacks": {k: len(v) for k, v in state.crisis_stacks.items()},
        "depot_knowledge": dict(state.depot_knowledge),
        "depot_systems": list(state.depot_systems),
    }


def supply_view(state: State) -> dict[str, Any]:
    """The Commodity supply and the cubes in the Enlightenment bag (a count per colour, not the
    order of the draws)."""
    commodity = state.content.commodity_token
    bag: dict[str, int] = {}
    for colour in state.bag:
        bag[colour] = bag.get(colour, 0) + 1
    return {"supply": sorted(commodity(t).commodity for t in state.supply), "bag": bag}


def discards_view(state: State) -> dict[str, Any]:
    """The discard piles, face up."""
    return {
        "discards": {
            "crisis": list(state.crisis_discard),
            "specialist": list(state.specialist_discard),
            "knowledge": list(state.knowledge_discard),
            "mission": list(state.mission_discard),
        },
    }


def counts_view(state: State) -> dict[str, Any]:
    """The counts of :func:`public_view` that change every few steps: the cards and tiles left
    in each deck, the Demand pile, the Diplomacy cards, GP tokens and Damage markers left."""
    return {
        "demand_pile": len(state.demand_pile),
        "decks": {
            "crisis": len(state.crisis_deck),
            "specialist": len(state.specialist_deck),
            "knowledge": len(state.knowledge_deck),
            "mission": len(state.mission_deck),
            "exotic": len(state.exotic_deck),
            "outer_limit": len(state.outer_limit_stack),
            "large_tiles": len(state.large_tile_stack),
        },
        "diplomacy_left": state.diplomacy_left,
        "gp_supply": len(state.gp_supply),
        "damage_supply": state.damage_supply,
    }


def points_view(state: State) -> dict[str, dict[str, Any]]:
    """The Exploration points of the tiles on the map: a face-down Knowledge token is
    ``"hidden"``, who claimed and explored each point."""
    layout = state.layout
    return {
        pid: {
            "sector": pt.sector,
            "token": pt.token if pt.face_up else ("hidden" if pt.token else None),
            "claimed_by": pt.claimed_by,
            "explored_by": pt.explored_by,
        }
        for pid, pt in state.points.items()
        if pt.sector in layout
    }


def seat_view(state: State, player: int | None) -> dict[str, Any]:
    """The rest of :func:`public_view`: what only ``player`` is shown (the Large tile they
    place, the cards they played face down), the orbitals, the Enlightenment phase and the
    battle."""
    e = state.enlightenment
    return {
        "orbitals": {t: list(o) for t, o in state.orbitals.items() if o},
        "next_large_tile": shown_large_tile(state, player),
        "enlightenment": {
            "affected": e.affected,
            "active_deck": len(e.active),
            "played": dict(e.played),
            "mine": list(e.cards_by.get(str(player), [])) if player is not None else [],
        },
        "battle": encode(state.battle) if state.battle else None,
    }


def end_view(state: State) -> dict[str, Any]:
    """The final scores and the winners (empty until the game is over)."""
    return {"final_scores": [dict(x) for x in state.final_scores], "winners": list(state.winners)}


def determinize(state: State, player: int, rng: Rng) -> State:
    """A copy of ``state`` with everything ``player`` cannot see re-dealt at random.

    Every hidden pool is sorted before it is shuffled, so the copy depends only on what
    ``player`` sees and on ``rng``, never on the true hidden order: a bot that searches
    determinized copies cannot learn a secret from them."""
    seat = seat_of(state, player, spectator=False)
    assert seat is not None
    player = seat
    s = state.clone()
    _redeal_cards(s, player, rng)
    s.exotic_deck = shuffled(rng, sorted(s.exotic_deck))
    s.outer_limit_stack = shuffled(rng, sorted(s.outer_limit_stack))
    shown = shown_large_tile(s, player)
    unseen = s.large_tile_stack[1:] if shown is not None else s.large_tile_stack
    s.large_tile_stack = (*((shown,) if shown is not None else ()), *shuffled(rng, sorted(unseen)))
    s.demand_pile = shuffled(rng, sorted(s.demand_pile))
    s.crisis_stacks = {k: shuffled(rng, sorted(stack)) for k, stack in s.crisis_stacks.items()}
    hidden_points = [pt for pt in s.points.values() if pt.token is not None and not pt.face_up]
    tokens = sorted([pt.token for pt in hidden_points if pt.token is not None] + list(s.outer_limit_knowledge))
    rng.shuffle(tokens)
    s.points = FrozenDict({**s.points, **{pt.id: replace(pt, token=tokens.pop()) for pt in hidden_points}})
    s.outer_limit_knowledge = tuple(tokens)
    _redeal_gp_tokens(s, player, rng)
    s.rng = Rng.from_seed(rng.next_u64())
    return s


def _redeal_cards(s: State, player: int, rng: Rng) -> None:
    """Other hands, the decks, the face-down Active deck and the cards another player is
    choosing from share one pool per card type; every place keeps its count of each type."""
    mine = set(s.enlightenment.cards_by.get(str(player), []))
    seen = hands_seen(s, player)
    choosing = [d.data["cards"] for d in s.stack
                if d.player != player and isinstance(d.data.get("cards"), list)]
    names: tuple[tuple[str, DeckName], ...] = (("C", "crisis"), ("S", "specialist"), ("M", "mission"),
                                                ("K", "knowledge"))
    active = list(s.enlightenment.active)
    for prefix, name in names:
        deck_now, discarded = piles(s, name)
        deck = list(deck_now)
        slots: list[tuple[list[str], int]] = []
        for p in s.players:
            if p.seat not in seen:
                slots += [(p.hand, i) for i, c in enumerate(p.hand) if c.startswith(prefix)]
        slots += [(active, i) for i, c in enumerate(active) if c.startswith(prefix) and c not in mine]
        for cards in choosing:
            slots += [(cards, i) for i, c in enumerate(cards) if isinstance(c, str) and c.startswith(prefix)]
        slots += [(deck, i) for i in range(len(deck))]
        pool = sorted(place[i] for place, i in slots)
        rng.shuffle(pool)
        for (place, i), card in zip(slots, pool, strict=True):
            place[i] = card
        set_piles(s, name, tuple(deck), discarded)
    s.enlightenment.active = tuple(active)


def _redeal_gp_tokens(s: State, player: int, rng: Rng) -> None:
    """GP tokens show their GP value; the reward on the back is known only to the holder."""
    content = s.content
    others = [p for p in s.players if p.seat != player]
    places = [list(s.gp_supply)] + [list(p.gp_tokens) for p in others]
    by_value: dict[int, list[tuple[list[str], int]]] = {}
    for place in places:
        for i, tok in enumerate(place):
            by_value.setdefault(content.gp_token(tok).gp, []).append((place, i))
    for slots in by_value.values():
        tokens = sorted(place[i] for place, i in slots)
        rng.shuffle(tokens)
        for (place, i), tok in zip(slots, tokens, strict=True):
            place[i] = tok
    s.gp_supply = tuple(places[0])
    for p, place in zip(others, places[1:], strict=True):
        p.gp_tokens = tuple(place)


def reseed(state: State, rng: Rng) -> State:
    """A copy of ``state`` whose future chance depends only on ``rng``.

    Kept: the past and everything dealt (hands, the face-down Exploration tokens, the
    Active deck, GP tokens held, the tile a placing player is shown). Re-drawn: the order of
    every undrawn pile (the four decks, the Exotic Tech deck, the Outer Limit stack and its
    Knowledge tokens, the rest of the Large tile stack, the Demand pile, the Crisis token
    stacks, the GP token supply, the bag) and the dice generator. Each pile is sorted before
    it is shuffled, so two states that differ only in the order of undrawn piles give equal
    copies for equal ``rng``: a reseed cannot reveal the true order. Scripted dice and
    choices are dropped (a script is a test's knowledge of the future)."""
    s = state.clone()
    names: tuple[DeckName, ...] = ("crisis", "specialist", "knowledge", "mission")
    for name in names:
        deck, discarded = piles(s, name)
        set_piles(s, name, shuffled(rng, sorted(deck)), discarded)
    s.exotic_deck = shuffled(rng, sorted(s.exotic_deck))
    s.outer_limit_stack = shuffled(rng, sorted(s.outer_limit_stack))
    s.outer_limit_knowledge = shuffled(rng, sorted(s.outer_limit_knowledge))
    shown = any(shown_large_tile(s, p.seat) is not None for p in s.players)
    top, rest = (s.large_tile_stack[:1], s.large_tile_stack[1:]) if shown else ((), s.large_tile_stack)
    s.large_tile_stack = (*top, *shuffled(rng, sorted(rest)))
    s.demand_pile = shuffled(rng, sorted(s.demand_pile))
    s.crisis_stacks = {k: shuffled(rng, sorted(stack)) for k, stack in s.crisis_stacks.items()}
    s.gp_supply = shuffled(rng, sorted(s.gp_supply))
    s.bag.sort()
    rng.shuffle(s.bag)
    s.rng = Rng.from_seed(rng.next_u64())
    return s

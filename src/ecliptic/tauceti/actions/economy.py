"""The economy Major actions: Build (BUI), Recruit (REC), Sell/Buy (S/B), Reverse Engineer
(ENG) and Upgrade (UPG).

They move the three player resources against each other: building spends Materials and
TAU to put an orbital on a sector; upgrading earns Materials back, which lowers the
recruit cost ("the number to the right of your Materials marker"); buying and selling
commodities turns TAU into the nano processors, quark-gluon plasma and octo-nanofluid that
are reverse engineered into System Upgrade tokens. With Advanced Rule 6, a player whose
materials are maximized may take the Upgrade action for an Exotic Tech card instead
(``UPG exotic <card>``). Every choice the rulebook leaves open is recorded in
docs/rules-decisions.md (Advanced Rule 6: docs/decisions/advanced-missions.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from ecliptic.engine.actions import Action, act, number
from ecliptic.engine.content import on_content_change
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.wording import article, plural
from ecliptic.tauceti import board, decks, ship
from ecliptic.tauceti.content import Content, SystemsToken
from ecliptic.tauceti.registry import decision_kind, illegal, say, verb, when_legal
from ecliptic.tauceti.state import Decision, Holding, State
from ecliptic.tauceti.tracks import gain_tau, materials_max, move_materials, recruit_cost

# Sell/Buy: "Demand is either 2 or 1. The Commodity token that is on a planet will always
# have a demand of 2 on that planet. All other commodities on that planet have a demand of 1."
IN_DEMAND = 2
NOT_IN_DEMAND = 1
FREE = "free"
SELL = act("SELL")
EXOTIC = "exotic"  # UPG exotic <E id>: Advanced Rule 6
EXOTIC_RULE = 6


# -- small look-ups ----------------------------------------------------------------


def _tile_name(state: State, tile: str) -> str:
    return state.content.tile(tile).name


def _is_sector(content: Content, tile: str) -> bool:
    """A tile an orbital can be built on: any tile but the planets and TAU CETI."""
    found = _SECTORS.get(id(content))
    if found is None or found[0] is not content:
        found = _SECTORS[id(content)] = (content, frozenset(
            t.id for t in content.tiles if not t.is_planet and t.kind != "tau_ceti"))
    return tile in found[1]


_SECTORS: dict[int, tuple[Content, frozenset[str]]] = {}
"""The tiles an orbital can be built on, per content (kept with it, so that the id stays its
own): BUI asks for every sector with the player's Resource cube at every turn decision."""
on_content_change(_SECTORS.clear)


def _commodity_names(content: Content) -> list[str]:
    return [c.name for c in content.commodities]


def commodity_of(state: State, token: str) -> str:
    """The commodity type printed on a Commodity token."""
    found = _COMMODITY_OF.get(token)
    if found is None:  # (a token the content does not have is its KeyError, as before)
        found = _COMMODITY_OF[token] = state.content.commodity_token(token).commodity
    return found


_COMMODITY_OF: dict[str, str] = {}
"""Each Commodity token's commodity, read once from the (immutable) content: BUY, SELL, ENG and
UPG ask for the tokens on the Interface at every turn decision."""
on_content_change(_COMMODITY_OF.clear)


def holding(state: State, seat: int, commodity: str) -> Holding | None:
    """The player's Commodity token of that type on the Interface (at most one per type)."""
    for h in state.players[seat].holdings:
        if commodity_of(state, h.token) == commodity:
            return h
    return None


def _label(state: State, commodity: str) -> str:
    return state.content.commodity(commodity).label


def _return_to_supply(state: State, token: str) -> None:
    state.supply = tuple(sorted((*state.supply, token)))


# -- Build (BUI) -------------------------------------------------------------------


def build_cost(state: State, seat: int) -> int:
    """"pay 2 x your Market level (your civilization's comparative advantage on the TCX)":
    the Market level of the faction's primary skill set, its specialization."""
    spec = state.faction(seat).specialization
    return state.content.numbers.build_tau_per_level * state.market[spec]


def _bui_options(state: State, seat: int) -> list[Action]:
    if not state.cubes:  # (most turns)
        return []
    colour = state.players[seat].faction
    return [act("BUI", tile) for tile, cubes in state.cubes.items()
            if colour in cubes and _is_sector(state.content, tile)]


def _bui_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if len(a.args) != 1:
        return illegal("TC-BUI-3", "build an orbital with BUI <sector>")
    sector = a.args[0]
    if not _is_sector(state.content, sector):
        return illegal("TC-BUI-3", f"{sector} is not a sector tile an orbital can be built on")
    p = state.players[seat]
    if p.faction not in state.cubes.get(sector, []):
        return illegal("TC-BUI-3", f"you have no Resource cube in {_tile_name(state, sector)}; "
                       "an orbital is built where you have a Resource cube")
    if p.orbitals_home <= 0:
        return illegal("TC-BUI-3", "you have no orbital left on your home planet")
    if p.materials <= 0:
        return illegal("TC-BUI-2", "your Materials marker is on the left-most space and cannot "
                       "move left")
    cost = build_cost(state, seat)
    if p.tau < cost:
        return illegal("TC-BUI-2", f"building costs {cost}T (2 x your Market level) and you have "
                       f"{p.tau}T")
    return None


def _bui_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    """Materials one space left, pay, one orbital from the planet to the sector, and that
    sector's Resource cube onto the home planet (where it now counts for scoring)."""
    sector = a.args[0]
    p = state.players[seat]
    home = state.faction(seat).home_planet
    cost = build_cost(state, seat)
    move_materials(state, seat, -1)
    p.tau -= cost
    p.orbitals_home -= 1
    state.orbitals.setdefault(sector, []).append(seat)
    state.cubes[sector].remove(p.faction)
    state.cubes.setdefault(home, []).append(p.faction)
    say(ev, "build", f"{p.faction} builds an orbital in {_tile_name(state, sector)} for {cost}T "
        f"(Materials marker one space left) and moves the Resource cube to "
        f"{_tile_name(state, home)}.", seat=seat, sector=sector, tau=cost, planet=home)


verb(
    "BUI",
    major="BUI",
    options=_bui_options,
    why_not=_bui_why_not,
    perform=_bui_perform,
    domain=lambda c: (act("BUI", t.id) for t in c.tiles if _is_sector(c, t.id)),
)


# -- Recruit (REC) -----------------------------------------------------------------


def _rec_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if a.args:
        return illegal("TC-REC-4", "REC takes no arguments")
    cost = recruit_cost(state, seat)
    if state.players[seat].tau < cost:
        return illegal("TC-REC-4", f"recruiting costs {cost}T (the number to the right of your "
                       f"Materials marker) and you have {state.players[seat].tau}T")
    if not state.specialist_deck and not state.specialist_discard:
        return illegal("TC-REC-4", "no Specialist card is left to recruit")
    return None


def _rec_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    """One Specialist and the Crisis card that must come with it; a Diplomacy card turns the
    Crisis card into a second Specialist."""
    p = state.players[seat]
    cost = recruit_cost(state, seat)
    p.tau -= cost
    second: decks.DeckName = "specialist" if p.diplomacy else "crisis"
    cards = [c for c in (decks.draw(state, "specialist"), decks.draw(state, second)) if c]
    p.hand.extend(cards)
    say(ev, "recruit", f"{p.faction} pays {cost}T to recruit and draws {plural(len(cards), 'card')}.",
        seat=seat, tau=cost, count=len(cards), drawn=cards, private=f"You recruit {', '.join(cards)}.")


_rec_options = when_legal(act("REC"), _rec_why_not)
verb(
    "REC",
    major="REC",
    options=_rec_options,
    why_not=_rec_why_not,
    perform=_rec_perform,
    domain=lambda c: (act("REC"),),
    legal=_rec_options,
)


# -- Sell/Buy (S/B) ----------------------------------------------------------------


def demand(state: State, planet: str, commodity: str) -> int:
    """2 for the commodity of the planet's Commodity token, 1 for every other."""
    return IN_DEMAND if commodity == demanded(state, planet) else NOT_IN_DEMAND


def demanded(state: State, planet: str) -> str | None:
    """The commodity of the planet's Commodity token (the one in demand there), if it has one."""
    token = state.planet_commodity.get(planet)
    return None if token is None else commodity_of(state, token)


def price(state: State, commodity: str, demand_now: int, quantity: int) -> int:
    """[market level x demand] x quantity, in TAU."""
    level = state.market[state.content.commodity(commodity).resource]
    return level * demand_now * quantity


_TOKENS_OF: dict[str, list[str]] = {}
"""Each commodity's Commodity tokens in id order, read once from the (immutable) content."""
on_content_change(_TOKENS_OF.clear)


def _supply_token(state: State, commodity: str) -> str | None:
    """The Supply pile's lowest-numbered token of that commodity (asked for every BUY option:
    the tokens of one commodity are looked for in the pile, not the whole pile sorted)."""
    tokens = _TOKENS_OF.get(commodity)
    if tokens is None:
        tokens = _TOKENS_OF[commodity] = sorted(
            t.id for t in state.content.commodity_tokens if t.commodity == commodity)
    supply = state.supply
    for token in tokens:
        if token in supply:
            return token
    return None


def _on_planet(state: State, seat: int) -> bool:
    return board.is_planet(state, state.players[seat].position)


def change_demand(state: State, planet: str, ev: list[Event]) -> None:
    """Replace the planet's Commodity token with a random one from the face-down Demand pile;
    the old token goes into the pile, so the pile always holds two."""
    if not state.demand_pile:
        say(ev, "demand", "The Demand pile is empty; the demand does not change.")
        return
    pile = list(state.demand_pile)
    new = pile.pop(state.rng.below(len(pile)))
    old = state.planet_commodity.get(planet)
    if old is not None:
        pile.append(old)
    state.demand_pile = tuple(pile)
    state.planet_commodity = state.planet_commodity.set(planet, new)
    # Several tokens show one commodity: the token drawn may show the one it replaces.
    before = None if old is None else commodity_of(state, old)
    after = commodity_of(state, new)
    if before == after:
        text = (f"The demand on {_tile_name(state, planet)} is drawn again: "
                f"{_label(state, after)} stays in demand.")
    else:
        instead = "" if before is None else f" instead of {_label(state, before)}"
        text = f"The demand on {_tile_name(state, planet)} changes: {_label(state, after)} is now in demand{instead}."
    say(ev, "demand", text, planet=planet, token=new, commodity=after)


def _buy_options(state: State, seat: int) -> Iterator[Action]:
    """What the player can buy: on a planet, each commodity they do not already hold that has
    a token left in the Supply pile, in every quantity they can pay for. These are the
    conditions ``_buy_why_not`` checks, asked once per commodity instead of once per
    quantity, so every option is legal (the verb registers them as its ``legal``). (A
    generator: ``apply`` looks for the chosen action among them, and stops when it is found.)"""
    p = state.players[seat]
    planet = p.position
    if not board.is_planet(state, planet):
        return
    held = {commodity_of(state, h.token) for h in p.holdings}
    content = state.content
    tau, max_buy = p.tau, content.numbers.max_buy
    in_demand = demanded(state, planet)  # (what demand() asks, once for every commodity)
    for commodity in content.commodities:
        name = commodity.name
        if name in held or _supply_token(state, name) is None:
            continue
        unit = price(state, name, IN_DEMAND if name == in_demand else NOT_IN_DEMAND, 1)  # (unit x quantity)
        actions = _BUY_ACTIONS.get((name, max_buy))
        if actions is None:
            actions = _BUY_ACTIONS[name, max_buy] = tuple(act("BUY", name, q) for q in range(1, max_buy + 1))
        for qty, action in enumerate(actions, 1):
            if unit * qty > tau:
                break  # the price grows with the quantity
            yield action


_BUY_ACTIONS: dict[tuple[str, int], tuple[Action, ...]] = {}
"""BUY <commodity> 1 .. BUY <commodity> <max_buy>, written once per commodity name (an action
is immutable text: it never changes with the state)."""


def _buy_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    max_buy = state.content.numbers.max_buy
    if len(a.args) != 2:
        return illegal("TC-SB-5", "buy with BUY <commodity> <quantity>")
    name, qty_text = a.args
    if name not in _commodity_names(state.content):
        return illegal("TC-SB-5", f"there is no commodity called {name!r}; choose from "
                       f"{', '.join(_commodity_names(state.content))}")
    qty = number(qty_text)
    if qty is None or not 1 <= qty <= max_buy:
        return illegal("TC-SB-6", f"you can buy 1 to {max_buy} of one type of commodity at a time")
    if not _on_planet(state, seat):
        return illegal("TC-SB-1", "you must be on a planet to sell or buy commodities")
    if holding(state, seat, name) is not None:
        return illegal("TC-SB-6", f"you already hold {article(_label(state, name))} Commodity token; "
                       "sell it before buying that commodity again")
    if _supply_token(state, name) is None:
        return illegal("TC-SB-7", f"no {_label(state, name)} Commodity token is left in the "
                       "Supply pile")
    planet = state.players[seat].position
    cost = price(state, name, demand(state, planet, name), qty)
    if state.players[seat].tau < cost:
        return illegal("TC-SB-6", f"{qty_text} {_label(state, name)} cost {cost}T and you have "
                       f"{state.players[seat].tau}T")
    return None


def _buy_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    """Pay, take one token of the type onto the quantity column, change the planet's demand."""
    name, qty = a.args[0], number(a.args[1])
    assert qty is not None
    p = state.players[seat]
    planet = p.position
    level_demand = demand(state, planet, name)
    cost = price(state, name, level_demand, qty)
    token = _supply_token(state, name)
    assert token is not None
    state.supply = decks.without(state.supply, token)
    p.tau -= cost
    p.holdings = (*p.holdings, Holding(token, qty))
    say(ev, "buy", f"{p.faction} buys {qty} {_label(state, name)} on "
        f"{_tile_name(state, planet)} for {cost}T (demand {level_demand}).",
        seat=seat, commodity=name, quantity=qty, tau=cost, token=token)
    change_demand(state, planet, ev)


verb(
    "BUY",
    major="SB",
    options=_buy_options,
    why_not=_buy_why_not,
    perform=_buy_perform,
    domain=lambda c: (act("BUY", x.name, q) for x in c.commodities
                      for q in range(1, c.numbers.max_buy + 1)),
    legal=_buy_options,
)


def _sellable(state: State, seat: int) -> list[str]:
    """Commodities held and not reverse engineered (an engineered token waits for UPG)."""
    return [commodity_of(state, h.token) for h in state.players[seat].holdings if not h.engineered]


def _sell_options(state: State, seat: int) -> tuple[Action, ...]:
    """SELL on a planet, holding something to sell: ``_sell_why_not``'s two conditions, so
    the option is legal (the verb registers it as its ``legal``)."""
    return (SELL,) if _on_planet(state, seat) and _sellable(state, seat) else ()


def _sell_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if a.args:
        return illegal("TC-SB-9", "SELL takes no arguments; you choose the commodities next")
    if not _on_planet(state, seat):
        return illegal("TC-SB-1", "you must be on a planet to sell or buy commodities")
    if not _sellable(state, seat):
        return illegal("TC-SB-10", "you hold no commodity you could sell")
    return None


def _sell_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    """The demand is fixed when the action begins and changes once, when selling is done."""
    planet = state.players[seat].position
    token = state.planet_commodity.get(planet)
    demanded = commodity_of(state, token) if token is not None else ""
    state.stack.append(Decision("sell", seat, {"planet": planet, "demanded": demanded,
                                               "sold": []}))
    say(ev, "sell_begin", f"{state.players[seat].faction} sells commodities on "
        f"{_tile_name(state, planet)}.", seat=seat, planet=planet)


verb(
    "SELL",
    major="SB",
    options=_sell_options,
    why_not=_sell_why_not,
    perform=_sell_perform,
    domain=lambda c: (SELL,),
    legal=_sell_options,
)


DONE = act("DONE")


def _sale_options(state: State, d: Decision) -> Iterator[Action]:
    for name in _sellable(state, d.player):
        yield act("SELL", name)
    if d.data["sold"]:
        yield DONE


def _sale_why_not(state: State, d: Decision, a: Action) -> IllegalAction | None:
    if a == DONE:
        if not d.data["sold"]:
            return illegal("TC-SB-10", "sell at least one commodity first")
        return None
    if a.verb != "SELL" or len(a.args) != 1:
        return illegal("TC-SB-10", "sell with SELL <commodity>, or finish with DONE")
    if a.args[0] not in _sellable(state, d.player):
        return illegal("TC-SB-10", f"you hold no {a.args[0]} you could sell")
    return None


def _finish_selling(state: State, d: Decision, ev: list[Event]) -> None:
    state.stack.pop()
    change_demand(state, d.data["planet"], ev)


def _sale_perform(state: State, d: Decision, a: Action, ev: list[Event]) -> None:
    if a == DONE:
        _finish_selling(state, d, ev)
        return
    name = a.args[0]
    seat = d.player
    p = state.players[seat]
    h = holding(state, seat, name)
    assert h is not None
    level_demand = IN_DEMAND if name == d.data["demanded"] else NOT_IN_DEMAND
    value = price(state, name, level_demand, h.quantity)
    p.holdings = decks.without(p.holdings, h)
    _return_to_supply(state, h.token)
    got = gain_tau(state, seat, value)
    d.data["sold"].append(name)
    say(ev, "sell", f"{p.faction} sells {h.quantity} {_label(state, name)} for {value}T "
        f"(demand {level_demand}).", seat=seat, commodity=name, quantity=h.quantity,
        tau=got, token=h.token)
    if not _sellable(state, seat):
        _finish_selling(state, d, ev)


decision_kind(
    "sell",
    options=_sale_options,
    why_not=_sale_why_not,
    perform=_sale_perform,
    domain=lambda c: (act("DONE"), *(act("SELL", x.name) for x in c.commodities)),
)


# -- Reverse Engineer (ENG) ----------------------------------------------------------


def _eng_options(state: State, seat: int) -> list[Action]:
    """Each held commodity that can be and is not yet reverse engineered: what ``_eng_why_not``
    checks, so every option is legal (the verb registers them as its ``legal``)."""
    options = []
    for h in state.players[seat].holdings:
        if not h.engineered:
            name = commodity_of(state, h.token)
            if state.content.commodity(name).reverse_engineerable:
                options.append(act("ENG", name))
    return options


def _eng_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if len(a.args) != 1:
        return illegal("TC-ENG-3", "reverse engineer with ENG <commodity>")
    name = a.args[0]
    if name not in _commodity_names(state.content):
        return illegal("TC-ENG-3", f"there is no commodity called {name!r}")
    if not state.content.commodity(name).reverse_engineerable:
        return illegal("TC-ENG-2", "ONLY quark-gluon plasma, nano processors, and octo-nanofluid "
                       f"can be reverse engineered, not {_label(state, name)}")
    h = holding(state, seat, name)
    if h is None:
        return illegal("TC-ENG-2", f"you hold no {_label(state, name)}; buy it first with S/B")
    if h.engineered:
        return illegal("TC-ENG-3", f"your {_label(state, name)} is already reverse engineered")
    return None


def _eng_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    """The token moves over the reverse engineering icon in its quantity column."""
    name = a.args[0]
    h = holding(state, seat, name)
    assert h is not None
    p = state.players[seat]
    i = p.holdings.index(h)
    h = replace(h, engineered=True)
    p.holdings = (*p.holdings[:i], h, *p.holdings[i + 1:])
    systems = " or ".join(state.content.commodity(name).upgrades)
    say(ev, "reverse_engineer", f"{state.players[seat].faction} reverse engineers {h.quantity} "
        f"{_label(state, name)} and is ready to upgrade {systems}.",
        seat=seat, commodity=name, quantity=h.quantity)


verb(
    "ENG",
    major="ENG",
    options=_eng_options,
    why_not=_eng_why_not,
    perform=_eng_perform,
    domain=lambda c: (act("ENG", x.name) for x in c.commodities if x.reverse_engineerable),
    legal=_eng_options,
)


# -- Upgrade (UPG) -----------------------------------------------------------------


def free_upgrade_systems(state: State, seat: int) -> Sequence[str]:
    """The systems the player may upgrade without reverse engineering: every system after
    trading a GP token for a free system upgrade, else those the faction's Interface exempts."""
    if state.players[seat].free_upgrades > 0:
        return state.content.systems
    return state.faction(seat).upgrade_without_engineering


def free_upgrade_allowed(state: State, seat: int, system: str) -> bool:
    """Without reverse engineering: the faction's Interface exempts the system, or the player
    traded a GP token for a free system upgrade."""
    return system in free_upgrade_systems(state, seat)


def wanted_level(state: State, seat: int, system: str, source: str) -> int:
    """The engineered quantity, or for a free upgrade one level above the present power."""
    if source == FREE:
        return ship.power(state, seat, system) + 1
    h = holding(state, seat, source)
    assert h is not None
    return h.quantity


def pick_token(state: State, system: str, level: int) -> SystemsToken | None:
    """The depot's token of that level, "If the System Upgrade token level of power/capacity
    isn't available, select the next lowest"."""
    depot, content = state.depot_systems, state.content
    key = (id(depot), system, level)
    found = _PICKED.get(key)
    if found is not None and found[0] is depot and found[1] is content:
        return found[2]
    ids = _SYSTEM_TOKEN_IDS.get(system)
    if ids is None:
        ids = _SYSTEM_TOKEN_IDS[system] = frozenset(
            t.id for t in content.systems_tokens if t.system == system)
    best: SystemsToken | None = None
    for token_id in depot:  # (the first of the highest fitting level, as max())
        if token_id in ids:
            token = content.systems_token(token_id)
            if token.level <= level and (best is None or token.level > best.level):
                best = token
    if len(_PICKED) >= 1024:
        _PICKED.clear()
    _PICKED[key] = (depot, content, best)
    return best


_PICKED: dict[tuple[int, str, int], tuple[tuple[str, ...], Content, SystemsToken | None]] = {}
"""The token :func:`pick_token` found, for each depot (a tuple, replaced when a token is taken
or returned, and kept here so that its id stays its own), system and level: the free
upgrades an Interface exempts are offered, and so looked for in the depot, every turn."""


_SYSTEM_TOKEN_IDS: dict[str, frozenset[str]] = {}
"""Each system's System Upgrade tokens, read once from the (immutable) content."""
on_content_change(_SYSTEM_TOKEN_IDS.clear)


def _source_why_not(state: State, seat: int, system: str, source: str) -> IllegalAction | None:
    if source == FREE:
        if not free_upgrade_allowed(state, seat, system):
            return illegal("TC-ENG-1", f"your {system} needs a reverse engineered commodity; you "
                           "have no free system upgrade")
        return None
    if source not in _commodity_names(state.content):
        return illegal("TC-UPG-2", f"{source!r} is neither a commodity nor 'free'")
    h = holding(state, seat, source)
    if h is None or not h.engineered:
        return illegal("TC-ENG-1", f"you have no reverse engineered {_label(state, source)}")
    if system not in state.content.commodity(source).upgrades:
        return illegal("TC-UPG-5", f"{_label(state, source)} cannot upgrade your {system}")
    return None


def materials_maximized(state: State, seat: int) -> bool:
    """Advanced Rule 6's "materials are maximized": the Materials marker on the space of the
    most materials. The rulebook says "reaches the left-most space", but materials increase
    to the right (Upgrade, cube trades) and the recruit cost falls that way, so the end the
    marker reaches by gaining materials is the right-most space (docs/decisions)."""
    return state.players[seat].materials >= materials_max(state, seat)


def _exotic_why_not(state: State, seat: int, card: str) -> IllegalAction | None:
    """Advanced Rule 6: any 1 exotic tech "of your choice (if it's available) once your
    materials are maximized"; "You cannot change it or acquire new exotic techs"."""
    if not state.config.has(EXOTIC_RULE):
        return illegal("TC-ADV6-1", "Exotic Tech can be acquired only with Advanced Rule 6 in play")
    if not state.content.is_exotic(card):
        return illegal("TC-ADV6-1", f"there is no Exotic Tech card {card!r}; choose from "
                       f"{', '.join(e.id for e in state.content.exotic_tech)}")
    p = state.players[seat]
    if p.exotic_tech is not None:
        return illegal("TC-ADV6-2", f"you already acquired the Exotic Tech {p.exotic_tech}; you cannot "
                       "change it or acquire another")
    if not materials_maximized(state, seat):
        return illegal("TC-ADV6-1", "you may acquire an Exotic Tech only once your materials are "
                       "maximized (Materials marker on the right-most space)")
    if card not in state.exotic_deck:
        return illegal("TC-ADV6-1", f"the Exotic Tech {card} is not available: another player has it")
    return None


def _exotic_perform(state: State, seat: int, card: str, ev: list[Event]) -> None:
    """"Simply take the Exotic Tech token and Exotic Tech card": no commodity, no System
    Upgrade token, and the Materials marker stays on its (maximized) space."""
    p = state.players[seat]
    state.exotic_deck = tuple(c for c in state.exotic_deck if c != card)
    p.exotic_tech = card
    tech = state.content.exotic(card)
    say(ev, "exotic_tech", f"{p.faction} acquires the Exotic Tech {tech.name} ({card}): {tech.text}",
        seat=seat, card=card)


def _upg_sources(state: State, seat: int) -> list[tuple[str, str]]:
    """Each system with a source that may upgrade it: a reverse engineered commodity that
    upgrades it, or a free upgrade (Interface exemption or GP token): what
    ``_source_why_not`` checks."""
    p = state.players[seat]
    sources = [(system, FREE) for system in free_upgrade_systems(state, seat)]
    for h in p.holdings:
        if h.engineered:
            name = commodity_of(state, h.token)
            sources.extend((system, name) for system in state.content.commodity(name).upgrades)
    return sources


def _exotic_options(state: State, seat: int) -> list[Action]:
    """Advanced Rule 6: each Exotic Tech card still available, once the player's materials are
    maximized and while they have none."""
    if EXOTIC_RULE in state.config.advanced and state.players[seat].exotic_tech is None \
            and materials_maximized(state, seat):
        return [act("UPG", EXOTIC, card) for card in sorted(state.exotic_deck)]
    return []


def _upg_action(system: str, source: str) -> Action:
    """UPG <system> <source>, written once per pair (an action is immutable text)."""
    found = _UPG_ACTIONS.get((system, source))
    if found is None:
        found = _UPG_ACTIONS[system, source] = act("UPG", system, source)
    return found


_UPG_ACTIONS: dict[tuple[str, str], Action] = {}


def _upg_options(state: State, seat: int) -> list[Action]:
    """:func:`_upg_sources` and :func:`_exotic_options`. Most turns the player has neither a
    free upgrade nor an engineered commodity, and nothing is offered; ``_upg_why_not`` then
    checks the Galactic Depot."""
    return [_upg_action(system, source) for system, source in _upg_sources(state, seat)] + \
        _exotic_options(state, seat)


def _upg_legal(state: State, seat: int) -> list[Action]:
    """The options that ``_upg_why_not`` lets through (the verb's ``legal``): their systems
    and sources are valid by construction (:func:`_upg_sources`), so each is asked only what
    the Galactic Depot has (:func:`_depot_why_not`); an Exotic Tech option is asked its
    ``_exotic_why_not``."""
    legal = []
    for system, source in _upg_sources(state, seat):
        if _depot_why_not(state, seat, system, source) is None:
            legal.append(_upg_action(system, source))
    exotic = _exotic_options(state, seat)
    if exotic:
        legal.extend(a for a in exotic if _exotic_why_not(state, seat, a.args[1]) is None)
    return legal


def _upg_why_not(state: State, seat: int, a: Action) -> IllegalAction | None:
    if len(a.args) != 2:
        return illegal("TC-UPG-2", "upgrade with UPG <system> <commodity or free>, or acquire an "
                       "Exotic Tech with UPG exotic <card>")
    system, source = a.args
    if system == EXOTIC:
        return _exotic_why_not(state, seat, source)
    if system not in state.content.systems:
        return illegal("TC-UPG-2", f"there is no system called {system!r}; choose from "
                       f"{', '.join(state.content.systems)}")
    reason = _source_why_not(state, seat, system, source)
    if reason is not None:
        return reason
    return _depot_why_not(state, seat, system, source)


def _depot_why_not(state: State, seat: int, system: str, source: str) -> IllegalAction | None:
    """What the Galactic Depot has for an upgrade from a valid source (the level
    :func:`wanted_level` names, or the next lowest), and that it is no downgrade."""
    power = ship.power(state, seat, system)
    level = power + 1 if source == FREE else wanted_level(state, seat, system, source)  # (wanted_level)
    token = pick_token(state, system, level)
    if token is None:
        return illegal("TC-UPG-4", f"no {system} System Upgrade token of level {level} or lower "
                       "is left on the Galactic Depot")
    if token.level < power:
        return illegal("TC-UPG-1", f"the best {system} token left (level {token.level}) is below "
                       f"your {system} power of {power}")
    return None


def _pay_source(state: State, seat: int, system: str, source: str, ev: list[Event]) -> None:
    """The engineered token goes back to the Supply pile; a GP free upgrade is used up
    (an Interface exemption costs nothing and is preferred)."""
    p = state.players[seat]
    if source != FREE:
        h = holding(state, seat, source)
        assert h is not None
        p.holdings = decks.without(p.holdings, h)
        _return_to_supply(state, h.token)
        return
    if system not in state.faction(seat).upgrade_without_engineering:
        p.free_upgrades -= 1
        say(ev, "free_upgrade_used", f"{p.faction} uses a free system upgrade.", seat=seat)


def _upg_perform(state: State, seat: int, a: Action, ev: list[Event]) -> None:
    """Materials one space right, the commodity back to the Supply pile, the new System
    Upgrade token on the system (the old one back on the Galactic Depot).

    Damage markers are "transferred to the System Upgrade token": damage is kept per system
    (``player.damage[system]``), not per token, so it simply stays and now lowers the new
    token's power."""
    system, source = a.args
    if system == EXOTIC:
        _exotic_perform(state, seat, source, ev)
        return
    p = state.players[seat]
    level = wanted_level(state, seat, system, source)
    token = pick_token(state, system, level)
    assert token is not None
    moved = move_materials(state, seat, 1)
    _pay_source(state, seat, system, source, ev)
    old = p.systems_tokens.get(system)
    depot = decks.without(state.depot_systems, token.id)
    state.depot_systems = tuple(sorted(depot if old is None else (*depot, old)))
    p.systems_tokens = p.systems_tokens.set(system, token.id)
    materials = "Materials marker one space right" if moved else \
        "the Materials marker is already on the right-most space"
    say(ev, "upgrade", f"{p.faction} upgrades {system} with a level {token.level} System Upgrade "
        f"token ({materials}).", seat=seat, system=system, token=token.id, level=token.level,
        source=source, materials=moved)


def _upg_domain(c: Content) -> Iterable[Action]:
    sources = [x.name for x in c.commodities if x.reverse_engineerable] + [FREE]
    yield from (act("UPG", EXOTIC, e.id) for e in c.exotic_tech)
    yield from (act("UPG", system, s) for system in c.systems for s in sources)


verb(
    "UPG",
    major="UPG",
    options=_upg_options,
    why_not=_upg_why_not,
    perform=_upg_perform,
    domain=_upg_domain,
    legal=_upg_legal,
)


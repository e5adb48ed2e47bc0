"""The Tau Ceti components as data, loaded from TOML files and validated at load.

The rulebook prints the rules but not most component values (card texts,
faction interfaces, tile values). Those live in ``content/*.toml``; every
value the rulebook does not print is marked there as a stand-in and listed in
``docs/rules-decisions.md``. An owner of the physical game can replace them
with the printed values without touching code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ecliptic.engine.content import ContentSlot, expect, load

MAJOR_ACTIONS = ("BUI", "EXP", "REC", "IM", "REP", "MOV", "ENG", "UPG", "REF", "SB")
PHASES = ("E", "A", "B")

TileKind = Literal[
    "tau_ceti", "planet", "asteroid", "sector", "cosmic_energy", "asteroid_field", "wormhole"
]


@dataclass(frozen=True)
class SkillCheck:
    """Roll as many dice as the skill set; at least ``successes`` dice must show ``target`` or more."""

    skill: str
    target: int
    successes: int


@dataclass(frozen=True)
class Faction:
    name: str
    character: str
    colour: str
    home_planet: str
    specialization: str
    skills: dict[str, int]
    start_tau: int
    start_energy: int
    start_materials: int
    action_costs: dict[str, int]
    systems: dict[str, int]
    upgrade_without_engineering: list[str]
    tau_gp: list[int]
    materials_track: list[int]
    card_gp_dot: bool
    stand_in: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Tile:
    id: str
    name: str
    kind: TileKind
    number: int
    exploration_points: int
    orbital_gp: int
    cube_gp: int
    stand_in: list[str] = field(default_factory=list)

    @property
    def is_planet(self) -> bool:
        return self.kind == "planet"

    @property
    def outer_limit(self) -> bool:
        return self.kind in ("cosmic_energy", "asteroid_field", "wormhole")


@dataclass(frozen=True)
class Ability:
    """An Action- or Battle-phase ability of a Specialist card (stand-in texts).

    ``resolve_any`` (Advanced Specialists only): the face-up card resolves a crisis of any
    type with one Knowledge token of that crisis's type, and stays face up ("As long as you
    have a Specialist, you have unlimited use of its abilities")."""

    kind: Literal["skill_bonus", "battle_weapons", "battle_computers", "battle_shields",
                  "resolve_any", "none"]
    skill: str = ""
    amount: int = 0
    text: str = ""


@dataclass(frozen=True)
class CrisisEffect:
    """The effect on the bottom of a Crisis card (Advanced Rule 2), as data.

    ``energy`` / ``tau``: every player gains (amount > 0) or loses (amount < 0) that much;
    ``damage``: every player takes ``amount`` damage and allocates it; ``market``: the
    Market level of ``resource`` moves ``amount`` levels (up when positive)."""

    kind: Literal["energy", "tau", "damage", "market"]
    amount: int
    resource: str = ""


def describe_effect(effect: CrisisEffect) -> str:
    """The canonical sentence for a bottom effect (the form the stand-in card texts use)."""
    n = abs(effect.amount)
    verb = "gains" if effect.amount > 0 else "loses"
    if effect.kind == "energy":
        return f"Every player {verb} {n} energy."
    if effect.kind == "tau":
        return f"Every player {verb} {n} TAU."
    if effect.kind == "damage":
        return f"Every player takes {n} damage."
    way = "up" if effect.amount > 0 else "down"
    return f"The Market level of {effect.resource} goes {way} {n} level{'s' if n > 1 else ''}."


@dataclass(frozen=True)
class CrisisCard:
    id: str
    number: int
    crisis_type: str
    gp: int
    dot: bool
    effect: CrisisEffect
    bottom_effect: str = ""


@dataclass(frozen=True)
class SpecialistCard:
    id: str
    name: str
    crisis_type: str
    phases: list[str]
    gp: int
    dot: bool
    ability: Ability = field(default_factory=lambda: Ability("none"))
    advanced: bool = False


@dataclass(frozen=True)
class KnowledgeCard:
    id: str
    knowledge_type: str
    check: SkillCheck
    reward_token: bool
    reward_tau: int
    reward_energy: int


@dataclass(frozen=True)
class MissionCard:
    id: str
    kind: Literal["skill_check", "delivery"]
    reward_tau: int = 0
    check: SkillCheck | None = None
    sector: str = ""
    pickup: str = ""
    deliver: str = ""
    # What a pickup/deliver IM carries ("The card itself is considered the commodity"): a
    # commodity name; Advanced Rule 5 reads "plasma" (quark-gluon plasma). Empty otherwise.
    commodity: str = ""


@dataclass(frozen=True)
class CrisisType:
    name: str
    specialist: str
    knowledge_tau: int


@dataclass(frozen=True)
class CrisisToken:
    id: str
    crisis_type: str
    resource: str


@dataclass(frozen=True)
class CommodityType:
    name: str
    label: str
    resource: str
    upgrades: list[str]

    @property
    def reverse_engineerable(self) -> bool:
        return bool(self.upgrades)


@dataclass(frozen=True)
class CommodityToken:
    id: str
    commodity: str


@dataclass(frozen=True)
class SystemsToken:
    id: str
    system: str
    level: int


@dataclass(frozen=True)
class GPToken:
    id: str
    gp: int
    reward_tau: int = 0
    reward_energy: int = 0
    free_upgrade: bool = False


ExoticEffect = Literal["battle_shields", "move_sectors", "free_reroll", "attack_dice"]


@dataclass(frozen=True)
class ExoticTech:
    """An Exotic Tech card (Advanced Rule 6). ``effect`` is what the engine plays:
    ``battle_shields`` +amount shields in every battle, ``move_sectors`` +amount sectors on
    each Move action, ``free_reroll`` a skill-check re-roll without TAU once per round,
    ``attack_dice`` +amount dice on one attack. ``one_time`` cards are discarded after use."""

    id: str
    name: str
    text: str
    effect: ExoticEffect
    amount: int = 1
    one_time: bool = False


@dataclass(frozen=True)
class GameNumbers:
    """Counts and limits printed in the rulebook (or recorded as decisions)."""

    short_game_rounds: int
    full_game_rounds: int
    longest_game_rounds: int
    continue_on: list[int]
    track_cap: int
    market_levels: int
    action_markers: int
    damage_markers: int
    virus_crystals: int
    enlightenment_energy: int
    refuel_energy: int
    pass_tau: int
    im_slots: int
    cubes_per_faction: int
    cubes_out_max: int
    npc_cubes_per_colour: int
    knowledge_on_points: int
    knowledge_for_outer_limits: int
    demand_pile: int
    max_buy: int
    repair_tau_planet: int
    repair_tau_space: int
    build_tau_per_level: int
    reroll_tau: int
    solo_target_gp: int
    resolve_gp: int
    battle_gp: int
    diplomacy_cards: int


@dataclass(frozen=True)
class Content:
    resources: list[str]
    skills: list[str]
    systems: list[str]
    crisis_types: list[CrisisType]
    factions: list[Faction]
    tiles: list[Tile]
    crisis_cards: list[CrisisCard]
    specialists: list[SpecialistCard]
    knowledge_cards: list[KnowledgeCard]
    missions: list[MissionCard]
    crisis_tokens: list[CrisisToken]
    commodities: list[CommodityType]
    commodity_tokens: list[CommodityToken]
    systems_tokens: list[SystemsToken]
    gp_tokens: list[GPToken]
    exotic_tech: list[ExoticTech]
    numbers: GameNumbers

    # Look-ups built once; the content object is immutable and shared by all states.
    def __post_init__(self) -> None:
        object.__setattr__(self, "_tiles", {t.id: t for t in self.tiles})
        object.__setattr__(self, "_factions", {f.name: f for f in self.factions})
        object.__setattr__(self, "_crisis", {c.id: c for c in self.crisis_cards})
        object.__setattr__(self, "_specialists", {c.id: c for c in self.specialists})
        object.__setattr__(self, "_missions", {c.id: c for c in self.missions})
        object.__setattr__(self, "_knowledge_cards", {c.id: c for c in self.knowledge_cards})
        object.__setattr__(self, "_crisis_tokens", {c.id: c for c in self.crisis_tokens})
        object.__setattr__(self, "_commodities", {c.name: c for c in self.commodities})
        object.__setattr__(self, "_commodity_tokens", {c.id: c for c in self.commodity_tokens})
        object.__setattr__(self, "_systems_tokens", {c.id: c for c in self.systems_tokens})
        object.__setattr__(self, "_gp_tokens", {c.id: c for c in self.gp_tokens})
        object.__setattr__(self, "_crisis_types", {c.name: c for c in self.crisis_types})
        object.__setattr__(self, "_exotic", {c.id: c for c in self.exotic_tech})
        object.__setattr__(self, "_knowledge_types", tuple(c.name for c in self.crisis_types))

    def tile(self, tile_id: str) -> Tile:
        return self._tiles[tile_id]  # type: ignore[attr-defined, no-any-return]

    def faction(self, name: str) -> Faction:
        return self._factions[name]  # type: ignore[attr-defined, no-any-return]

    def crisis_card(self, card_id: str) -> CrisisCard:
        return self._crisis[card_id]  # type: ignore[attr-defined, no-any-return]

    def specialist(self, card_id: str) -> SpecialistCard:
        return self._specialists[card_id]  # type: ignore[attr-defined, no-any-return]

    def mission(self, card_id: str) -> MissionCard:
        return self._missions[card_id]  # type: ignore[attr-defined, no-any-return]

    def knowledge_card(self, card_id: str) -> KnowledgeCard:
        return self._knowledge_cards[card_id]  # type: ignore[attr-defined, no-any-return]

    def crisis_token(self, token_id: str) -> CrisisToken:
        return self._crisis_tokens[token_id]  # type: ignore[attr-defined, no-any-return]

    def commodity(self, name: str) -> CommodityType:
        return self._commodities[name]  # type: ignore[attr-defined, no-any-return]

    def commodity_token(self, token_id: str) -> CommodityToken:
        return self._commodity_tokens[token_id]  # type: ignore[attr-defined, no-any-return]

    def systems_token(self, token_id: str) -> SystemsToken:
        return self._systems_tokens[token_id]  # type: ignore[attr-defined, no-any-return]

    def gp_token(self, token_id: str) -> GPToken:
        return self._gp_tokens[token_id]  # type: ignore[attr-defined, no-any-return]

    def crisis_type(self, name: str) -> CrisisType:
        return self._crisis_types[name]  # type: ignore[attr-defined, no-any-return]

    def exotic(self, card_id: str) -> ExoticTech:
        return self._exotic[card_id]  # type: ignore[attr-defined, no-any-return]

    def is_exotic(self, card_id: str) -> bool:
        return card_id in self._exotic  # type: ignore[attr-defined]

    def is_card(self, card_id: str) -> bool:
        return card_id in self._crisis or card_id in self._specialists  # type: ignore[attr-defined]

    def card_gp(self, card_id: str) -> tuple[int, bool]:
        card: CrisisCard | SpecialistCard
        card = self.crisis_card(card_id) if card_id.startswith("C") else self.specialist(card_id)
        return card.gp, card.dot

    @property
    def knowledge_types(self) -> tuple[str, ...]:
        """The Knowledge token types (one per crisis type), built once: the rules read them
        every turn."""
        return self._knowledge_types  # type: ignore[attr-defined, no-any-return]


CONTENT_FILES = ("game", "factions", "tiles", "cards", "tokens")


def load_content(folder: Path | None = None) -> Content:
    """Load and validate the content data (the packaged files, or another folder's)."""
    return load(Content, "ecliptic.tauceti.content", CONTENT_FILES, validate, folder)


def default_content() -> Content:
    """The content a new game gets in this process: the packaged stand-ins, unless
    ``ecliptic.games.using_content`` plays an owner's values."""
    return SLOT.active()


def validate(c: Content) -> None:
    """Cross-checks the schema alone cannot express: counts from the rulebook's component
    list, references between tables, and the skill-set rule (one 4, one 3, the rest 2)."""
    n = c.numbers
    expect(len(c.resources) == 6, "the TCX has 6 Market Level markers: 6 resources expected")
    expect(len(c.systems) == 6, "battle dice target systems 1-6: 6 systems expected")
    expect(len(c.factions) == 4, "4 factions expected")
    expect(len([t for t in c.tiles if not t.outer_limit]) == 15, "15 large hex tiles expected")
    expect(len(c.crisis_cards) == 24, "24 Crisis cards expected")
    expect(sorted(x.number for x in c.crisis_cards) == list(range(1, 25)), "Crisis cards are numbered 1-24")
    expect(len([s for s in c.specialists if not s.advanced]) == 42, "42 Specialist cards expected")
    expect(len(c.knowledge_cards) == 24, "24 Exploration (Knowledge) cards expected")
    expect(len(c.missions) == 30, "30 Interplanetary Mission cards expected")
    expect(len(c.crisis_tokens) == 24, "24 Crisis tokens expected")
    expect(len(c.commodity_tokens) == 18, "18 Commodity tokens expected")
    expect(len(c.systems_tokens) == 19, "19 Systems tokens expected")
    expect(len(c.gp_tokens) == 20, "20 Galactic Point tokens expected")
    expect(len(c.exotic_tech) == 4, "4 Exotic Tech cards expected")
    expect(n.diplomacy_cards == 4, "4 Diplomacy cards expected")
    expect(len(c.crisis_types) == 6, "6 crisis/knowledge types expected (6 Crisis token stacks)")
    outer = [t for t in c.tiles if t.outer_limit]
    expect(len(outer) == n.knowledge_for_outer_limits, "one Knowledge token per Outer Limit tile")
    expect(len([t for t in outer if t.kind == "wormhole"]) == 2, "exactly two wormholes expected")
    points = sum(t.exploration_points for t in c.tiles if not t.outer_limit)
    expect(points == n.knowledge_on_points, f"{n.knowledge_on_points} Exploration points expected, found {points}")
    expect(
        n.knowledge_on_points + n.knowledge_for_outer_limits + 8 == 4 * len(c.crisis_types),
        "24 Knowledge tokens: 10 on points, 6 for Outer Limit tiles, 8 on the Galactic Depot",
    )
    kinds = [t.kind for t in c.tiles]
    expect(kinds.count("tau_ceti") == 1, "one TAU CETI tile expected")
    tile_ids = {t.id for t in c.tiles}
    skills = set(c.skills)
    types = {t.name for t in c.crisis_types}
    for f in c.factions:
        where = f"faction {f.name}"
        expect(f.home_planet in tile_ids and c.tile(f.home_planet).is_planet,
                f"{where}: home planet must be a planet tile")
        expect(f.specialization in c.resources, f"{where}: specialization must be a resource")
        expect(set(f.skills) == skills, f"{where}: skills must list every skill set")
        values = sorted(f.skills.values())
        expect(values == [2] * (len(skills) - 2) + [3, 4], f"{where}: skill sets must be one 4, one 3, the rest 2")
        expect(f.skills.get(f.specialization) == 4, f"{where}: the primary skill set (4) is the comparative advantage")
        expect(set(f.action_costs) == set(MAJOR_ACTIONS),
                f"{where}: energy cost needed for each of the 10 Major actions")
        expect(set(f.systems) == set(c.systems), f"{where}: a power is needed for every system")
        expect(0 <= f.start_materials < len(f.materials_track), f"{where}: start materials off the track")
        expect(f.start_tau >= 10, f"{where}: every alien character starts with at least 10T")
        expect(all(s in c.systems for s in f.upgrade_without_engineering), f"{where}: unknown system")
    for card in c.specialists:
        expect(card.crisis_type in types, f"{card.id}: unknown crisis icon {card.crisis_type}")
        expect(set(card.phases) <= set(PHASES) and card.phases != [], f"{card.id}: phases must be E, A, B")
        _validate_ability(c, card)
    for cc in c.crisis_cards:
        expect(cc.crisis_type in types, f"{cc.id}: unknown crisis type {cc.crisis_type}")
        _validate_effect(c, cc)
    for kc in c.knowledge_cards:
        expect(kc.knowledge_type in types, f"{kc.id}: unknown knowledge type")
        expect(kc.check.skill in skills, f"{kc.id}: unknown skill {kc.check.skill}")
    for m in c.missions:
        if m.kind == "skill_check":
            expect(m.check is not None and m.check.skill in skills, f"{m.id}: skill check needs a known skill")
            expect(m.sector in tile_ids, f"{m.id}: unknown sector {m.sector}")
            expect(m.commodity == "", f"{m.id}: only a pickup/deliver IM carries a commodity")
        else:
            expect(m.pickup in tile_ids and m.deliver in tile_ids, f"{m.id}: unknown pickup/deliver sector")
            expect(m.commodity in {x.name for x in c.commodities},
                    f"{m.id}: a pickup/deliver IM must name the commodity it carries")
    for ct in c.crisis_tokens:
        expect(ct.crisis_type in types and ct.resource in c.resources, f"{ct.id}: bad type or resource")
    names = {x.name for x in c.commodities}
    for tok in c.commodity_tokens:
        expect(tok.commodity in names, f"{tok.id}: unknown commodity {tok.commodity}")
    expect(sum(1 for x in c.commodities if x.reverse_engineerable) == 3,
            "only quark-gluon plasma, nano processors and octo-nanofluid can be reverse engineered")
    for st in c.systems_tokens:
        expect(st.system in c.systems, f"{st.id}: unknown system {st.system}")
    for et in c.exotic_tech:
        expect(et.amount >= 1, f"{et.id}: an Exotic Tech effect needs an amount of at least 1")
    ids = [x.id for group in (c.crisis_cards, c.specialists, c.knowledge_cards, c.missions,
                              c.crisis_tokens, c.commodity_tokens, c.systems_tokens, c.gp_tokens,
                              c.exotic_tech) for x in group]
    expect(len(ids) == len(set(ids)), "component ids must be unique")


def _validate_ability(c: Content, card: SpecialistCard) -> None:
    """Abilities name a known skill when they need one, and Advanced Specialists are what the
    rulebook says: playable in the Enlightenment phase for energy, with an ability for the
    Action or Battle phase."""
    a = card.ability
    if a.kind == "skill_bonus":
        expect(a.skill in c.skills and a.amount > 0, f"{card.id}: skill_bonus needs a skill and amount > 0")
    if a.kind.startswith("battle_"):
        expect(a.amount > 0 and "B" in card.phases, f"{card.id}: a battle bonus needs amount > 0 and phase B")
    if a.kind == "resolve_any":
        expect(card.advanced and "A" in card.phases,
                f"{card.id}: only an Advanced Specialist with phase A can resolve any crisis")
    if card.advanced:
        expect("E" in card.phases, f"{card.id}: Advanced Specialists can be played in the Enlightenment phase")
        expect(bool({"A", "B"} & set(card.phases)) and a.kind != "none",
                f"{card.id}: an Advanced Specialist needs an Action- or Battle-phase ability")


def _validate_effect(c: Content, card: CrisisCard) -> None:
    """Advanced Rule 2: the bottom effect must be one the engine can apply."""
    e = card.effect
    expect(e.amount != 0, f"{card.id}: a bottom effect needs a non-zero amount")
    if e.kind == "market":
        expect(e.resource in c.resources, f"{card.id}: market effect needs a known resource")
    else:
        expect(e.resource == "", f"{card.id}: only a market effect names a resource")
    if e.kind == "damage":
        expect(e.amount > 0, f"{card.id}: damage must be positive")


SLOT: ContentSlot[Content] = ContentSlot("tauceti", Content, "ecliptic.tauceti.content", CONTENT_FILES, validate)
"""The content Tau Ceti plays in this process (:class:`~ecliptic.engine.content.ContentSlot`)."""

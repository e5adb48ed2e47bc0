"""The Tau Ceti game state: a mutable tree of plain dataclasses.

Everything a rule needs is here and nothing else: no caches that could drift
from the truth, so serialization, cloning and replay stay exact.

What changes every turn or two is mutable (hands, cubes and orbitals, the bag, the decision
stack); what changes a few times a game is immutable and replaced on change (piles and a
player's lists as tuples, tables as :class:`~ecliptic.engine.frozendict.FrozenDict`, frozen
``Point``, ``Holding`` and ``ActiveMission`` records), so that ``clone`` shares it: bots
clone a state thousands of times per decision (docs/performance.md, third and fourth
passes). Saves do not see the difference: tuples are JSON lists, FrozenDicts JSON tables. Hidden
information (hands, deck orders, face-down tokens, the bag) is stored plainly;
:mod:`ecliptic.tauceti.observation` decides who may see what.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from ecliptic.engine.codec import check_fields
from ecliptic.engine.frozendict import FrozenDict
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import Decision as Decision  # the stack's pending choices
from ecliptic.engine.rules import StackState
from ecliptic.tauceti.content import SLOT, Content, Faction, default_content

Phase = Literal["setup", "enlightenment", "action", "battle", "over"]
Layout = Literal["players", "random", "preset"]
GameLength = Literal["short", "full"]
TieBreak = Literal["shared", "tau"]


@dataclass(frozen=True)
class Config:
    """What the players agree on before the game begins."""

    players: int = 4
    factions: tuple[str, ...] = ()
    game: GameLength = "full"
    layout: Layout = "players"
    advanced: tuple[int, ...] = ()
    first_player: int = 0
    advanced_specialists: bool = False
    tie_break: TieBreak = "shared"
    """Tied players share the win (the rulebook names no tie-break), or ``tau``: most TAU,
    then most GP tokens, before sharing."""

    def __post_init__(self) -> None:
        check_fields(self)  # each value of its type, a choice among the ones listed
        if not 1 <= self.players <= 4:
            raise ValueError("Tau Ceti is a game for 1-4 players")
        if self.factions and len(self.factions) != self.players:
            raise ValueError("name one faction per player, or none to deal them at random")
        if len(set(self.factions)) != len(self.factions):
            raise ValueError("each faction can be played by one player only")
        if not 0 <= self.first_player < self.players:
            raise ValueError("first_player must be a seat of this game")
        for k, rule in enumerate(self.advanced):
            if not 1 <= rule <= 9:
                raise ValueError(f"there is no Advanced Rule {rule} (1-9)")
            if rule in self.advanced[:k]:  # else two configs, two game names, for one game
                raise ValueError(f"each Advanced Rule is named once, not {rule} twice")

    def has(self, advanced_rule: int) -> bool:
        return advanced_rule in self.advanced


@dataclass(frozen=True)
class Holding:
    """One Commodity token on a player's Interface; the column it sits in is ``quantity``.

    Frozen, like :class:`ActiveMission` and :class:`Point`: a change replaces the record
    (``dataclasses.replace``), so a clone shares these records instead of copying them (bots
    clone states thousands of times per decision)."""

    token: str
    quantity: int
    engineered: bool = False


@dataclass(frozen=True)
class ActiveMission:
    """An Interplanetary Mission on a player's Interface (frozen: replaced on change)."""

    card: str
    picked_up: bool = False
    unauthorized: bool = False
    last_attempt_turn: int = 0
    route: int | None = None
    permitted: bool = True


@dataclass
class Player:
    """One player's pieces. Lists that change a few times a game are tuples (``face_up``,
    ``holdings``, ``missions``, ``gp_tokens``, ``offers_made``), replaced on change so that
    clones share them."""

    seat: int
    faction: str
    tau: int
    energy: int
    materials: int
    position: str
    hand: list[str] = field(default_factory=list)
    face_up: tuple[str, ...] = ()
    knowledge: FrozenDict[str, int] = field(default_factory=FrozenDict)
    orbitals_home: int = 4
    systems_tokens: FrozenDict[str, str] = field(default_factory=FrozenDict)
    damage: FrozenDict[str, int] = field(default_factory=FrozenDict)
    holdings: tuple[Holding, ...] = ()
    missions: tuple[ActiveMission, ...] = ()
    gp_tokens: tuple[str, ...] = ()
    claim: str | None = None
    claim_turn: int = 0
    battle_sector: str | None = None
    battle_defender: int | None = None
    cargo_cube: bool = False
    diplomacy: bool = False
    free_upgrades: int = 0
    markers_used: int = 0
    markers_lost: int = 0
    passed: bool = False
    offers_made: tuple[int, ...] = ()
    exotic_tech: str | None = None
    virus: FrozenDict[str, int] = field(default_factory=FrozenDict)
    crises_resolved_since_loss: int = 0
    exotic_spent: bool = False
    exotic_reroll_round: int = 0


@dataclass(frozen=True)
class Point:
    """An Exploration point and the Knowledge token on it (``token`` is its type); frozen:
    replaced on change."""

    id: str
    sector: str
    token: str | None
    face_up: bool = False
    claimed_by: int | None = None
    explored_by: int | None = None


@dataclass
class Battle:
    sector: str
    initiator: int
    defender: int
    attacker: int = -1
    shields: dict[str, list[str]] = field(default_factory=dict)
    destroyed_at_start: dict[str, list[str]] = field(default_factory=dict)
    winner: int | None = None
    retreated: int | None = None


@dataclass
class Enlightenment:
    """The Enlightenment phase in progress. Its lists and tables are tuples and FrozenDicts,
    replaced on change, so that a clone copies only this record."""

    affected: str = ""
    active: tuple[str, ...] = ()
    played: FrozenDict[str, int] = field(default_factory=FrozenDict)
    next_seat: int = 0
    done: tuple[int, ...] = ()
    cards_by: FrozenDict[str, tuple[str, ...]] = field(default_factory=FrozenDict)
    resolved: bool = False


@dataclass
class State(StackState):
    """A whole game of Tau Ceti at one moment. The engine contract (``current_player``,
    ``is_over``, ``clone``, ``decision``, ``turn_order``) comes from
    :class:`ecliptic.engine.rules.StackState`."""

    config: Config
    rng: Rng
    players: list[Player]
    round: int = 0
    phase: Phase = "setup"
    first_player: int = 0
    turn_seat: int = 0
    turn_count: int = 0
    decisions_made: int = 0
    """Decisions taken so far (every applied action): the game ends at ``TauCeti.max_decisions``."""
    layout: FrozenDict[str, tuple[int, int]] = field(default_factory=FrozenDict)
    large_tile_stack: tuple[str, ...] = ()
    setup_seat: int = 0
    outer_limit_stack: tuple[str, ...] = ()
    outer_limit_knowledge: tuple[str, ...] = ()
    points: FrozenDict[str, Point] = field(default_factory=FrozenDict)
    cubes: dict[str, list[str]] = field(default_factory=dict)
    orbitals: dict[str, list[int]] = field(default_factory=dict)
    bag: list[str] = field(default_factory=list)
    depot_knowledge: FrozenDict[str, int] = field(default_factory=FrozenDict)
    depot_systems: tuple[str, ...] = ()
    planet_commodity: FrozenDict[str, str] = field(default_factory=FrozenDict)
    demand_pile: tuple[str, ...] = ()
    supply: tuple[str, ...] = ()
    market: FrozenDict[str, int] = field(default_factory=FrozenDict)
    market_raised: FrozenDict[str, int] = field(default_factory=FrozenDict)
    crisis_stacks: dict[str, tuple[str, ...]] = field(default_factory=dict)
    planet_crises: dict[str, tuple[str, ...]] = field(default_factory=dict)
    crisis_deck: tuple[str, ...] = ()
    crisis_discard: tuple[str, ...] = ()
    specialist_deck: tuple[str, ...] = ()
    specialist_discard: tuple[str, ...] = ()
    knowledge_deck: tuple[str, ...] = ()
    knowledge_discard: tuple[str, ...] = ()
    mission_deck: tuple[str, ...] = ()
    mission_discard: tuple[str, ...] = ()
    exotic_deck: tuple[str, ...] = ()
    diplomacy_left: int = 0
    gp_supply: tuple[str, ...] = ()
    damage_supply: int = 0
    virus_supply: int = 0
    virus_on: FrozenDict[str, int] = field(default_factory=FrozenDict)
    enlightenment: Enlightenment = field(default_factory=Enlightenment)
    battles: tuple[str, ...] = ()
    battle: Battle | None = None
    stack: list[Decision] = field(default_factory=list)
    final_scores: list[dict[str, int]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)

    # -- convenience views ---------------------------------------------------
    content: ClassVar[Content] = default_content()
    """The components, one immutable object shared by every state. A class attribute, not a
    property: the rules read it tens of times per decision. It is the content this process
    plays (``content.SLOT`` sets it), so a state is played under the content it was made with."""

    def faction(self, seat: int) -> Faction:
        return _FACTION[self.players[seat].faction]  # (content.faction, one call less)

    def seat_of_faction(self, name: str) -> int | None:
        for p in self.players:
            if p.faction == name:
                return p.seat
        return None


_FACTION: dict[str, Faction] = {}
"""The factions of the content played now by name (``content.faction``): the rules ask
:meth:`State.faction` a few times per decision."""


def _play(content: Content) -> None:
    State.content = content
    _FACTION.clear()
    _FACTION.update((f.name, f) for f in content.factions)


SLOT.follow(_play)

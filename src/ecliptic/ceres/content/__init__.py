"""The Ceres components as data, loaded from TOML files and validated at load.

``belt.toml`` holds the host game (a documented reconstruction of the parts of base Ceres
that the Comets expansion acts on) and ``comets.toml`` the expansion's components. The
rulebook gives the component counts; what the components depict is not public, so every
such value is marked ``stand_in`` in the files and listed in ``docs/rules-decisions.md (section Ceres)``.
An owner of the physical game can replace them with the printed values without touching
code: :func:`validate` checks that the replacement still fits the rules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from ecliptic.engine.content import ContentSlot, expect, load

TailType = Literal["Coma", "Ion", "Dust"]
CometKind = Literal["Sungrazer", "Near-sun"]
CheckResult = Literal["Safe", "Explosion"]

TAIL_TYPES: tuple[TailType, ...] = ("Coma", "Ion", "Dust")
"""A tail from top (just under the Nucleus card) to bottom: Coma, Ion, Dust Tail."""

CONTENT_FILES = ("belt", "comets")


@dataclass(frozen=True)
class BeltNumbers:
    """The host game's numbers (all but ``rounds`` and ``rings`` are stand-ins)."""

    rounds: int
    zones: int
    rings: list[str]
    rotation: dict[str, int]
    launch_ice: dict[str, int]
    resources: list[str]
    probes: int
    start_ice: int
    ice_income: int
    stand_in: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Asteroid:
    """One Asteroid on a ring position; ``position`` is the Zone it starts in."""

    id: str
    ring: str
    position: int
    resources: dict[str, int]
    vp: int
    income: dict[str, int]
    stand_in: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Surface:
    """The Surface cards: ``slots`` available by player count."""

    slots: dict[int, int]
    stand_in: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class TailToken:
    id: str
    tail: TailType
    resources: dict[str, int]
    vp: int
    stand_in: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ResourceTable:
    """One resource table of a Nucleus card: the Resources and Victory Points it depicts."""

    resources: dict[str, int]
    vp: int


@dataclass(frozen=True)
class NucleusCard:
    id: str
    kind: CometKind
    tables: list[ResourceTable]
    stand_in: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ExplosionCheck:
    id: str
    result: CheckResult
    stand_in: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Content:
    numbers: BeltNumbers
    asteroids: list[Asteroid]
    surface: Surface
    tail_tokens: list[TailToken]
    nucleus_cards: list[NucleusCard]
    explosion_checks: list[ExplosionCheck]

    # Look-ups built once; the content object is immutable and shared by all states.
    def __post_init__(self) -> None:
        object.__setattr__(self, "_asteroids", {a.id: a for a in self.asteroids})
        object.__setattr__(self, "_tails", {t.id: t for t in self.tail_tokens})
        object.__setattr__(self, "_nuclei", {n.id: n for n in self.nucleus_cards})
        object.__setattr__(self, "_checks", {c.id: c for c in self.explosion_checks})

    def asteroid(self, asteroid_id: str) -> Asteroid:
        return self._asteroids[asteroid_id]  # type: ignore[attr-defined, no-any-return]

    def is_asteroid(self, asteroid_id: str) -> bool:
        return asteroid_id in self._asteroids  # type: ignore[attr-defined]

    def tail_token(self, token_id: str) -> TailToken:
        return self._tails[token_id]  # type: ignore[attr-defined, no-any-return]

    def nucleus(self, card_id: str) -> NucleusCard:
        return self._nuclei[card_id]  # type: ignore[attr-defined, no-any-return]

    def explosion_check(self, card_id: str) -> ExplosionCheck:
        return self._checks[card_id]  # type: ignore[attr-defined, no-any-return]


def load_content(folder: Path | None = None) -> Content:
    """Load and validate the content data (the packaged files, or another folder's)."""
    return load(Content, "ecliptic.ceres.content", CONTENT_FILES, validate, folder)


def default_content() -> Content:
    """The content a new game gets in this process: the packaged stand-ins, unless
    ``ecliptic.games.using_content`` plays an owner's values."""
    return SLOT.active()


def _check_amounts(where: str, amounts: dict[str, int], c: Content) -> None:
    for resource, n in amounts.items():
        expect(resource in c.numbers.resources, f"{where}: unknown Resource {resource}")
        expect(n > 0, f"{where}: a depicted amount must be positive, got {resource} = {n}")


def validate(c: Content) -> None:
    """Cross-checks the schema alone cannot express: the rulebook's component counts, one
    Asteroid per ring position, Resources that exist, and what the Comets rules assume."""
    n = c.numbers
    expect(n.rounds == 3, "Ceres lasts 3 rounds")
    expect(n.rings == ["Outer", "Intermediate", "Inner"], "the three rings are Outer, Intermediate and Inner")
    expect(n.zones >= 5, "the Comets setup places Comet tokens next to Zones 3, 4 and 5")
    expect(set(n.rotation) == set(n.rings) and set(n.launch_ice) == set(n.rings),
            "rotation and launch_ice need a value for each ring")
    steps = [n.rotation[r] for r in n.rings]
    expect(all(s >= 0 for s in steps) and steps == sorted(steps), "inner rings rotate faster (or as fast)")
    costs = [n.launch_ice[r] for r in n.rings]
    expect(all(x >= 0 for x in costs) and costs == sorted(costs), "launching to farther rings costs more Ice")
    expect("Ice" in n.resources, "Launch is paid in Ice")
    expect(n.probes >= 1 and n.start_ice >= 0 and n.ice_income >= 0, "probes, start_ice and ice_income")
    ids = [a.id for a in c.asteroids]
    expect(len(ids) == len(set(ids)), "asteroid ids must be unique")
    for ring in n.rings:
        positions = sorted(a.position for a in c.asteroids if a.ring == ring)
        expect(positions == list(range(1, n.zones + 1)), f"the {ring} Ring needs one Asteroid in each Zone")
    expect(len(c.asteroids) == n.zones * len(n.rings), "every Asteroid must be on one of the three rings")
    for a in c.asteroids:
        _check_amounts(a.id, a.resources, c)
        _check_amounts(a.id, a.income, c)
        expect(a.vp >= 0, f"{a.id}: negative Victory Points")
    _validate_comets(c)


def _validate_comets(c: Content) -> None:
    expect(len(c.tail_tokens) == 18, "18 Tail tokens expected")
    for t in TAIL_TYPES:
        count = sum(1 for x in c.tail_tokens if x.tail == t)
        expect(count == 6, f"6 {t} Tail tokens expected (one under each of the 6 resource tables), found {count}")
    expect(len(c.nucleus_cards) == 8, "8 Nucleus cards expected")
    expect(len(c.explosion_checks) == 3, "3 Explosion Check cards expected")
    results = {x.result for x in c.explosion_checks}
    expect(results == {"Safe", "Explosion"}, "the Explosion Check cards need a Safe and an Explosion card")
    for ids in ([x.id for x in c.tail_tokens], [x.id for x in c.nucleus_cards], [x.id for x in c.explosion_checks]):
        expect(len(ids) == len(set(ids)), f"duplicate ids among {ids}")
    for card in c.nucleus_cards:
        expect(len(card.tables) == 3, f"{card.id}: a Nucleus card has three resource tables")
        for table in card.tables:
            _check_amounts(card.id, table.resources, c)
            expect(table.vp >= 0, f"{card.id}: negative Victory Points")
    for tok in c.tail_tokens:
        _check_amounts(tok.id, tok.resources, c)
        expect(tok.vp >= 0, f"{tok.id}: negative Victory Points")
    expect(sorted(c.surface.slots) == [1, 2, 3, 4], "Surface card slots are needed for 1-4 players")
    expect(all(1 <= s <= 3 for s in c.surface.slots.values()),
            "1-3 slots per Surface card: each tail has one token of each type, and three tails "
            "keep a token of the round's type for every probe on the comet")


SLOT: ContentSlot[Content] = ContentSlot("ceres", Content, "ecliptic.ceres.content", CONTENT_FILES, validate)
"""The content Ceres plays in this process (:class:`~ecliptic.engine.content.ContentSlot`)."""

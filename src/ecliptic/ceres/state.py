"""The Ceres game state: a mutable tree of plain dataclasses.

Everything a rule needs is here and nothing else, so serialization, cloning and replay
stay exact. Hidden information (the Nucleus cards returned to the box, the order of the
Explosion Check cards) is stored plainly; :mod:`ecliptic.ceres.observation` decides who
may see what.

Where things are: an Asteroid's probe is ``state.claims[asteroid] = seat``; the Asteroid's
Zone is computed from the ring's ``rotation`` (:mod:`ecliptic.ceres.belt`). A Comet's
Surface card slots hold seats; its three tails are columns of Tail token ids from top
(Coma, just under the Nucleus card) to bottom (Dust Tail), ``None`` where a token was taken
or removed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from ecliptic.ceres.content import SLOT, CometKind, Content, default_content
from ecliptic.engine.codec import check_fields
from ecliptic.engine.rng import Rng
from ecliptic.engine.rules import Decision as Decision  # the stack's pending choices
from ecliptic.engine.rules import StackState

Phase = Literal["setup", "belt", "production", "comets", "activation", "over"]

EXPANSIONS = ("comets",)


@dataclass(frozen=True)
class Config:
    """What the players agree on before the game begins."""

    players: int = 2
    expansions: tuple[str, ...] = ()
    first_player: int = 0

    def __post_init__(self) -> None:
        check_fields(self)  # each value of its type, a choice among the ones listed
        if not 1 <= self.players <= 4:
            raise ValueError("Ceres is played here by 1-4 players")
        for name in self.expansions:
            if name not in EXPANSIONS:
                raise ValueError(f"unknown expansion {name!r}; known: {', '.join(EXPANSIONS)}")
        if len(set(self.expansions)) != len(self.expansions):
            raise ValueError("name each expansion once")
        if not 0 <= self.first_player < self.players:
            raise ValueError("first_player must be a seat of this game")

    @property
    def comets(self) -> bool:
        return "comets" in self.expansions


@dataclass
class Player:
    seat: int
    resources: dict[str, int]
    probes: int
    """Mining Probes still in the player's supply."""
    vp: dict[str, int] = field(default_factory=dict)
    """Victory Points by source (``asteroids``, ``tail_tokens``, ``nucleus_tables``)."""
    tail_tokens: list[str] = field(default_factory=list)
    """Tail tokens taken in front of the player."""
    passed: bool = False

    @property
    def total_vp(self) -> int:
        return sum(self.vp.values())


@dataclass
class Comet:
    """One Comet: its Surface card (``id`` C1 is the left one), the Nucleus card revealed
    under it, its Comet token's place and its three tails."""

    id: str
    nucleus: str
    kind: CometKind
    """The side the Surface card and the Comet token show (the Nucleus card's colour)."""
    zone: int
    ring: str | None = None
    """``None`` while the token is outside the Asteroid Belt, next to its Zone."""
    removed: bool = False
    """The Comet token was removed from the Asteroid Belt (a Sungrazer that exploded)."""
    tails: list[list[str | None]] = field(default_factory=list)
    slots: list[int | None] = field(default_factory=list)
    """The Surface card's available slots, left to right: the seat whose Mining Probe is there."""
    chosen: list[int | None] = field(default_factory=list)
    """Per slot: the tail (0-2) of the Tail token its probe just chose in this Production phase."""

    @property
    def in_belt(self) -> bool:
        return self.ring is not None and not self.removed


@dataclass
class State(StackState):
    """A whole game of Ceres at one moment. The engine contract (``current_player``,
    ``is_over``, ``clone``, ``decision``, ``turn_order``) comes from
    :class:`ecliptic.engine.rules.StackState`."""

    config: Config
    rng: Rng
    players: list[Player]
    round: int = 0
    phase: Phase = "setup"
    first_player: int = 0
    turn_seat: int = 0
    rotation: dict[str, int] = field(default_factory=dict)
    """Steps each ring has turned since setup."""
    claims: dict[str, int] = field(default_factory=dict)
    """Asteroid id -> the seat whose Mining Probe claimed it."""
    comets: list[Comet] = field(default_factory=list)
    nucleus_box: list[str] = field(default_factory=list)
    """Nucleus cards returned to the game box face down (nobody sees them)."""
    explosion_deck: list[str] = field(default_factory=list)
    """The Explosion Check cards, face down; the first is drawn next."""
    removed_tails: list[str] = field(default_factory=list)
    """Tail tokens removed in a Production phase (out of the game)."""
    cursor_comet: int = 0
    cursor_slot: int = 0
    """Where the Production phase's Comet decisions have got to."""
    stack: list[Decision] = field(default_factory=list)
    final_scores: list[dict[str, int]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)

    # -- convenience views ---------------------------------------------------
    content: ClassVar[Content] = default_content()
    """The components, shared by every state: the content this process plays (``content.SLOT``
    sets it), a class attribute because the rules read it at every step."""

    def comet(self, comet_id: str) -> Comet | None:
        for c in self.comets:
            if c.id == comet_id:
                return c
        return None


def _play(content: Content) -> None:
    State.content = content


SLOT.follow(_play)

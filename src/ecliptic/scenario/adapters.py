"""What the scenario format needs to know about each game: one :class:`GameAdapter` per game.

The format itself (:mod:`ecliptic.scenario.format`) only walks dataclass trees and plays
actions through a game's public rules. Everything that depends on one game sits here: how
players are named (Tau Ceti by faction, Ceres ``P1``..``P4`` as its messages say "Player 1"),
which keys a table may have, computed values a scenario may expect (``gp.Xunon.total``,
``vp.P1.total``), extra ``script`` entries, how the game is set up and which components must
add up after every action.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from ecliptic.engine.actions import Action, ActionSpace
from ecliptic.engine.content import content_cache
from ecliptic.engine.errors import IllegalAction

Prime = Callable[[Any], None]
"""Called with a new state before the game's own setup makes its random choices, so that a
scenario's top-level ``script`` can steer them (see :attr:`GameAdapter.script_before_setup`)."""


def suggest(word: str, choices: Collection[str], what: str = "") -> str:
    """``; did you mean X?`` and, for short lists, every valid name."""
    names = sorted(str(c) for c in choices)
    close = difflib.get_close_matches(word, names, n=3, cutoff=0.6)
    if not close:
        lowered = {n.lower(): n for n in names}
        if word.lower() in lowered:
            close = [lowered[word.lower()]]
    out = f"; did you mean {' or '.join(close)}?" if close else ""
    if names and len(names) <= 24:
        out += f" ({what or 'valid'}: {', '.join(names)})"
    return out


@dataclass(frozen=True)
class Virtual:
    """A computed, read-only value a scenario may expect (``gp.Xunon.total``).

    ``params`` are the path parts that follow the name: ``"player"`` (a player's name or
    seat) or the name of a key domain of the adapter (``"tile"``)."""

    params: tuple[str, ...]
    type: Any
    get: Callable[[Any, tuple[Any, ...]], Any]
    doc: str


@dataclass(frozen=True)
class ScriptKey:
    """An extra ``script`` entry of one game (``bag_draw: [Xunon]``): ``load`` scripts the
    randomness for one value now, or raises ``ValueError`` with a message for the player."""

    load: Callable[[Any, str], None]
    doc: str


class GameAdapter(Protocol):
    """What the scenario format needs to know about one game."""

    name: str
    state_type: type
    config_type: type
    player_list: str
    aliases: Mapping[str, str]
    virtuals: Mapping[str, Virtual]
    script_keys: Mapping[str, ScriptKey]
    script_before_setup: bool
    """True: the top-level ``script`` is loaded before the game is set up, because the game's
    only random choices are made while setting up (Ceres). False: it is loaded after the
    scenario's ``setup`` (Tau Ceti, whose ``bag_draw`` depends on what the setup put in the bag)."""

    def rules(self) -> Any:
        """The game's rules object (``new_game``, ``apply``, ``why_not``, ``to_json``, ...)."""

    def action_space(self) -> ActionSpace: ...

    def new_state(self, config: dict[str, Any], seed: int, prime: Prime | None = None) -> Any:
        """A new game; ``prime`` (only when :attr:`script_before_setup`) is called with the
        state before the setup's random choices."""

    def check_config(self, config: dict[str, Any]) -> list[tuple[str, str]]:
        """Problems (path in the config, message) worth a better message than the config type's."""

    def player_names(self, config: dict[str, Any]) -> list[str] | None:
        """The names players are addressed by, when the config fixes them."""

    def player_count(self, config: dict[str, Any]) -> int | None: ...

    def seat(self, state: Any, name: str) -> int | None: ...

    def players_in(self, state: Any) -> list[str]:
        """The names of the players of a running game, by seat."""

    def player_label(self, state: Any, seat: int | None) -> str: ...

    def decision_label(self, state: Any) -> str: ...

    def domain(self, name: str) -> Collection[str] | None:
        """Valid keys of a table (by pattern, ``players.*.damage``) or of a parameter kind."""

    def refusal(self, state: Any, action: Action) -> IllegalAction | None: ...

    def problems(self, state: Any) -> list[str]:
        """Component-conservation problems of a state (empty when sound)."""


def _path_problem(message: str) -> Exception:
    """A :class:`~ecliptic.scenario.format.PathProblem` that is the scenario's fault (imported
    here when needed: the format module imports this one)."""
    from ecliptic.scenario.format import PathProblem

    return PathProblem(message, scenario_fault=True)


# -- Tau Ceti -------------------------------------------------------------------------------------


class TauCetiAdapter:
    """Tau Ceti: players by faction name, GP by ``scoring.score``, ``bag_draw`` scripting."""

    name = "tauceti"
    player_list = "players"
    script_before_setup = False
    aliases: Mapping[str, str] = {
        **{f"decks.{d}": f"{d}_deck" for d in ("crisis", "specialist", "knowledge", "mission", "exotic")},
        **{f"discards.{d}": f"{d}_discard" for d in ("crisis", "specialist", "knowledge", "mission")},
        "decks.outer_limit": "outer_limit_stack",
    }

    def __init__(self) -> None:
        from ecliptic.tauceti.game import TauCeti
        from ecliptic.tauceti.state import Config, State

        self._rules = TauCeti()
        self.state_type: type = State
        self.config_type: type = Config
        self.virtuals: Mapping[str, Virtual] = self._virtuals()
        self.script_keys: Mapping[str, ScriptKey] = {
            "bag_draw": ScriptKey(self._bag_draw, "the colour of the next Resource cube drawn from the "
                                  "Enlightenment bag"),
        }

    # -- the game -------------------------------------------------------------------
    def rules(self) -> Any:
        return self._rules

    def action_space(self) -> ActionSpace:
        return self._rules.action_space()

    def new_state(self, config: dict[str, Any], seed: int, prime: Prime | None = None) -> Any:
        state = self._rules.new_game(config, seed)
        if prime is not None:
            prime(state)
        return state

    def refusal(self, state: Any, action: Action) -> IllegalAction | None:
        return self._rules.why_not(state, action)

    def problems(self, state: Any) -> list[str]:
        from ecliptic.tauceti.invariants import problems

        return problems(state)

    # -- the config and the players -------------------------------------------------------
    def _faction_names(self) -> list[str]:
        from ecliptic.tauceti.content import default_content

        return [f.name for f in default_content().factions]

    def check_config(self, config: dict[str, Any]) -> list[tuple[str, str]]:
        names = self._faction_names()
        out = []
        factions = config.get("factions", [])
        if isinstance(factions, list):
            for i, name in enumerate(factions):
                if isinstance(name, str) and name not in names:
                    out.append((f"factions[{i}]", f"there is no faction {name!r}" + suggest(name, names, "factions")))
        return out

    def player_names(self, config: dict[str, Any]) -> list[str] | None:
        factions = config.get("factions")
        return [str(f) for f in factions] if isinstance(factions, list) and factions else None

    def player_count(self, config: dict[str, Any]) -> int | None:
        players = config.get("players", 4)
        return players if isinstance(players, int) else None

    def seat(self, state: Any, name: str) -> int | None:
        if name.isdigit():
            return int(name) if int(name) < len(state.players) else None
        seat: int | None = state.seat_of_faction(name)
        return seat

    def players_in(self, state: Any) -> list[str]:
        return [p.faction for p in state.players]

    def player_label(self, state: Any, seat: int | None) -> str:
        return "nobody" if seat is None else f"{state.players[seat].faction} (seat {seat})"

    def decision_label(self, state: Any) -> str:
        if state.is_over:
            return "the game is over"
        d = state.stack[-1]
        return f"{state.players[d.player].faction} is to decide ({d.kind})"

    # -- names of things --------------------------------------------------------------------
    def domain(self, name: str) -> Collection[str] | None:
        return _tauceti_domains().get(name)

    @staticmethod
    def _virtuals() -> dict[str, Virtual]:
        from ecliptic.tauceti import board, scoring, ship, tracks

        def systems(fn: Callable[[Any, int, str], int]) -> Callable[[Any, tuple[Any, ...]], Any]:
            return lambda s, a: {x: fn(s, a[0], x) for x in s.content.systems}

        return {
            "gp": Virtual(("player",), dict[str, int], lambda s, a: scoring.score(s, a[0]),
                          "Galactic Points by source (tau, cards, orbitals, cubes, gp_tokens, assists) "
                          "and total, as the end of the game counts them"),
            "power": Virtual(("player",), dict[str, int], systems(ship.power),
                             "each system's printed power (Interface or System Upgrade token)"),
            "effective": Virtual(("player",), dict[str, int], systems(ship.effective),
                                 "each system's power left after Damage markers and virus crystals"),
            "markers_left": Virtual(("player",), int, lambda s, a: tracks.markers_left(s, a[0]),
                                    "Action markers the player has not used this round"),
            "controllers": Virtual(("tile",), list[str],
                                   lambda s, a: sorted(s.players[x].faction for x in board.controllers(s, a[0])),
                                   "factions with Economic Influence in a sector"),
            "current_player": Virtual((), str | None,
                                      lambda s, a: None if s.current_player is None
                                      else s.players[s.current_player].faction,
                                      "the faction whose decision is pending (null when the game is over)"),
            "decision": Virtual((), str | None, lambda s, a: s.stack[-1].kind if s.stack else None,
                                "the kind of the pending decision (turn, move, damage, claim, ...)"),
            "legal": Virtual((), list[str], lambda s, a: [str(x) for x in TauCetiAdapter._legal(s)],
                             "every legal action now, in notation"),
        }

    @staticmethod
    def _legal(state: Any) -> list[Action]:
        from ecliptic.tauceti.game import TauCeti

        return TauCeti().legal_actions(state)

    @staticmethod
    def _bag_draw(state: Any, colour: str) -> None:
        if colour not in state.bag:
            raise ValueError(f"no {colour} Resource cube is in the Enlightenment bag now"
                             + suggest(colour, set(state.bag), "colours in the bag"))
        state.rng.script_choices([state.bag.index(colour)])


@content_cache
def _tauceti_domains() -> dict[str, Collection[str]]:
    from ecliptic.tauceti.actions.exploration import point_ids
    from ecliptic.tauceti.content import default_content
    from ecliptic.tauceti.scoring import SOURCES

    c = default_content()
    tiles = [t.id for t in c.tiles]
    systems = list(c.systems)
    types_ = list(c.knowledge_types)
    seats = [str(s) for s in range(4)]
    gp = [*SOURCES, "total"]
    return {
        "tile": tiles,
        **dict.fromkeys(("layout", "cubes", "orbitals", "planet_crises", "planet_commodity", "virus_on"), tiles),
        **dict.fromkeys(("market", "market_raised"), tuple(c.resources)),
        **dict.fromkeys(("crisis_stacks", "depot_knowledge", "players.*.knowledge"), types_),
        **dict.fromkeys(("players.*.damage", "players.*.virus", "players.*.systems_tokens",
                         "power.*", "effective.*"), systems),
        "points": list(point_ids(c)),
        **dict.fromkeys(("enlightenment.played", "enlightenment.cards_by", "battle.shields",
                         "battle.destroyed_at_start"), seats),
        **dict.fromkeys(("gp.*", "final_scores.*"), gp),
    }


# -- Ceres ------------------------------------------------------------------------------------------

CERES_PLAYER = re.compile(r"P([1-9])")


class CeresAdapter:
    """Ceres (with the Comets expansion when the config names it): players ``P1``..``P4`` or by
    seat, Comets by Surface card (``comets.C1``), VP by ``scoring.score``, and a top-level
    ``script`` that steers the random placement of the Comet tokens at setup."""

    name = "ceres"
    player_list = "players"
    script_before_setup = True
    aliases: Mapping[str, str] = {"comets.C1": "comets.0", "comets.C2": "comets.1"}

    def __init__(self) -> None:
        from ecliptic.ceres.game import Ceres
        from ecliptic.ceres.state import Config, State

        self._rules = Ceres()
        self.state_type: type = State
        self.config_type: type = Config
        self.virtuals: Mapping[str, Virtual] = self._virtuals()
        self.script_keys: Mapping[str, ScriptKey] = {}

    # -- the game -------------------------------------------------------------------
    def rules(self) -> Any:
        return self._rules

    def action_space(self) -> ActionSpace:
        return self._rules.action_space()

    def new_state(self, config: dict[str, Any], seed: int, prime: Prime | None = None) -> Any:
        """The state ``Ceres().new_game(config, seed)`` builds, with ``prime`` called between the
        host game's setup (which draws nothing at random) and the Comets' four setup steps, whose
        random placement of two Sungrazers or two Near-suns is a scripted choice
        (``rng.below(2)``). tests/test_scenario_runner.py checks that without a script the two
        are the same state."""
        from ecliptic.ceres import comets, phases, setup
        from ecliptic.ceres.game import make_config

        full = make_config(config)
        ev: list[Any] = []
        state = setup.new_state(dataclasses.replace(full, expansions=()), seed, ev)
        state.config = full
        if prime is not None:
            prime(state)
        if full.comets:
            comets.setup(state, ev)
        phases.advance(state, ev)
        return state

    def refusal(self, state: Any, action: Action) -> IllegalAction | None:
        return self._rules.why_not(state, action)

    def problems(self, state: Any) -> list[str]:
        from ecliptic.ceres.invariants import problems

        return problems(state)

    # -- the config and the players -------------------------------------------------------
    def check_config(self, config: dict[str, Any]) -> list[tuple[str, str]]:
        from ecliptic.ceres.state import EXPANSIONS

        out: list[tuple[str, str]] = []
        expansions = config.get("expansions", [])
        if isinstance(expansions, list):
            for i, name in enumerate(expansions):
                if isinstance(name, str) and name not in EXPANSIONS:
                    out.append((f"expansions[{i}]", f"there is no expansion {name!r}"
                                + suggest(name, EXPANSIONS, "expansions")))
        players = config.get("players", 2)
        if isinstance(players, int) and not 1 <= players <= 4:
            out.append(("players", f"Ceres is played here by 1-4 players, not {players}"))
        return out

    def player_names(self, config: dict[str, Any]) -> list[str] | None:
        count = self.player_count(config)
        return None if count is None else [f"P{seat + 1}" for seat in range(count)]

    def player_count(self, config: dict[str, Any]) -> int | None:
        players = config.get("players", 2)
        return players if isinstance(players, int) else None

    def seat(self, state: Any, name: str) -> int | None:
        count = len(state.players)
        if name.isdigit():
            return int(name) if int(name) < count else None
        m = CERES_PLAYER.fullmatch(name)
        if m is not None and int(m.group(1)) <= count:
            return int(m.group(1)) - 1
        return None

    def players_in(self, state: Any) -> list[str]:
        return [f"P{seat + 1}" for seat in range(len(state.players))]

    def player_label(self, state: Any, seat: int | None) -> str:
        return "nobody" if seat is None else f"P{seat + 1} (seat {seat})"

    def decision_label(self, state: Any) -> str:
        if state.is_over:
            return "the game is over"
        d = state.stack[-1]
        on = f" on Comet {d.data['comet']}" if "comet" in d.data else ""
        return f"P{d.player + 1} is to decide ({d.kind}{on})"

    # -- names of things --------------------------------------------------------------------
    def domain(self, name: str) -> Collection[str] | None:
        return _ceres_domains().get(name)

    @staticmethod
    def _virtuals() -> dict[str, Virtual]:
        from ecliptic.ceres import belt, scoring

        def name(seat: int | None) -> str | None:
            return None if seat is None else f"P{seat + 1}"

        return {
            "vp": Virtual(("player",), dict[str, int], lambda s, a: scoring.score(s, a[0]),
                          "Victory Points by source (asteroids, tail_tokens, nucleus_tables) and total, "
                          "as the end of the game counts them"),
            "zone": Virtual(("asteroid",), int, lambda s, a: belt.zone_of(s, a[0]),
                            "the Zone an Asteroid is in now (the rings turn; the Zones stay)"),
            "asteroids_in_zone": Virtual(("zone",), list[str],
                                         lambda s, a: belt.asteroids_in_zone(s, int(a[0])),
                                         "the Asteroids of every ring in a Zone now, outermost ring first"),
            "claimed_by": Virtual(("asteroid",), str | None, lambda s, a: name(s.claims.get(a[0])),
                                  "the player whose Mining Probe is on an Asteroid (null: available)"),
            "surface": Virtual(("comet",), list[str | None],
                               lambda s, a: [name(x) for x in CeresAdapter._comet(s, a[0]).slots],
                               "the players on a Comet's Surface card slots, left to right (null: free)"),
            "lowest_tails": Virtual(("comet",), list[str], lambda s, a: CeresAdapter._lowest(s, a[0]),
                                    "the lowest available Tail tokens of a Comet, by tail: what a probe "
                                    "that stays chooses from"),
            "in_belt": Virtual(("comet",), bool, lambda s, a: bool(CeresAdapter._comet(s, a[0]).in_belt),
                               "the Comet token is in the Asteroid Belt (entered and not exploded)"),
            "current_player": Virtual((), str | None, lambda s, a: name(s.current_player),
                                      "the player whose decision is pending (null when the game is over)"),
            "decision": Virtual((), str | None, lambda s, a: s.stack[-1].kind if s.stack else None,
                                "the kind of the pending decision: turn, comet_probe or tail"),
            "legal": Virtual((), list[str], lambda s, a: [str(x) for x in CeresAdapter._legal(s)],
                             "every legal action now, in notation"),
        }

    @staticmethod
    def _comet(state: Any, comet_id: str) -> Any:
        comet = state.comet(comet_id)
        if comet is None:
            raise _path_problem(f"there is no Comet {comet_id} in this game (is the Comets expansion "
                                "in the config?)")
        return comet

    @staticmethod
    def _lowest(state: Any, comet_id: str) -> list[str]:
        from ecliptic.ceres.comets import lowest_tokens

        comet = CeresAdapter._comet(state, comet_id)
        return [comet.tails[tail][row] for tail, row in sorted(lowest_tokens(comet).items())]

    @staticmethod
    def _legal(state: Any) -> list[Action]:
        from ecliptic.ceres.game import Ceres

        return Ceres().legal_actions(state)


@content_cache
def _ceres_domains() -> dict[str, Collection[str]]:
    from ecliptic.ceres.comets import SURFACE_CARDS
    from ecliptic.ceres.content import default_content
    from ecliptic.ceres.scoring import SOURCES

    c = default_content()
    asteroids = [a.id for a in c.asteroids]
    vp = [*SOURCES, "total"]
    return {
        **dict.fromkeys(("asteroid", "claims"), asteroids),
        "zone": [str(z) for z in range(1, c.numbers.zones + 1)],
        "comet": list(SURFACE_CARDS),
        "rotation": list(c.numbers.rings),
        "players.*.resources": list(c.numbers.resources),
        "players.*.vp": list(SOURCES),
        **dict.fromkeys(("vp.*", "final_scores.*"), vp),
    }


ADAPTERS: dict[str, Callable[[], GameAdapter]] = {"tauceti": TauCetiAdapter, "ceres": CeresAdapter}


@cache
def adapter_for(game: str) -> GameAdapter:
    """The adapter of a game by name; ``KeyError`` if the format does not know the game."""
    return ADAPTERS[game]()

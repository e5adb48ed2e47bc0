"""Tau Ceti and Ceres as OpenSpiel games: ``import ecliptic.adapters.openspiel`` registers them.

    import pyspiel
    import ecliptic.adapters.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("python_ecliptic_tauceti", {"players": 4, "game": "short"})
    game = pyspiel.load_game("python_ecliptic_ceres", {"players": 3, "expansions": "comets"})

Parameters (names stable; OpenSpiel parameters are int, bool or string, so a list is a
string, its items separated by ``,`` or, in ``load_game``'s text form, ``;``:
``"python_ecliptic_tauceti(players=2,advanced=1;5)"``):

``python_ecliptic_tauceti``
    ``players`` (int, 4), ``game`` ("full" | "short"), ``layout`` ("players" | "random" |
    "preset"), ``advanced`` (the Advanced Rules, "1,2,5" or "all"; "" none),
    ``advanced_specialists`` (bool), ``factions`` ("Xunon,Azars"; "" deals them at random),
    ``tie_break`` ("shared" | "tau"), ``first_player`` (int, 0), ``seed`` (int, 0),
    ``reseed_clones`` (bool, false).
``python_ecliptic_ceres``
    ``players`` (int, 2), ``expansions`` ("comets"; "" none), ``first_player`` (int, 0),
    ``seed`` (int, 0), ``reseed_clones`` (bool, false).

A bad value is refused when the game is loaded, with the engine's message.

The adapter translates and decides nothing (docs/adapters-openspiel.md):

* **Chance: SAMPLED_STOCHASTIC.** The engine rolls its dice and draws its cards inside
  ``apply`` from the generator in the state (a Move's hazard roll, a skill check, a battle's
  dice happen within the player's action), so there are no chance nodes to offer; the game
  type says so instead of pretending to list outcomes. As OpenSpiel's sampled-stochastic games
  do, the loaded game keeps a generator: the first initial state is the game of ``seed``, each
  later one the next deal of a generator ``seed`` started (episodes differ and replay).
* **Clones are exact by default.** OpenSpiel's ``random_sim_test`` clones before every
  decision and requires the clone, given the same action, to reach the same state
  (``ApplyActionTestClone``); with dice rolled inside ``apply`` that means sharing the future.
  OpenSpiel's imperfect-information search does not clone the true state to search:
  ``resample_from_infostate`` gives it a world re-dealt by the engine's ``determinize``, whose
  hidden cards and future dice come from the sampler alone. ``reseed_clones=true`` makes
  every clone a ``G.reseed`` copy (same past and hands, future dice and undrawn piles
  re-drawn) for perfect-information search such as ``MCTSBot``, at the price of
  ``random_sim_test``'s clone check.
* **Information state** is the seat's perfect recall (:mod:`ecliptic.engine.recall`): the
  string is its digest and the observation, the tensor the observation tensor and the ids the
  seat has seen. **Observation** is ``G.observe(state, seat)``: its canonical JSON, and its
  tensor from :mod:`ecliptic.adapters.observation` (built from that dict only).
* **Serialization** is ``G.to_json``/``G.from_json`` and the recall's items (OpenSpiel pickles
  the Python state's attributes; each one pickles through these). ``pyspiel``'s
  ``serialize_game_and_state`` needs a sampled-stochastic game's RNG state, which open-spiel
  2.0.2 does not ask a Python game for: it fails for every such game; this module's
  :func:`serialize_game_and_state` writes the same text (without the RNG section), which
  ``pyspiel.deserialize_game_and_state`` reads back.
* **Search** is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (with
  ``allow_inconsistent_action_sets=True``; :func:`seeded_resampler` makes a match replay). The
  C++ ``pyspiel.ISMCTSBot`` and ``MCTSBot`` crash on any Python game in open-spiel 2.0.2
  (their ``step`` releases the GIL, then calls into Python).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyspiel

from ecliptic.adapters.observation import advanced_rules, encoder
from ecliptic.engine.actions import Action, ActionSpace
from ecliptic.engine.content import content_cache
from ecliptic.engine.errors import EclipticError, IllegalAction
from ecliptic.engine.events import Event
from ecliptic.engine.recall import Recall, SeatRecall
from ecliptic.engine.rng import Rng
from ecliptic.games import get_game

TAUCETI = "python_ecliptic_tauceti"
CERES = "python_ecliptic_ceres"

_TAUCETI_PARAMETERS: dict[str, Any] = {
    "players": 4, "game": "full", "layout": "players", "advanced": "", "advanced_specialists": False,
    "factions": "", "tie_break": "shared", "first_player": 0, "seed": 0, "reseed_clones": False,
}
_CERES_PARAMETERS: dict[str, Any] = {
    "players": 2, "expansions": "", "first_player": 0, "seed": 0, "reseed_clones": False,
}
_ADAPTER_ONLY = ("seed", "reseed_clones")
_SERIALIZED = ("history=", "move_number=", "__dict__=")
"""The three lines of a Python state's ``serialize()`` (OpenSpiel's bridge: the history, the
move number and the state's attributes pickled)."""
_LISTS = ("advanced", "factions", "expansions")


def _names(text: str) -> list[str]:
    """A list parameter: ``,`` or ``;`` between the items (``;`` in ``load_game``'s text form,
    where a comma starts the next parameter)."""
    return [part.strip() for part in text.replace(";", ",").split(",") if part.strip()]


def engine_config(short_name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's config table for a loaded game's parameters."""
    config = {k: v for k, v in params.items() if k not in _ADAPTER_ONLY}
    if short_name == TAUCETI:
        config["advanced"] = advanced_rules(str(config.get("advanced", "")))
        config["factions"] = _names(str(config.get("factions", "")))
    else:
        config["expansions"] = _names(str(config.get("expansions", "")))
    return config


# -- what the whole adapter shares per game and config ---------------------------------------


@dataclass(eq=False)
class Spec:
    """One config's rules, engine config and derived sizes, whatever the seed: shared by every
    state of every game loaded with these parameters. OpenSpiel deep-copies a Python state's
    attributes to clone it, so this object copies as itself, and pickles as its parameters."""

    short_name: str
    params: dict[str, Any]
    """The parameters but ``seed`` (which deals are played is the loaded game's)."""
    config: dict[str, Any] = field(init=False)
    rules: Any = field(init=False)
    space: ActionSpace = field(init=False)
    players: int = field(init=False)
    encoder: Any = field(init=False)
    """The observation tensor (:func:`ecliptic.adapters.observation.encoder`) and its recall
    vector (one entry per card and token id): the info-state tensor's second slice."""

    def __post_init__(self) -> None:
        self.rules = get_game("tauceti" if self.short_name == TAUCETI else "ceres")
        try:  # every bad value is refused alike, named by the game it was given to
            self.config = engine_config(self.short_name, self.params)
            state = self.rules.new_game(self.config, 0)  # checks the config (the seed cannot make it bad)
        except (ValueError, EclipticError) as exc:
            raise ValueError(f"{self.short_name}: {exc}") from None
        self.players = len(state.players)
        self.space = self.rules.action_space(state)
        self.encoder = encoder(self.rules.name, self.config)

    def deal(self, seed: int) -> tuple[Any, Recall]:
        """The game of ``seed`` (``G.new_game``) and every seat's recall of its setup."""
        state, events = self.rules.new_game_events(self.config, seed)
        return state, Recall.start(self.players, events)

    def __deepcopy__(self, memo: dict[int, Any]) -> Spec:
        return self

    def __reduce__(self) -> tuple[Callable[..., Spec], tuple[str, str]]:
        return spec_of, (self.short_name, json.dumps(self.params, sort_keys=True))


@content_cache
def _spec(short_name: str, params_json: str) -> Spec:
    return Spec(short_name, json.loads(params_json))


def spec_of(short_name: str, params_json: str) -> Spec:
    """The (cached) spec of a game and its parameters but ``seed``, as JSON: one per config,
    however many seeds are loaded."""
    return _spec(short_name, params_json)


def canonical_parameters(params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters with each list written with ``;`` (``"1,5"`` as ``"1;5"``, a lone
    ``"5"`` as ``"5;"``), so ``str(game)``, OpenSpiel's text form, loads the same game again:
    there a comma starts the next parameter and a lone number is an int."""
    out = dict(params)
    for key in _LISTS:
        value = out.get(key)
        if isinstance(value, str) and value.strip().lower() != "all":
            items = _names(value)
            out[key] = ";".join(items) + (";" if len(items) == 1 else "")
    return out


# -- the engine state and the recall, as OpenSpiel copies and pickles them --------------------


class Core:
    """The engine state inside an OpenSpiel state. ``deepcopy`` (OpenSpiel's clone) is the
    engine's cheap ``clone``, or a ``G.reseed`` copy with ``reseed_clones``, whose generator
    is this core's own clone stream (never the state's: a clone must not consume the game's
    dice); pickling is ``G.to_json``.

    OpenSpiel asks for the same state's text and each seat's observation several times
    between two actions (its tests compare strings, tensors and strings of every seat), so
    both are kept until :meth:`apply` changes the state."""

    __slots__ = ("clones", "spec", "state", "tensors", "text", "views")

    def __init__(self, spec: Spec, state: Any, clones: Rng) -> None:
        self.spec, self.state, self.clones = spec, state, clones
        self.text: str | None = None
        self.views: dict[int | None, dict[str, Any]] = {}
        self.tensors: dict[int | None, np.ndarray] = {}

    def apply(self, action: Action) -> list[Event]:
        self.text = None
        self.views, self.tensors = {}, {}
        events: list[Event] = self.spec.rules.apply(self.state, action)
        return events

    def observe(self, player: int | None) -> dict[str, Any]:
        view = self.views.get(player)
        if view is None:
            view = self.views[player] = self.spec.rules.observe(self.state, player)
        return view

    def __str__(self) -> str:
        if self.text is None:
            self.text = json.dumps(self.spec.rules.to_json(self.state), sort_keys=True, separators=(",", ":"))
        return self.text

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        if self.spec.params["reseed_clones"]:
            rng = Rng.from_seed(self.clones.next_u64())
            return Core(self.spec, self.spec.rules.reseed(self.state, rng), Rng.from_seed(rng.next_u64()))
        copy = Core(self.spec, self.state.clone(), self.clones.copy())
        # The same state: the same text, views and tensors (none of them is ever mutated).
        copy.text, copy.views, copy.tensors = self.text, self.views, self.tensors
        return copy

    def __reduce__(self) -> tuple[Callable[..., Core], tuple[Spec, str, int]]:
        return _core_from_json, (self.spec, str(self), self.clones.state)


def _core_from_json(spec: Spec, text: str, clones: int) -> Core:
    return Core(spec, spec.rules.from_json(json.loads(text)), Rng.from_seed(clones))


class RecallBox:
    """The recall inside an OpenSpiel state: immutable, so a clone shares it; pickled as each
    seat's items (a linked list thousands of nodes deep would overflow pickle's recursion)."""

    __slots__ = ("recall",)

    def __init__(self, recall: Recall) -> None:
        self.recall = recall

    def __deepcopy__(self, memo: dict[int, Any]) -> RecallBox:
        return self

    def __reduce__(self) -> tuple[Callable[..., RecallBox], tuple[list[list[str]], list[str]]]:
        return _recall_from_items, ([seat.items() for seat in self.recall.seats], self.recall.public.items())


def _recall_from_items(items: list[list[str]], public: list[str]) -> RecallBox:
    return RecallBox(Recall.of([SeatRecall().add(seat) for seat in items], SeatRecall().add(public)))


# -- observations ---------------------------------------------------------------------------


def observation_string(core: Core, player: int | None) -> str:
    return json.dumps(core.observe(player), sort_keys=True, separators=(",", ":"))


def observation_tensor(core: Core, player: int | None) -> np.ndarray:
    tensor = core.tensors.get(player)
    if tensor is None:
        tensor = core.tensors[player] = core.spec.encoder.tensor(core.state, player)
    return tensor


class Observer:
    """OpenSpiel's PyObserver for one observation type: the observation (``perfect_recall``
    false) or the information state (true: the observation followed by the ids seen); of the
    seat (private information of a single player) or of a spectator (no private information:
    ``G.observe(state, None)`` and the public record). Other types are not offered."""

    def __init__(self, spec: Spec, iig_obs_type: Any = None) -> None:
        self.spec = spec
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None:
            if not iig_obs_type.public_info or iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError(f"{spec.short_name} offers a seat's or a spectator's observation (public_info with "
                                 f"private_info SINGLE_PLAYER or NONE), not public_info={iig_obs_type.public_info}, "
                                 f"private_info={iig_obs_type.private_info.name}")
            private = iig_obs_type.private_info
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        enc = spec.encoder
        pieces = [("observation", enc.size)] + ([("seen_ids", enc.recall_size)] if self.perfect_recall else [])
        self.tensor = np.zeros(sum(n for _, n in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for name, n in pieces:
            self.dict[name] = self.tensor[start:start + n]
            start += n

    def _recall(self, state: EclipticState, player: int) -> SeatRecall:
        recall = state._recall.recall
        return recall[player] if self.private else recall.public

    def set_from(self, state: EclipticState, player: int) -> None:
        self.tensor.fill(0)
        self.dict["observation"][:] = observation_tensor(state._core, player if self.private else None)
        if self.perfect_recall:
            self.dict["seen_ids"][:] = self.spec.encoder.encode_recall(self._recall(state, player).seen_ids)

    def string_from(self, state: EclipticState, player: int) -> str:
        obs = observation_string(state._core, player if self.private else None)
        if self.perfect_recall:
            return f"{self._recall(state, player).hexdigest} {obs}"
        return obs


# -- the OpenSpiel classes --------------------------------------------------------------------


def _game_type(short_name: str, long_name: str, parameters: dict[str, Any], general_sum: bool) -> Any:
    utility = pyspiel.GameType.Utility.GENERAL_SUM if general_sum else pyspiel.GameType.Utility.CONSTANT_SUM
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


_TYPES = {
    TAUCETI: ("Ecliptic: Tau Ceti: Planetary Crisis", _TAUCETI_PARAMETERS),
    CERES: ("Ecliptic: Ceres (Comets)", _CERES_PARAMETERS),
}


class EclipticGame(pyspiel.Game):  # type: ignore[misc]
    """One loaded game; its type and info are read off the engine (``utility``,
    ``max_decisions``, the action space)."""

    short_name = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        long_name, defaults = _TYPES[self.short_name]
        given = canonical_parameters(params or {})
        merged = {**defaults, **given}
        spec = spec_of(self.short_name, json.dumps({k: v for k, v in merged.items() if k != "seed"}, sort_keys=True))
        utility = spec.rules.utility(spec.config)
        game_type = _game_type(self.short_name, long_name, defaults, general_sum=utility.kind == "general_sum")
        info = pyspiel.GameInfo(
            num_distinct_actions=len(spec.space),
            max_chance_outcomes=0,
            num_players=spec.players,
            min_utility=utility.min,
            max_utility=utility.max,
            utility_sum=utility.sum,
            max_game_length=spec.rules.max_decisions(spec.config),
        )
        super().__init__(game_type, info, given)
        self.spec = spec
        seed = int(merged["seed"])
        self._deal = seed
        self._deals = random.Random(seed)

    def new_initial_state(self) -> EclipticState:
        """The next deal: the first is the game of ``seed`` (``G.new_game(config, seed)``), each
        later one the game of the next seed of a generator ``seed`` started, as OpenSpiel's
        sampled-stochastic games keep a generator in the game. A training loop's episodes then
        differ, and a game loaded with the same seed deals the same episodes in the same order
        (the same games as the PettingZoo and Gymnasium environments' resets after
        ``reset(seed=seed)``)."""
        seed, self._deal = self._deal, self._deals.getrandbits(63)
        return EclipticState(self, self.spec, seed)

    def get_rng_state(self) -> str:
        """The deal generator's state (OpenSpiel's name): the next deal's seed and the generator."""
        version, internal, gauss = self._deals.getstate()
        return json.dumps([self._deal, version, list(internal), gauss])

    def set_rng_state(self, rng_state: str) -> None:
        try:
            deal, version, internal, gauss = json.loads(rng_state)
            generator = random.Random()
            generator.setstate((version, tuple(internal), gauss))
            self._deal = int(deal)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{self.short_name}: not an RNG state of this game ({exc})") from None
        self._deals = generator

    def deserialize_state(self, text: str) -> EclipticState:
        """OpenSpiel's own, which makes a new initial state to restore into: the deal it takes
        is given back, so restoring a state does not change the next episode."""
        lines = text.split("\n", 2) if isinstance(text, str) else []
        if len(lines) != 3 or not all(line.startswith(key) for line, key in zip(lines, _SERIALIZED, strict=True)):
            # Checked here: the bridge's own check would print a C++ assertion before it raised.
            raise ValueError(f"{self.short_name}: not the text of a state's serialize() (three lines: "
                             "history=..., move_number=..., __dict__=...)")
        before = self.get_rng_state()
        try:
            state: EclipticState = super().deserialize_state(text)
        except Exception as exc:  # a damaged pickle or save: whatever the bridge or the engine raised
            raise ValueError(f"{self.short_name}: not the text of a state's serialize() of this game "
                             f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''})") from None
        finally:
            self.set_rng_state(before)
        other = state._spec
        if other.short_name != self.short_name or other.config != self.spec.config:
            # The text carries its own game's spec: taken as is, a 2-player state would sit in a
            # 3-player game, and num_players() would disagree with returns().
            raise ValueError(f"{self.short_name}: the text is a state of {other.short_name} with "
                             f"{json.dumps(other.config, sort_keys=True)}, not of this game "
                             f"({json.dumps(self.spec.config, sort_keys=True)})")
        state._spec = state._core.spec = self.spec  # clones as this game's reseed_clones says
        return state

    def __reduce__(self) -> tuple[Callable[..., EclipticGame], tuple[str, dict[str, Any], str]]:
        """Pickled as its parameters and deal generator (OpenSpiel's own pickling asks the C++
        game for an RNG state a Python game cannot give), so a game goes to a worker process."""
        return _game_from, (self.short_name, dict(self.get_parameters()), self.get_rng_state())

    def action_to_string(self, player: int, action: int) -> str:
        """The action's notation, as ``state.action_to_string`` gives it: the action space is
        fixed, so an id means the same in every state (the bridge's default would say
        ``Action(id=5, player=0)``)."""
        return str(self.spec.space.action(int(action)))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if isinstance(iig_obs_type, Mapping):  # OpenSpiel passes the parameters alone when it has no type
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"{self.short_name} observers take no parameters (got {params})")
        return Observer(self.spec, iig_obs_type)


class EclipticState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around an engine state and every seat's recall."""

    def __init__(self, game: EclipticGame, spec: Spec, seed: int) -> None:
        super().__init__(game)
        self._spec = spec
        state, recall = spec.deal(seed)
        self._core = Core(spec, state, Rng.from_seed(seed ^ 0x5EED))
        self._recall = RecallBox(recall)

    # -- whose turn, what is legal --------------------------------------------------------

    def current_player(self) -> int:
        seat = self._core.state.current_player
        return pyspiel.PlayerId.TERMINAL if seat is None else int(seat)

    def _legal_actions(self, player: int) -> list[int]:
        space = self._spec.space
        return sorted(space.id(a) for a in self._spec.rules.legal_actions(self._core.state))

    def _apply_action(self, action: int) -> None:
        """The engine refuses an id it does not offer (``IllegalAction`` naming the id, its
        action and the rule; the state unchanged)."""
        spec, core = self._spec, self._core
        move = spec.space.action(int(action))
        seat = core.state.current_player
        try:
            events = core.apply(move)
        except IllegalAction as exc:
            raise IllegalAction(exc.rule, f"action id {int(action)} ({move}) is not legal now: {exc.reason}") from None
        self._recall = RecallBox(self._recall.recall.step(seat, move, events))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._spec.space.action(int(action)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Refused in one line: these games have no chance nodes (the dice are rolled and the
        cards drawn inside ``apply_action``, chance mode ``SAMPLED_STOCHASTIC``), so there are
        no outcomes to list; without this the bridge answers "Tried to call pure virtual
        function"."""
        raise ValueError(f"{self._spec.short_name} has no chance nodes (is_chance_node() is always False): its "
                         "dice and draws are sampled inside apply_action (chance mode SAMPLED_STOCHASTIC), so "
                         "there are no chance outcomes to list")

    def is_terminal(self) -> bool:
        return bool(self._core.state.is_over)

    def returns(self) -> list[float]:
        return [float(x) for x in self._spec.rules.returns(self._core.state)]

    # -- imperfect information -------------------------------------------------------------

    def resample_from_infostate(self, player: int, probability_sampler: Callable[[], float]) -> EclipticState:
        """A world ``player`` cannot tell from this one: the engine's ``determinize`` seeded
        from ``probability_sampler`` (hidden cards re-dealt, the future dice and piles
        re-drawn), the player's recall kept and the other seats' recall only what the
        player saw of their history (the public events), so the world carries no secret."""
        seed = 0
        for _ in range(4):
            seed = (seed << 16) | (int(float(probability_sampler()) * 65536) & 0xFFFF)
        world: EclipticState = self.clone()  # keeps OpenSpiel's history
        rules = self._spec.rules
        world._core = Core(self._spec, rules.determinize(self._core.state, player, Rng.from_seed(seed)),
                           Rng.from_seed(seed ^ 0xC10E))
        world._recall = RecallBox(self._recall.recall.as_seen_by(player))
        return world

    def __str__(self) -> str:
        """The whole engine state (its save), for OpenSpiel's equality checks."""
        return str(self._core)

    def __reduce__(self) -> tuple[Callable[..., EclipticState], tuple[EclipticGame, str]]:
        """Pickled as its game and ``serialize()`` (the engine's JSON, the recall, the history)."""
        return _state_from, (self.get_game(), self.serialize())


def _game_from(short_name: str, params: dict[str, Any], rng_state: str) -> EclipticGame:
    game = _CLASSES[short_name](params)
    game.set_rng_state(rng_state)
    return game


def _state_from(game: EclipticGame, text: str) -> EclipticState:
    return game.deserialize_state(text)


def serialize_game_and_state(game: Any, state: Any) -> str:
    """``pyspiel.serialize_game_and_state``'s text, which ``pyspiel.deserialize_game_and_state``
    reads back: open-spiel 2.0.2's own fails for every sampled-stochastic Python game
    (``Game::Serialize`` asks for an RNG state the Python bridge does not forward), so this
    writes the same sections without the game's RNG section. The game read back therefore
    deals its episodes from ``seed`` again; pickle the game to keep its deal generator."""
    return ("# Automatically generated by OpenSpiel SerializeGameAndState\n[Meta]\nVersion: 1\n\n"
            f"[Game]\n{game}\n[State]\n{state.serialize()}\n")


def seeded_resampler(seed: int) -> Callable[[EclipticState, int], EclipticState]:
    """A resampler for ``open_spiel.python.algorithms.ismcts.ISMCTSBot.set_resampler``: the
    bot's default sampler is seeded from the clock, this one from ``seed``, so a match replays."""
    rng = Rng.from_seed(seed)

    def resample(state: EclipticState, player: int) -> EclipticState:
        return state.resample_from_infostate(player, lambda: rng.next_u64() / 2.0**64)

    return resample


class TauCetiGame(EclipticGame):
    short_name = TAUCETI


class CeresGame(EclipticGame):
    short_name = CERES


_CLASSES: dict[str, type[EclipticGame]] = {TAUCETI: TauCetiGame, CERES: CeresGame}


def _register() -> None:
    registered = {g.short_name for g in pyspiel.registered_games()}
    for cls in (TauCetiGame, CeresGame):
        if cls.short_name not in registered:
            long_name, defaults = _TYPES[cls.short_name]
            pyspiel.register_game(_game_type(cls.short_name, long_name, defaults, general_sum=False), cls)


_register()

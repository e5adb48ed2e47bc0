"""The one table both the PettingZoo and the Gymnasium adapters play at.

A :class:`Table` holds a game of Ecliptic and answers what an RL library asks of it, always
by asking the engine: the observation tensor of a seat (built from ``observe(state, seat)``
only, by :mod:`ecliptic.adapters.observation`), the action mask (the legal actions' ids in
the game's fixed action space), an action id applied or refused, the returns, and the
points a seat has counted so far; it also keeps the last actions applied and their events
(:mod:`ecliptic.adapters.action_log`), which the ``rgb_array`` picture's log draws as each
seat may read them. The adapters only translate these into their library's
conventions, so the two never disagree about what is legal or what a seat may see.
"""

from __future__ import annotations

import io
import operator
import random
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ecliptic.adapters.action_log import ActionLog
from ecliptic.adapters.observation import Encoder, encoder
from ecliptic.adapters.picture import Frame
from ecliptic.engine.actions import Action, ActionSpace
from ecliptic.engine.errors import IllegalAction
from ecliptic.games import GAME_NAMES, get_game


class IllegalActionId(IllegalAction):
    """The adapters' refusal of an action id: an :class:`IllegalAction` (``except IllegalAction``
    and ``except ValueError`` catch it), which also survives being made again from itself.

    Gymnasium's ``AsyncVectorEnv`` sends a worker's exception to the main process and raises
    ``type(error)(error)`` there: one argument, the refusal itself. The engine's
    ``IllegalAction`` wants two (``rule``, ``message``), so that copy could not even be printed
    (``<exception str() failed>``, an ``IndexError`` instead of the reason). Made from a
    refusal, this takes its rule and message, so the vector raises what the environment said."""

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], IllegalAction) and len(args[0].args) == 2:
            args = args[0].args
        BaseException.__init__(self, *args)  # the args as given, as the engine's class keeps them

    def __str__(self) -> str:
        return super().__str__() if len(self.args) == 2 else " ".join(map(str, self.args))


Reward = Literal["returns", "points"]
REWARDS: tuple[Reward, ...] = ("returns", "points")
"""``returns``: the game's returns at the end (``G.utility`` says what they sum to), 0 before;
``points``: each step, the change in the GP (VP in Ceres) a seat has counted so far, so a
seat's rewards over a game add up to its final score less what it held at the start. Where
every seat reads every reward (PettingZoo) the points are the public ones
(``G.public_points``: a hand counts only once the game ends); where only the seat reads its
own (Gymnasium's learner) they are the seat's own count, its hand included."""

RENDER_MODES: tuple[str, ...] = ("ansi", "human", "rgb_array")
"""``ansi``: ``render()`` returns the terminal's drawing of the table as text; ``human``: the
same drawing is printed to standard output after every reset and step (``render()`` prints
it too, and returns ``None``), as Gymnasium and PettingZoo define the two modes;
``rgb_array``: a picture of the table (the board, the players' tracks, a text panel), a
``uint8`` array of height × width × 3 of one size for every call of an environment
(:mod:`ecliptic.adapters.board_picture`), for video writers."""

RENDER_FPS = 2
"""Frames per second a video of a game plays at (``metadata["render_fps"]``, which
``RecordVideo`` reads): one frame is one decision, and a frame is a page of text, so two a
second leave time to read what changed; a frame is drawn only when ``render()`` is called."""


class RenderModeError(ValueError, TypeError):
    """A ``render_mode`` the adapters do not draw. Also a ``TypeError`` because that is what
    stable-baselines3's ``make_vec_env`` catches when a mode it asks for is refused (it then
    makes the environment without one); as a ``ValueError`` it is what every other bad
    argument here is."""


def check_render_mode(mode: str | None) -> str | None:
    """``mode`` checked: ``None`` or one of ``RENDER_MODES``; anything else is refused."""
    if mode is not None and mode not in RENDER_MODES:
        raise RenderModeError(f"render_mode is 'ansi', 'human', 'rgb_array' or None, not {mode!r}")
    return mode


def render(table: Table, mode: str | None, seat: int) -> str | Frame | None:
    """What ``render()`` gives in ``mode``, drawn as ``seat`` sees the table: the text
    (``ansi``), the text printed (``human``, ``None``), its picture (``rgb_array``); without
    a mode, Gymnasium's warning and ``None``, as both libraries' own environments do."""
    if mode is None:
        import gymnasium

        gymnasium.logger.warn("render() was called without a render_mode (ecliptic: 'ansi', 'human' or 'rgb_array')")
        return None
    if mode == "rgb_array":
        return table.picture(seat)
    text = table.render(seat)
    if mode == "human":
        print(text)
        return None
    return text


Tensor = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class Table:
    """A game being played through an adapter: ``game`` (``"tauceti"``, ``"ceres"``) with the
    config table ``config`` (what ``G.new_game`` takes; ``players`` included).

    A bad game name or config is a ``ValueError`` from the engine at construction, before
    any library sees the environment."""

    def __init__(self, game: str, config: Mapping[str, Any]) -> None:
        if game not in GAME_NAMES:
            raise ValueError(f"unknown game {game!r}; known games: {', '.join(GAME_NAMES)}")
        self.name = game
        self.game: Any = get_game(game)
        self.config: dict[str, Any] = dict(config)
        self.log = ActionLog()
        """The last actions applied here and their events (the picture's log)."""
        self.state: Any = self._start(0)  # checks the config
        self.players: int = len(self.game.observe(self.state, None)["players"])
        self.space: ActionSpace = self.game.action_space(self.state)
        self.encoder: Encoder = encoder(game, self.config)
        self.store = self.encoder.new_store()
        """This table's parts of the tensor seen before (``Encoder.tensor``)."""
        self._legal: list[Action] | None = None
        self._seeds = random.Random()

    # -- the game --------------------------------------------------------------------------

    def new_game(self, seed: int | None) -> None:
        """A new game: from ``seed``, or (``None``) from the next seed of the generator that
        the last given seed started, so a run of unseeded resets is reproducible too."""
        seed = seed_value(seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        else:
            seed = self._seeds.getrandbits(63)
        self.seed = seed
        self.state = self._start(seed)
        self._legal = None

    def _start(self, seed: int) -> Any:
        """A new game's state, its setup's events the log's first entry."""
        new_game_events = getattr(self.game, "new_game_events", None)
        if new_game_events is None:
            self.log.start()
            return self.game.new_game(self.config, seed)
        state, events = new_game_events(self.config, seed)
        self.log.start(events)
        return state

    @property
    def current(self) -> int | None:
        """The seat whose decision is pending, ``None`` once the game is over."""
        seat: int | None = self.state.current_player
        return seat

    @property
    def over(self) -> bool:
        return bool(self.state.is_over)

    def legal(self) -> list[Action]:
        """The current seat's legal actions (asked once per decision)."""
        if self._legal is None:
            self._legal = self.game.legal_actions(self.state)
        return self._legal

    def legal_ids(self) -> list[int]:
        ids = self.space.id
        return [ids(a) for a in self.legal()]

    def mask(self, seat: int | None = None) -> Mask:
        """1 at the id of each legal action of ``seat`` (the current seat by default): all 0
        for a seat that has no decision pending, and at the end."""
        out = np.zeros(len(self.space), np.int8)
        if seat is None or seat == self.current:
            out[self.legal_ids()] = 1
        return out

    def tensor(self, seat: int) -> Tensor:
        """The observation tensor of ``seat``, from ``observe(state, seat)`` only
        (``Encoder.tensor``: the same values, with the parts that did not change copied)."""
        tensor: Tensor = self.encoder.tensor(self.state, seat, self.store)
        return tensor

    def play(self, action: object) -> Action:
        """Apply the action with id ``action`` for the current seat; an id that is not an
        integer, is outside the action space or is not legal now raises
        :class:`IllegalAction` (a ``ValueError``) saying why, and changes nothing."""
        index = action_index(action, len(self.space))
        chosen = self.space.action(index)
        if self.over:
            raise IllegalActionId("NOTATION", f"action id {index} ({chosen}): the game is over")
        if chosen not in self.legal():  # the list the mask was made from: no second why_not
            refusal = self.game.why_not(self.state, chosen) or IllegalAction("NOTATION", "not offered")
            raise IllegalActionId(refusal.rule, f"action id {index} ({chosen}) is not legal now: {refusal.reason}")
        self._apply(chosen)
        return chosen

    def apply(self, action: Action) -> None:
        """Apply an action a bot chose among the legal ones (the engine still judges it)."""
        self._apply(action)

    def _apply(self, action: Action) -> None:
        """``action`` applied for the seat to play, and put in the log with its events."""
        seat = self.current
        events = self.game.apply(self.state, action)
        self._legal = None
        self.log.record(seat, events or ())

    def returns(self) -> list[float]:
        return [float(r) for r in self.game.returns(self.state)]

    def points(self) -> list[int]:
        """What each seat has counted so far (``G.points_so_far``): its own hidden cards
        included, so fit only for a reward that no other seat reads."""
        return [int(self.game.points_so_far(self.state, s)) for s in range(self.players)]

    def public_points(self) -> list[int]:
        """What every seat can count of each seat's points (``G.public_points``: hidden
        cards left out until the game ends): for rewards that every seat reads."""
        return [int(self.game.public_points(self.state, s)) for s in range(self.players)]

    def render(self, seat: int, width: int = 120) -> str:
        """The terminal's drawing of the table as ``seat`` sees it, as plain text ``width``
        characters wide."""
        from rich.console import Console

        from ecliptic.ui import ceres_terminal, terminal

        obs = self.game.observe(self.state, seat)
        board = (ceres_terminal if self.name == "ceres" else terminal).render_board(obs, seat)
        out = io.StringIO()
        Console(file=out, width=width, color_system=None, force_terminal=False).print(board)
        return out.getvalue()

    def picture(self, seat: int) -> Frame:
        """The ``rgb_array`` frame of the table as ``seat`` observes it (its board, the
        players' tracks, the decision, the last actions as its log shows them), of the one
        size this game and config always get."""
        from ecliptic.adapters import board_picture, picture

        obs = self.game.observe(self.state, seat)
        return board_picture.draw(self.name, obs, seat, picture.layout(self.name, self.config), self.log)


def action_index(action: object, size: int) -> int:
    """``action`` as an action id: any integer type (NumPy's too), not a ``bool``, a float
    or ``None``, in 0..size-1."""
    if isinstance(action, bool | np.bool_) or action is None:
        raise IllegalActionId("NOTATION", f"{action!r} is not an action id: an integer 0..{size - 1}")
    try:
        index = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        if isinstance(action, np.ndarray) and action.shape in ((), (1,)) and action.dtype.kind in "iu":
            return action_index(action.reshape(()).item(), size)
        raise IllegalActionId("NOTATION", f"{action!r} is not an action id: an integer 0..{size - 1}") from None
    if not 0 <= index < size:
        raise IllegalActionId("NOTATION", f"action id {index} is outside 0..{size - 1}")
    return index


def seed_value(seed: object) -> int | None:
    """``seed`` as the engine takes it: any integer (NumPy's too: ``np.random`` hands them
    out), not a ``bool``, a float or a string, which Python's ``random`` would refuse with a
    message about its own types or read as another seed."""
    if seed is None:
        return None
    if not isinstance(seed, bool | np.bool_):
        try:
            return operator.index(seed)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise ValueError(f"seed is an integer or None, not {seed!r}")


def config_table(config: Mapping[str, Any] | None, options: Mapping[str, Any],
                 players: int | None) -> dict[str, Any]:
    """The game's config table from an adapter's arguments: the table ``config``, the keyword
    ``options`` and ``players`` (4 when neither names it); a key named twice with two values
    is refused, not silently decided."""
    table = dict(config or {})
    if players is None:
        players = table.get("players", 4)
    for key, value in [*options.items(), ("players", players)]:
        if key in table and table[key] != value:
            raise ValueError(f"bad game config: {key} is given twice ({table[key]!r} and {value!r})")
        table[key] = value
    return table


def check_reward(reward: str) -> Reward:
    """``reward`` checked: an unknown kind is refused with the ones known."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def agent_names(table: Table) -> list[str]:
    """The agents of the game at ``table`` by seat: Tau Ceti's by faction (the names the
    engine gives the seats), Ceres' as ``P1``..``P4``."""
    if table.name == "ceres":
        return [f"P{s + 1}" for s in range(table.players)]
    return [str(p["faction"]) for p in table.game.observe(table.state, None)["players"]]


def possible_agents(table: Table) -> list[str]:
    """Every agent that may appear in a game of this config: Tau Ceti deals the factions at
    random when the config names none, so then every faction may (in content order)."""
    factions: Sequence[str] = table.config.get("factions") or ()
    if table.name == "ceres" or factions:
        return agent_names(table)
    from ecliptic.tauceti.content import default_content

    return [f.name for f in default_content().factions]

"""Ecliptic's games as single-agent Gymnasium environments (docs/adapters.md).

Importing this module registers ``ecliptic/TauCeti-v0`` and ``ecliptic/Ceres-v0``::

    import gymnasium, ecliptic.adapters.gymnasium
    env = gymnasium.make("ecliptic/TauCeti-v0", opponents="heuristic", players=4, seat=0)

(or, without the import, ``gymnasium.make("ecliptic.adapters.gymnasium:ecliptic/TauCeti-v0")``:
Gymnasium 1.x no longer loads environment plugins from entry points).

One seat learns; Ecliptic's bots (:func:`ecliptic.bots.base.make_bot`) play the others,
between two of the learner's decisions. The observation is the float32 tensor of what
``observe(state, seat)`` shows the learner; the legal actions are a mask over the game's
fixed action space, given as ``info["action_mask"]`` and by :meth:`EclipticEnv.action_masks`
(the convention of sb3-contrib's MaskablePPO). The reward is the learner's return at the end
(``reward="returns"``) or, with ``reward="points"``, the change in its GP (Ceres: VP)
counted so far since its last decision, its own hand included: only the learner reads its
reward, and it sees its hand, so nothing hidden reaches it (PettingZoo's ``rewards``, read by
every agent, count the public points instead). The engine ends every game itself within
``G.max_decisions`` decisions, so an episode is never truncated.

An illegal action id raises :class:`ecliptic.engine.errors.IllegalAction` (a ``ValueError``
that says why) and changes nothing (``illegal="raise"``, the default). ``illegal="terminate"``
is PettingZoo's other convention, for code that samples without the mask (Gymnasium's
``check_env`` does): the episode ends there with reward -1 and ``info["illegal_action"]``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal

import gymnasium
import numpy as np

from ecliptic.adapters._common import (
    RENDER_FPS,
    RENDER_MODES,
    IllegalActionId,
    Mask,
    Reward,
    Table,
    Tensor,
    check_render_mode,
    check_reward,
    config_table,
    render,
)
from ecliptic.adapters.picture import Frame
from ecliptic.bots.base import Bot, bot_seed, make_bot
from ecliptic.bots.plugins import load_plugins
from ecliptic.engine.errors import IllegalAction
from ecliptic.engine.rules import seat_of

Illegal = Literal["raise", "terminate"]
MAKE_VEC_KEYS = ("num_envs", "vectorization_mode", "vector_kwargs", "wrappers")
"""What ``gymnasium.make_vec`` writes into a vector's ``spec.kwargs`` beside the environment's
own: a vector's spec is ``make_vec``'s (``gymnasium.make_vec(spec)`` makes the vector again),
so an environment made from it is refused with that said, as CartPole is (there a
``TypeError``), rather than reading ``num_envs`` as a game config key."""
ILLEGAL_REWARD = -1.0
"""The learner's reward for an illegal id when ``illegal="terminate"`` (below every return)."""


class EclipticEnv(gymnasium.Env[Tensor, np.int64]):
    """``game`` for ``players`` seats, the learner at ``seat``; ``opponents`` is one bot spec
    for every other seat (``"random"``, ``"heuristic"``, ``"ismcts:200ms"``...) or a list of
    one per other seat, in seat order; the keywords ``options`` and the table ``config`` are
    the rest of the game's config, as :class:`ecliptic.adapters.pettingzoo.raw_env` takes them
    (Tau Ceti's game length: ``config={"game": "short"}``).

    ``plugins`` names bot plug-ins to load before the opponents are made (``MODULE``,
    ``MODULE:FUNCTION`` or ``path/to/bots.py``, as ``--plugin`` takes them): a bot registered
    in code exists only in the process that ran that code, and ``AsyncVectorEnv`` builds each
    environment in a fresh worker, which receives the constructor's keywords and nothing
    else; so the plug-in is named here and each worker loads it as it builds its environment."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}  # noqa: RUF012 - Gymnasium's attribute

    def __init__(self, game: str = "tauceti", opponents: str | Sequence[str] = "heuristic", players: int | None = None,
                 seat: int = 0, *, config: Mapping[str, Any] | None = None, reward: Reward = "returns",
                 illegal: Illegal = "raise", render_mode: str | None = None, plugins: str | Sequence[str] = (),
                 **options: Any) -> None:
        check_render_mode(render_mode)
        targets = [plugins] if isinstance(plugins, str) else list(plugins) if _is_list(plugins) else None
        if targets is None or not all(isinstance(t, str) for t in targets):
            raise ValueError(f"plugins is a plug-in ('mybots', 'mybots:register', 'path/to/bots.py') or a list of "
                             f"them, not {plugins!r}")
        load_plugins(targets)  # a plug-in that cannot be loaded: PluginError, one line
        vector_keys = [key for key in MAKE_VEC_KEYS if key in options]
        if vector_keys:
            raise ValueError(f"{', '.join(vector_keys)}: gymnasium.make_vec's keys, not an environment's; this is "
                             "a vector's spec: gymnasium.make_vec(spec) makes the vector again")
        if illegal not in ("raise", "terminate"):
            raise ValueError(f"illegal is 'raise' or 'terminate', not {illegal!r}")
        self.reward_kind = check_reward(reward)
        self.illegal: Illegal = illegal
        self.render_mode = render_mode
        self.table = Table(game, config_table(config, options, players))
        learner = seat_of(self.table.state, seat, spectator=False)  # the engine's check: SeatError
        assert learner is not None
        self.seat = learner
        self.others = [s for s in range(self.table.players) if s != learner]
        given: list[object] = [opponents] if isinstance(opponents, str) else (
            list(opponents) if _is_list(opponents) else [None])
        specs = [spec for spec in given if isinstance(spec, str)]
        if len(specs) != len(given):
            raise ValueError(f"opponents is a bot spec ('random', 'heuristic', 'ismcts:200it'...) for every other "
                             f"seat or a list of one per other seat, not {opponents!r}")
        if len(specs) == 1:
            specs *= len(self.others)
        if len(specs) != len(self.others):
            raise ValueError(f"name one opponent for all {len(self.others)} other seats, or one per seat "
                             f"(got {len(specs)})")
        self.opponent_specs = specs
        for spec in specs:
            make_bot(spec, 0)  # an unknown spec is refused now, not at the first reset
        # A float32 Box of this environment's own: seeding or sampling it must not move another's.
        self.observation_space = copy.deepcopy(self.table.encoder.space)  # type: ignore[arg-type]
        self.action_space = gymnasium.spaces.Discrete(len(self.table.space))
        self._bots: dict[int, Bot] = {}
        self._points = 0
        self._done = True  # until the first reset

    # -- Gymnasium ---------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Tensor, dict[str, Any]]:
        """A new game from ``seed`` (the bots are seeded from it and their seat too); with no
        seed, the next game of the generator the last seed started."""
        super().reset(seed=seed)
        self.table.new_game(seed)
        self._bots = {s: make_bot(spec, bot_seed(self.table.seed, s))
                      for s, spec in zip(self.others, self.opponent_specs, strict=True)}
        self._points = self._my_points()
        self._done = False
        self._opponents_play()
        if self.table.over:  # pragma: no cover - no game of either ends before every seat acted
            raise RuntimeError("the game ended before the learning seat's first decision")
        self._show()
        return self.table.tensor(self.seat), self._info()

    def step(self, action: Any) -> tuple[Tensor, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise IllegalActionId("NOTATION", "no episode is being played (it ended, or never began): call reset()")
        try:
            self.table.play(action)
        except IllegalAction as refusal:
            if self.illegal == "raise":
                raise
            info = self._info()
            info["illegal_action"] = str(refusal)
            info["action_mask"] = np.zeros(len(self.table.space), np.int8)
            self._done = True
            self._show()
            return self.table.tensor(self.seat), ILLEGAL_REWARD, True, False, info
        self._opponents_play()
        over = self._done = self.table.over
        if self.reward_kind == "points":
            now = self._my_points()
            reward, self._points = float(now - self._points), now
        else:
            reward = self.table.returns()[self.seat] if over else 0.0
        self._show()
        return self.table.tensor(self.seat), reward, over, False, self._info()

    def render(self) -> str | Frame | None:
        """The terminal's drawing of the table as the learner sees it: returned (``ansi``),
        printed (``human``) or as a picture (``rgb_array``)."""
        return render(self.table, self.render_mode, self.seat)

    # -- masks (sb3-contrib's MaskablePPO calls action_masks()) ------------------------------

    def action_masks(self) -> Mask:
        """1 at the id of each legal action of the learner now (all 0 once the game is over)."""
        return self.table.mask(self.seat)

    # -- inside ------------------------------------------------------------------------------

    def _opponents_play(self) -> None:
        """The bots' decisions, until the learner has one or the game is over."""
        table = self.table
        while not table.over and table.current != self.seat:
            seat = table.current
            assert seat is not None
            table.apply(self._bots[seat].choose(table.game, table.state, seat))

    def _show(self) -> None:
        """``human``: Gymnasium's convention is that the table is drawn at every reset and step."""
        if self.render_mode == "human":
            self.render()

    def _my_points(self) -> int:
        return self.table.points()[self.seat] if self.reward_kind == "points" else 0

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks()}


def _is_list(value: object) -> bool:
    """Something to list bot specs from (a list, a tuple, an array); not a mapping or a bare
    number, which are refused saying what ``opponents`` is."""
    return isinstance(value, Iterable) and not isinstance(value, str | bytes | Mapping)


def register() -> None:
    """Register the two environments (idempotent: a second import changes nothing)."""
    for env_id, game in (("ecliptic/TauCeti-v0", "tauceti"), ("ecliptic/Ceres-v0", "ceres")):
        if env_id not in gymnasium.registry:
            # The entry point by name, not the class: a spec must go through to_json (and a worker
            # process that has not imported this module can make it from the spec).
            gymnasium.register(env_id, entry_point=f"{__name__}:EclipticEnv", kwargs={"game": game})


register()

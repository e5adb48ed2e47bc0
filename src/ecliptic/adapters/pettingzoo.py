"""Ecliptic's games as PettingZoo AEC environments (docs/adapters.md).

``env(game="tauceti", players=4, **config)`` or ``env(game="ceres", expansions=["comets"])``:
the agents are the seats, named by faction in Tau Ceti (``"Xunon"``, ...) and ``P1``..``P4``
in Ceres. Each agent observes PettingZoo's classic convention, a dict of

* ``observation`` — the float32 tensor of what ``observe(state, seat)`` shows the seat
  (:mod:`ecliptic.adapters.observation`; nothing the engine hides can reach it);
* ``action_mask`` — int8, 1 at the id of each legal action in the game's fixed action
  space (all 0 for an agent whose decision is not pending).

Rewards are the game's returns at the end (``reward="returns"``; ``G.utility`` says what
they sum to) or, with ``reward="points"``, each seat's change in the GP (Ceres: VP) that every seat can
count at every step (``G.public_points``): the AEC ``rewards`` dict shows every agent's
reward to every agent, so a card in a hand counts only when the game ends and the hands are
shown, and a seat's rewards still add up to its final score less its public points when the
cards were dealt. The engine ends every game itself
within ``G.max_decisions`` decisions, so no agent is ever truncated.

An id that is not legal now is refused with :class:`ecliptic.engine.errors.IllegalAction`
(a ``ValueError`` that says why) and changes nothing: the agent may choose again. For
PettingZoo's other convention (the game ends, the offender gets -1), wrap the raw
environment in ``pettingzoo.utils.wrappers.TerminateIllegalWrapper``, which reads the mask.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from ecliptic.adapters._common import (
    RENDER_FPS,
    RENDER_MODES,
    Reward,
    Table,
    agent_names,
    check_render_mode,
    check_reward,
    config_table,
    possible_agents,
    render,
)
from ecliptic.adapters.picture import Frame


class UnknownAgent(KeyError):
    """An agent name this environment does not have (``player_0`` is PettingZoo's classic
    games' name; Tau Ceti's agents are factions): a ``KeyError``, as a dict of agents would
    raise, that prints its message without a ``KeyError``'s quotes."""

    def __str__(self) -> str:
        return str(self.args[0])


def env(game: str = "tauceti", players: int | None = None, **config: Any) -> Any:
    """:class:`raw_env` wrapped in PettingZoo's order-enforcing wrapper (a clear error when
    it is stepped before a reset), as PettingZoo's own ``env()`` constructors give it."""
    return OrderEnforcingWrapper(raw_env(game, players, **config))


class raw_env(AECEnv):  # type: ignore[misc]
    """(PettingZoo's own name for the unwrapped environment class.)

    A game of ``game`` for ``players`` seats; the keywords ``options`` are the rest of the
    game's config table (``advanced=[1, 2]``, ``layout="random"``, ``expansions=["comets"]``,
    ``factions=[...]``), and ``config`` a whole table (a record's); Tau Ceti's game length,
    whose key ``game`` is taken by the game's name here, goes in it: ``config={"game":
    "short"}``. ``reward`` (``"returns"`` or ``"points"``) and ``render_mode`` (``"ansi"``, ``"human"``,
    ``"rgb_array"``) are the environment's own."""

    def __init__(self, game: str = "tauceti", players: int | None = None, *, config: Mapping[str, Any] | None = None,
                 reward: Reward = "returns", render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.reward_kind = check_reward(reward)
        self.render_mode = render_mode
        self.table = Table(game, config_table(config, options, players))
        self.metadata = {"name": f"ecliptic_{game}_v0", "render_modes": list(RENDER_MODES),
                         "render_fps": RENDER_FPS, "is_parallelizable": False}
        self.possible_agents: list[str] = possible_agents(self.table)
        n = len(self.table.space)
        obs_space = self.table.encoder.space
        self.observation_spaces: dict[str, gymnasium.spaces.Space[Any]] = {  # PettingZoo's classic envs' attribute too
            a: gymnasium.spaces.Dict({"observation": copy.deepcopy(obs_space),
                                      "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces: dict[str, gymnasium.spaces.Space[Any]] = {
            a: gymnasium.spaces.Discrete(n) for a in self.possible_agents}
        self.agents: list[str] = []
        self._seat: dict[str, int] = {}

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The same object at every call and every reset (PettingZoo asks for that)."""
        if agent not in self.observation_spaces:
            raise UnknownAgent(f"unknown agent {agent!r}; this game's agents are {', '.join(self.possible_agents)}")
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        if agent not in self.action_spaces:
            raise UnknownAgent(f"unknown agent {agent!r}; this game's agents are {', '.join(self.possible_agents)}")
        return self.action_spaces[agent]

    def state(self) -> Any:
        """Refused, saying why: PettingZoo's global state would show every seat's hidden cards
        (hands, face-down tokens), which no seat may see."""
        raise NotImplementedError(f"{self.metadata['name']} offers no global state(): it would show every seat's "
                                  "hidden cards; each agent has only observe(agent)")

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.new_game(seed)
        self.agents = agent_names(self.table)
        self._seat = {a: s for s, a in enumerate(self.agents)}
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._points = self.table.public_points() if self.reward_kind == "points" else []
        self._select()
        self._show()

    def _select(self) -> None:
        seat = self.table.current
        if seat is not None:
            self.agent_selection = self.agents[seat]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat.get(agent)
        if seat is None:
            raise UnknownAgent(f"agent {agent!r} is not at the table; the agents are {', '.join(self.agents) or 'none'}"
                               + ("" if self.agents else " until reset()"))
        return {"observation": self.table.tensor(seat), "action_mask": self.table.mask(seat)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.table.play(action)  # refused: raises, and nothing has changed
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.reward_kind == "points":
            points = self.table.public_points()
            for seat, a in enumerate(self.agents):
                self.rewards[a] = float(points[seat] - self._points[seat])
            self._points = points
        if self.table.over:
            if self.reward_kind == "returns":
                for a, r in zip(self.agents, self.table.returns(), strict=True):
                    self.rewards[a] = r
            self.terminations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()
        self._show()

    def render(self) -> str | Frame | None:
        """The terminal's drawing of the table as the selected agent sees it: returned
        (``ansi``), printed (``human``) or as a picture (``rgb_array``)."""
        return render(self.table, self.render_mode, self._seat.get(self.agent_selection, 0) if self.agents else 0)

    def _show(self) -> None:
        """``human``: PettingZoo's convention is that the table is drawn at every reset and step."""
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        """Nothing to release: the game lives in this process."""

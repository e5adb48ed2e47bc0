"""A learned policy as an Ecliptic bot: what a researcher trained through the Gymnasium or
PettingZoo adapters plays everywhere a bot plays (``ecliptic play``, ``simulate``,
``tournament``, ``balance``, the server's levels).

A *policy* is a function ``(observation tensor, action mask) -> action id``: the same tensor
(:func:`ecliptic.adapters.observation.encoder`, built from ``observe(state, seat)`` only) and the
same fixed action space and mask (the game's stable action ids, docs/action-ids.md) the
environments give an agent. :class:`PolicyBot` asks its policy with exactly those, so a policy
sees only what its seat may see: it never gets the state. The id it answers must be one the
mask allows; any other is a :class:`PolicyError` naming the id and the action, never an action
played in the policy's place (a policy that breaks the mask should be found out, not covered).

:func:`register_policy` makes a policy a bot by name, from a plug-in (docs/bots.md, "Your own
bot")::

    def register() -> None:
        register_policy("mine", lambda option, seed: load_my_policy(option or "weights.npz"))

and then ``ecliptic simulate --plugin mymodule:register --bots mine:path/to/weights.npz``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from ecliptic.adapters.observation import encoder
from ecliptic.bots.base import BotSpecError, register_bot
from ecliptic.engine.actions import Action
from ecliptic.engine.errors import EclipticError
from ecliptic.engine.rng import Rng

Tensor = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
Policy = Callable[[Tensor, Mask], Any]
"""``(observation tensor, action mask) -> action id`` (any integer type, NumPy's too)."""
PolicyFactory = Callable[[str | None, int], Policy]
"""Builds a policy from the option text after the bot's name (``"w.npz"`` in ``mine:w.npz``,
``None`` when there is none) and a seed (for a policy that samples: draw from a generator made
from it, and the bot's games replay alike)."""


class PolicyError(EclipticError, RuntimeError):
    """A policy that answered something other than a legal action id."""


class PolicyBot:
    """The bot that plays ``policy``'s choices for its seat.

    At each decision it builds the seat's tensor from ``game.observe(state, seat)`` and the mask
    of ``game.legal_actions(state)`` over ``game.action_space(state)``, and plays the action of
    the id the policy answers. It keeps nothing from one decision to the next (``remembers``
    false), so the server may build it anew for every decision."""

    remembers = False

    def __init__(self, name: str, policy: Policy, seed: int = 0) -> None:
        self.name = name
        self.policy = policy
        self.rng = Rng.from_seed(seed)
        """Unused by the bot itself: present so that :func:`ecliptic.bots.base.reseed` treats it as
        every seeded bot (a policy that samples owns its generator, from its factory's seed)."""

    def inputs(self, game: Any, state: Any, seat: int) -> tuple[Tensor, Mask, list[Action], Any]:
        """What the policy is given (the tensor and the mask), with the legal actions and the
        action space they were made from."""
        obs = game.observe(state, seat)
        tensor = encoder(game.name, obs["config"]).encode(obs)
        space = game.action_space(state)
        legal = game.legal_actions(state)
        mask = np.zeros(len(space), np.int8)
        mask[[space.id(a) for a in legal]] = 1
        return tensor, mask, legal, space

    def choose(self, game: Any, state: Any, seat: int) -> Action:
        tensor, mask, _legal, space = self.inputs(game, state, seat)
        answer = self.policy(tensor, mask)
        index = _action_id(answer, len(space), self.name)
        if not mask[index]:
            raise PolicyError(f"the policy of bot {self.name!r} chose action id {index} ({space.action(index)}), "
                              "which the action mask does not allow: a policy must choose among the ids the mask "
                              "sets to 1")
        chosen: Action = space.action(index)
        return chosen


def _action_id(answer: Any, size: int, name: str) -> int:
    """The policy's answer as an id 0..size-1 (an integer of any type, or a NumPy array of one)."""
    if isinstance(answer, np.ndarray) and answer.size == 1:
        answer = answer.reshape(()).item()
    if isinstance(answer, bool | np.bool_) or not isinstance(answer, int | np.integer):
        raise PolicyError(f"the policy of bot {name!r} answered {answer!r}, not an action id (an integer "
                          f"0..{size - 1})")
    index = int(answer)
    if not 0 <= index < size:
        raise PolicyError(f"the policy of bot {name!r} answered action id {index}, outside 0..{size - 1}")
    return index


def register_policy(name: str, factory: PolicyFactory) -> None:
    """Make the policies ``factory`` builds a bot named ``name`` (``--bots name``,
    ``--bots name:OPTION``): :func:`ecliptic.bots.register_bot` with a :class:`PolicyBot`. A factory
    that cannot build its policy (a missing weights file) should raise ``ValueError``: it is
    reported as a bad bot text, in one line."""

    def build(option: str | None, seed: int) -> PolicyBot:
        try:
            policy = factory(option, seed)
        except BotSpecError:
            raise
        except (ValueError, OSError, KeyError) as exc:
            raise BotSpecError(f"the {name} bot cannot be built from {option!r}: {exc}") from None
        return PolicyBot(name, policy, seed)

    build.__module__ = getattr(factory, "__module__", None) or __name__  # what a name clash reports
    register_bot(name, build)

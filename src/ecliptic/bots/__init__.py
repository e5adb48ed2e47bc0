"""Computer players. Every bot plays fair: it sees only what its seat may see
(see :mod:`ecliptic.bots.base`).

* ``random`` — a uniformly random legal action (:mod:`ecliptic.bots.random_bot`);
* ``heuristic`` — greedy one-step look-ahead with the game's evaluator
  (:mod:`ecliptic.bots.heuristic`, :mod:`ecliptic.bots.eval_tauceti`);
* ``ismcts`` — information-set Monte Carlo search: greedy playouts of the heuristic's shortlist,
  or the full tree with ``policy=quick`` (:mod:`ecliptic.bots.ismcts`);
* levels ``easy``, ``normal``, ``hard`` name one of those with a budget (``LEVELS``);
* your own, registered by a plug-in (:mod:`ecliptic.bots.plugins`: an ``ecliptic.bots`` entry
  point, ``--plugin``, ``$ECLIPTIC_PLUGINS``), a trained policy among them
  (:func:`ecliptic.adapters.policy.register_policy`).
"""

from ecliptic.bots.base import LEVELS, Bot, BotSpecError, bot_names, bot_seed, make_bot, register_bot
from ecliptic.bots.heuristic import HeuristicBot
from ecliptic.bots.ismcts import IsmctsBot
from ecliptic.bots.random_bot import RandomBot

__all__ = [
    "LEVELS",
    "Bot",
    "BotSpecError",
    "HeuristicBot",
    "IsmctsBot",
    "RandomBot",
    "bot_names",
    "bot_seed",
    "make_bot",
    "register_bot",
]

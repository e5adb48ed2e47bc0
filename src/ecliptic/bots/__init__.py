"""Computer players. Every bot plays fair: it sees only what its seat may see
(see :mod:`ecliptic.bots.base`)."""

from ecliptic.bots.base import Bot, BotSpecError, bot_names, bot_seed, make_bot, register_bot
from ecliptic.bots.random_bot import RandomBot

__all__ = ["Bot", "BotSpecError", "RandomBot", "bot_names", "bot_seed", "make_bot", "register_bot"]

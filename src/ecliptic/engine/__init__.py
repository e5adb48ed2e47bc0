"""Game-agnostic kernel: actions, errors, RNG, events, serialization and replay.

Every game in Ecliptic implements :class:`ecliptic.engine.protocol.Game`; bots, the
CLI and the simulator are written against that protocol only.
"""

from ecliptic.engine.actions import Action, ActionSpace
from ecliptic.engine.errors import ContentError, EclipticError, IllegalAction, SaveFileError
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng

__all__ = [
    "Action",
    "ActionSpace",
    "ContentError",
    "EclipticError",
    "Event",
    "IllegalAction",
    "Rng",
    "SaveFileError",
]

"""The Action-phase families: one module per Major action family, plus the Minor actions.

Importing this package registers every verb with :mod:`ecliptic.tauceti.registry`.
"""

from ecliptic.tauceti.actions import (  # noqa: F401
    battle_token,
    economy,
    exploration,
    minor,
    missions,
    movement,
)

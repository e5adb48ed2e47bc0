"""Which actions a player may take back (Board Game Arena's undo policy), from the engine
contract alone.

A player may take back an action of their own only when it taught nobody anything: no die
was rolled and no card shuffled (the generator did not move), no event went to some seats
only (a drawn card, a GP token's id), and its outcome did not depend on anything the actor
could not see (a card turned face up from a deck, a Knowledge token explored). Undoing such
an action would let the player look and choose again.

The last test asks the game itself: the action is applied to copies of the state in which
everything the actor cannot see is re-dealt (``determinize``); if the actor's view or the
events differ from the real ones in any copy, the outcome revealed something. A copy may by
chance re-deal the same hidden cards, so a few copies are tried; the test can only err
towards refusing an undo it could have allowed when every hidden thing is determined.
"""

from __future__ import annotations

import json
from typing import Any

from ecliptic.engine.actions import Action
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng

SAMPLES = 3
"""Re-dealt copies of the state the action is tried on."""
_SAMPLE_SEED = 0x0D0_0DD0


def _canonical(events: list[Event]) -> str:
    return json.dumps([e.to_json() for e in events], sort_keys=True, default=str)


def why_not_undoable(game: Any, before: Any, action: Action, events: list[Event], after: Any,
                     seat: int) -> str | None:
    """``None`` when ``seat``'s ``action`` (which turned ``before`` into ``after`` with
    ``events``) may be taken back, else the reason it may not. ``before`` is left as it is."""
    if before.rng != after.rng:
        return "it had a random outcome (dice or a shuffle)"
    if any(e.visible_to is not None for e in events):
        return "it showed some players hidden information"
    seen = json.dumps(game.observe(after, seat), sort_keys=True, default=str)
    told = _canonical(events)
    rng = Rng.from_seed(_SAMPLE_SEED)
    for _ in range(SAMPLES):
        copy = game.determinize(before, seat, rng)
        try:
            copy_events = game.apply(copy, action)
        except ValueError:
            return "its outcome depended on hidden information"
        if (_canonical(copy_events) != told
                or json.dumps(game.observe(copy, seat), sort_keys=True, default=str) != seen):
            return "it revealed hidden information"
    return None

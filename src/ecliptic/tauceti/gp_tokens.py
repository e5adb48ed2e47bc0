"""GP tokens: earned for a resolved crisis (3GP) or a won battle (1GP), traded for the
reward on their back.

The front (the GP value) is public, the back (the reward) is the holder's secret, and the
token's id names its back. So the id travels only under the secret ``gp_token`` event key
(:data:`ecliptic.tauceti.registry.SECRETS`): everyone hears "earns a 1GP token", the holder
alone which one."""

from __future__ import annotations

from ecliptic.engine.events import Event
from ecliptic.engine.wording import article
from ecliptic.tauceti import decks
from ecliptic.tauceti.registry import say
from ecliptic.tauceti.state import State


def award(state: State, seat: int, value: int, ev: list[Event]) -> None:
    """Give ``seat`` the first ``value``GP token of the supply, or none when none is left."""
    token = next((g for g in state.gp_supply if state.content.gp_token(g).gp == value), None)
    p = state.players[seat]
    if token is None:
        say(ev, "no_gp_token", f"No {value}GP token is left; {p.faction} earns none.", seat=seat, gp=value)
        return
    state.gp_supply = decks.without(state.gp_supply, token)
    p.gp_tokens += (token,)
    say(ev, "gp_token", f"{p.faction} earns {article(value)}GP token.", seat=seat, gp=value, gp_token=token,
        private=f"You earn GP token {token}.")

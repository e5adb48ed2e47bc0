"""Setting up a game: the host game's players and Asteroid Belt, then, with the Comets
expansion, its four setup steps (:func:`ecliptic.ceres.comets.setup`)."""

from __future__ import annotations

from ecliptic.ceres.comets import setup as setup_comets
from ecliptic.ceres.content import default_content
from ecliptic.ceres.registry import say
from ecliptic.ceres.state import Config, Player, State
from ecliptic.engine.events import Event
from ecliptic.engine.rng import Rng
from ecliptic.engine.wording import plural


def new_state(config: Config, seed: int, ev: list[Event]) -> State:
    """A game ready for round 1 (CR-SETUP-1, CR-SETUP-2; CC-SETUP-1 with the expansion).

    Every Asteroid starts on its ring position (no rotation yet) and unclaimed; each player
    has their Mining Probes and starting Ice."""
    numbers = default_content().numbers
    players = [
        Player(seat, {r: (numbers.start_ice if r == "Ice" else 0) for r in numbers.resources}, numbers.probes)
        for seat in range(config.players)
    ]
    state = State(config=config, rng=Rng.from_seed(seed), players=players,
                  first_player=config.first_player, turn_seat=config.first_player)
    state.rotation = dict.fromkeys(numbers.rings, 0)
    say(ev, "setup", f"Ceres for {plural(config.players, 'player')}: {numbers.probes} Mining Probes and "
        f"{numbers.start_ice} Ice each.", players=config.players, expansions=list(config.expansions))
    if config.comets:
        setup_comets(state, ev)
    return state


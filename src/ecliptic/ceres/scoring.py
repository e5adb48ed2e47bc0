"""End of the game: Victory Points by source, and the winners (CR-END-1).

Victory Points are gained during play (claimed Asteroids, Tail tokens, Nucleus card
tables); the final score only adds them up. The player with the most Victory Points wins;
players tied for the most share the win (the reconstruction invents no tie-break).
"""

from __future__ import annotations

from ecliptic.ceres.registry import say
from ecliptic.ceres.state import State
from ecliptic.engine.events import Event

SOURCES = ("asteroids", "tail_tokens", "nucleus_tables")


def score(state: State, seat: int) -> dict[str, int]:
    """Victory Points by source for one seat, and the total."""
    p = state.players[seat]
    out = {s: p.vp.get(s, 0) for s in SOURCES}
    out["total"] = sum(out.values())
    return out


def finish(state: State, ev: list[Event]) -> None:
    state.phase = "over"
    state.stack.clear()
    state.final_scores = [score(state, s) for s in range(len(state.players))]
    best = max(s["total"] for s in state.final_scores)
    state.winners = [seat for seat, s in enumerate(state.final_scores) if s["total"] == best]
    names = " and ".join(f"Player {s + 1}" for s in state.winners)
    verb = "wins" if len(state.winners) == 1 else "share the win"
    say(ev, "game_over", f"Game over after round {state.round}: {names} {verb} with {best} VP.",
        scores=state.final_scores, winners=state.winners, rule="CR-END-1")

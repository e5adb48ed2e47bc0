"""The running score: the GP (Ceres: VP) counted so far, by source, from the engine's scoring.

Tau Ceti scores cards in hand, which only their holder sees: the engine's
:func:`ecliptic.tauceti.scoring.score` leaves out every hand the viewer does not see, so
another player's total counts their public facts only (face-up cards, TAU, orbitals, cubes,
the GP value of their tokens) and never hints at their hand. Ceres' Victory Points are all
public; its observation already holds them. At the end the final scores are shown as the
engine counted them.
"""

from __future__ import annotations

from typing import Any

from ecliptic.tauceti import scoring as tauceti_scoring
from ecliptic.tauceti.observation import hands_seen


def _row(seat: int, by_source: dict[str, int]) -> dict[str, Any]:
    sources = {k: v for k, v in by_source.items() if k != "total"}
    return {"seat": seat, "total": by_source.get("total", sum(sources.values())), "by_source": sources}


def running_score(game_name: str, state: Any, obs: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    if obs.get("final_scores"):
        return [_row(s, dict(row)) for s, row in enumerate(obs["final_scores"])]
    if game_name == "ceres":
        return [_row(p["seat"], dict(p["vp"])) for p in obs["players"]]
    seen = hands_seen(state, seat)
    return [_row(s, tauceti_scoring.score(state, s, hand_seen=s in seen)) for s in range(len(state.players))]

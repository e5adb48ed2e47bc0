"""Names and texts for every component id a view mentions: ``{id: {name, text}}``.

Only ids that appear in what the seat is sent (its observation, its legal and refused
actions) are named, so the names add no id to what the seat already sees; the texts come
from the printed components (:mod:`ecliptic.present.tauceti_components`,
:mod:`ecliptic.present.ceres_components`).
"""

from __future__ import annotations

from collections.abc import Iterable

from ecliptic.engine.content import content_cache
from ecliptic.present import ceres_components, tauceti_components


@content_cache
def name_of(game: str, thing: str) -> tuple[str, str] | None:
    if game == "ceres":
        return ceres_components.name_of(thing)
    return tauceti_components.name_of(thing)


def names(game: str, mentioned: Iterable[str]) -> dict[str, dict[str, str]]:
    out = {}
    for thing in sorted(set(mentioned)):
        found = name_of(game, thing)
        if found is not None:
            out[thing] = {"name": found[0], "text": found[1]}
    return out
